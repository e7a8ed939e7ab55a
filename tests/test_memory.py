"""What converting a session holds goes as soon as it is done: nothing of it is left in
a reference cycle, which only Python's garbage collector would free (and which, while
a session is converted, collects the newest objects alone: workers.py)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, ValidationError

from mkdocs_claude_transcripts.pipeline import Redactor, RenderOptions, SourceFile, convert_session, discover
from mkdocs_claude_transcripts.report import FileReport
from mkdocs_claude_transcripts.transcript.reader import read_entries

from .conftest import ROOT, copy_tree

EXAMPLE = ROOT / "example_site" / "docs" / "transcripts"


@contextmanager
def cyclic_garbage() -> Iterator[list[object]]:
    """The objects that what runs inside leaves in cycles (filled on leaving)."""
    found: list[object] = []
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        gc.collect()
        found += gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if collecting:
            gc.enable()


def test_a_converted_session_leaves_nothing_of_itself_in_cycles(tmp_path: Path) -> None:
    copy_tree(EXAMPLE, tmp_path)
    files = [SourceFile(p.relative_to(tmp_path).as_posix(), str(p)) for p in tmp_path.rglob("*.jsonl")]
    sessions = discover(files).sessions
    assert any(source.agents for source in sessions)  # subagents, and so a nav of more than one level
    with cyclic_garbage() as garbage:
        for source in sessions:
            converted = convert_session(source, RenderOptions(), Redactor())
            assert converted.pages
            del converted
    held = sorted({type(o).__name__ for o in garbage if isinstance(o, BaseModel)})
    assert held == []


def test_lines_of_a_wrong_type_leave_no_error_behind(tmp_path: Path) -> None:
    lines = [
        {"type": "assistant", "uuid": 5, "timestamp": 7, "message": {"role": "assistant", "content": [{"type": "tool_use", "id": 1, "name": [], "input": "x"}]}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": 12}},
        {"type": "summary", "summary": ["not", "text"], "leafUuid": {}},
    ]  # fmt: skip
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines * 20), encoding="utf-8")
    report = FileReport("s.jsonl")
    with cyclic_garbage() as garbage:
        entries = list(read_entries(str(path), report))
    assert len(entries) == 60 and len(report.problems) == 60  # read, and the fields dropped of each line reported
    assert not [
        o for o in garbage if isinstance(o, (ValidationError, BaseModel)) or type(o).__name__ in ("frame", "traceback")
    ]

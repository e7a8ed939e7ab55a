"""The coverage report: what kinds transcripts hold, and what shows each."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from mkdocs_claude_transcripts.coverage import CATALOGUE, coverage

from .conftest import ROOT

GOLDEN = ROOT / "tests" / "golden"


def line_of(report, category: str, name: str):
    return next(line for line in report.lines if line.category == category and line.name == name)


def test_unknown_kinds_are_generic_and_known_ones_are_not() -> None:
    report = coverage([str(GOLDEN)])
    assert line_of(report, "tool", "FutureTool").shown_by is None
    assert line_of(report, "entry", "brand-new-entry").shown_by is None
    assert line_of(report, "block", "hologram").shown_by is None
    assert line_of(report, "system", "brand_new_subtype").shown_by is None
    assert line_of(report, "tool", "Bash").shown_by == "BashView"
    assert line_of(report, "tool", "mcp__github__create_issue").shown_by == "McpView"
    # the one Bash call whose input is not a Bash input falls to the generic form, and
    # the one TaskUpdate whose task id is an object
    assert line_of(report, "tool", "Bash").generic == 1
    assert line_of(report, "tool", "TaskUpdate").generic == 1
    # and the file attached whose content is a number, and the IDE's diagnostics whose
    # list is a text, each shown with its fields
    assert line_of(report, "attachment", "file").generic == 1
    assert line_of(report, "attachment", "diagnostics").generic == 1
    assert report.known_generic == 4


def test_every_catalogued_tool_has_a_view_of_its_own() -> None:
    from mkdocs_claude_transcripts.render.tools import GENERIC, view_for

    assert [name for name in CATALOGUE["tool"] if view_for(name) is GENERIC] == []


def test_the_command_line_prints_the_report() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs_claude_transcripts", "coverage", str(GOLDEN / "tool_mcp.jsonl")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert re.search(r"^tool\s+mcp__ddg-search__search\s+1\s+McpView$", out, re.MULTILINE)
    assert out.rstrip().endswith("known shown generically: 0")


def test_the_corpus_has_nothing_known_shown_generically(corpus: Path) -> None:
    report = coverage([str(corpus)])
    assert report.files > 10
    assert report.known_generic == 0, report.text()


def test_a_folder_holding_a_pipe_or_a_folder_named_as_a_transcript_is_counted_without_them(tmp_path: Path) -> None:
    """A pipe named ``x.jsonl`` in a folder given: the command waited on it for ever."""
    import os
    import shutil
    import threading

    shutil.copyfile(GOLDEN / "tool_mcp.jsonl", tmp_path / "tool_mcp.jsonl")
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "folder.jsonl").mkdir()
    (tmp_path / "nowhere.jsonl").symlink_to(tmp_path / "missing.jsonl")
    reports = []
    counting = threading.Thread(target=lambda: reports.append(coverage([str(tmp_path)])), daemon=True)
    counting.start()
    counting.join(timeout=30)
    assert reports and reports[0].files == 1


def test_what_could_not_be_read_is_counted_and_named_with_its_line(tmp_path: Path) -> None:
    """A tool call whose name is not a text, and a line that is not JSON: their kinds
    have forms of their own, but what the lines hold is not all on the page."""
    path = tmp_path / "5e551011-0000-4000-8000-000000000001.jsonl"
    path.write_text(
        '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}}\n'
        '{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": ["Bash"], "input": {}}]}}\n'
        "{not json\n"
    )
    report = coverage([str(tmp_path)])
    assert [(p.line, p.message.split(":")[0]) for p in report.problems] == [(2, "assistant entry"), (3, "not valid JSON")]
    assert "problems: 2" in report.text() and f"{path}:2: assistant entry: ignored field(s)" in report.text()


def test_a_block_of_a_known_type_in_a_shape_not_known_is_counted_as_shown_generically(tmp_path: Path) -> None:
    (tmp_path / "5e551011-0000-4000-8000-000000000002.jsonl").write_text(
        '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": [{"type": "text", "value": "the words"}]}}\n'
    )
    report = coverage([str(tmp_path)])
    assert line_of(report, "block", "text").generic == 1
    assert report.known_generic == 1


def test_a_folder_that_is_a_link_is_followed_once(tmp_path: Path) -> None:
    """As the site and ``convert`` follow it: its transcripts were not counted."""
    (tmp_path / "given").mkdir()
    (tmp_path / "given" / "linked").symlink_to(GOLDEN, target_is_directory=True)
    (tmp_path / "given" / "back").symlink_to(tmp_path / "given", target_is_directory=True)  # a loop: read once
    assert coverage([str(tmp_path / "given")]).files == coverage([str(GOLDEN)]).files > 0


def test_a_block_whose_words_are_of_another_type_is_counted_as_shown_generically(tmp_path: Path) -> None:
    (tmp_path / "5e551011-0000-4000-8000-000000000003.jsonl").write_text(
        '{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "content": [{"type": "text", "text": ["an answer"]}]}}\n'
    )
    report = coverage([str(tmp_path)])
    assert line_of(report, "block", "text").generic == 1
    assert report.problems == []


def test_a_reminder_whose_words_are_under_another_name_is_counted_as_shown_generically(tmp_path: Path) -> None:
    (tmp_path / "5e551011-0000-4000-8000-000000000004.jsonl").write_text(
        '{"type": "attachment", "sessionId": "s", "attachment": {"type": "skill_listing", "listing": "the skills"}}\n'
        '{"type": "attachment", "sessionId": "s", "attachment": {"type": "skill_listing", "content": "the skills", "skillCount": 1}}\n'
    )
    report = coverage([str(tmp_path)])
    assert line_of(report, "attachment", "skill_listing").generic == 1

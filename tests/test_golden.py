"""Golden files: each tests/golden/<case>.jsonl renders to tests/golden/<case>.md.

Run ``pytest --update-golden`` to rewrite the expected files, then review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mkdocs_claude_transcripts.pipeline import SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render.context import RenderOptions

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.jsonl"))


def case_files(case: str) -> list[SourceFile]:
    """The case's session file, and the files of its folder (agents, tool results) if it has one."""
    files = [SourceFile(f"{case}.jsonl", str(GOLDEN / f"{case}.jsonl"))]
    folder = GOLDEN / case
    if folder.is_dir():
        files += [SourceFile(p.relative_to(GOLDEN).as_posix(), str(p)) for p in sorted(folder.rglob("*")) if p.is_file()]
    return files


def render_case(case: str) -> str:
    found = discover(case_files(case))
    assert len(found.sessions) == 1, f"{case}.jsonl is not recognised as a session"
    converted = convert_session(found.sessions[0], RenderOptions())
    parts = [f"<!-- page: {page.src_uri} -->\n{page.markdown}" for page in converted.pages]
    parts += [f"<!-- asset: {asset.src_uri} ({len(asset.content)} bytes) -->" for asset in converted.assets]
    report = converted.reports[0]
    counts = ", ".join(f"{outcome.value}: {n}" for outcome, n in sorted(report.counts().items()))
    problems = "".join(f"\n{problem.level.value}: {problem}" for problem in report.problems)
    parts.append(f"<!-- report: {report.lines} lines; {counts}{problems}\n-->\n")
    return "\n".join(parts)


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, update_golden: bool) -> None:
    actual = render_case(case)
    expected_path = GOLDEN / f"{case}.md"
    if update_golden or not expected_path.exists():
        expected_path.write_text(actual, encoding="utf-8")
        if not update_golden:
            pytest.fail(f"{expected_path.name} did not exist and was written; review it and run again")
    assert actual == expected_path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_every_line_has_one_outcome(case: str) -> None:
    path = GOLDEN / f"{case}.jsonl"
    found = discover(case_files(case))
    report = convert_session(found.sessions[0], RenderOptions()).reports[0]
    assert report.lines == len(path.read_bytes().splitlines())
    assert report.unaccounted() == []
    assert sum(report.counts().values()) == report.lines

"""The command line converter: pages for other generators, a single file for a PR
comment, a report before publishing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts import convert as convert_module
from mkdocs_claude_transcripts import pipeline
from mkdocs_claude_transcripts.cli import main

from .conftest import ROOT, build, copy_tree

EXAMPLE = ROOT / "example_site" / "docs" / "transcripts"
S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"
PLAIN_SITE = """site_name: Converted
theme:
  name: material
extra_css:
  - assets/claude-transcripts/claude-transcripts.css
markdown_extensions:
  - admonition
  - attr_list
  - tables
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.highlight
"""


def convert(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["convert", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_folder_becomes_pages_another_site_builds_without_the_plugin(tmp_path: Path, capsys) -> None:
    status, _, err = convert(str(EXAMPLE), "-o", str(tmp_path / "docs"), capsys=capsys)
    assert status == 0, err
    docs = tmp_path / "docs"
    pages = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md")}
    assert {f"{S1}/index.md", f"{S1}/agent-a41c7e2.md", "index.md"} <= pages
    assert json.loads((docs / S1 / "session.json").read_text())["stats"]["tools"]
    assert not any("ct-code" in p.read_text() for p in docs.rglob("*.md")), "standard fences only"
    (tmp_path / "mkdocs.yml").write_text(PLAIN_SITE)
    site = build(tmp_path)  # strict, no plugin: every link between the pages holds
    page = BeautifulSoup((site / S1 / "index.html").read_text(), "html.parser")
    assert page.select("details.ct-tool") and page.select(".admonition.ct-user")


def test_no_json_writes_the_same_pages_and_no_session_json(tmp_path: Path, capsys) -> None:
    for name, extra in (("with", ()), ("without", ("--no-json",))):
        status, _, err = convert(str(EXAMPLE), "-o", str(tmp_path / name), *extra, capsys=capsys)
        assert status == 0, err
    written = {name: {p.relative_to(tmp_path / name).as_posix(): p.read_bytes() for p in (tmp_path / name).rglob("*") if p.is_file()} for name in ("with", "without")}
    assert {p for p in written["with"] if p.endswith("session.json")} == set(written["with"]) - set(written["without"]) != set()
    assert all(written["without"][p] == written["with"][p] for p in written["without"])


def test_two_sessions_whose_pages_would_share_a_folder_are_both_written(tmp_path: Path, capsys) -> None:
    given = tmp_path / "given"
    for folder, session in ((".claude", S1), ("claude", "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58")):
        (given / folder).mkdir(parents=True)
        shutil.copyfile(EXAMPLE / f"{session}.jsonl", given / folder / "x.jsonl")  # both: claude/x/
    status, _, err = convert(str(given), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0, err
    assert "Fix metric units" in (tmp_path / "out" / "claude" / "x" / "index.md").read_text()
    assert "Plan the sync design" in (tmp_path / "out" / "claude" / "x-session" / "index.md").read_text()


@pytest.mark.skipif(shutil.which("zensical") is None, reason="Zensical is not installed")
def test_zensical_builds_the_pages(tmp_path: Path, capsys) -> None:
    assert convert(str(EXAMPLE), "-o", str(tmp_path / "docs"), capsys=capsys)[0] == 0
    (tmp_path / "mkdocs.yml").write_text(PLAIN_SITE)
    done = subprocess.run(["zensical", "build"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "site" / S1 / "index.html").exists()


def test_a_single_github_file_fits_a_comment_and_holds_no_material_syntax(tmp_path: Path, capsys) -> None:
    status, whole, _ = convert(str(EXAMPLE), "--single-file", "--flavour", "github", capsys=capsys)
    assert status == 0
    status, cut, _ = convert(str(EXAMPLE), "--single-file", "--flavour", "github", "--max-chars", "6000", capsys=capsys)
    assert status == 0
    assert len(whole) > 6000 >= len(cut)
    assert "more blocks are not shown here" in cut and "more blocks" not in whole
    for text in (whole, cut):
        assert not re.search(r"^\s*(!!!|\?\?\?)", text, re.MULTILINE), "no admonitions"
        assert "{ ." not in text and "ct-anchor" not in text and "---\ntitle" not in text
        assert text.count("<details") == text.count("</details>")
        fences = [line.strip() for line in text.split("\n") if line.strip().startswith("```")]
        assert len(fences) % 2 == 0
        assert not re.search(r"^ {4,}<details", text, re.MULTILINE), "no indented HTML: GitHub would show it as code"
    assert "Kelvin" in whole and "Trace the units option" in whole


def test_a_single_file_of_several_sessions_names_them_all_first_even_cut_short(capsys) -> None:
    """A pull request adding many transcripts: its comment, cut to fit, showed the first
    session alone, and said nothing of the others."""
    titles = ["Fix metric units in the forecast command", "Plan the sync design for offline notes", "RSS feed for the blog"]
    status, cut, _ = convert(str(EXAMPLE), "--single-file", "--flavour", "github", "--max-chars", "3000", capsys=capsys)
    assert status == 0 and "**3 sessions**" in cut and "more blocks are not shown here" in cut
    assert all(cut.index(title) < cut.index("# Fix metric units") for title in titles)
    status, one, _ = convert(str(EXAMPLE / f"{S1}.jsonl"), "--single-file", capsys=capsys)
    assert status == 0 and "one after another below" not in one


def test_a_single_file_is_written_where_asked(tmp_path: Path, capsys) -> None:
    target = tmp_path / "comment.md"
    status, out, _ = convert(str(EXAMPLE / f"{S1}.jsonl"), "--single-file", "-o", str(target), capsys=capsys)
    assert status == 0 and out == ""
    text = target.read_text()
    assert "Fix metric units" in text and "Trace the units option" in text  # its subagent came with it
    assert "static site generator" not in text  # in another session's agent file, beside it
    assert "](agent-" not in text, "no links to pages that are not there"


def test_a_single_file_on_stdout_is_the_file_whatever_encoding_stdout_takes(tmp_path: Path) -> None:
    """On stdout whose encoding lacks a transcript's characters (a Windows code page,
    where output is piped or redirected), ``--single-file`` stopped with a traceback."""
    import os

    command = [sys.executable, "-m", "mkdocs_claude_transcripts", "convert", str(EXAMPLE), "--single-file"]
    target = tmp_path / "comment.md"
    assert subprocess.run([*command, "-o", str(target)], capture_output=True, check=False).returncode == 0
    assert "\u25d0" in target.read_text(encoding="utf-8")  # a character cp1252 lacks
    for encoding in ("cp1252", "utf-8"):
        done = subprocess.run(command, capture_output=True, env={**os.environ, "PYTHONIOENCODING": encoding}, check=False)
        assert done.returncode == 0, done.stderr.decode()
        assert done.stdout == target.read_bytes()


def test_the_report_says_what_would_be_redacted_and_writes_nothing(tmp_path: Path, capsys) -> None:
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    line = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z",
            "message": {"role": "user", "content": f"token {secret}"}}  # fmt: skip
    (tmp_path / "s1.jsonl").write_text(json.dumps(line) + "\n{not json\n" + json.dumps({**line, "uuid": "u2"}) + "\n")
    status, out, _ = convert(str(tmp_path), "--report", capsys=capsys)
    assert status == 0
    assert "s1.jsonl: " in out and "github-token" in out and "1 problem" in out and "1 problems" not in out
    assert "s1.jsonl:2" in out  # the bad line, by number
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s1.jsonl"]


def test_errors_go_to_stderr_with_a_non_zero_status(tmp_path: Path, capsys) -> None:
    status, out, err = convert(str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 2 and "no such file or folder" in err and out == ""
    status = main(["coverage", str(tmp_path), str(tmp_path / "missing.jsonl")])
    out, err = capsys.readouterr()
    assert status == 2 and err == f"mkdocs-claude-transcripts coverage: error: no such file or folder: {tmp_path / 'missing.jsonl'}\n" and out == ""
    (tmp_path / "notes.jsonl").write_text('{"a": 1}\n')
    status, _, err = convert(str(tmp_path / "notes.jsonl"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 1 and "no Claude Code session" in err
    (tmp_path / "0d1e2f3a-0000-4000-8000-000000000000.jsonl").write_text("")  # a session just started
    status, _, err = convert(str(tmp_path / "0d1e2f3a-0000-4000-8000-000000000000.jsonl"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 1 and "0d1e2f3a-0000-4000-8000-000000000000.jsonl: is empty" in err
    status, _, err = convert(str(EXAMPLE), capsys=capsys)
    assert status == 2 and "-o FOLDER" in err
    status, _, err = convert(str(EXAMPLE), "-o", str(tmp_path / "x"), "--max-chars", "100", capsys=capsys)
    assert status == 2 and "--single-file" in err


@pytest.mark.parametrize("given", ["folder", "file", "agent"])
def test_a_single_file_is_not_written_over_a_transcript_given(tmp_path: Path, capsys, given: str) -> None:
    """``--single-file -o`` naming one of the transcripts read (a slip of the shell's
    completion, or through a link): the transcript was replaced by the page."""
    copy_tree(EXAMPLE, tmp_path / "in")
    session, agent = tmp_path / "in" / f"{S1}.jsonl", tmp_path / "in" / S1 / "subagents" / "agent-a41c7e2.jsonl"
    (tmp_path / "link.jsonl").symlink_to(agent)
    before = {path: path.read_bytes() for path in (session, agent)}
    target = {"folder": session, "file": session, "agent": tmp_path / "link.jsonl"}[given]
    status, out, err = convert(str(tmp_path / "in" if given == "folder" else session), "--single-file", "-o", str(target), capsys=capsys)
    assert status == 2 and out == "" and "is a file read" in err
    assert all(path.read_bytes() == content for path, content in before.items())


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "mkdocs_claude_transcripts"],
    [sys.executable, "-m", "mkdocs_claude_transcripts.cli"],  # (it stopped on a NameError)
    [str(Path(sys.executable).parent / "mkdocs-claude-transcripts")],
], ids=["module", "cli module", "command"])  # fmt: skip
def test_the_module_and_the_command_run(command: list[str]) -> None:
    done = subprocess.run([*command, "convert", str(EXAMPLE), "--report"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "3 sessions" in done.stdout
    assert done.stderr == "", "no progress bar when stderr is not a terminal"
    done = subprocess.run([*command, "convert", str(EXAMPLE)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "-o FOLDER" in done.stderr, "the status of main() is the process's"


def test_worker_processes_write_what_one_process_writes(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[bool] = []
    real = convert_module.in_workers
    monkeypatch.setattr(convert_module, "in_workers", lambda *a: used.append((done := real(*a)) is not None) or done)
    written = {}
    for jobs in ("1", "2"):
        status, _, err = convert(str(EXAMPLE), "-o", str(tmp_path / jobs), "--jobs", jobs, capsys=capsys)
        assert status == 0, err
        written[jobs] = {p.relative_to(tmp_path / jobs).as_posix(): p.read_bytes() for p in (tmp_path / jobs).rglob("*") if p.is_file()}
    assert used == [False, True]  # one process, then workers
    assert len(written["1"]) > 10
    assert written["2"] == written["1"]


def test_a_session_alone_has_its_session_json_made_aside_the_same(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    made_aside: list[bool] = []
    real = pipeline.aside
    monkeypatch.setattr(pipeline, "aside", lambda work: made_aside.append(True) or real(work))
    written = {}
    for jobs in ("1", "2"):
        status, _, err = convert(str(EXAMPLE / f"{S1}.jsonl"), "-o", str(tmp_path / jobs), "--jobs", jobs, capsys=capsys)
        assert status == 0, err
        written[jobs] = {p.relative_to(tmp_path / jobs).as_posix(): p.read_bytes() for p in (tmp_path / jobs).rglob("*") if p.is_file()}
    assert made_aside == [True]  # with a core to spare
    assert f"{S1}/session.json" in written["1"]
    assert written["2"] == written["1"]


def test_many_bad_lines_are_printed_in_brief_and_listed_by_the_report(tmp_path: Path, capsys) -> None:
    from .test_bad_input import _many_bad_lines

    _many_bad_lines(tmp_path / "s1.jsonl")
    status, _, err = convert(str(tmp_path / "s1.jsonl"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0
    assert re.findall(r"s1\.jsonl:(\d+): not valid JSON", err) == [str(n) for n in range(2, 12)]
    assert "warning: s1.jsonl: 21 more problems (lines 12-31, 33); --report lists each" in err
    status, out, _ = convert(str(tmp_path / "s1.jsonl"), "--report", capsys=capsys)
    assert re.findall(r"s1\.jsonl:(\d+): ", out) == [str(n) for n in [*range(2, 32), 33]]
    assert "s1.jsonl: 2 messages; redacted: nothing; 30 problems" in out


def test_a_pipe_in_a_code_span_of_a_table_is_escaped_for_github_only() -> None:
    """GitHub ends a table's cell at a ``|`` inside a code span unless it is escaped;
    Python-Markdown keeps it, and would show the backslash."""
    from mkdocs_claude_transcripts.render.flavour import github, portable

    table = "| command | result |\n|---|---|\n| `grep a|b` | ``x|`y`` |\n\nNot a row: `a|b`\n"
    assert "| `grep a\\|b` | ``x\\|`y`` |" in github(table) and "Not a row: `a|b`" in github(table)
    assert "| `grep a|b` | ``x|`y`` |" in portable(table)


def test_a_long_name_in_a_title_is_written_whole_for_github() -> None:
    """The breaks a page puts after the separators of a long name in a block's title
    are left out of the title of a ``<details>`` for GitHub."""
    from mkdocs_claude_transcripts.render.flavour import github
    from mkdocs_claude_transcripts.render.markdown import block, breakable, inline

    name = "browser_take_screenshot (MCP plugin_playwright_playwright)"
    assert "<wbr>" in breakable(inline(name))
    assert f"<summary>{name}</summary>" in github("\n".join(block("ct-tool", breakable(inline(name)), ["Done."])))


def test_an_unknown_time_zone_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["convert", str(ROOT / "example_site" / "docs" / "transcripts"), "-o", str(tmp_path / "out"), "--timezone", "Mars/Olympus"])
    assert stopped.value.code == 2
    assert "'Mars/Olympus' is not a time zone name" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_files_given_twice_come_once_and_files_of_one_name_are_told_apart(tmp_path: Path, capsys) -> None:
    """The GitHub workflow gives every file added: a session and its subagent's file (the
    subagent came twice, as agent-x and agent-x-2); two backups of one project hold
    files of one name, and one of them was written over the other."""
    agent = f"{S1}/subagents/agent-a41c7e2.jsonl"
    status, _, err = convert(str(EXAMPLE / f"{S1}.jsonl"), str(EXAMPLE / agent), str(EXAMPLE / f"{S1}.jsonl"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "out" / S1).glob("agent-*.md")) == ["agent-a41c7e2.md"]
    for backup, said in (("a", "the first backup"), ("b", "the second backup")):
        session = tmp_path / backup / "proj" / f"{S1}.jsonl"
        session.parent.mkdir(parents=True)
        session.write_text((EXAMPLE / f"{S1}.jsonl").read_text().replace("Fix metric units", f"Fix metric units, as {said} has it"))
    status, _, err = convert(str(tmp_path / "a" / "proj"), str(tmp_path / "b" / "proj"), "-o", str(tmp_path / "two"), capsys=capsys)
    assert status == 0, err
    assert "the first backup" in (tmp_path / "two" / "proj" / S1 / "index.md").read_text()
    assert "the second backup" in (tmp_path / "two" / "proj-2" / S1 / "index.md").read_text()


def test_a_folder_that_is_a_link_is_followed(tmp_path: Path, capsys) -> None:
    (tmp_path / "given").mkdir()
    (tmp_path / "given" / "linked").symlink_to(EXAMPLE, target_is_directory=True)
    (tmp_path / "given" / "back").symlink_to(tmp_path / "given", target_is_directory=True)  # a loop: read once
    status, _, err = convert(str(tmp_path / "given"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0, err
    assert (tmp_path / "out" / "linked" / S1 / "index.md").is_file()


def test_a_link_to_nothing_and_a_pipe_named_as_transcripts_in_a_folder_are_named(tmp_path: Path, capsys) -> None:
    """Given alone, each is named as a file that cannot be read; in a folder, they were
    left out without a word, where the plugin names them."""
    import os

    (tmp_path / "given").mkdir()
    shutil.copyfile(EXAMPLE / f"{S1}.jsonl", tmp_path / "given" / f"{S1}.jsonl")
    (tmp_path / "given" / "moved.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    os.mkfifo(tmp_path / "given" / "pipe.jsonl")
    status, _, err = convert(str(tmp_path / "given"), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0, err
    assert (tmp_path / "out" / S1 / "index.md").is_file()
    for name in ("moved.jsonl", "pipe.jsonl"):
        assert f"warning: {name}: cannot be read as a file" in err


@pytest.mark.parametrize("flavour", ["material", "github"])
def test_a_page_of_another_making_in_the_output_folder_is_not_written_over(tmp_path: Path, capsys, flavour: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# My project\n")
    for _ in range(2):  # the second time, over what the first wrote
        status, _, err = convert(str(EXAMPLE), "-o", str(docs), "--flavour", flavour, capsys=capsys)
        assert status == 0, err
    assert (docs / "index.md").read_text() == "# My project\n"
    assert "Fix metric units" in (docs / "transcripts.md").read_text()
    assert not list(docs.glob("transcripts-*.md")) and not list(docs.glob("*-session"))


def test_an_output_that_cannot_be_written_is_a_usage_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "afile").write_text("x")
    status, _, err = convert(str(EXAMPLE), "-o", str(tmp_path / "afile"), capsys=capsys)
    assert status == 2 and "is a file" in err
    status, _, err = convert(str(EXAMPLE / f"{S1}.jsonl"), "--single-file", "-o", str(tmp_path), capsys=capsys)
    assert status == 2 and "is a folder" in err
    status, _, err = convert(str(EXAMPLE / f"{S1}.jsonl"), "--single-file", "-o", str(tmp_path / "new" / "x.md"), capsys=capsys)
    assert status == 0 and "Fix metric units" in (tmp_path / "new" / "x.md").read_text()
    for args in (("-o", str(tmp_path / "afile" / "pages")), ("--single-file", "-o", str(tmp_path / "afile" / "x.md"))):
        status, _, err = convert(str(EXAMPLE / f"{S1}.jsonl"), *args, capsys=capsys)
        assert status == 2 and "afile is a file, not a folder" in err  # not a traceback
    status, out, err = convert(str(EXAMPLE / f"{S1}.jsonl"), "-o", "-", capsys=capsys)
    assert status == 2 and "--single-file" in err and out == "" and not Path("-").exists()


def test_a_time_at_the_calendars_end_is_named_in_any_time_zone(tmp_path: Path, capsys) -> None:
    lines = (EXAMPLE / f"{S1}.jsonl").read_text().splitlines()
    entry = json.loads(lines[1])
    entry["timestamp"] = "0001-01-01T00:00:00.000Z"
    (tmp_path / f"{S1}.jsonl").write_text("\n".join([lines[0], json.dumps(entry), *lines[2:]]) + "\n")
    status, _, err = convert(str(tmp_path / f"{S1}.jsonl"), "-o", str(tmp_path / "out"), "--timezone", "America/New_York", capsys=capsys)
    assert status == 0, err
    assert f"{S1}.jsonl:2: timestamp '0001-01-01T00:00:00.000Z' is not a date and time" in err


def test_a_session_converted_again_leaves_none_of_its_former_pages(tmp_path: Path, capsys) -> None:
    given = tmp_path / "given"
    shutil.copytree(EXAMPLE, given, ignore=shutil.ignore_patterns("9c41*", "d07e*", "agent-b7e20f1.jsonl"))
    out = tmp_path / "out"
    assert convert(str(given), "-o", str(out), capsys=capsys)[0] == 0
    assert (out / S1 / "agent-a41c7e2.md").is_file()
    (out / S1 / "notes.md").write_text("# My notes on this session\n")  # a page of another making
    shutil.rmtree(given / S1)  # the session without its subagent now
    status, _, err = convert(str(given), "-o", str(out), capsys=capsys)
    assert status == 0, err
    assert sorted(p.name for p in (out / S1).iterdir()) == ["index.md", "notes.md", "session.json"]


@pytest.mark.parametrize("flavour", ["material", "github"])
def test_a_run_into_the_same_folder_removes_the_sessions_an_earlier_run_wrote_that_it_is_not_given(
    tmp_path: Path, capsys, flavour: str
) -> None:
    """The folders of the sessions the index of an earlier run listed, which this run is
    not given, go; but for the files in them of another making, and folders the index
    did not list."""
    from .conftest import copy_images_transcript

    given, out = tmp_path / "given", tmp_path / "out"
    shutil.copytree(EXAMPLE, given)
    (given / "nested").mkdir()
    copy_images_transcript(given / "nested" / "pasted.jsonl")
    assert convert(str(given), "-o", str(out), "--flavour", flavour, capsys=capsys)[0] == 0
    rss, plan = "d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86", "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58"
    assert (out / rss / "agent-b7e20f1.md").is_file() and any((out / "nested" / "pasted" / "images").iterdir())
    (out / plan / "notes.md").write_text("# My notes on this session\n")  # a file of another making
    (out / plan / "images").mkdir()
    (out / plan / "images" / "diagram.png").write_bytes(b"mine")
    (out / "mine").mkdir()  # a folder the index does not list, with a page like the command's
    shutil.copyfile(out / rss / "index.md", out / "mine" / "index.md")
    for gone in (f"{rss}.jsonl", "agent-b7e20f1.jsonl", f"{plan}.jsonl", "nested/pasted.jsonl"):
        (given / gone).unlink()
    status, _, err = convert(str(given), "-o", str(out), "--flavour", flavour, capsys=capsys)
    assert status == 0, err
    assert not (out / rss).exists() and not (out / "nested").exists()  # the folders it made, gone with them
    left = sorted(p.relative_to(out / plan).as_posix() for p in (out / plan).rglob("*"))
    assert left == ["images", "images/diagram.png", "notes.md"]
    assert (out / "mine" / "index.md").is_file() and (out / S1 / "index.md").is_file()
    index = (out / "index.md").read_text()
    assert S1 in index and rss not in index and plan not in index
    # Again: nothing more goes.
    status, _, err = convert(str(given), "-o", str(out), "--flavour", flavour, capsys=capsys)
    assert status == 0, err
    assert (out / plan / "notes.md").is_file() and (out / S1 / "agent-a41c7e2.md").is_file()


def test_the_sessions_listed_in_the_parts_of_an_earlier_index_go_too(tmp_path: Path) -> None:
    import io

    from mkdocs_claude_transcripts.render.context import RenderOptions

    given, out = tmp_path / "given", tmp_path / "out"
    shutil.copytree(EXAMPLE, given)
    request = convert_module.Request([str(given)], out=str(out), options=RenderOptions(page_size=200), jobs=1)
    assert convert_module.run(request, io.StringIO(), io.StringIO()) == 0
    assert len(list(out.glob("transcripts-part-*.md"))) == 2  # a part of the index for each session
    for gone in ("d07e5b21-*.jsonl", "agent-b7e20f1.jsonl", "9c41d2aa-*.jsonl"):
        next(given.glob(gone)).unlink()
    again = convert_module.Request([str(given)], out=str(out), jobs=1)  # an index of one part now
    assert convert_module.run(again, io.StringIO(), io.StringIO()) == 0
    assert sorted(p.name for p in out.iterdir()) == [S1, "assets", "index.md"]


def test_links_to_github_threads_lead_there_without_a_reference_back_on_github(tmp_path: Path, capsys) -> None:
    """A link to an issue, a pull request or a discussion put a reference to the comment
    on that page, at every push that posted a preview again: it goes through GitHub's
    redirect, shown as written."""
    said = ("See https://github.com/acme/app/issues/12, [the fix](https://github.com/acme/app/pull/3#diff) "
            "and (https://github.com/acme/app/discussions/9); the code: https://github.com/acme/app/blob/main/x.py")  # fmt: skip
    line = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z", "message": {"role": "user", "content": said}}
    (tmp_path / "s1.jsonl").write_text(json.dumps(line) + "\n")
    status, github, _ = convert(str(tmp_path / "s1.jsonl"), "--single-file", "--flavour", "github", capsys=capsys)
    assert status == 0
    shown = next(line for line in github.split("\n") if line.startswith("See "))
    assert shown == (
        "See [https://github.com/acme/app/issues/12](https://redirect.github.com/acme/app/issues/12), "
        "[the fix](https://redirect.github.com/acme/app/pull/3#diff) and "
        "([https://github.com/acme/app/discussions/9](https://redirect.github.com/acme/app/discussions/9)); "
        "the code: https://github.com/acme/app/blob/main/x.py"
    )


def test_web_addresses_are_written_as_typed_for_github_to_link_them(tmp_path: Path, capsys) -> None:
    """GitHub links a web address as it is written: one with a backslash or a character
    reference for its "_", "*" or "&" led elsewhere, or showed the reference; the
    site's pages write them so, for Python-Markdown and pymdownx.magiclink."""
    said = "Open http://localhost/__devtools__/ and https://x.org/a_b/*c*.py?d=1&e_f=2, not _this_."
    line = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z", "message": {"role": "user", "content": said}}
    (tmp_path / "s1.jsonl").write_text(json.dumps(line) + "\n")
    status, github, _ = convert(str(tmp_path / "s1.jsonl"), "--single-file", "--flavour", "github", capsys=capsys)
    assert status == 0
    assert next(line for line in github.split("\n") if line.startswith("Open ")) == said
    status, material, _ = convert(str(tmp_path / "s1.jsonl"), "--single-file", capsys=capsys)
    assert "http://localhost/&#95;&#95;devtools&#95;&#95;/ and https://x.org/a&#95;b/&#42;c&#42;.py?d=1&amp;e&#95;f=2" in material


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a file system that takes any bytes")
def test_a_file_name_that_is_not_utf8_is_linked_from_the_index(tmp_path: Path, capsys) -> None:
    import os

    given = tmp_path / "given"
    given.mkdir()
    shutil.copyfile(EXAMPLE / f"{S1}.jsonl", given / os.fsdecode(b"caf\xe9 notes.jsonl"))
    status, _, err = convert(str(given), "-o", str(tmp_path / "out"), capsys=capsys)
    assert status == 0, err
    assert "](caf%E9%20notes/index.md)" in (tmp_path / "out" / "index.md").read_text()
    assert (tmp_path / "out" / os.fsdecode(b"caf\xe9 notes") / "index.md").is_file()


def test_the_documented_workflow_gives_file_names_to_the_shell_as_they_are() -> None:
    import yaml

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    workflow = yaml.safe_load(re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)[-1])
    steps = workflow["jobs"]["preview"]["steps"]
    scripts = [step["run"] for step in steps if "run" in step]
    # An expression in a script is pasted into it: a file name with a space cut in two, with $(...) run.
    assert not [script for script in scripts if "${{" in script]
    assert any("git diff -z" in script and '"${files[@]}"' in script for script in scripts)
    comment = next(step for step in steps if "gh pr comment" in step.get("run", ""))
    assert "head.repo.full_name == github.repository" in comment["if"]  # a fork's token may not comment


# A stand-in for GitHub's command line: the pull request's comments in a JSON file, the
# calls the workflow makes answered as GitHub would (``--jq`` by jq itself).
FAKE_GH = """
import json, subprocess, sys
from pathlib import Path

state = Path(sys.argv[0]).parent / "comments.json"
comments = json.loads(state.read_text())
args = sys.argv[1:]
with open(state.parent / "calls", "a") as log:
    log.write(" ".join(args[:3]) + "\\n")
if args[:2] == ["pr", "comment"]:
    body = Path(args[args.index("--body-file") + 1]).read_text()
    comments.append({"id": max(c["id"] for c in comments) + 1, "user": {"login": "github-actions[bot]"}, "body": body})
elif args[:2] == ["api", "--paginate"] and args[2].endswith("/comments"):
    found = subprocess.run(["jq", "-r", args[args.index("--jq") + 1]], input=json.dumps(comments), capture_output=True, text=True, check=True)
    sys.stdout.write(found.stdout)
elif args[:3] == ["api", "--method", "PATCH"]:
    number = int(args[3].rsplit("/", 1)[1])
    body = Path(args[args.index("-F") + 1].removeprefix("body=@")).read_text()
    next(c for c in comments if c["id"] == number)["body"] = body
else:
    sys.exit(f"unexpected: gh {args}")
state.write_text(json.dumps(comments))
"""


@pytest.mark.skipif(sys.platform == "win32" or not (shutil.which("jq") and shutil.which("git") and shutil.which("bash")), reason="needs bash, git and jq")
def test_the_documented_workflow_keeps_one_comment_per_pull_request_written_over_at_each_push(tmp_path: Path) -> None:
    """Each push to a pull request that adds transcripts added one more comment of them all."""
    import os

    import yaml

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    steps = yaml.safe_load(re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)[-1])["jobs"]["preview"]["steps"]
    script = next(step["run"] for step in steps if "gh pr comment" in step.get("run", ""))
    tools, repo = tmp_path / "bin", tmp_path / "repo"
    tools.mkdir()
    (tools / "gh").write_text(f"#!{sys.executable}\n{FAKE_GH}")
    (tools / "mkdocs-claude-transcripts").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mkdocs_claude_transcripts "$@"\n')
    for tool in tools.iterdir():
        tool.chmod(0o755)
    others = [
        {"id": 1, "user": {"login": "octocat"}, "body": "<!-- claude-transcripts preview -->\nquoted by a person"},
        {"id": 2, "user": {"login": "github-actions[bot]"}, "body": "coverage: 91%"},
    ]
    (tools / "comments.json").write_text(json.dumps(others))
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}", "BASE": "main", "PR": "7", "GH_TOKEN": "t"}

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True, capture_output=True)

    def push(name: str, source: Path) -> list[dict]:
        """A commit adding a transcript, then the step as GitHub runs it; the comments after it."""
        shutil.copyfile(source, repo / "talks" / name)
        git("add", "-A")
        git("commit", "-qm", name)
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=repo, env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads((tools / "comments.json").read_text())

    (repo / "talks").mkdir(parents=True)
    (repo / "README.md").write_text("notes\n")
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "start")
    git("update-ref", "refs/remotes/origin/main", "HEAD")
    git("checkout", "-qb", "talk")
    first = push("first.jsonl", EXAMPLE / f"{S1}.jsonl")
    assert first[:2] == others and len(first) == 3
    body = first[2]["body"]
    assert body.startswith("<!-- claude-transcripts preview -->\n") and len(body) <= 65536
    title = body.split("\n")[1].removeprefix("# ")  # the session's title, under the mark
    assert title and title in (EXAMPLE / f"{S1}.jsonl").read_text()
    second = push("second.jsonl", EXAMPLE / "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58.jsonl")
    assert second[:2] == others and len(second) == 3  # the same comment, written over
    assert second[2]["id"] == first[2]["id"] and second[2]["body"].startswith("<!-- claude-transcripts preview -->\n")
    assert title in second[2]["body"] and len(second[2]["body"]) > len(body)
    calls = [call.split(" ")[:2] for call in (tools / "calls").read_text().splitlines()]
    assert calls == [["api", "--paginate"], ["pr", "comment"], ["api", "--paginate"], ["api", "--method"]]


def test_mentions_and_issue_references_show_as_written_on_github_but_ping_and_link_nothing(tmp_path: Path, capsys) -> None:
    """A transcript pasted into a pull request's comment pinged the people it named
    (``@name``) and put the comment into the timeline of each issue it named (``#12``)."""
    said = ("Ask @octocat and @acme/reviewers (a@b.com) about #12, acme/app#34 and GH-56 in @src/app.py; "
            "see https://example.com/@octocat/#7 and `@in_code #9`")  # fmt: skip
    line = {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z", "message": {"role": "user", "content": said}}
    (tmp_path / "s1.jsonl").write_text(json.dumps(line) + "\n")
    status, material, _ = convert(str(tmp_path / "s1.jsonl"), "--single-file", capsys=capsys)
    assert status == 0 and "Ask @octocat and @acme/reviewers (a@b.com) about #12, acme/app#34 and GH-56" in material
    status, github, _ = convert(str(tmp_path / "s1.jsonl"), "--single-file", "--flavour", "github", capsys=capsys)
    assert status == 0
    shown = next(line for line in github.split("\n") if line.startswith("Ask @"))  # the prompt (the title is cut short)
    # Each "@", "#" and "GH-" GitHub would follow is followed by an empty comment, which GitHub shows as nothing.
    assert shown == (
        "Ask @<!-- -->octocat and @<!-- -->acme/reviewers (a@b.com) about #<!-- -->12, acme/app#<!-- -->34 and GH-<!-- -->56 "
        "in @<!-- -->src/app.py; see https://example.com/@octocat/#7 and `@in_code #9`"
    )
    assert shown.replace("<!-- -->", "") == next(line.strip() for line in material.split("\n") if line.strip().startswith("Ask @"))


@pytest.mark.skipif(sys.platform != "linux", reason="a file name that is not UTF-8 needs a file system that takes any bytes")
def test_a_file_name_that_is_not_utf8_is_printed_escaped_on_a_strict_stream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--report`` on stdout that takes UTF-8 alone (a pipe, PYTHONIOENCODING=utf-8:strict)
    stopped with a traceback at the first name that was not UTF-8."""
    import io
    import os

    given = tmp_path / "given"
    given.mkdir()
    session = given / os.fsdecode(b"caf\xe9.jsonl")
    session.write_text((EXAMPLE / f"{S1}.jsonl").read_text() + "{not json\n")
    shutil.copyfile(EXAMPLE / "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58.jsonl", given / "other.jsonl")
    bad_line = len(session.read_text().splitlines())
    done = subprocess.run([sys.executable, "-m", "mkdocs_claude_transcripts", "convert", str(session), "--report"], capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"}, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert f"caf\\xe9.jsonl:{bad_line}: not valid JSON".encode() in done.stdout
    assert b"caf\\xe9.jsonl: 10 messages; redacted: nothing; 1 problem\n" in done.stdout

    class Terminal(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    def strict(kind: type[io.TextIOWrapper] = io.TextIOWrapper) -> io.TextIOWrapper:
        return kind(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)

    def written(stream: io.TextIOWrapper) -> str:
        return stream.buffer.getvalue().decode()  # type: ignore[attr-defined]

    monkeypatch.setenv("TERM", "xterm")
    stdout, stderr = strict(), strict(Terminal)  # warnings and the progress bar, on a terminal
    assert convert_module.run(convert_module.Request([str(given)], out=str(tmp_path / "out"), jobs=1), stdout, stderr) == 0
    assert f"warning: caf\\xe9.jsonl:{bad_line}: not valid JSON" in written(stderr)
    assert "/2 caf\\xe9.jsonl" in written(stderr)  # the progress bar
    assert (tmp_path / "out" / os.fsdecode(b"caf\xe9") / "index.md").is_file()
    monkeypatch.setattr(sys, "stderr", stderr := strict())
    missing = str(given / os.fsdecode(b"gon\xe9.jsonl"))
    assert main(["convert", missing, "-o", str(tmp_path / "out")]) == 2
    assert written(stderr) == f"mkdocs-claude-transcripts convert: error: no such file or folder: {given}/gon\\xe9.jsonl\n"


def test_a_run_into_the_same_folder_leaves_none_of_the_files_an_earlier_run_wrote_that_it_does_not(tmp_path: Path, capsys) -> None:
    """``--no-json`` into the folder of an earlier run left that run's session.json, and a
    session converted again without its images left them, neither matching the pages."""
    from .conftest import copy_images_transcript

    given, out = tmp_path / "given", tmp_path / "out"
    given.mkdir()
    copy_images_transcript(given / "s.jsonl")
    assert convert(str(given), "-o", str(out), capsys=capsys)[0] == 0
    images = sorted(p.name for p in (out / "s" / "images").iterdir())
    assert len(images) == 2 and (out / "s" / "session.json").is_file()
    (out / "s" / "notes.json").write_text("{}")  # files of another making
    (out / "s" / "images" / "diagram.png").write_bytes(b"mine")
    (out / "s" / "images" / "0123456789abcdef.png").write_bytes(b"named as an image of the command's is, but not after its bytes")
    entries = [json.loads(line) for line in (given / "s.jsonl").read_text().splitlines()]
    for entry in entries:  # the session without its images now (pasted, or in a tool's result)
        for block in [entry["message"], *entry["message"]["content"]] if isinstance(entry["message"]["content"], list) else []:
            if isinstance(block.get("content"), list):
                block["content"] = [part for part in block["content"] if part["type"] != "image"]
    without_images = "".join(json.dumps(entry) + "\n" for entry in entries)
    (given / "s.jsonl").write_text(without_images)
    status, _, err = convert(str(given), "-o", str(out), "--no-json", capsys=capsys)
    assert status == 0, err
    assert sorted(p.relative_to(out / "s").as_posix() for p in (out / "s").rglob("*")) == [
        "images", "images/0123456789abcdef.png", "images/diagram.png", "index.md", "notes.json",
    ]  # fmt: skip
    (out / "s" / "session.json").write_text('{"generator": "my own tool"}')
    assert convert(str(given), "-o", str(out), "--no-json", capsys=capsys)[0] == 0
    assert (out / "s" / "session.json").read_text() == '{"generator": "my own tool"}'
    for mine in ("session.json", "images/diagram.png", "images/0123456789abcdef.png"):
        (out / "s" / mine).unlink()
    copy_images_transcript(given / "s.jsonl")
    assert convert(str(given), "-o", str(out), capsys=capsys)[0] == 0  # what a run writes, it keeps
    assert sorted(p.name for p in (out / "s" / "images").iterdir()) == images and (out / "s" / "session.json").is_file()
    (given / "s.jsonl").write_text(without_images)
    assert convert(str(given), "-o", str(out), "--no-json", capsys=capsys)[0] == 0
    assert sorted(p.name for p in (out / "s").iterdir()) == ["index.md", "notes.json"]  # the folder of images gone with them


def test_a_run_into_the_same_folder_leaves_neither_the_index_parts_nor_the_stylesheet_it_no_longer_writes(tmp_path: Path) -> None:
    """An index in fewer parts than an earlier run's left that run's later parts, whose
    rows said what this run's do not; GitHub's flavour left the stylesheet of the
    Material pages it replaced."""
    import io

    from mkdocs_claude_transcripts.render.context import RenderOptions

    given, out = tmp_path / "given", tmp_path / "out"
    shutil.copytree(EXAMPLE, given)

    def run(flavour: str = "material", page_size: int = RenderOptions().page_size) -> list[str]:
        request = convert_module.Request([str(given)], out=str(out), flavour=flavour, options=RenderOptions(page_size=page_size), jobs=1)
        assert convert_module.run(request, io.StringIO(), io.StringIO()) == 0
        return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.parent == out or "assets" in p.parts)

    first = run(page_size=200)  # a part of the index for each session
    assert {"transcripts-part-2.md", "transcripts-part-3.md", "assets/claude-transcripts/claude-transcripts.css"} <= set(first)
    (out / "transcripts-part-9.md").write_text("# My own notes\n")  # files of another making
    (out / "assets" / "logo.svg").write_text("<svg/>")
    second = run()
    assert "transcripts-part-2.md" not in second and "transcripts-part-3.md" not in second and "index.md" in second
    assert "transcripts-part-9.md" in second and "assets/claude-transcripts/claude-transcripts.css" in second
    third = run("github")
    assert "assets/claude-transcripts" not in third and "assets/claude-transcripts/claude-transcripts.css" not in third
    assert "assets/logo.svg" in third and "transcripts-part-9.md" in third
    (out / "assets" / "logo.svg").unlink()
    run("material")
    last = run("github")
    assert not (out / "assets").exists() and {"index.md", "transcripts-part-9.md"} <= set(last)  # the folders it made, gone too

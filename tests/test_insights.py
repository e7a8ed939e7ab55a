"""Session insights: tool categories, targets and checks, the event stream, the
statistics (against an independent count of the JSONL), the summary, the index page,
tags, and session.json against its published JSON Schema."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import jsonschema
import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts import model as m
from mkdocs_claude_transcripts.build import build_session
from mkdocs_claude_transcripts.insights.categories import category, targets, verifies
from mkdocs_claude_transcripts.insights.events import events_of
from mkdocs_claude_transcripts.insights.export import export, schema
from mkdocs_claude_transcripts.insights.stats import figures_of
from mkdocs_claude_transcripts.pipeline import SourceFile, discover

from .conftest import ROOT, build, copy_tree, make_site
from .independent import count
from .test_golden import CASES, GOLDEN, case_files

SCHEMA = ROOT / "docs" / "session.schema.json"


@pytest.mark.parametrize(
    ("name", "command", "expected"),
    [
        ("Read", None, "read"),
        ("NotebookEdit", None, "edit"),
        ("MultiEdit", None, "edit"),
        ("Grep", None, "search"),
        ("LS", None, "search"),
        ("Bash", "ls -la", "shell"),
        ("Bash", "npm run build", "verify"),
        ("BashOutput", None, "shell"),
        ("WebFetch", None, "web"),
        ("Task", None, "agent"),
        ("TodoWrite", None, "plan"),
        ("ExitPlanMode", None, "plan"),
        ("mcp__github__get_file_contents", None, "read"),
        ("mcp__ide__getDiagnostics", None, "semantic"),
        ("mcp__serena__find_referencing_symbols", None, "semantic"),
        ("mcp__filesystem__edit_file", None, "edit"),
        ("mcp__tavily__tavily_search", None, "web"),
        ("mcp__ddg-search__search", None, "search"),
        ("mcp__linear__create_issue", None, "mcp"),
        ("SlashCommand", None, "other"),  # (not "shell", for the "command" in its name)
        ("Skill", None, "other"),
        ("SomethingNew", None, "other"),
    ],
)
def test_categories_come_from_the_name_table_then_from_patterns(name: str, command: str | None, expected: str) -> None:
    assert category(name, command) == expected


@pytest.mark.parametrize(
    "command",
    [
        "npm test", "pnpm run lint", "yarn build", "bun run typecheck", "npm run test:unit -- --watch",
        "pnpm --filter web test", "yarn workspace api test", "pytest -q", "python3 -m pytest tests/",
        "uv run pytest", "FOO=1 poetry run mypy src", "npx tsc --noEmit", "npx eslint .", "npx vitest run",
        "jest --ci", "go test ./...", "go vet ./...", "cargo test", "cargo build --release", "cargo clippy",
        "ruff check .", "mypy .", "make test", "cd web && npm run build 2>&1 | tail -20", "./gradlew test",
        "timeout 60 pytest", "timeout -s KILL 5m npm test", "(cd web && npm test)", "nohup pytest > log 2>&1 &",
        'bash -c "cd web && npm test"', "sh -c 'pytest -q'", "npm t", "python manage.py test app", 'pytest -k "a and b"',
    ],
)  # fmt: skip
def test_commands_that_verify(command: str) -> None:
    assert verifies(command)


@pytest.mark.parametrize(
    "command",
    [
        "ls -la", "git commit -m 'run the tests'", "npm install", "npm install test-utils", "npm run dev",
        "python -m http.server", "echo pytest", "cat pytest.ini", "go run .", "cargo run", "make", "yarn",
        "timeout 60 npm run dev", "(cd web && npm install)", 'echo "done && pytest passes"', "git commit -m 'fix; npm test'",
        'bash -c "npm install"', "python manage.py runserver",
    ],
)  # fmt: skip
def test_commands_that_do_not(command: str) -> None:
    assert not verifies(command)


def test_targets_are_posix_paths_relative_to_the_working_directory() -> None:
    data = {
        "file_path": "/home/u/app/src/main.py",
        "path": "/home/u/app",
        "notebook_path": "C:\\work\\n.ipynb",
        "files": ["/etc/hosts", {"path": "/home/u/app/docs/a.md"}],
        "targetPath": "lib/x.ts",
        "pattern": "*.py",
    }
    assert targets(data, "/home/u/app") == ["src/main.py", ".", "C:/work/n.ipynb", "/etc/hosts", "docs/a.md", "lib/x.ts"]


def built(case: str):
    return build_session(discover(case_files(case)).sessions[0]).session


@pytest.mark.parametrize("case", CASES)
def test_the_statistics_of_every_golden_case_agree_with_an_independent_count(case: str) -> None:
    session = built(case)
    stats = figures_of(session)[None]
    expected = count(GOLDEN / f"{case}.jsonl")
    assert {name: c.model_dump() for name, c in stats.tools.items()} == expected["tools"]
    assert stats.tokens.model_dump() == expected["tokens"]


def test_events_follow_the_file_and_pair_each_result_with_its_call() -> None:
    session = built("tool_bash")
    events = events_of(session.messages, session.cwd)
    assert [e.seq for e in events] == list(range(len(events)))
    assert events[0].type == "user"
    calls = {e.tool_use_id: i for i, e in enumerate(events) if e.type == "tool_call"}
    results = {e.tool_use_id: i for i, e in enumerate(events) if e.type == "tool_result"}
    assert calls and set(results) <= set(calls)
    assert all(results[i] > calls[i] for i in results)
    checks = [e for e in events if e.tool is not None and e.tool.category == "verify"]
    assert [e.tool.command for e in checks] == ["pytest -q", "make build 2>&1 | tail -2"]
    outcome = {e.tool_use_id: e.result for e in events if e.result is not None}
    assert outcome[checks[0].tool_use_id].exit_code == 1 and outcome[checks[0].tool_use_id].ok is False
    assert outcome[checks[1].tool_use_id].ok is True


def test_events_on_a_rewound_branch_say_so() -> None:
    session = built("rewind")
    events = events_of(session.messages, session.cwd)
    assert any("on a branch the user rewound from" in e.warnings for e in events)
    assert not all(e.warnings for e in events)


def test_the_published_schema_is_the_schema_of_the_code() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema(), "run: python -m mkdocs_claude_transcripts schema > docs/session.schema.json"


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_site(tmp_path_factory.mktemp("example"), plugin_options="tags: [model, branch]")
    config = (root / "mkdocs.yml").read_text().replace("  - search\n", "  - search\n  - tags\n")
    (root / "mkdocs.yml").write_text(config)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "transcripts")
    return build(root)


def exports(site: Path) -> list[Path]:
    return sorted(site.rglob("session.json"))


def test_every_session_has_a_session_json_valid_against_the_schema(example: Path) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    found = exports(example)
    assert len(found) == 3
    for path in found:
        data = json.loads(path.read_text(encoding="utf-8"))
        validator.validate(data)
        assert (path.parent / "index.html").exists(), "session.json sits beside the session's page"
        assert data["messages"] and data["events"] and data["stats"]["tools"]
        assert all(not m["isSidechain"] for m in data["messages"])
        assert all(m["isSidechain"] for a in data["subagents"] for m in a["messages"])


def test_the_schema_holds_every_field_and_names_the_categories(example: Path) -> None:
    """Every field is written, so each is required; a category is one of those known:
    a file that lost a field, or made up a category, is not a session.json."""
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    data = json.loads(exports(example)[0].read_text(encoding="utf-8"))
    assert not list(validator.iter_errors(data))
    def call(d: dict) -> dict:
        return next(event for event in d["events"] if event["type"] == "tool_call")["tool"]

    for spoil in (lambda d: d.pop("events"), lambda d: d["stats"].pop("tokens"), lambda d: call(d).pop("category"),
                  lambda d: call(d).update(category="bogus"), lambda d: d["stats"]["categories"].update(bogus={"calls": 1, "errors": 0, "tools": []}),
                  lambda d: d["messages"][0]["contentBlocks"].append({})):  # fmt: skip
        spoilt = json.loads(json.dumps(data))
        spoil(spoilt)
        assert list(validator.iter_errors(spoilt)), spoil


def test_session_json_agrees_with_an_independent_count(example: Path) -> None:
    for source in (ROOT / "example_site" / "docs" / "transcripts").glob("*.jsonl"):
        export = example / "transcripts" / source.stem / "session.json"
        if not export.exists():  # an agent file
            continue
        stats = json.loads(export.read_text(encoding="utf-8"))["stats"]
        expected = count(source)
        assert stats["tools"] == expected["tools"]
        assert stats["tokens"] == expected["tokens"]


def test_the_summary_links_its_subagents_and_its_checks(example: Path) -> None:
    page = BeautifulSoup((example / "transcripts" / "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13" / "index.html").read_text(), "html.parser")
    summary = page.select_one("details.ct-overview")
    assert summary is not None and summary.get("open") is None  # closed
    assert "5 tool calls (1 error)" in summary.summary.get_text()
    links = {a["href"] for a in summary.select("a[href]")}
    assert any(href.startswith("agent-") for href in links)
    for href in (h for h in links if h.startswith("#")):
        assert page.find(id=href[1:]) is not None, href
    assert "weather/forecast.py" in summary.get_text()


def test_the_index_lists_every_session_newest_first_with_totals(example: Path) -> None:
    index = example / "transcripts" / "index.html"
    page = BeautifulSoup(index.read_text(encoding="utf-8"), "html.parser")
    rows = page.select("article table tbody tr")
    dates = [row.select("td")[0].get_text() for row in rows[:-1]]
    assert len(dates) == 3 and dates == sorted(dates, reverse=True)
    for row in rows[:-1]:
        href = row.select_one("a[href]")["href"]
        assert (index.parent / href / "index.html").exists(), href
    sessions = [json.loads(p.read_text())["stats"] for p in exports(example)]
    assert rows[-1].select("td")[0].get_text() == "total"
    own_calls = sum(s["tool_calls"] for s in sessions)
    assert int(rows[-1].select("td")[4].get_text()) >= own_calls  # subagents' calls are added in


def test_session_pages_carry_tags_for_the_tags_plugin(example: Path) -> None:
    page = BeautifulSoup((example / "transcripts" / "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13" / "index.html").read_text(), "html.parser")
    tags = {tag.get_text(strip=True) for tag in page.select(".md-tags .md-tag")}
    assert tags == {"claude-sonnet-4-5", "claude-haiku-4-5", "branch: fix/units"}
    agent = next((example / "transcripts" / "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13").glob("agent-*/index.html"))
    assert not BeautifulSoup(agent.read_text(), "html.parser").select(".md-tags .md-tag")


def test_options_turn_the_export_index_and_summary_off(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="export_json: false\nindex: false\nsummary: false")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "transcripts")
    site = build(root)
    assert not exports(site)
    assert not (site / "transcripts" / "index.html").exists()
    assert not (site / "transcripts").joinpath("3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13", "index.html").read_text().count("ct-overview")


def test_the_index_goes_where_it_is_told_or_beside_a_page_of_the_same_name(tmp_path: Path) -> None:
    root = make_site(tmp_path / "a", plugin_options="index: logs/all.md")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "transcripts")
    site = build(root)
    assert "Fix metric units" in (site / "logs" / "all" / "index.html").read_text()
    root = make_site(tmp_path / "b")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "transcripts")
    (root / "docs" / "transcripts" / "index.md").write_text("# My own page\n")
    site = build(root)
    assert "My own page" in (site / "transcripts" / "index.html").read_text()
    assert "Fix metric units" in (site / "transcripts" / "transcripts" / "index.html").read_text()


def test_secrets_are_redacted_in_session_json(tmp_path: Path) -> None:
    root = make_site(tmp_path)
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    lines = [
        {"type": "user", "uuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/home/ann/p",
         "message": {"role": "user", "content": f"my token is {secret}"}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s1", "timestamp": "2025-01-01T00:00:01Z",
         "message": {"id": "m1", "role": "assistant", "model": "claude-x", "content": [
             {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": f"curl -H 'Authorization: token {secret}' x"}}]}},
    ]  # fmt: skip
    (root / "docs" / "s1.jsonl").write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    site = build(root)
    text = (site / "s1" / "session.json").read_text()
    assert secret not in text and "[REDACTED:github-token]" in text
    assert "/home/ann" not in text


def test_a_slash_command_is_exported_as_typed() -> None:
    session = built("slash_commands")
    texts = [e.text for e in events_of(session.messages, session.cwd) if e.type == "user" and e.text and e.text.startswith("/")]
    assert texts and not any(t.startswith("//") for t in texts)
    exported = export(session, figures_of(session))
    contents = [m.content for m in exported.messages if m.kind == "slash_command"]
    assert contents and all(c.startswith("/") and not c.startswith("//") for c in contents)


def _background_session(tmp_path: Path, *after: tuple) -> m.Session:
    def line(uuid: str, type_: str, content: object, **more: object) -> dict:
        return {"type": type_, "uuid": uuid, "sessionId": "s1", "timestamp": "2025-03-01T10:00:00Z", "cwd": "/home/ann/app",
                "message": {"role": type_, "content": content, **more.pop("message", {})}, **more}  # fmt: skip

    lines = [
        line("u1", "user", "run the tests in the background"),
        line("a1", "assistant", [{"type": "tool_use", "id": "toolu_bg", "name": "Bash",
             "input": {"command": "npm test", "run_in_background": True}}], message={"id": "m1", "model": "claude-x"}),
        line("u2", "user", [{"tool_use_id": "toolu_bg", "type": "tool_result", "is_error": False,
             "content": "Command running in background with ID: bash_1"}],
             toolUseResult={"stdout": "", "stderr": "", "interrupted": False, "backgroundTaskId": "bash_1"}),
    ]  # fmt: skip
    for n, (type_, content, more) in enumerate(after):
        lines.append(line(f"x{n}", type_, content, **more))
    for previous, one in pairwise(lines):
        one["parentUuid"] = previous["uuid"]
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(json.dumps(one) for one in lines) + "\n")
    return build_session(discover([SourceFile("s1.jsonl", str(path))]).sessions[0]).session


def _background_check(tmp_path: Path, *after: tuple) -> list:
    session = _background_session(tmp_path, *after)
    return [(c.command, c.passed, c.exit_code) for c in figures_of(session)[None].verifications]


# A poll of the command run in the background (BashOutput): it failed, with exit code 1.
POLL = (
    ("assistant", [{"type": "tool_use", "id": "toolu_out", "name": "BashOutput", "input": {"bash_id": "bash_1"}}],
     {"message": {"id": "m2", "model": "claude-x"}}),
    ("user", [{"tool_use_id": "toolu_out", "type": "tool_result", "is_error": False, "content": "<status>failed</status>"}],
     {"toolUseResult": {"shellId": "bash_1", "command": "npm test", "status": "failed", "exitCode": 1, "stdout": "1 failing"}}),
)  # fmt: skip


def test_a_check_sent_to_the_background_has_the_outcome_it_ends_with(tmp_path: Path) -> None:
    assert _background_check(tmp_path) == [("npm test", None, None)]  # not known yet
    assert _background_check(tmp_path, *POLL) == [("npm test", False, 1)]
    notice = "<task-notification>\n<task-id>bash_1</task-id>\n<tool-use-id>toolu_bg</tool-use-id>\n<status>failed</status>\n" \
        '<summary>Background command "npm test" failed with exit code 2</summary>\n</task-notification>'  # fmt: skip
    assert _background_check(tmp_path, ("user", notice, {})) == [("npm test", False, 2)]


def test_the_result_of_a_poll_of_a_background_command_has_its_exit_code(tmp_path: Path) -> None:
    session = _background_session(tmp_path, *POLL)
    polled = next(e for e in events_of(session.messages, session.cwd) if e.tool_use_id == "toolu_out" and e.type == "tool_result")
    assert polled.result is not None and (polled.result.exit_code, polled.result.ok) == (1, False)


def test_session_json_holds_what_the_page_shows_of_each_message(tmp_path: Path) -> None:
    """The fields a note is shown with (a kind not known, a hook's command, a scheduled
    task's prompt), a task notification's status, what the IDE told Claude with a
    prompt: on the page, and not in session.json."""
    def line(n: int, type_: str, **more: object) -> str:
        return json.dumps({"type": type_, "uuid": f"u{n}", "sessionId": "s1", "timestamp": f"2025-03-01T10:00:0{n}Z", **more})

    path = tmp_path / "5e551011-0000-4000-8000-000000000001.jsonl"
    path.write_text("\n".join([
        line(1, "user", message={"role": "user", "content": [{"type": "text", "text": "<ide_opened_file>The user opened src/app.py</ide_opened_file>"},
                                                              {"type": "text", "text": "fix it"}]}),
        line(2, "system", subtype="future_notice", content="a notice", retryIn="in five minutes"),
        line(3, "attachment", attachment={"type": "future_attachment", "detail": {"what": "a field of its own"}}),
        line(4, "system", subtype="stop_hook_summary", hookInfos=[{"command": "./check-style.sh"}], hookErrors=["style"]),
        line(5, "system", subtype="scheduled_task_fire", content="Running scheduled task", cron="*/5 * * * *", prompt="check the deploy"),
        line(6, "user", message={"role": "user", "content": "<task-notification><task-id>b1</task-id><status>failed</status>"
                                                            "<summary>Build ended</summary></task-notification>"}),
    ]) + "\n")  # fmt: skip
    session = build_session(discover([SourceFile(path.name, str(path))]).sessions[0]).session
    contents = "\n".join(message.content for message in export(session, figures_of(session)).messages)
    for said in ("The user opened src/app.py", "in five minutes", "a field of its own", "./check-style.sh", "*/5 * * * *", "check the deploy", "failed"):
        assert said in contents, said

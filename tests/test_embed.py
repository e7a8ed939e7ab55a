"""Excerpts of sessions in any page: ```claude-transcript blocks, in real builds."""

from __future__ import annotations

import logging
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.pipeline import discover, session_of
from mkdocs_claude_transcripts.render.context import RenderOptions
from mkdocs_claude_transcripts.render.excerpt import ExcerptError, Range, select

from .conftest import ROOT, build, copy_tree, make_site
from .test_golden import case_files

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"  # one prompt; a Task call, a failing test, a fix
S2 = "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58"  # two prompts, and an inline subagent's


def site(tmp_path: Path, page: str, options: str = "") -> Path:
    root = make_site(tmp_path, plugin_options=options)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "transcripts")
    (root / "docs" / "notes").mkdir()
    (root / "docs" / "notes" / "design.md").write_text(textwrap.dedent(page), encoding="utf-8")
    return root


def block(**fields: str) -> str:
    return "```claude-transcript\n" + "".join(f"{key}: {value}\n" for key, value in fields.items()) + "```\n"


def article(site_dir: Path) -> BeautifulSoup:
    page = BeautifulSoup((site_dir / "notes" / "design" / "index.html").read_text(encoding="utf-8"), "html.parser")
    return page.select_one("article")


def test_a_range_of_turns_is_shown_as_on_the_session_page_and_links_to_it(tmp_path: Path) -> None:
    page = "# Notes\n\n" + block(path=f"../transcripts/{S2}.jsonl", turns="2-")
    built = article(build(site(tmp_path, page)))  # strict: every link of the excerpt resolves
    text = built.get_text(" ")
    assert "keep the conflict copies out" in text
    assert "We need notes to work offline" not in text  # turn 1
    assert built.select("details.ct-tool") and built.select(".ct-user")
    assert any(a["href"].startswith(f"../../transcripts/{S2}/") for a in built.select("a[href]"))
    assert "turns 2-" in text


def test_anchors_search_and_options(tmp_path: Path) -> None:
    session = session_of(discover(case_files_example()).sessions[0], RenderOptions())
    anchors = [message.anchor for message in session.messages if message.anchor]
    page = "\n".join([
        "# Notes", "",
        block(path=f"/transcripts/{S1}.jsonl", **{"from": anchors[1], "to": anchors[2]}),
        block(path=f"transcripts/{S1}.jsonl", search="Kelvin", tool_calls="hidden", thinking="hidden", link="false"),
    ])  # fmt: skip
    built = article(build(site(tmp_path, page)))
    ids = [a["id"] for a in built.select("a.ct-anchor[id]")]
    assert ids and len(ids) == len(set(ids)), "ids are unique across excerpts of one page"
    second = built.get_text(" ").split("Kelvin")
    assert len(second) >= 2
    assert built.get_text(" ").count("From ") == 1  # link: false on the second block


def case_files_example():
    from mkdocs_claude_transcripts.pipeline import SourceFile

    folder = ROOT / "example_site" / "docs" / "transcripts"
    return [SourceFile(p.relative_to(folder).as_posix(), str(p)) for p in sorted(folder.rglob("*")) if p.is_file() and S1 in p.as_posix()]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"path": "nowhere.jsonl"}, "no transcript at 'nowhere.jsonl'"),
        ({"path": f"../transcripts/{S2}.jsonl", "turns": "9"}, "has 2 turns"),
        ({"path": f"../transcripts/{S2}.jsonl", "search": "no such words anywhere"}, "no message holds"),
        ({"path": f"../transcripts/{S2}.jsonl", "from": "m-nope"}, "no message has the anchor 'm-nope'"),
        ({"path": f"../transcripts/{S2}.jsonl", "colour": "red"}, "unknown option colour"),
        ({"path": f"../transcripts/{S2}.jsonl", "thinking": "loud"}, "thinking must be one of"),
        ({"turns": "1"}, "needs 'path:'"),
        ({"path": "../../../etc/passwd.jsonl"}, "no transcript at"),
    ],
)
def test_what_cannot_be_shown_is_a_warning_naming_the_page_and_the_block_stays(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, fields: dict[str, str], message: str
) -> None:
    page = "# Notes\n\nBefore.\n\n" + block(**fields) + "\nAfter.\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        built = article(build(site(tmp_path, page), strict=False))
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("notes/design.md" in w and "line 5" in w and message in w for w in warnings), warnings
    kept = built.select_one("pre code")
    assert kept is not None and kept.get_text().strip() == "\n".join(f"{k}: {v}" for k, v in fields.items())
    assert "After." in built.get_text()


def test_blocks_inside_other_fences_are_left_alone(tmp_path: Path) -> None:
    page = "# Notes\n\n````markdown\n" + block(path=f"../transcripts/{S2}.jsonl") + "````\n"
    built = article(build(site(tmp_path, page)))
    assert "path: ../transcripts/" in built.get_text()
    assert not built.select(".ct-user")


def test_an_excerpt_of_a_session_left_out_of_the_site_links_nowhere(tmp_path: Path) -> None:
    page = "# Notes\n\n" + block(path=f"../transcripts/{S1}.jsonl")
    built = article(build(site(tmp_path, page, options=f"exclude: '{S1}*'")))  # strict: no broken link
    assert built.select(".ct-user")
    assert not [a for a in built.select("a[href]") if "transcripts/" in a["href"]]


def test_a_changed_transcript_changes_its_excerpts_on_rebuild(tmp_path: Path) -> None:
    root = site(tmp_path, "# Notes\n\n" + block(path=f"../transcripts/{S2}.jsonl", turns="3"), options="")
    built = build(root, strict=False)
    assert not article(built).select(".ct-user")
    transcript = root / "docs" / "transcripts" / f"{S2}.jsonl"
    line = ('{"type": "user", "uuid": "99999999-0000-4000-8000-000000000001", "sessionId": "%s", '
            '"timestamp": "2025-08-19T15:00:00.000Z", "message": {"role": "user", "content": "A fourth turn, appended."}}') % S2  # fmt: skip
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    assert "A fourth turn, appended." in article(build(root)).get_text()


def messages_of(case: str):
    return session_of(discover(case_files(case)).sessions[0], RenderOptions()).messages


def test_turns_are_counted_from_the_prompts() -> None:
    messages = messages_of("steering")
    everything = select(messages, Range())
    assert select(messages, Range(turns="1-")) == everything
    with pytest.raises(ExcerptError, match="not '0'|not among"):
        select(messages, Range(turns="0"))
    with pytest.raises(ExcerptError, match="a number or a range"):
        select(messages, Range(turns="two"))
    with pytest.raises(ExcerptError, match="one of"):
        select(messages, Range(turns="1", search="x"))
    kinds = Counter(type(message).__name__ for message in select(messages, Range(turns="1")))
    assert kinds["Prompt"] == 1


def test_a_search_finds_what_messages_say_not_their_kinds_or_ids() -> None:
    messages = messages_of("tool_bash")
    assert select(messages, Range(search="make build"))  # a command
    for word in ("tool_call", "toolu_b1"):  # a kind of message, the id of a call
        with pytest.raises(ExcerptError, match="no message holds"):
            select(messages, Range(search=word))

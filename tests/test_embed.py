"""Excerpts of sessions in any page: ```claude-transcript blocks, in real builds."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.pipeline import discover, session_of
from mkdocs_claude_transcripts.render.context import RenderOptions
from mkdocs_claude_transcripts.render.excerpt import ExcerptError, Range, select

from .conftest import ROOT, build, copy_images_transcript, copy_tree, make_site
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
        block(path=f"transcripts/{S1}.jsonl", **{"from": f"'#{anchors[1]}'", "to": f"../transcripts/{S1}/#{anchors[1]}"}),  # as copied
    ])  # fmt: skip
    built = article(build(site(tmp_path, page)))
    ids = [a["id"] for a in built.select("a.ct-anchor[id]")]
    assert ids and len(ids) == len(set(ids)), "ids are unique across excerpts of one page"
    second = built.get_text(" ").split("Kelvin")
    assert len(second) >= 2
    assert built.get_text(" ").count("From ") == 2  # link: false on the second block
    assert [a["id"] for a in built.select("a.ct-anchor[id]") if a["id"].startswith("x3-")] == [f"x3-{anchors[1]}"]


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
        # YAML reads what follows " #" as a comment: the path it reads is "run", and the warning says why.
        ({"path": "run #2.jsonl"}, "no transcript at 'run' (relative to the page or to docs_dir); a ' #' starts a comment"),
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


@pytest.mark.parametrize(
    ("written", "message"),
    [
        # Not closed: the rest of the page is no option of the block.
        ("```claude-transcript\npath: ../transcripts/{S2}.jsonl\n\nAfter.\n\n- item: x\n", "is not closed (no ``` line ends it)"),
        # An option twice: YAML keeps the last, which may not be the one meant.
        ("```claude-transcript\npath: ../transcripts/{S2}.jsonl\nturns: 1\nturns: 2\n```\n\nAfter.\n", "turns given twice"),
    ],
)
def test_a_block_not_closed_or_with_an_option_twice_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture, written: str, message: str) -> None:
    page = "# Notes\n\nBefore.\n\n" + written.replace("{S2}", S2)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        built = article(build(site(tmp_path, page), strict=False))
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert [w for w in warnings if "notes/design.md" in w and "line 5" in w and message in w] == warnings, warnings
    assert warnings and "After." in built.get_text() and "From " not in built.get_text()


def test_values_are_read_as_written_not_as_yaml_numbers_dates_or_booleans(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """YAML 1.1 reads 10:30 as 630, 010 as 8 and yes as true: a search for a time,
    or a quoted "false", are what they say."""
    page = "\n".join([
        "# Notes", "",
        block(path=f"../transcripts/{S2}.jsonl", search="10:30"),
        block(path=f"../transcripts/{S2}.jsonl", turns="1", link="'false'"),
        block(path=f"../transcripts/{S2}.jsonl", turns="1", link="maybe"),
        block(path=f"../transcripts/{S2}.jsonl", search="[a, b]"),
    ])  # fmt: skip
    root = site(tmp_path, page)
    transcript = root / "docs" / "transcripts" / f"{S2}.jsonl"
    transcript.write_text(transcript.read_text(encoding="utf-8").replace("keep the conflict copies", "keep the 10:30 copies"), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        built = article(build(root, strict=False))
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2, warnings
    assert "link must be true or false" in warnings[0] and "search must be a text" in warnings[1]
    text = built.get_text(" ")
    assert "keep the 10:30 copies out" in text  # turn 2, found
    assert text.count("From ") == 1  # the search's; link: 'false' is false


def test_blocks_inside_other_fences_are_left_alone(tmp_path: Path) -> None:
    page = "# Notes\n\n````markdown\n" + block(path=f"../transcripts/{S2}.jsonl") + "````\n"
    built = article(build(site(tmp_path, page)))
    assert "path: ../transcripts/" in built.get_text()
    assert not built.select(".ct-user")


def test_blocks_in_an_html_comment_are_left_alone(tmp_path: Path) -> None:
    """A block commented out stays out: an excerpt there would end the comment at its
    own first "-->", and the rest of its Markdown would show on the page."""
    page = "# Notes\n\n<!--\n" + block(path=f"../transcripts/{S2}.jsonl") + "-->\n\nAfter.\n\n" + block(path=f"../transcripts/{S2}.jsonl", turns="2")
    built = article(build(site(tmp_path, page)))
    text = built.get_text(" ")
    assert "We need notes to work offline" not in text  # turn 1: only in the commented block
    assert "keep the conflict copies out" in text  # the block after the comment is shown
    assert "-->" not in text and "ct-text" not in text and "After." in text


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


def test_an_excerpt_includes_no_file_a_transcript_names_for_snippets(tmp_path: Path) -> None:
    """A line of a tool's output that pymdownx.snippets would read as an include is
    escaped in an excerpt as on the session's page: no file of the machine is shown."""
    sid = "5a1e0000-0000-4000-8000-000000000001"
    root = make_site(tmp_path, config=f"markdown_extensions:\n  - pymdownx.snippets:\n      base_path: ['{tmp_path}']\n")
    (tmp_path / "secret.txt").write_text("CONTENT OF A FILE OF THE MACHINE\n")
    common = {"sessionId": sid, "timestamp": "2025-06-01T10:00:00Z", "parentUuid": None}
    lines = [
        {**common, "type": "user", "uuid": "u1", "message": {"role": "user", "content": "Show it."}},
        {**common, "type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "model": "claude-x",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "cat notes"}}]}},
        {**common, "type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": '--8<-- "secret.txt"\n-8<- "secret.txt"'}]}},
    ]  # fmt: skip
    (root / "docs" / "s").mkdir()
    (root / "docs" / "s" / f"{sid}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (root / "docs" / "notes.md").write_text("# Notes\n\n" + block(path=f"s/{sid}.jsonl"))
    site_dir = build(root)
    notes = (site_dir / "notes" / "index.html").read_text(encoding="utf-8")
    assert "cat notes" in notes and "secret.txt" in notes
    assert "CONTENT OF A FILE" not in notes


def test_a_link_mkdocs_cannot_read_in_an_excerpt_is_shown_as_text(tmp_path: Path) -> None:
    """A link to the web whose host MkDocs cannot read (a bracket, ``https://[x``, or
    characters that read as ``/`` under NFKC) is text in an excerpt too, which has no
    guard: MkDocs stopped the build of the page that asked for it (Invalid IPv6 URL)."""
    sid = "5a1e0000-0000-4000-8000-000000000002"
    root = make_site(tmp_path)
    said = "see [a](https://[x) and [b](https://\\[y) and [c](https://a\uff0fb@c) and [d](https://example.com/q[1])"
    common = {"sessionId": sid, "timestamp": "2025-06-01T10:00:00Z", "parentUuid": None}
    lines = [
        {**common, "type": "user", "uuid": "u1", "message": {"role": "user", "content": "Links?"}},
        {**common, "type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": said}]}},
    ]  # fmt: skip
    (root / "docs" / "s").mkdir()
    (root / "docs" / "s" / f"{sid}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (root / "docs" / "notes.md").write_text("# Notes\n\n" + block(path=f"s/{sid}.jsonl"))
    site_dir = build(root)
    for page in (site_dir / "notes" / "index.html", site_dir / "s" / sid / "index.html"):
        text = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("article")
        assert "[a](https://[x)" in text.get_text() and "[c](https://a\uff0fb@c)" in text.get_text()
        assert [a["href"] for a in text.select("a[href^='https:']")] == ["https://example.com/q[1]"]


def test_an_excerpt_is_put_in_after_the_plugins_that_render_a_page_as_a_template(tmp_path: Path) -> None:
    """A plugin or hook that renders a page's Markdown as a template (mkdocs-macros)
    sees the page as its author wrote it, not a transcript's text put in it: the
    template syntax an excerpt shows is shown, never run."""
    root = site(tmp_path, "# Notes\n\n{{ 6 * 7 }}\n\n" + block(path=f"../transcripts/{S1}.jsonl"))
    (root / "hooks.py").write_text(textwrap.dedent("""
        import jinja2

        def on_page_markdown(markdown, page, config, files):
            return jinja2.Template(markdown).render() if page.meta.get("render_macros", True) else markdown
    """))
    with (root / "mkdocs.yml").open("a") as handle:
        handle.write("hooks:\n  - hooks.py\n")
    transcript = root / "docs" / "transcripts" / f"{S1}.jsonl"
    entries = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    prompt = next(e for e in entries if e["type"] == "user" and isinstance(e["message"]["content"], str))
    prompt["message"]["content"] = "Is {{ 7 * 7 }} run? {% raw %}"
    transcript.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    text = article(build(root)).get_text(" ")
    assert "42" in text  # the page's own template
    assert "Is {{ 7 * 7 }} run? {% raw %}" in text and "49" not in text


def test_the_permalinks_of_an_excerpt_lead_to_its_messages(tmp_path: Path) -> None:
    built = article(build(site(tmp_path, "# Notes\n\n" + block(path=f"../transcripts/{S1}.jsonl"))))
    permalinks = built.select("a.ct-anchor")
    assert permalinks
    for permalink in permalinks:
        assert permalink["href"] == "#" + permalink["id"]


def test_an_excerpt_of_a_subagents_file_shows_its_conversation_and_links_to_its_page(tmp_path: Path) -> None:
    agent = f"../transcripts/{S1}/subagents/agent-a41c7e2.jsonl"
    built = article(build(site(tmp_path, "# Notes\n\n" + block(path=agent, turns="1"))))  # strict: its links resolve
    text = built.get_text(" ")
    assert "Find where the" in text and "--units" in text  # the subagent's prompt
    assert "Fix metric units" not in text  # not the session's
    assert "Trace the units option" in text  # its title, in the line above
    assert any(a["href"].startswith(f"../../transcripts/{S1}/agent-a41c7e2/") for a in built.select("a[href]"))


def test_an_excerpt_of_a_transcript_mkdocs_leaves_out_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A transcript left out by exclude_docs or draft_docs is not read: its excerpts
    are warnings that say why, not that there is no transcript there."""
    page = "# Notes\n\n" + block(path="../private/s.jsonl") + "\n" + block(path="../drafts/s.jsonl")
    root = site(tmp_path, page)
    for folder in ("private", "drafts"):
        (root / "docs" / folder).mkdir()
        shutil.copyfile(root / "docs" / "transcripts" / f"{S2}.jsonl", root / "docs" / folder / "s.jsonl")
    with (root / "mkdocs.yml").open("a") as handle:
        handle.write("exclude_docs: |\n  private/\ndraft_docs: |\n  drafts/\n")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        build(root, strict=False)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 2, warnings
    assert "'private/s.jsonl' is left out of the site by MkDocs' exclude_docs" in warnings[0]
    assert "'drafts/s.jsonl' is left out of the site by MkDocs' draft_docs" in warnings[1]


def test_an_excerpt_of_a_session_left_out_of_the_site_says_why_its_images_are_not_shown(tmp_path: Path) -> None:
    root = site(tmp_path, "# Notes\n\n" + block(path="../transcripts/images.jsonl"), options="exclude: 'transcripts/images.jsonl'")
    shutil.copyfile(ROOT / "tests" / "golden" / "images.jsonl", root / "docs" / "transcripts" / "images.jsonl")
    text = article(build(root)).get_text(" ")
    assert "Old style:" in text  # the excerpt is there
    assert text.count("is not shown: its session is not published") >= 2
    assert "could not be decoded" not in text
    assert not [p for p in (root / "site").rglob("*.png") if "images" in p.parent.name and "assets" not in p.parts]


def test_folders_named_with_markup_or_a_hash_give_no_markup_and_links_that_resolve(tmp_path: Path) -> None:
    """A session in folders whose names hold markup, a Markdown link's end and a
    ``#``: the nav shows the names as text, and an excerpt's images and links, which
    carry them, lead where they should (strict: every link resolves)."""
    folder = "p){: onerror=alert(1) } #1 <b>x"
    root = make_site(tmp_path)
    (root / "docs" / folder).mkdir()
    copy_images_transcript(root / "docs" / folder / "images.jsonl")
    (root / "docs" / "notes.md").write_text("# Notes\n\n" + block(path=json.dumps(f"{folder}/images.jsonl")), encoding="utf-8")
    site_dir = build(root)
    notes = site_dir / "notes" / "index.html"
    for page in site_dir.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert not soup.select("[onerror]") and not [b for b in soup.select("b") if b.get_text().startswith("x")], page
    soup = BeautifulSoup(notes.read_text(encoding="utf-8"), "html.parser")
    assert any("#1 <b>x" in label.get_text() for label in soup.select(".md-nav__link"))  # the folder's section
    excerpt = soup.select_one("article")
    images = [img["src"] for img in excerpt.select("img")]
    assert images
    links = [a["href"] for a in excerpt.select("a[href]") if not a["href"].startswith(("#", "http"))]
    assert links
    for target in images + links:
        path = notes.parent.joinpath(unquote(target.split("#")[0] if "images/" not in target else target))
        assert path.exists() or path.joinpath("index.html").exists(), target


def test_critic_marks_in_an_excerpt_are_shown_as_written(tmp_path: Path) -> None:
    """pymdownx.critic reads a page's text before anything else, code included: an
    excerpt's "{--" (a prompt) and "--}" (a command, further on) are not made a
    deletion spanning messages; the page's own marks are still read."""
    root = site(tmp_path, "# Notes\n\nThe page's own {--edit--}.\n\n" + block(path=f"../transcripts/{S1}.jsonl"))
    with (root / "mkdocs.yml").open("a") as handle:
        handle.write("markdown_extensions:\n  - pymdownx.critic\n")
    transcript = root / "docs" / "transcripts" / f"{S1}.jsonl"
    entries = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    prompt = next(e for e in entries if e["type"] == "user" and isinstance(e["message"]["content"], str))
    prompt["message"]["content"] += " Delete {-- this, {++ add ++}"
    answer = next(e for e in reversed(entries) if e["type"] == "assistant" and e["message"]["content"][0]["type"] == "text")
    answer["message"]["content"][0]["text"] += "\n\n```\nend --}\n```"
    transcript.write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    built = article(build(root))
    assert [str(mark) for mark in built.select("del, ins, mark")] == ['<del class="critic">edit</del>']
    text = built.get_text()
    assert "Delete {-- this, {++ add ++}" in text and "end --}" in text


def test_a_dirty_build_renders_again_a_page_whose_excerpt_changed(tmp_path: Path) -> None:
    """``mkdocs build --dirty`` (and ``serve --dirty``) renders only the pages whose file
    changed: a page of your own showing an excerpt of a transcript that changed kept
    the old excerpt."""
    root = site(tmp_path, "# Design\n\n" + block(path="../transcripts/3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13.jsonl", turns="1"))
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")]
    subprocess.run(command, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert "Kelvin" in article(root / "site").get_text()
    transcript = root / "docs" / "transcripts" / "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13.jsonl"
    transcript.write_text(transcript.read_text(encoding="utf-8").replace("Kelvin", "Rankine"), encoding="utf-8")
    subprocess.run([*command, "--dirty"], check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert "Rankine" in article(root / "site").get_text()

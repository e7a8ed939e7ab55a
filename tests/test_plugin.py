"""The plugin's options and behaviours, each checked in a real MkDocs build."""

from __future__ import annotations

import json
import logging
import shutil
import threading
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from mkdocs.exceptions import Abort, PluginError

from mkdocs_claude_transcripts.render import layout

from .conftest import ROOT, build, copy_tree, make_site

EXAMPLE = ROOT / "example_site" / "docs" / "transcripts"
GOLDEN = ROOT / "tests" / "golden"
S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"  # has an Explore subagent in S1/subagents/
S2 = "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58"  # thinking, inline subagent


def site_with_examples(tmp_path: Path, config: str = "", options: str = "", folder: str = "sessions") -> Path:
    root = make_site(tmp_path, config, options)
    copy_tree(EXAMPLE, root / "docs" / folder)
    return root


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def nav_text(site: Path) -> str:
    return " ".join(soup(site / "index.html").select_one("nav.md-nav--primary").get_text(" ").split())


def test_explicit_nav_lists_transcripts_by_path(tmp_path: Path) -> None:
    nav = f"""nav:
  - Home: index.md
  - Sessions:
      - sessions/{S1}.jsonl
      - The sync design: sessions/{S2}.jsonl
"""
    site = build(site_with_examples(tmp_path, nav))
    text = nav_text(site)
    assert "Fix metric units in the forecast command" in text
    assert "Explore · Trace the units option" in text  # the subagent, under its session
    assert "The sync design" in text  # the title given in nav: names the entry
    assert "RSS feed" not in text  # not listed, so not in the nav
    links = [a["href"] for a in soup(site / "index.html").select("nav.md-nav--primary a[href]")]
    assert f"sessions/{S1}/agent-a41c7e2/" in links


def test_explicit_nav_lists_a_subagent_by_the_path_of_its_file(tmp_path: Path) -> None:
    """As a session is listed (every page's nav linked to the ``.jsonl``, and a strict
    build stopped on it)."""
    nav = f"""nav:
  - Home: index.md
  - The units trace: sessions/{S1}/subagents/agent-a41c7e2.jsonl
  - Old agent: sessions/agent-b7e20f1.jsonl
"""
    site = build(site_with_examples(tmp_path, nav))  # strict
    links = {a.get_text(" ", strip=True): a["href"] for a in soup(site / "index.html").select("nav.md-nav--primary a[href]")}
    assert links["The units trace"] == f"sessions/{S1}/agent-a41c7e2/"
    assert links["Old agent"] == "sessions/d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86/agent-b7e20f1/"  # (an agent-*.jsonl beside its session)
    assert not any(href.endswith(".jsonl") for href in links.values())


def test_a_link_to_a_transcripts_file_leads_to_its_page(tmp_path: Path) -> None:
    """In your own pages, as in the nav (a strict build stopped on such a link); the
    anchor is checked against the session's page."""
    root = site_with_examples(tmp_path, "validation:\n  anchors: warn\n")
    (root / "docs" / "notes").mkdir()
    (root / "docs" / "notes" / "links.md").write_text(
        f"# Links\n\n[session](../sessions/{S1}.jsonl) [agent](../sessions/{S1}/subagents/agent-a41c7e2.jsonl) "
        f"[heading](../sessions/{S1}.jsonl#fix-metric-units-in-the-forecast-command) [old agent](../sessions/agent-b7e20f1.jsonl)\n"
    )
    site = build(root)  # strict
    links = {a.get_text(): a["href"] for a in soup(site / "notes" / "links" / "index.html").select("article a[href]")}
    assert links["session"] == f"../../sessions/{S1}/"
    assert links["agent"] == f"../../sessions/{S1}/agent-a41c7e2/"
    assert links["heading"] == f"../../sessions/{S1}/#fix-metric-units-in-the-forecast-command"
    assert links["old agent"] == "../../sessions/d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86/agent-b7e20f1/"
    (root / "docs" / "notes" / "links.md").write_text(f"[missing](../sessions/{S1}.jsonl#no-such-anchor)\n")
    with pytest.raises(Abort):
        build(root)


def test_a_transcript_page_has_the_width_of_the_empty_table_of_contents(tmp_path: Path) -> None:
    """Its one heading is its title: Material's table of contents is hidden, not an empty
    column beside the messages; a page of your own keeps its own."""
    root = site_with_examples(tmp_path)
    (root / "docs" / "notes.md").write_text("# Notes\n\n## A section\n\ntext\n")
    site = build(root)
    for page in (site / "sessions" / S1 / "index.html", site / "sessions" / "index.html"):
        assert soup(page).select_one(".md-sidebar--secondary").has_attr("hidden"), page
    assert not soup(site / "notes" / "index.html").select_one(".md-sidebar--secondary").has_attr("hidden")


def test_transcripts_can_be_copied(tmp_path: Path) -> None:
    site = build(site_with_examples(tmp_path, options="copy_jsonl: true"))
    assert (site / "sessions" / f"{S1}.jsonl").is_file()
    assert (site / "sessions" / f"{S1}" / "index.html").is_file()


@pytest.mark.parametrize("copied", [False, True], ids=["pages", "copy_jsonl"])
def test_excluded_transcripts_are_left_out(tmp_path: Path, copied: bool) -> None:
    """With ``copy_jsonl``, the files of a session left out, and of its subagent, were
    published all the same."""
    site = build(site_with_examples(tmp_path, options=f'exclude: "{S1}.jsonl"\ncopy_jsonl: {str(copied).lower()}'))
    assert not (site / "sessions" / S1).exists()
    assert sorted(p.name for p in site.rglob("*.jsonl")) == (sorted([f"{S2}.jsonl", "agent-b7e20f1.jsonl", "d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86.jsonl"]) if copied else [])
    assert not (site / "sessions" / f"{S1}.jsonl").exists()
    assert (site / "sessions" / S2 / "index.html").is_file()


def test_include_limits_what_is_read(tmp_path: Path) -> None:
    site = build(site_with_examples(tmp_path, options=f'include: "{S2}.jsonl"'))
    assert (site / "sessions" / S2 / "index.html").is_file()
    assert not (site / "sessions" / S1).exists()


@pytest.mark.parametrize(
    ("thinking", "found", "open_"),
    [("shown", True, True), ("collapsed", True, False), ("hidden", False, False)],
)
def test_thinking_option(tmp_path: Path, thinking: str, found: bool, open_: bool) -> None:
    site = build(site_with_examples(tmp_path, options=f"thinking: {thinking}"))
    blocks = soup(site / "sessions" / S2 / "index.html").select("details.ct-thinking")
    assert bool(blocks) is found
    if found:
        assert all(block.has_attr("open") is open_ for block in blocks)


def test_tool_calls_can_start_open(tmp_path: Path) -> None:
    site = build(site_with_examples(tmp_path, options="tool_calls: open"))
    calls = soup(site / "sessions" / S1 / "index.html").select("details.ct-tool, details.ct-tool-error")
    assert calls and all(call.has_attr("open") for call in calls)


def test_bad_lines_are_reported_with_file_and_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = make_site(tmp_path)
    shutil.copy(GOLDEN / "bad_lines.jsonl", root / "docs" / "bad.jsonl")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        site = build(root, strict=False)
    messages = [r.getMessage() for r in caplog.records]
    assert any("bad.jsonl:2: not valid JSON" in m for m in messages)
    assert any("bad.jsonl:3: is a JSON list" in m for m in messages)
    assert any("bad.jsonl:6: last line is cut off" in m for m in messages)
    assert "Second prompt" in (site / "bad" / "index.html").read_text(encoding="utf-8")


def test_a_strict_build_stops_on_bad_lines(tmp_path: Path) -> None:
    root = make_site(tmp_path)
    shutil.copy(GOLDEN / "bad_lines.jsonl", root / "docs" / "bad.jsonl")
    with pytest.raises(Abort):
        build(root, strict=True)


def test_empty_transcript_is_reported_and_not_published(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = make_site(tmp_path)
    (root / "docs" / f"{S1}.jsonl").write_bytes(b"")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        site = build(root, strict=False)
    assert any(f"{S1}.jsonl: is empty" in r.getMessage() for r in caplog.records)
    assert not list(site.rglob("*.jsonl"))


def test_nothing_is_written_into_docs_dir(tmp_path: Path) -> None:
    root = site_with_examples(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in (root / "docs").rglob("*")}
    build(root)
    after = {p: p.stat().st_mtime_ns for p in (root / "docs").rglob("*")}
    assert before == after


def test_every_page_made_is_read_from_a_file_as_some_plugins_expect(tmp_path: Path) -> None:
    """Plugins such as mkdocs-rss-plugin and the git ones open each page's file."""
    hooks = tmp_path / "hooks.py"
    hooks.write_text(
        "from pathlib import Path\n\n\n"
        "def on_page_content(html, page, **kwargs):\n"
        "    Path(page.file.abs_src_path).read_text(encoding='utf-8')\n"
        "    return html\n"
    )
    root = site_with_examples(tmp_path, config=f"hooks:\n  - {hooks}\n")
    site = build(root)
    index = (site / "sessions" / "index.html").read_text(encoding="utf-8")  # the transcripts index
    assert "Fix metric units" in index and "Plan the sync design" in index
    assert len(list((root / ".cache").rglob("pages/*.md"))) == 1  # its file, in the cache, not in docs_dir
    (root / "docs" / "sessions" / f"{S2}.jsonl").unlink()
    assert "Plan the sync design" not in (build(root) / "sessions" / "index.html").read_text(encoding="utf-8")
    assert len(list((root / ".cache").rglob("pages/*.md"))) == 1  # the last one's is gone


def test_a_session_named_as_a_page_of_the_site_is_placed_beside_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """``notes.jsonl`` beside ``notes.md`` (a design note and its session): both would be
    at ``notes/``. The page stays; the session goes to ``notes-session/``; so does a
    session beside a page another plugin made, or a second session at the same place.
    Nor does the transcripts index take the place of a session named ``transcripts.jsonl``:
    with ``index.md`` the site's own, it goes to ``transcripts-2.md``."""
    hooks = tmp_path / "hooks.py"  # a plugin that makes a page, before this one
    hooks.write_text(
        "from mkdocs.plugins import event_priority\n"
        "from mkdocs.structure.files import File\n\n\n"
        "@event_priority(100)\n"
        "def on_files(files, config):\n"
        "    files.append(File.generated(config, 'made.md', content='# Made by a plugin'))\n"
    )
    root = make_site(tmp_path, config=f"hooks:\n  - {hooks}\n")
    (root / "docs" / "notes.md").write_text("# My notes\n")
    shutil.copyfile(EXAMPLE / f"{S2}.jsonl", root / "docs" / "notes.jsonl")
    shutil.copyfile(EXAMPLE / f"{S2}.jsonl", root / "docs" / "made.jsonl")
    shutil.copyfile(EXAMPLE / f"{S1}.jsonl", root / "docs" / "transcripts.jsonl")
    for folder in (".claude", "claude"):  # two sessions at claude/x/, the first one's dot dropped
        (root / "docs" / folder).mkdir()
        shutil.copyfile(EXAMPLE / f"{S2 if folder == '.claude' else S1}.jsonl", root / "docs" / folder / "x.jsonl")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        site = build(root)
    assert "Plan the sync design" in soup(site / "claude" / "x" / "index.html").select_one("article").get_text()
    assert "Fix metric units" in soup(site / "claude" / "x-session" / "index.html").select_one("article").get_text()
    assert "My notes" in soup(site / "notes" / "index.html").select_one("article").get_text()
    assert "Made by a plugin" in soup(site / "made" / "index.html").select_one("article").get_text()
    assert "Plan the sync design" in soup(site / "made-session" / "index.html").select_one("article").get_text()
    assert "Plan the sync design" in soup(site / "notes-session" / "index.html").select_one("article").get_text()
    assert "Fix metric units" in soup(site / "transcripts" / "index.html").select_one("article").get_text()
    index = soup(site / "transcripts-2" / "index.html")
    assert index.select_one("article h1").get_text(strip=True).startswith("Transcripts")
    assert len(index.select("article table tbody tr")) == 6  # five sessions and the total
    assert "notes-session/" in [a["href"] for a in soup(site / "index.html").select("nav.md-nav--primary a[href]")]
    assert any("notes.jsonl" in r.getMessage() and "notes-session/" in r.getMessage() for r in caplog.records)


def test_links_hold_without_directory_urls(tmp_path: Path) -> None:
    site = build(site_with_examples(tmp_path, "use_directory_urls: false\n"))
    page = soup(site / "sessions" / S1 / "index.html")
    assert "agent-a41c7e2.html" in [a["href"] for a in page.select("article a[href]")]


def test_hidden_folders_are_published_without_the_dot(tmp_path: Path) -> None:
    root = site_with_examples(tmp_path, folder=".claude/projects/-home-dana-weather")
    site = build(root)
    assert (site / "claude" / "projects" / "-home-dana-weather" / S1 / "index.html").is_file()
    assert "Fix metric units" in nav_text(site)


def test_times_are_shown_in_the_configured_time_zone(tmp_path: Path) -> None:
    utc = build(site_with_examples(tmp_path / "utc"))
    tokyo = build(site_with_examples(tmp_path / "tokyo", options="timezone: Asia/Tokyo"))
    first = {}
    for name, site in (("utc", utc), ("tokyo", tokyo)):
        page = soup(site / "sessions" / S1 / "index.html")
        first[name] = page.select_one(".ct-user > .admonition-title, .ct-user > summary").get_text(" ", strip=True)
        summary = page.select_one("details.ct-overview > summary").get_text()
        assert ("Asia/Tokyo" in summary) == (name == "tokyo")
    assert "09:02" in first["utc"] and "18:02" in first["tokyo"]  # the session starts at 09:02 UTC


def test_an_unknown_time_zone_stops_the_build_with_its_name(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_with_examples(tmp_path, options="timezone: Mars/Olympus"))
    assert "timezone 'Mars/Olympus' is not a time zone name" in caplog.text


@pytest.mark.parametrize("title_format", ["{name} · {title}", "{title", "{0}", "{date:%Y}"])
def test_a_title_format_that_cannot_be_filled_stops_the_build_with_its_name(tmp_path: Path, caplog: pytest.LogCaptureFixture, title_format: str) -> None:
    """A name it does not know, a brace not closed: the build stopped in the middle of
    converting a session, with a traceback (a worker's, a broken pipe) and no word of
    the option."""
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_with_examples(tmp_path, options=f"title_format: '{title_format}'"))
    assert f"title_format '{title_format}' cannot be filled in" in caplog.text
    assert "{title}, {date} and {id}" in caplog.text


@pytest.mark.parametrize(
    ("index", "said"),
    [
        (f"sessions/{S1}/index.md", f"is where the page sessions/{S1}/index.md goes"),  # it replaced the session's page
        (f"sessions/{S1}.md", f"is where the page sessions/{S1}/index.md goes"),  # at its URL
        ("../out.md", "is outside docs_dir"),  # nothing was published, nor said
    ],
)
def test_an_index_path_the_plugin_cannot_use_stops_the_build_with_its_name(tmp_path: Path, caplog: pytest.LogCaptureFixture, index: str, said: str) -> None:
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_with_examples(tmp_path, options=f"index: '{index}'"))
    assert f"index '{index}' {said}" in caplog.text


@pytest.mark.parametrize(("value", "pruned"), [("true", True), ('"true"', True), ("false", False), ("auto", False)])
def test_prune_nav_takes_yes_or_no_as_yaml_writes_them(tmp_path: Path, value: str, pruned: bool) -> None:
    """``prune_nav: true`` (a YAML boolean) is the same as ``"true"``; ``auto`` prunes
    only a site of many transcript pages (this one has a few)."""
    root = site_with_examples(tmp_path, options=f"prune_nav: {value}")
    config = soup(build(root) / "index.html").select_one("#__config").get_text()
    assert ('"navigation.prune"' in config) is pruned


def test_a_session_named_as_a_file_the_site_writes_is_placed_beside_it(tmp_path: Path) -> None:
    """A session's pages go in a folder of its name: ``x/session.json.jsonl`` beside
    ``x.jsonl`` (whose session.json is there), ``sitemap.xml.jsonl``, or a name of the
    theme's files would make a folder where a file is written; ``x/part-2.jsonl``
    would be where the second part of a long ``x.jsonl`` goes. Each goes beside. So
    does a folder of transcripts named as such a file (``404.html/``), or as a page
    (``notes/index.html/`` beside ``notes.md``), with the pages of all it holds."""
    root = make_site(tmp_path, plugin_options="page_size: 3000")
    shutil.copyfile(EXAMPLE / f"{S2}.jsonl", root / "docs" / "x.jsonl")
    (root / "docs" / "x").mkdir()
    (root / "docs" / "notes.md").write_text("# Notes\n", encoding="utf-8")
    for name in ("x/session.json.jsonl", "x/part-2.jsonl", "sitemap.xml.jsonl", "assets/images/favicon.png.jsonl", "404.html.jsonl",
                 "404.html/y.jsonl", "sitemap.xml/deep/y.jsonl", "search/search_index.json/y.jsonl", "notes/index.html/y.jsonl"):  # fmt: skip
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(EXAMPLE / f"{S1}.jsonl", root / "docs" / name)
    site = build(root)
    assert json.loads((site / "x" / "session.json").read_text(encoding="utf-8"))["messages"]
    assert "Fix metric units" not in soup(site / "x" / "part-2" / "index.html").select_one("article").get_text()
    for folder in ("x/session.json-session", "x/part-2-session", "sitemap.xml-session", "assets/images/favicon.png-session", "404.html-session",
                   "404.html-session/y", "sitemap.xml-session/deep/y", "search/search_index.json-session/y", "notes/index.html-session/y"):  # fmt: skip
        assert "Fix metric units" in soup(site / folder / "index.html").select_one("article").get_text(), folder
    assert (site / "sitemap.xml").is_file() and (site / "404.html").is_file() and (site / "search" / "search_index.json").is_file()
    assert soup(site / "notes" / "index.html").select_one("article h1").get_text(strip=True) == "Notes"


def test_a_transcript_named_as_a_subagents_page_in_a_sessions_folder_is_placed_beside_it(tmp_path: Path) -> None:
    """``x/agent-q.jsonl`` would be where the page of ``x.jsonl``'s subagent ``q`` goes,
    and so would ``x/agent-q-session.jsonl`` (agent ``q-session``): it goes to
    ``x/session-agent-q/``. A folder named as a file the site writes (``404.html/``)
    is named beside it, as a session named so would be."""
    placed: dict[str, dict[str, str]] = {}
    search = threading.Thread(target=lambda: placed.update(agent=layout.places(["x.jsonl", "x/agent-q.jsonl"]),
                                                           file=layout.places(["404.html/x.jsonl"])), daemon=True)  # fmt: skip
    search.start()
    search.join(timeout=30)  # each other name was as much a page's as the one before: it went on for ever
    assert placed == {"agent": {"x/agent-q.jsonl": "x/session-agent-q.jsonl"}, "file": {"404.html/x.jsonl": "404.html-session/x.jsonl"}}
    root = make_site(tmp_path)
    shutil.copyfile(EXAMPLE / f"{S2}.jsonl", root / "docs" / "x.jsonl")
    (root / "docs" / "x").mkdir()
    shutil.copyfile(EXAMPLE / f"{S1}.jsonl", root / "docs" / "x" / "agent-q.jsonl")
    site = build(root, strict=False)
    page = soup(site / "x" / "session-agent-q" / "index.html")
    assert "temperatures in Kelvin" in page.select_one("article").get_text()


def test_draft_docs_naming_a_transcript_keep_its_session_out_of_a_build(tmp_path: Path) -> None:
    """As for any page of the site: its pages, its export, its row in the index and its
    search entries are not published (``mkdocs serve`` shows drafts)."""
    site = build(site_with_examples(tmp_path, f"draft_docs: |\n  sessions/{S2}.jsonl\n"))
    assert not (site / "sessions" / S2).exists()
    assert S2 not in (site / "sessions" / "index.html").read_text(encoding="utf-8")
    assert S2 not in (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert (site / "sessions" / S1 / "index.html").is_file()


@pytest.mark.parametrize("option", ["draft_docs", "exclude_docs"])
def test_a_session_left_out_by_mkdocs_takes_its_subagents_with_it(tmp_path: Path, option: str) -> None:
    """Its subagents, in its ``subagents/`` folder or beside it (naming it by its id),
    were published, each with a page of its own, as if their session were not there
    (and their files, with ``copy_jsonl``)."""
    s3 = "d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86"  # agent-b7e20f1.jsonl, beside it, is its subagent's
    site = build(site_with_examples(tmp_path, f"{option}: |\n  sessions/{S1}.jsonl\n  sessions/{s3}.jsonl\n", "copy_jsonl: true"))
    published = [path.relative_to(site).as_posix() for path in site.rglob("*")]
    assert not [path for path in published if "agent-a41c7e2" in path or "b7e20f1" in path or S1 in path or s3 in path]
    search = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "Trace the units option" not in search and "static site generator" not in search
    assert (site / "sessions" / S2 / "index.html").is_file() and (site / "sessions" / f"{S2}.jsonl").is_file()


def test_not_in_nav_naming_a_transcript_or_a_subagent_keeps_its_pages_out_of_the_nav(tmp_path: Path) -> None:
    config = f"not_in_nav: |\n  sessions/{S2}.jsonl\n  sessions/{S1}/subagents/agent-a41c7e2.jsonl\n"
    site = build(site_with_examples(tmp_path, config))
    links = [a["href"] for a in soup(site / "index.html").select("nav.md-nav--primary a[href]")]
    assert f"sessions/{S1}/" in links
    assert not any(S2 in href or "agent-a41c7e2" in href for href in links), links
    assert (site / "sessions" / S2 / "index.html").is_file()  # published, as not_in_nav pages are
    assert (site / "sessions" / S1 / "agent-a41c7e2" / "index.html").is_file()


def test_a_session_of_a_long_name_placed_beside_a_page_keeps_to_the_longest_name_a_file_may_have(tmp_path: Path) -> None:
    """``<249 letters>.jsonl`` beside ``<249 letters>.md``: its pages went to a folder whose
    name was longer than a file system takes (255 bytes), and the build stopped."""
    root = make_site(tmp_path)
    for stem in ("n" * 249, "é" * 124 + "n"):  # (two bytes a letter)
        (root / "docs" / f"{stem}.md").write_text("# My notes\n")
        shutil.copyfile(EXAMPLE / f"{S2}.jsonl", root / "docs" / f"{stem}.jsonl")
    site = build(root)
    moved = [folder for folder in site.iterdir() if folder.name.endswith("-session")]
    assert len(moved) == 2 and all(len(folder.name.encode()) <= 255 for folder in moved)
    for folder in moved:
        assert "Plan the sync design" in soup(folder / "index.html").select_one("article").get_text()

"""The nav and the index of a site of many sessions, or of a session of many
subagents: long lists in groups (option ``nav_group_size``), each page carrying its
own group alone; an index longer than a page in parts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.cli import main

from .conftest import ROOT, build, copy_tree, make_site


def session_id(number: int) -> str:
    return f"5e5e5e5e-0000-4000-8000-{number:012d}"


def write_session(folder: Path, number: int, day: str, agents: int = 0) -> None:
    """A session of one prompt and its answer, started on ``day``, with ``agents``
    subagents in files of their own."""
    sid = session_id(number)
    lines = [
        {"type": "user", "message": {"role": "user", "content": f"Prompt of session {number}"}},
        {
            "type": "assistant",
            "message": {
                "id": f"m{number}",
                "role": "assistant",
                "model": "m",
                "content": [{"type": "text", "text": "Done."}],
            },
        },
    ]
    for index, line in enumerate(lines):
        line.update(uuid=f"{index:08x}-0000-4000-8000-{number:012d}", parentUuid=f"{index - 1:08x}-0000-4000-8000-{number:012d}" if index else None,
                    sessionId=sid, timestamp=f"{day}T10:{number % 60:02d}:0{index}.000Z")  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{sid}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    for agent in range(agents):
        path = folder / sid / "subagents" / f"agent-a{agent:03d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"type": "user", "isSidechain": True, "agentId": f"a{agent:03d}", "sessionId": sid, "uuid": f"ffffffff-0000-4000-8000-{agent:012d}",
                 "timestamp": f"{day}T11:00:{agent % 60:02d}.000Z", "message": {"role": "user", "content": f"Task of agent {agent}"}}  # fmt: skip
        path.write_text(json.dumps(entry) + "\n", encoding="utf-8")


def nav_of(page: Path) -> BeautifulSoup:
    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("nav.md-nav--primary")


def labels(nav: BeautifulSoup) -> list[str]:
    """The titles of the nav's sections and links, in order."""
    found = []
    for item in nav.select("label.md-nav__link, a.md-nav__link"):
        text = " ".join(item.get_text(" ").split())
        if text and (not found or found[-1] != text):
            found.append(text)
    return found


DAYS = ["2025-03-01", "2025-03-02", "2025-03-02", "2025-03-05", "2025-03-09", "2025-03-09", "2025-03-09"]


def test_a_folder_of_many_sessions_lists_them_in_groups_named_by_their_days(tmp_path: Path) -> None:
    root = make_site(tmp_path, "theme:\n  name: material\n  features: [navigation.prune]\n", "nav_group_size: 3")
    for number, day in reversed(list(enumerate(DAYS))):  # written newest first: the nav puts them in date order
        write_session(root / "docs" / "project", number, day)
    (root / "docs" / "project" / "notes.md").write_text("# Notes\n")
    site = build(root)
    names = labels(nav_of(site / "project" / "notes" / "index.html"))  # in the folder: its branch of the nav
    groups = ["2025-03-01 – 2025-03-02", "2025-03-05 – 2025-03-09", "2025-03-09"]
    assert [name for name in names if name in groups] == groups  # oldest first
    # Every session is in the site's nav once, under its group; the folder's other page stays.
    config = json.loads(
        BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
        .select_one("#__config")
        .get_text()
    )
    assert "navigation.prune" in config["features"]
    pages = sorted(site.glob("project/5e5e5e5e-*/index.html"))
    assert len(pages) == 7
    assert (site / "project" / "notes" / "index.html").is_file()
    # A session's page carries its own group, and each other group as one link (to its
    # first session), not the sessions in it.
    for number, others in ((6, {0, 3}), (4, {0, 3, 5, 6})):
        nav = nav_of(site / "project" / session_id(number) / "index.html")
        linked = {a["href"].rstrip("/").rsplit("/", 1)[-1] for a in nav.select("a[href]")}
        assert {n for n in range(7) if session_id(n) in linked} == others
        assert "2025-03-01 – 2025-03-02" in labels(nav)
    # Previous and next go through every session, in date order.
    order = [session_id(n) for n in range(7)]
    for number in range(1, 6):
        page = BeautifulSoup(
            (site / "project" / order[number] / "index.html").read_text(encoding="utf-8"), "html.parser"
        )
        previous, following = page.select_one("link[rel=prev]"), page.select_one("link[rel=next]")
        assert previous["href"].rstrip("/").endswith(order[number - 1])
        assert following["href"].rstrip("/").endswith(order[number + 1])


def test_two_groups_of_one_day_are_told_apart(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="nav_group_size: 2")
    for number in range(4):
        write_session(root / "docs" / "p", number, "2025-04-04")
    names = labels(nav_of(build(root) / "index.html"))
    assert "2025-04-04 (1–2)" not in names and "2025-04-04" in names and "2025-04-04 (3–4)" in names


def test_a_session_of_many_subagents_lists_them_in_numbered_groups(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="nav_group_size: 2")
    write_session(root / "docs" / "p", 1, "2025-04-04", agents=5)
    site = build(root)
    names = labels(nav_of(site / "index.html"))
    assert [name for name in names if name.startswith("Subagents")] == ["Subagents 1–2", "Subagents 3–4", "Subagents 5"]
    agent_pages = sorted((site / "p" / session_id(1)).glob("agent-*/index.html"))
    assert len(agent_pages) == 5
    links = {a["href"] for a in nav_of(site / "index.html").select("a[href]")}
    assert sum(1 for href in links if re.search(r"/agent-a00\d/$", href)) == 5  # each once, in some group


def test_the_top_of_a_session_of_many_subagents_links_a_hundred_and_counts_the_rest(tmp_path: Path) -> None:
    """A session of thousands of subagents would otherwise list them all at the top
    of its first page: about 150 bytes each."""
    write_session(tmp_path / "in", 1, "2025-04-04", agents=103)
    assert main(["convert", str(tmp_path / "in"), "-o", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / session_id(1) / "index.md").read_text(encoding="utf-8")
    top = page[page.index("**Subagents**") :]
    linked = re.findall(r"^ *- \[Agent · Task of agent \d+\]\(agent-a\d+\.md\)$", top, flags=re.MULTILINE)
    assert len(set(linked)) == len(linked) == 100
    assert re.search(r"^ *- and 3 more subagents$", top, flags=re.MULTILINE)
    assert len(list((tmp_path / "out").rglob("agent-a*.md"))) == 103  # each still has its page


def test_an_explicit_nav_groups_a_sessions_subagents_too(tmp_path: Path) -> None:
    nav = f"nav:\n  - Home: index.md\n  - The session: p/{session_id(1)}.jsonl\n"
    root = make_site(tmp_path, nav, "nav_group_size: 2")
    write_session(root / "docs" / "p", 1, "2025-04-04", agents=3)
    names = labels(nav_of(build(root) / "index.html"))
    assert "The session" in names and "Subagents 1–2" in names and "Subagents 3" in names


def test_lists_are_whole_up_to_the_group_size_or_when_it_is_zero(tmp_path: Path) -> None:
    for size, grouped in (("0", False), ("7", False), ("6", True)):
        root = make_site(tmp_path / size, plugin_options=f"nav_group_size: {size}")
        for number, day in enumerate(DAYS):
            write_session(root / "docs" / "project", number, day)
        names = labels(nav_of(build(root) / "index.html"))
        assert ("2025-03-01 – 2025-03-09" in names) is grouped


def test_an_index_longer_than_a_page_goes_on_in_parts(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="page_size: 3000")
    for number in range(40):
        write_session(root / "docs" / "project", number, f"2025-05-{1 + number % 28:02d}")
    site = build(root)
    pages = [site / "project" / "index.html", *sorted((site / "project").glob("transcripts-part-*/index.html"), key=lambda p: int(p.parent.name.rsplit("-", 1)[1]))]
    assert len(pages) > 2
    soups = [BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser") for page in pages]
    # Every session once, newest first from the first part to the last.
    listed = [a["href"].rstrip("/").rsplit("/", 1)[-1] for soup in soups for a in soup.select("article table a[href]")]
    assert sorted(listed) == sorted(session_id(n) for n in range(40))
    starts = {session_id(n): (f"2025-05-{1 + n % 28:02d}", n) for n in range(40)}
    days = [starts[sid][0] for sid in listed]
    assert days == sorted(days, reverse=True)
    # The totals at the top of every part (the stylesheet fits the table to a phone
    # below them), the total row at the end of the last.
    assert all(soup.select_one("article .ct-totals ~ table") for soup in soups)
    assert [soup.select("article table tr")[-1].get_text(" ").split()[0] == "total" for soup in soups] == [False] * (len(soups) - 1) + [True]
    # Each part leads to the next and back; none of them is in the nav.
    second = [a["href"] for a in soups[1].select("article a[href]")]
    assert "../" in second and "../transcripts-part-3/" in second
    nav = [a["href"] for a in soups[0].select("nav.md-nav--primary a[href]")]
    assert not [href for href in nav if "transcripts-part" in href]


def test_the_command_line_writes_the_parts_of_the_index_too(tmp_path: Path) -> None:
    from mkdocs_claude_transcripts.convert import write_folder_rest
    from mkdocs_claude_transcripts.pipeline import RenderOptions, SourceFile, convert_session, discover

    for number in range(40):
        write_session(tmp_path / "in", number, "2025-05-05")
    files = [SourceFile(p.relative_to(tmp_path / "in").as_posix(), str(p)) for p in (tmp_path / "in").rglob("*.jsonl")]
    options = RenderOptions(page_size=3000)
    converted = [convert_session(source, options) for source in discover(files).sessions]
    write_folder_rest(converted, tmp_path / "out", "material", options)
    parts = sorted((tmp_path / "out").glob("transcripts-part-*.md"))
    assert (tmp_path / "out" / "index.md").is_file() and len(parts) > 1
    text = "".join(p.read_text(encoding="utf-8") for p in [tmp_path / "out" / "index.md", *parts])
    assert all(text.count(f"({session_id(n)}/index.md)") == 1 for n in range(40))


def test_the_index_links_sessions_whose_file_names_a_url_cannot_hold_as_they_are(tmp_path: Path) -> None:
    """A space, brackets, an ampersand, a letter of another alphabet in a folder's or
    a file's name: each session's row links to its page (and a strict build checks it)."""
    root = make_site(tmp_path)
    names = ["my notes/s1.jsonl", "プロジェクト/s2.jsonl", "a (b) & c/s 3.jsonl", "plain/s4.jsonl"]
    for number, name in enumerate(names):
        entry = {"type": "user", "uuid": f"u{number}", "parentUuid": None, "sessionId": f"s{number}",
                 "timestamp": "2025-06-01T10:00:00Z", "message": {"role": "user", "content": f"Prompt number {number}"}}  # fmt: skip
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    site_dir = build(root)
    index = BeautifulSoup((site_dir / "transcripts" / "index.html").read_text(encoding="utf-8"), "html.parser")
    linked = {a.get_text(strip=True) for a in index.select("article table a[href]")}
    assert all(any(f"Prompt number {number}" in text for text in linked) for number in range(len(names))), linked


def write_line_of_agents(folder: Path, depth: int) -> str:
    """A session whose agent starts an agent, which starts one, ``depth`` deep."""
    sid = session_id(1)

    def entry(n: int, role: str, content: object, **fields: object) -> str:
        line = {"type": role, "uuid": f"{n:08x}-0000-4000-8000-{fields.pop('tag', 0):012d}", "parentUuid": None, "sessionId": sid,
                "timestamp": "2025-01-01T10:00:00.000Z", "message": {"id": f"m{n}", "role": role, "content": content}, **fields}  # fmt: skip
        return json.dumps(line) + "\n"

    def task(level: int) -> list[dict]:
        return [{"type": "tool_use", "id": f"toolu_{level}", "name": "Task", "input": {"description": f"level {level + 1}", "prompt": f"Go to level {level + 1}"}}]

    agents = folder / sid / "subagents"
    agents.mkdir(parents=True)
    (folder / f"{sid}.jsonl").write_text(entry(1, "user", "Start") + entry(2, "assistant", task(0)), encoding="utf-8")
    for level in range(1, depth + 1):
        own = {"isSidechain": True, "agentId": f"a{level}", "tag": level}
        text = entry(1, "user", f"Go to level {level}", **own) + (entry(2, "assistant", task(level), **own) if level < depth else "")
        (agents / f"agent-a{level}.jsonl").write_text(text, encoding="utf-8")
        meta = {"agentType": "general-purpose", "description": f"level {level}", "toolUseId": f"toolu_{level - 1}"}
        (agents / f"agent-a{level}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return sid


def test_agents_started_hundreds_deep_are_listed_under_the_tenth(tmp_path: Path) -> None:
    # Material's nav template calls itself for each level of the nav: a line of 300
    # agents stopped the build with a RecursionError.
    root = make_site(tmp_path)
    sid = write_line_of_agents(root / "docs", 300)
    site = build(root)
    levels = [f"general-purpose · level {n}" for n in range(1, 301)]
    nav = nav_of(site / sid / "agent-a300" / "index.html")
    # the first ten nested, the 290 agents below them listed under the tenth, in groups
    assert [label for label in labels(nav) if label in levels] == levels[:10] + levels[260:]
    assert "Subagents 251–290" in labels(nav)
    assert max(len(ul.find_parents("ul")) for ul in nav.select("ul")) < 15


def test_sessions_take_their_place_in_a_nav_awesome_pages_makes_after_this_plugin(tmp_path: Path) -> None:
    """awesome-pages finds a folder of the nav by the folder of its pages: it sees the
    nav as MkDocs makes it, whichever of the two is listed first."""
    pytest.importorskip("mkdocs_awesome_pages_plugin")
    root = make_site(tmp_path, "  - awesome-pages\n")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "sessions")
    (root / "docs" / ".pages").write_text("nav:\n  - index.md\n  - sessions\n")
    (root / "docs" / "sessions" / ".pages").write_text("title: Agent sessions\n")
    # and a session of no subagent: a page of its own in the nav, not a section
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Rename the helper"}},
        {"type": "assistant", "message": {"role": "assistant", "model": "claude-opus-4-6", "content": [{"type": "text", "text": "Done."}]}},
    ]
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId="5a1e0000-0000-4000-8000-000000000001",
                     timestamp=f"2025-05-05T10:00:0{number}.000Z", parentUuid=f"{number - 1:08x}-0000-4000-8000-000000000000" if number else None)  # fmt: skip
    (root / "docs" / "sessions" / "5a1e0000-0000-4000-8000-000000000001.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    site = build(root)  # strict
    nav = " ".join(BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").select_one("nav.md-nav--primary").get_text(" ").split())
    assert "Agent sessions" in nav
    assert "Fix metric units in the forecast command" in nav
    assert "Rename the helper" in nav


def test_a_literate_nav_lists_transcripts_by_path(tmp_path: Path) -> None:
    """As an explicit nav in mkdocs.yml does: literate-nav writes the nav from SUMMARY.md
    once the files are known, after this plugin has seen them."""
    pytest.importorskip("mkdocs_literate_nav")
    s1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"
    root = make_site(tmp_path, "  - literate-nav\nexclude_docs: SUMMARY.md\n")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "sessions")
    (root / "docs" / "SUMMARY.md").write_text(
        f"* [Home](index.md)\n* Sessions\n    * [Units](sessions/{s1}.jsonl)\n    * [Old agent](sessions/agent-b7e20f1.jsonl)\n"
    )
    site = build(root)  # strict
    links = {a.get_text(" ", strip=True): a["href"] for a in BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").select("nav.md-nav--primary a[href]")}
    assert links["Old agent"] == "sessions/d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86/agent-b7e20f1/"
    assert f"sessions/{s1}/" in links.values()
    assert f"sessions/{s1}/agent-a41c7e2/" in links.values()  # under its session
    assert not any(href.endswith(".jsonl") for href in links.values()), links

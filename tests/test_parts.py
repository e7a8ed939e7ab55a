"""Long conversations are shown in parts: pages cut before a prompt, linked to each other."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from mkdocs.structure.pages import Page

from mkdocs_claude_transcripts import parallel
from mkdocs_claude_transcripts.pipeline import SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render.context import RenderOptions
from mkdocs_claude_transcripts.render.flavour import FLAVOURS, one_file
from mkdocs_claude_transcripts.render.guard import SECTION
from mkdocs_claude_transcripts.render.markdown import LONG_CODE_LINE, LONG_LINE
from mkdocs_claude_transcripts.render.text import first_words

from .conftest import build, built_pages, make_site

SESSION = "7a7a7a7a-1111-4222-8333-444444444444"


def write_long_session(folder: Path, turns: int = 12) -> Path:
    """A session of ``turns`` prompts, each answered with a Task call, the last of
    which starts a subagent (in its own file)."""
    lines, parent = [], None
    for turn in range(turns):
        for kind, extra in (
            ("user", {"message": {"role": "user", "content": f"Prompt {turn}: " + "please look at this. " * 30}}),
            ("assistant", {"message": {"id": f"msg_{turn}", "role": "assistant", "model": "m", "content": [
                {"type": "text", "text": f"Answer {turn}: " + "here is what I found. " * 40},
                {"type": "tool_use", "id": f"toolu_{turn}", "name": "Task", "input": {"description": f"Task {turn}", "prompt": "go"}}]}}),
            ("user", {"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{turn}", "content": f"done {turn}\\nagentId: a{turn:03d}"}]}}),
        ):  # fmt: skip
            uuid = f"{len(lines):08x}-0000-4000-8000-000000000000"
            lines.append({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
                          "timestamp": f"2025-05-05T10:{len(lines) // 60:02d}:{len(lines) % 60:02d}.000Z", **extra})  # fmt: skip
            parent = uuid
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    agent = folder / SESSION / "subagents" / f"agent-a{turns - 1:03d}.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_text(json.dumps({"type": "user", "isSidechain": True, "agentId": f"a{turns - 1:03d}", "sessionId": SESSION,
                                 "uuid": "ffffffff-0000-4000-8000-000000000000", "message": {"role": "user", "content": "go"}}) + "\n")  # fmt: skip
    return path


def convert(folder: Path, page_size: int):
    files = [SourceFile(p.relative_to(folder).as_posix(), str(p)) for p in folder.rglob("*") if p.is_file()]
    return convert_session(discover(files).sessions[0], RenderOptions(page_size=page_size))


def test_a_long_session_is_cut_into_parts_before_prompts(tmp_path: Path) -> None:
    converted = convert(write_long_session(tmp_path).parent, page_size=6000)
    parts = [page for page in converted.pages if page.agent_id is None]
    assert len(parts) > 2
    assert [page.part for page in parts] == list(range(1, len(parts) + 1))
    for page in parts[1:]:
        first_block = re.search(r"^(!!!|\?\?\?) (ct-[a-z-]+)", page.markdown, re.MULTILINE)
        assert first_block.group(2) == "ct-user"  # each part starts with a prompt
    bodies = [page.markdown.split("\n---\n", 1)[1] for page in parts]
    assert all(len(body) < 6000 * 2 for body in bodies)
    anchors = [a for body in bodies for a in re.findall(r"id='(m-[0-9a-f]+)'", body)]
    assert len(anchors) == len(set(anchors)) == 12 * 2  # each prompt and answer once, in some part


@pytest.mark.parametrize("page_size", range(5000, 12001, 700))
def test_a_turn_that_fits_in_a_part_is_never_cut_whatever_the_page_size(tmp_path: Path, page_size: int) -> None:
    # Each turn weighs about 2,500: a turn the part's end falls in starts the next part,
    # rather than its prompt and answer ending this one and its tool call the next.
    converted = convert(write_long_session(tmp_path).parent, page_size=page_size)
    parts = [page for page in converted.pages if page.agent_id is None]
    assert len(parts) > 1
    firsts = [re.search(r"^(!!!|\?\?\?) (ct-[a-z-]+)", page.markdown, re.MULTILINE).group(2) for page in parts[1:]]
    assert firsts == ["ct-user"] * len(firsts)


def test_the_top_of_the_first_page_counts_in_its_size(tmp_path: Path) -> None:
    """A session of hundreds of subagents lists a hundred of them at the top of its
    first page: that page holds fewer messages, not a page of messages more."""
    folder = write_long_session(tmp_path, turns=40).parent
    for number in range(300):
        agent = folder / SESSION / "subagents" / f"agent-b{number:03d}.jsonl"
        agent.write_text(json.dumps({"type": "user", "isSidechain": True, "agentId": f"b{number:03d}", "sessionId": SESSION,
                                     "uuid": f"eeeeeeee-0000-4000-8000-{number:012d}", "message": {"role": "user", "content": f"Look at module {number}"}}) + "\n")  # fmt: skip
    pages = convert(folder, page_size=8_000).pages
    parts = [page for page in pages if page.agent_id is None]
    linked = re.findall(r"\(agent-[ab]\d{3}\.md\)", parts[0].markdown)  # the list of subagents, at the top
    more = re.search(r"and (\d+) more subagents", parts[0].markdown)
    assert len(linked) == 100 and more and 100 + int(more.group(1)) == len({page.agent_id for page in pages} - {None}) > 300
    assert all(len(page.markdown) < 8_000 * 3 // 2 for page in parts)


def test_nothing_is_cut_when_the_session_is_short_or_splitting_is_off(tmp_path: Path) -> None:
    folder = write_long_session(tmp_path).parent
    assert len([p for p in convert(folder, page_size=10_000_000).pages if p.agent_id is None]) == 1
    assert len([p for p in convert(folder, page_size=0).pages if p.agent_id is None]) == 1


def test_parts_link_to_each_other_and_the_subagent_back_to_its_part(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="page_size: 6000")
    write_long_session(root / "docs" / "s")
    site = build(root, strict=True)
    folder = site / "s" / SESSION
    parts = [folder / "index.html", *sorted(folder.glob("part-*/index.html"), key=lambda p: int(p.parent.name[5:]))]
    assert len(parts) > 2
    first = BeautifulSoup(parts[0].read_text(encoding="utf-8"), "html.parser")
    listed = [a["href"] for a in first.select("article a[href]") if a["href"].startswith("part-")]
    assert listed[: len(parts) - 1] == [f"part-{n}/" for n in range(2, len(parts) + 1)]  # the list of parts
    assert listed[-1] == "part-2/"  # and the next part, at the bottom
    second = BeautifulSoup(parts[1].read_text(encoding="utf-8"), "html.parser")
    hrefs = [a["href"] for a in second.select("article a[href]")]
    assert "../" in hrefs and "../part-3/" in hrefs  # previous and next
    # the agent's page links back to the part that holds the call that started it
    agent = BeautifulSoup((folder / "agent-a011" / "index.html").read_text(encoding="utf-8"), "html.parser")
    back = next(a["href"] for a in agent.select("article a[href]") if "#t-" in a["href"])
    page, anchor = back.split("#")
    target = (folder / "agent-a011" / page / "index.html").resolve()
    assert target == parts[-1].resolve()
    assert BeautifulSoup(target.read_text(encoding="utf-8"), "html.parser").find(id=anchor)
    # parts are not in the nav; the session and its subagent are
    nav = " ".join(BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").select_one("nav.md-nav--primary").get_text(" ").split())
    assert "part 2" not in nav and "Task 11" in nav


BIG = "6c6c6c6c-1111-4222-8333-444444444444"


def write_big_messages(folder: Path, lines: int = 4000) -> Path:
    """A session whose single messages are each longer than a page: a command's
    output, a file read back (numbered), and a pasted log."""
    output = "\n".join(f"out {i}: a line of the build's output" for i in range(lines))
    source = "\n".join(f"value_{i} = {i}  # a line of code" for i in range(lines))
    read = "\n".join(f"{i + 1:6}\t{line}" for i, line in enumerate(source.split("\n")))
    entries: list[dict] = []

    def add(kind: str, message: dict, **extra) -> None:
        uuid = f"{len(entries):08x}-0000-4000-8000-000000000000"
        entries.append({"type": kind, "uuid": uuid, "parentUuid": entries[-1]["uuid"] if entries else None,
                        "sessionId": BIG, "timestamp": f"2025-05-05T10:00:{len(entries):02d}.000Z", "message": message, **extra})  # fmt: skip

    add("user", {"role": "user", "content": "build it"})
    add("assistant", {"id": "a1", "role": "assistant", "model": "m", "content": [
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}},
        {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/w/values.py"}}]})  # fmt: skip
    add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": output}]})
    add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": read}]},
        toolUseResult={"type": "text", "file": {"filePath": "/w/values.py", "content": source, "startLine": 1, "numLines": lines, "totalLines": lines}})  # fmt: skip
    add("user", {"role": "user", "content": "Here is the log:\n\n" + "\n".join(f"pasted {i}: a line of the log" for i in range(lines))})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{BIG}.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    return path


def test_a_message_longer_than_a_page_goes_on_over_several(tmp_path: Path) -> None:
    page_size = 20_000
    root = make_site(tmp_path, plugin_options=f"page_size: {page_size}")
    write_big_messages(root / "docs" / "s")
    site = build(root, strict=True)
    folder = site / "s" / BIG
    pages = [folder / "index.html", *folder.glob("part-*/index.html")]
    assert len(pages) > 6
    text = {page: BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("article") for page in pages}
    # Every line of each message is shown once, whatever page it landed on.
    blocks = [block for article in text.values() for block in article.find_all(["details", "div"], recursive=False)]
    shown = " ".join(block.get_text(" ") for block in blocks)
    for prefix in ("out", "pasted"):
        assert sorted(int(n) for n in re.findall(rf"\b{prefix} (\d+):", shown)) == list(range(4000))
    assert sorted(int(n) for n in re.findall(r"\bvalue_(\d+)\s+=", shown)) == list(range(4000))
    # Numbered code goes on from where its piece ended.
    numbers = sorted(int(span["data-linenos"]) for article in text.values() for span in article.select("span.linenos"))
    assert numbers == list(range(1, 4001))
    assert len([1 for article in text.values() if article.select("span.linenos")]) > 1  # on several pages
    # Continued blocks say so, and carry no second permalink: every id is once in the site.
    assert any("(continued)" in article.get_text() for article in text.values())
    ids = [tag["id"] for article in text.values() for tag in article.select("[id]") if tag["id"].startswith(("m-", "t-"))]
    assert len(ids) == len(set(ids))
    # No page is much longer than a page: the Markdown of each is under twice page_size.
    converted = convert(root / "docs" / "s", page_size=page_size)
    assert max(len(page.markdown) for page in converted.pages) < 2 * page_size
    # Tool output stays out of the search index, the pasted log is in it.
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "pasted 3999" in index and "out 3999" not in index and "value_3999" not in index


def test_parts_that_go_on_with_a_long_message_are_named_by_its_first_words(tmp_path: Path) -> None:
    converted = convert(write_big_messages(tmp_path / "s").parent, page_size=20_000)
    listed = re.findall(r"\[Part (\d+) · \d\d:\d\d · ([^\]]*)\]", converted.pages[0].markdown)
    log = " ".join(("Here is the log:\n\n" + "\n".join(f"pasted {i}: a line of the log" for i in range(4000))).split())[:60]
    named = [number for number, words in listed if words.replace("\\", "") == log]
    assert len(named) > 2  # the parts that hold pieces of the pasted log, by its first 60 characters


@pytest.mark.parametrize("width", [0, 1, 5, 60])
@pytest.mark.parametrize(
    "text",
    ["", "   ", "one", "  two  words ", "a\u00a0b\u2028c\u3000d\x1ce\x85f\tg\nh", "x" * 200, ("word " * 50) + " " * 500 + "end", "é " * 100],
)
def test_first_words_are_those_of_the_whole_text_collapsed(text: str, width: int) -> None:
    assert first_words(text, width) == " ".join(text.split())[:width]


def test_a_table_longer_than_a_page_goes_on_with_its_header(tmp_path: Path) -> None:
    """A pasted table of thousands of rows is cut between rows; each part's table has
    the header again, and every row is shown once, in order."""
    page_size = 20_000
    table = "| name | value |\n|:---|---:|\n" + "".join(f"| row {n} | {n * 7} |\n" for n in range(3000))
    session = "aeaeaeae-1111-4222-8333-444444444444"
    prompt = {"type": "user", "uuid": "00000000-0000-4000-8000-000000000000", "sessionId": session, "timestamp": "2025-05-05T10:00:00.000Z",
              "message": {"role": "user", "content": "Here it is:\n\n" + table}}  # fmt: skip
    root = make_site(tmp_path, config="markdown_extensions:\n  - tables\n", plugin_options=f"page_size: {page_size}")
    (root / "docs" / "s").mkdir(parents=True)
    (root / "docs" / "s" / f"{session}.jsonl").write_text(json.dumps(prompt) + "\n", encoding="utf-8")
    folder = build(root, strict=True) / "s" / session
    pages = [folder / "index.html", *sorted(folder.glob("part-*/index.html"), key=lambda p: int(p.parent.name.split("-")[1]))]
    assert len(pages) > 3
    rows = []
    for page in pages:
        tables = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select("article table")
        assert len(tables) == 1
        assert [th.get_text() for th in tables[0].select("thead th")] == ["name", "value"]
        rows += [[td.get_text() for td in tr.select("td")] for tr in tables[0].select("tbody tr")]
    assert rows == [[f"row {n}", str(n * 7)] for n in range(3000)]
    assert max(len(page.markdown) for page in convert(root / "docs" / "s", page_size=page_size).pages) < 2 * page_size


def test_rows_of_no_table_and_tables_of_empty_cells_are_cut_into_pages(tmp_path: Path) -> None:
    """Lines of "|" under no header (a query's result pasted) are text, cut as text is;
    "|||" under a header makes a table to Python-Markdown, each cell a tag, cut between
    its rows: with the defaults, every page stays under 1 MB, and every row is shown."""
    rows = "\n".join(f"| {n} | src/app{n % 97}/main.py | {n * 7} |" for n in range(40_000))  # 1.5 MB
    empty = "| a | b | c | d |\n|||||\n" + "\n".join("|||||" for _ in range(100_000))
    session = "6f6f6f6f-1111-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "+----+\n" + rows}},
        {"type": "user", "message": {"role": "user", "content": empty}},
    ]
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:00:0{number}.000Z")
    root = make_site(tmp_path, config="markdown_extensions:\n  - tables\n")
    (root / "docs" / "s").mkdir(parents=True)
    (root / "docs" / "s" / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    pages = list((build(root, strict=True) / "s" / session).rglob("index.html"))
    assert len(pages) > 4 and max(page.stat().st_size for page in pages) < 1_000_000
    soups = [BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser") for page in pages]
    text = "".join(soup.select_one("article").get_text() for soup in soups)
    assert all(f"| {n} | src/app{n % 97}/main.py | {n * 7} |" in text for n in range(0, 40_000, 997))
    assert not any(table.select("td") and "src/app" in table.get_text() for soup in soups for table in soup.select("table"))
    headed = [table for soup in soups for table in soup.select("article table")]
    assert len(headed) > 1 and all([th.get_text() for th in table.select("thead th")] == ["a", "b", "c", "d"] for table in headed)
    assert sum(len(table.select("tbody tr")) for table in headed) == 100_000


def test_every_kind_of_message_cut_small_still_renders_whole(tmp_path: Path) -> None:
    """The golden cases, with pages so small that most of their messages are cut: no
    piece leaves Markdown syntax showing, or a fence or a block open."""
    root = make_site(tmp_path, plugin_options="page_size: 300")
    for case in sorted((Path(__file__).parent / "golden").glob("*.jsonl")):
        (root / "docs" / case.stem).mkdir(parents=True)
        (root / "docs" / case.stem / case.name).write_bytes(case.read_bytes())
    site = build(root, strict=False)
    pages = list(site.rglob("*.html"))
    continued = 0
    for page in pages:
        article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").select_one("article")
        if article is None:
            continue
        text = article.get_text("\n")
        continued += text.count("(continued)")
        for title in article.select("summary, .admonition-title"):
            if title.get_text().endswith("(continued)"):  # a block goes on with something in it
                block = title.parent
                assert block.get_text().strip() != title.get_text().strip() or block.select("img"), page
        shown_outside_code = [line for line in text.split("\n") if line.lstrip().startswith(("```", "!!! ct-", "??? ct-", "<!--ct-"))]
        code = {line for block in article.select("pre, code") for line in block.get_text().split("\n")}
        assert not [line for line in shown_outside_code if line not in code], page
        ids = [tag["id"] for tag in article.select("[id]")]
        assert len(ids) == len(set(ids)), page
        # A message is cut only where a page ends: a page goes on with one message at most.
        titles = [title.get_text().strip() for block in article.find_all(["details", "div"], recursive=False)
                  for title in block.find_all(["summary", "p"], recursive=False, limit=1)]  # fmt: skip
        assert len([title for title in titles if title.endswith("(continued)")]) <= 1, page
    assert continued > 10


def test_a_link_into_a_message_cut_in_pieces_leads_to_the_piece_that_holds_it(tmp_path: Path) -> None:
    """A rewound branch long enough to be cut, with a Task call late in it: the
    subagent's page links back to the part that holds the call."""
    session = "7b7b7b7b-1111-4222-8333-444444444444"
    entries: list[dict] = []

    def add(kind: str, parent: str | None, message: dict) -> str:
        uuid = f"{len(entries) + 1:08x}-0000-4000-8000-000000000000"
        entries.append({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": session,
                        "timestamp": f"2025-05-05T10:00:{len(entries):02d}.000Z", "message": message})  # fmt: skip
        return uuid

    first = add("user", None, {"role": "user", "content": "Start."})
    answer = add("assistant", first, {"id": "a1", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "Started."}]})
    long_text = "\n\n".join(f"Paragraph {i}: " + "words of the abandoned attempt " * 4 for i in range(60))
    tried = add("user", answer, {"role": "user", "content": long_text})
    call = add("assistant", tried, {"id": "a2", "role": "assistant", "model": "m", "content": [
        {"type": "text", "text": long_text},
        {"type": "tool_use", "id": "toolu_late", "name": "Task", "input": {"description": "Late task", "prompt": "go"}}]})  # fmt: skip
    add("user", call, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_late", "content": "done\nagentId: a777"}]})
    again = add("user", answer, {"role": "user", "content": "Let us do something else."})  # the rewind
    add("assistant", again, {"id": "a3", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "Done."}]})
    root = make_site(tmp_path, config="validation:\n  anchors: warn\n", plugin_options="page_size: 4000\njobs: 1")
    folder = root / "docs" / "s"
    (folder / session / "subagents").mkdir(parents=True)
    (folder / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    (folder / session / "subagents" / "agent-a777.jsonl").write_text(json.dumps(
        {"type": "user", "isSidechain": True, "agentId": "a777", "sessionId": session, "uuid": "ffffffff-0000-4000-8000-000000000000",
         "message": {"role": "user", "content": "go"}}) + "\n")  # fmt: skip
    site = build(root, strict=True)  # every link to an anchor checked by MkDocs
    pages = site / "s" / session
    assert len(list(pages.glob("part-*/index.html"))) > 2
    agent = BeautifulSoup((pages / "agent-a777" / "index.html").read_text(encoding="utf-8"), "html.parser")
    back = next(a["href"] for a in agent.select("article a[href]") if "#t-toolu_late" in a["href"])
    target = (pages / "agent-a777" / back.split("#")[0] / "index.html").resolve()
    assert target != (pages / "index.html").resolve()  # not the page where the branch begins
    assert BeautifulSoup(target.read_text(encoding="utf-8"), "html.parser").find(id="t-toolu_late")


def test_pages_of_highlighted_code_stay_under_a_megabyte(tmp_path: Path) -> None:
    """Highlighted code makes many times its size in HTML (a tag a word): a file read
    back whole is shown in parts that each stay well under 1 MB, with the defaults."""
    source = "\n".join(f"x{i} = f(a[{i}], b.c({i}, d=e[{i}]) + g(h, i, j), k={{'l': {i}}})" for i in range(3000))
    read = "\n".join(f"{n + 1:6}\t{line}" for n, line in enumerate(source.split("\n")))
    session = "8c8c8c8c-1111-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Read it."}},
        {"type": "assistant", "message": {"id": "a", "role": "assistant", "model": "m", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/w/big.py"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": read}]},
         "toolUseResult": {"type": "text", "file": {"filePath": "/w/big.py", "content": source, "startLine": 1, "numLines": 3000, "totalLines": 3000}}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, session, entries)
    assert len(pages) > 2
    assert max(page.stat().st_size for page in pages) < 1_000_000


def test_pages_of_text_written_as_entities_stay_under_a_megabyte(tmp_path: Path) -> None:
    """Each "<", ">" and "&" of code or of text shown as it is becomes an entity, four or
    five times its size: a command's output of markup, and lines of marks in a quote
    (shown as code), are shown in parts that each stay under 1 MB."""
    markup = "\n".join(f"<tr><td>&lt;{i}&gt;</td><td><a href='#{i}'>&amp;</a></td></tr>" for i in range(40_000))  # 2.4 MB
    quoted = "\n>\n".join("> " + "&<" * 20_000 for _ in range(60))  # 2.4 MB
    session = "7e7e7e7e-1111-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Print it."}},
        {"type": "assistant", "message": {"id": "a", "role": "assistant", "model": "m", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat table.html"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": markup}]}},
        {"type": "assistant", "message": {"id": "b", "role": "assistant", "model": "m", "content": [{"type": "text", "text": quoted}]}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, session, entries)
    assert max(page.stat().st_size for page in pages) < 1_000_000
    text = "".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").get_text() for page in pages)
    assert text.count("<tr><td>") == 40_000 and text.count("&<" * 20_000) == 60


def test_pages_stay_under_a_megabyte_when_single_lines_are_megabytes_long(tmp_path: Path) -> None:
    """A page is cut between lines: a line of megabytes (a minified file read back, a
    blob of output, a pasted prompt, a long answer or description) is shown up to
    LONG_LINE characters (LONG_CODE_LINE in highlighted code), with how many are left
    out, and every page stays under 1 MB."""
    blob = "".join(chr(ord("a") + (i * 7) % 26) + ("," if i % 5 else " ") for i in range(1_500_000))  # 3 MB
    minified = "var a=f(b,c);" * 150_000  # 1.95 MB of code on one line
    session = "9d9d9d9d-1111-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Start " + blob}},
        {"type": "assistant", "message": {"id": "a", "role": "assistant", "model": "m", "content": [
            {"type": "text", "text": "Answer " + blob},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat out.json", "description": "Describe " + blob}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Output " + blob}]}},
        {"type": "assistant", "message": {"id": "b", "role": "assistant", "model": "m", "content": [
            {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/w/app.min.js"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "     1\t" + minified}]},
         "toolUseResult": {"type": "text", "file": {"filePath": "/w/app.min.js", "content": minified, "startLine": 1, "numLines": 1, "totalLines": 1}}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, session, entries)
    assert max(page.stat().st_size for page in pages) < 1_000_000
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").get_text() for page in pages)
    for start, line, limit in (("Start ", blob, LONG_LINE), ("Answer ", blob, LONG_LINE), ("Output ", blob, LONG_LINE),
                               ("", minified, LONG_CODE_LINE), ("Describe ", blob, LONG_LINE)):  # fmt: skip
        whole, kept = start + line, limit - 64
        assert whole[:kept] in text  # shown up to there, as it is
        assert f"{len(whole) - kept:,} more characters on this line" in text


def test_a_conversation_that_goes_on_is_rendered_again_in_the_sections_that_changed(tmp_path: Path, monkeypatch) -> None:
    """A conversation that goes on changes its first page's span, summary and parts,
    and its last page's end, not the messages before: a rebuild renders the former
    alone (the HTML of the others is in the cache, though a worker made it builds
    ago), and every page is the one a build without the cache makes."""
    monkeypatch.setattr(parallel, "_CONVERT_ENOUGH", 0)
    monkeypatch.setattr(parallel, "_RENDER_ENOUGH", 0)
    # A hook writes down the anchors MkDocs is told each page has (to check links to them).
    (tmp_path / "hooks.py").write_text(ANCHORS_HOOK, encoding="utf-8")
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n", plugin_options="page_size: 10000\njobs: 2")
    path = write_long_session(root / "docs" / "s")
    build(root)  # rendered by workers
    first = site_pages(root)
    build(root)  # from the cache
    assert site_pages(root) == first and "Answer 0:" in first[f"{SESSION}/index.html"]
    last = max(first, key=lambda name: (name.startswith(SESSION) and "agent" not in name, name))
    assert "Answer 11:" in first[last]
    parent = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["uuid"]
    line = {"type": "assistant", "uuid": "eeeeeeee-0000-4000-8000-000000000000", "parentUuid": parent, "sessionId": SESSION,
            "timestamp": "2025-05-05T11:00:00.000Z",
            "message": {"id": "msg_99", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "Answer 99: one more."}]}}  # fmt: skip
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    monkeypatch.setattr(parallel, "_RENDER_ENOUGH", 10**9)  # rendered here, where it is seen
    rendered: list[str] = []
    render = Page.render
    monkeypatch.setattr(Page, "render", lambda page, *a: rendered.append(page.markdown) or render(page, *a))
    build(root)
    again = site_pages(root)
    assert again.keys() == first.keys() and "Answer 99" in again[last]
    assert again[f"{SESSION}/index.html"] != first[f"{SESSION}/index.html"]  # its span and summary
    # The top of the first page and the end of the last were rendered, no message before.
    assert any("This conversation is long" in markdown for markdown in rendered)
    assert any("Answer 99" in markdown for markdown in rendered)
    assert not any("Answer 0:" in markdown or "Answer 11:" in markdown for markdown in rendered)
    anchors = (root / "anchors.json").read_text(encoding="utf-8")
    assert '"t-toolu_0"' in anchors and '"t-toolu_11"' in anchors
    shutil.rmtree(root / ".cache")
    build(root)
    assert site_pages(root) == again
    assert (root / "anchors.json").read_text(encoding="utf-8") == anchors


def test_the_pages_of_a_conversation_that_goes_on_weigh_what_is_rendered_of_them(tmp_path: Path, monkeypatch) -> None:
    """Pages to render weigh what will be rendered of them, which decides whether
    starting workers is worth it: a page of a conversation that went on weighed its
    whole Markdown, though only its top and last sections are rendered again."""
    from mkdocs_claude_transcripts.pages import markdown_of

    monkeypatch.setattr(parallel, "_CONVERT_ENOUGH", 0)
    weighed: list[list[tuple[str, int, int]]] = []  # of each build: page, weight, Markdown
    each = parallel._each

    def recorded(items, work, workers, size, enough):
        if items and isinstance(items[0], parallel.PageJob):
            weighed.append([(job.file.src_uri, size(job), len(markdown_of(job.file))) for job in items])
        return each(items, work, workers, size, enough)

    monkeypatch.setattr(parallel, "_each", recorded)
    root = make_site(tmp_path, plugin_options="page_size: 10000\njobs: 2")
    path = write_long_session(root / "docs" / "s")
    build(root)
    assert weighed[0] and all(weight >= whole for _, weight, whole in weighed[0])  # nothing rendered before
    line = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    line.update(uuid="eeeeeeee-0000-4000-8000-000000000000", parentUuid=line["uuid"], timestamp="2025-05-05T11:00:00.000Z")
    line["message"] = {"id": "msg_99", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "Answer 99: one more."}]}
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    build(root)
    pages = {src_uri: (weight, whole) for src_uri, weight, whole in weighed[1]}
    first, parts = pages.pop(f"s/{SESSION}/index.md"), [value for name, value in pages.items() if "/part-" in name]
    assert len(parts) == 1  # the last part, which the answer ends
    for weight, whole in (first, *parts):
        assert 0 < weight < whole / 3  # its top (the first page), its end (the last)


ANCHORS_HOOK = """
import json, os
seen = {}
def on_post_page(output, page, config):
    seen[page.url] = sorted(page.present_anchor_ids or ())
    return output
def on_post_build(config):
    path = os.path.join(os.path.dirname(config.config_file_path), "anchors.json")
    with open(path, "w") as handle:
        json.dump(seen, handle, sort_keys=True)
"""


def site_pages(root: Path) -> dict[str, str]:
    folder = root / "site" / "s"
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.html"))}


def test_the_line_between_sections_of_a_page_is_the_plugins_alone(tmp_path: Path) -> None:
    """Pages written for other generators, or in one file, do not carry it, nor the
    blank line it adds."""
    converted = convert(write_long_session(tmp_path).parent, page_size=6000)
    first = converted.pages[0].markdown
    assert first.count(f"\n\n{SECTION}\n\n") > 2
    for change in FLAVOURS.values():
        assert change(first) == change(first.replace(f"{SECTION}\n\n", ""))
        assert SECTION not in one_file([page.markdown for page in converted.pages], change)


def test_a_site_that_strips_html_comments_has_its_pages_rendered_whole(tmp_path: Path) -> None:
    """pymdownx.striphtml takes out the comment between two sections of a page: each
    page is then rendered whole, and a rebuild gives the pages a build without the
    cache gives."""
    root = make_site(tmp_path, config="markdown_extensions:\n  - pymdownx.striphtml\n", plugin_options="page_size: 10000\njobs: 1")
    path = write_long_session(root / "docs" / "s")
    build(root)
    first = site_pages(root)
    assert "Answer 11:" in "".join(first.values()) and not any("claude-transcripts:section" in html for html in first.values())
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "uuid": "eeeeeeee-0000-4000-8000-000000000000", "sessionId": SESSION,
                                 "timestamp": "2025-05-05T11:00:00.000Z", "message": {"role": "user", "content": "Prompt 99."}}) + "\n")  # fmt: skip
    build(root)
    again = site_pages(root)
    shutil.rmtree(root / ".cache")
    build(root)
    assert site_pages(root) == again and "Prompt 99." in "".join(again.values())


HEADING_HOOK = """
SECTION = "<!-- claude-transcripts:section -->"
def on_page_markdown(markdown, page, config, files):
    # A heading in the first section of messages of each transcript page.
    if SECTION in markdown:
        at = markdown.index(SECTION) + len(SECTION)
        markdown = markdown[:at] + "\\n\\n## A heading of another plugin's\\n" + markdown[at:]
    return markdown
"""


def test_a_section_with_a_heading_is_rendered_with_every_change_of_its_page(tmp_path: Path) -> None:
    """The table of contents is the rendering's: a section holding a heading (here one
    another plugin added) is never taken from the cache."""
    (tmp_path / "hooks.py").write_text(HEADING_HOOK, encoding="utf-8")
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n", plugin_options="page_size: 10000\njobs: 1")
    path = write_long_session(root / "docs" / "s")
    build(root)
    parent = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["uuid"]
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "user", "uuid": "eeeeeeee-0000-4000-8000-000000000000", "parentUuid": parent, "sessionId": SESSION,
                                 "timestamp": "2025-05-05T11:00:00.000Z", "message": {"role": "user", "content": "Prompt 99."}}) + "\n")  # fmt: skip
    build(root)
    again = site_pages(root)
    assert all(html.count("a-heading-of-another-plugins") >= 2 for name, html in again.items() if name.startswith(SESSION))  # the heading, and the toc
    shutil.rmtree(root / ".cache")
    build(root)
    assert site_pages(root) == again


def test_subagents_come_after_the_agent_that_started_them_in_rounds() -> None:
    import random

    from mkdocs_claude_transcripts import model as m
    from mkdocs_claude_transcripts.render.page import _parents_first

    def by_rounds(agents: list[m.Agent]) -> list[m.Agent]:  # the order by its definition, round by round
        placed: set[str | None] = {None}
        ordered: list[m.Agent] = []
        waiting = list(agents)
        while waiting:
            ready = [a for a in waiting if a.parent in placed] or waiting
            ordered += ready
            placed.update(a.id for a in ready)
            waiting = [a for a in waiting if a.id not in placed]
        return ordered

    rng = random.Random(5)
    for _ in range(300):
        count = rng.randint(0, 30)
        ids = [f"a{n}" for n in range(count)]
        agents = [m.Agent(id=ids[n], parent=rng.choice([None, None, "missing", *ids])) for n in range(count)]
        assert [a.id for a in _parents_first(agents)] == [a.id for a in by_rounds(agents)]
    chain = [m.Agent(id=f"c{n}", parent=f"c{n - 1}" if n else None) for n in range(3000)]
    assert [a.id for a in _parents_first(list(reversed(chain)))] == [a.id for a in chain]


def test_a_turn_that_grows_never_goes_back_a_part() -> None:
    # A session still being written: its last turn grows an answer at a time. Once it
    # starts the next part, it stays there, so that a page seen under mkdocs serve
    # does not come and go.
    from mkdocs_claude_transcripts import model as m
    from mkdocs_claude_transcripts.render.page import split

    before = [(m.Prompt(text=f"p{n}"), []) for n in range(3)]
    limit, placed = 1000, []
    for answers in range(1, 40):
        chunks = [*before, (m.Prompt(text="last"), []), *((m.AssistantText(text=f"a{n}"), []) for n in range(answers))]
        sizes = [100, 100, 100, 50, *([60] * answers)]  # the part before it a third full
        parts = split(chunks, limit, sizes)
        placed.append(next(number for number, part in enumerate(parts) if any(message.text == "last" for message, _ in part)))
    assert placed == sorted(placed) and placed[0] == 0 and placed[-1] == 1


def test_pieces_joined_on_a_page_are_those_a_walk_through_the_message_gives(tmp_path: Path, monkeypatch) -> None:
    """The pieces of a cut message put back together where they land on one page are
    made from the joints ``cut`` found (what closes and opens again the blocks at each
    place), not by reading the message again: for every cut message of the golden
    cases, and for several choices of the cuts kept, they are what going through its
    lines, cutting there alone, gives."""
    import random

    from mkdocs_claude_transcripts.render import page as page_module
    from mkdocs_claude_transcripts.render.cut import _cut_where, cut, cut_at

    messages: list[list[str]] = []
    real_cut = page_module._cut
    monkeypatch.setattr(page_module, "_cut", lambda lines, ctx: messages.append(lines) or real_cut(lines, ctx))
    for case in sorted((Path(__file__).parent / "golden").glob("*.jsonl")):
        (tmp_path / case.stem).mkdir()
        shutil.copy(case, tmp_path / case.stem / case.name)
        convert(tmp_path / case.stem, page_size=300)
    chosen = random.Random(5)
    checked = 0
    for lines in messages:
        pieces = cut(lines, 150)
        if len(pieces) < 3:
            continue
        joints = {start: joint for _, _, start, joint in pieces[1:]}
        assert cut_at(lines, joints) == [piece for piece, *_ in pieces]
        for kept in ({}, dict(list(joints.items())[::2]), {k: v for k, v in joints.items() if chosen.random() < 0.5}):
            walked = _cut_where(lines, lambda index, *_, kept=kept: index in kept, lambda again: None, lambda index: None)
            assert cut_at(lines, kept) == [piece for piece, *_ in walked]
        checked += 1
    assert checked > 20

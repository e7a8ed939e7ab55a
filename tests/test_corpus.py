"""A site built from every transcript of ../shared/corpus (skipped when it is absent).

The expectations here are computed from the JSONL directly, not through the
plugin's own model: which files are transcripts, where their pages must be,
and which texts those pages must show.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.pipeline import Redactor, SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render.context import RenderOptions

from .conftest import build, copy_tree, make_site
from .independent import count as independent_count
from .pagetext import PageText, source_words, tagged


def transcript_files(corpus: Path) -> list[Path]:
    """JSONL files with at least one line that belongs to a Claude Code session."""
    found = []
    for path in sorted(corpus.rglob("*.jsonl")):
        with path.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    data = json.loads(line)
                except ValueError:
                    continue
                if isinstance(data, dict) and "sessionId" in data:
                    found.append(path)
                    break
    return found


def lines(path: Path) -> list[dict]:
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            out.append(data)
    return out


# The site shows transcripts redacted, with home folders shortened (on by default):
# what the pages must show is the text after that.
PUBLISHED = Redactor()


def texts(entry: dict) -> list[str]:
    """The prompt or answer texts an entry carries (not tool results, not thinking)."""
    if entry.get("type") not in ("user", "assistant"):
        return []
    content = (entry.get("message") or {}).get("content")
    if isinstance(content, str):
        return [PUBLISHED.text(content)]
    if isinstance(content, list):
        return [PUBLISHED.text(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"]
    return []


def page_dir(site: Path, corpus_path: Path, corpus: Path) -> Path:
    """Where a transcript's page must be: the file's place in docs, hidden folders shown."""
    relative = corpus_path.relative_to(corpus).with_suffix("")
    parts = [part.lstrip(".") or "_" for part in relative.parts]
    return site.joinpath(*parts)


@pytest.fixture(scope="module")
def corpus_site(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_site(tmp_path_factory.mktemp("corpus"))
    copy_tree(corpus, root / "docs")
    return build(root, strict=False)


def agent_pages(site: Path) -> dict[str, Path]:
    return {p.parent.name.removeprefix("agent-"): p for p in site.rglob("agent-*/index.html") if "-part-" not in p.parent.name}


def with_parts(page: Path) -> list[Path]:
    """A page and the later parts of its conversation (part-2/, agent-x-part-2/, ...)."""
    folder = page.parent
    parts = folder.parent.glob(f"{folder.name}-part-*/index.html") if folder.name.startswith("agent-") else folder.glob("part-*/index.html")
    return [page, *sorted(parts, key=lambda part: int(part.parent.name.rsplit("-", 1)[1]))]  # part-9 before part-10


def nav_links(site: Path) -> set[str]:
    page = BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser")
    nav = page.select_one("nav.md-nav--primary")
    return {(site / a["href"]).resolve().as_posix().rstrip("/") for a in nav.select("a[href]")}


def test_every_session_and_subagent_file_has_a_page_in_the_nav(corpus: Path, corpus_site: Path) -> None:
    in_nav = nav_links(corpus_site)
    agents = agent_pages(corpus_site)
    missing = []
    for path in transcript_files(corpus):
        first = lines(path)[0] if lines(path) else {}
        if path.name.startswith("agent-"):
            agent_id = next((e.get("agentId") for e in lines(path) if e.get("agentId")), path.stem[6:])
            page = agents.get(agent_id)
            if page is None and (page_dir(corpus_site, path, corpus) / "index.html").is_file():
                page = page_dir(corpus_site, path, corpus) / "index.html"  # an agent whose session is missing
        else:
            page = page_dir(corpus_site, path, corpus) / "index.html"
        if page is None or not page.is_file():
            missing.append(f"{path}: no page")
        elif page.parent.resolve().as_posix() not in in_nav:
            missing.append(f"{path}: page {page} not in the nav ({first.get('type')})")
    assert not missing, "\n".join(missing)


def test_every_prompt_and_answer_is_on_its_page(corpus: Path, corpus_site: Path) -> None:
    agents = agent_pages(corpus_site)
    failures = []
    checked = 0
    for path in transcript_files(corpus):
        entries = lines(path)
        own = page_dir(corpus_site, path, corpus) / "index.html"
        if path.name.startswith("agent-"):
            agent_id = next((e.get("agentId") for e in entries if e.get("agentId")), "")
            main, others = with_parts(agents.get(agent_id, own)), []
        else:
            main = with_parts(own)
            others = [p for agent in own.parent.glob("agent-*/index.html") for p in with_parts(agent)]
        # Each page, and the parts of a conversation one after another: a message cut in
        # pieces goes on from one part to the next.
        main_text = [PageText(p) for p in main if p.is_file()]
        other_text = [PageText(p) for p in others]
        main_text.append(PageText.joined(main_text))
        other_text.append(PageText.joined(other_text))
        for number, entry in enumerate(entries, 1):
            inline_sidechain = entry.get("isSidechain") and not path.name.startswith("agent-")
            candidates = other_text if inline_sidechain else main_text
            for text in texts(entry):
                sequence = source_words(text)
                checked += 1
                found = (lambda page: page.has_all(sequence)) if tagged(text) else (lambda page: page.contains(sequence))
                if not any(found(page) for page in candidates):
                    failures.append(f"{path.name}:{number}: {text[:80]!r}")
    assert checked > 100
    assert not failures, f"{len(failures)} texts not found:\n" + "\n".join(failures[:20])


def tool_uses(entry: dict) -> list[dict]:
    content = (entry.get("message") or {}).get("content") if entry.get("type") == "assistant" else None
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"] if isinstance(content, list) else []


def tool_results(entry: dict) -> list[str]:
    content = (entry.get("message") or {}).get("content") if entry.get("type") == "user" else None
    if not isinstance(content, list):
        return []
    out = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            value = block.get("content")
            if isinstance(value, list):
                value = "\n".join(b.get("text", "") for b in value if isinstance(b, dict))
            out.append(PUBLISHED.text(value) if isinstance(value, str) else "")
    return out


def test_every_tool_call_and_result_is_on_its_page(corpus: Path, corpus_site: Path) -> None:
    agents = agent_pages(corpus_site)
    failures = []
    calls = results = 0
    for path in transcript_files(corpus):
        entries = lines(path)
        own = page_dir(corpus_site, path, corpus) / "index.html"
        if path.name.startswith("agent-"):
            agent_id = next((e.get("agentId") for e in entries if e.get("agentId")), "")
            pages = with_parts(agents.get(agent_id, own))
        else:
            pages = with_parts(own) + [p for agent in own.parent.glob("agent-*/index.html") for p in with_parts(agent)]
        titles = [
            summary.get_text(" ")
            for page in pages
            for summary in soup_of(page).select("details > summary, .admonition > .admonition-title")
        ]
        read = [PageText(p) for p in pages]
        read.append(PageText.joined(read))  # a message cut in pieces goes on over the parts
        expected: dict[str, int] = {}
        seen_ids: set[str] = set()
        for number, entry in enumerate(entries, 1):
            for use in tool_uses(entry):
                if use.get("id") in seen_ids:
                    continue
                seen_ids.add(use.get("id"))
                expected[use.get("name", "")] = expected.get(use.get("name", ""), 0) + 1
                calls += 1
            for text in tool_results(entry):
                results += 1
                text = _LINE_NUMBER.sub("", text)  # Read's line numbers are shown as a column
                if not any(page.contains(source_words(text)) for page in read):
                    failures.append(f"{path.name}:{number}: result {text[:60]!r}")
        for name, count in expected.items():
            # A call's block is titled with its tool; an MCP tool's with its server and tool names.
            parts = name.split("__")[1:] if name.startswith("mcp__") else [name]
            shown = sum(1 for title in titles if all(part in title for part in parts) and (len(parts) > 1 or title.strip().startswith(name)))
            if shown < count:
                failures.append(f"{path.name}: {count} {name} calls, {shown} shown")
    assert calls > 100 and results > 100
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:20])


_LINE_NUMBER = re.compile(r"(?m)^ *\d+(?:→|\t)")


def soup_of(page: Path) -> BeautifulSoup:
    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")


def test_no_page_is_larger_than_a_megabyte(corpus_site: Path) -> None:
    largest = max(corpus_site.rglob("*.html"), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size < 1_000_000, largest


def test_every_line_is_accounted_for(corpus: Path) -> None:
    files = [SourceFile(p.relative_to(corpus).as_posix(), str(p)) for p in corpus.rglob("*") if p.is_file()]
    found = discover(files)
    seen = 0
    for source in found.sessions:
        for report in convert_session(source, RenderOptions()).reports:
            total = len(Path(corpus / report.path).read_bytes().splitlines())
            assert report.lines == total, report.path
            assert report.unaccounted() == [], report.path
            assert sum(report.counts().values()) == total
            seen += 1
    assert seen == len(transcript_files(corpus))


def test_every_session_json_agrees_with_an_independent_count(corpus: Path, corpus_site: Path) -> None:
    """Tool calls and errors per tool name exactly; tokens, counted once per
    message.id, within 0.5%. Sidechain lines are not the session's own."""
    checked = 0
    for path in transcript_files(corpus):
        export = page_dir(corpus_site, path, corpus) / "session.json"
        if not export.exists():  # an agent file: its figures are in its session's export
            continue
        stats = json.loads(export.read_text(encoding="utf-8"))["stats"]
        expected = independent_count(path)
        assert stats["tools"] == expected["tools"], path
        for field, value in expected["tokens"].items():
            assert abs(stats["tokens"][field] - value) <= 0.005 * value, (path, field)
        checked += 1
    assert checked >= 10


def test_with_small_pages_every_link_to_a_message_holds(corpus: Path, tmp_path: Path) -> None:
    """Pages so small that long messages are cut into pieces: a strict build in which
    MkDocs checks every link to an anchor (links between parts, to subagents and back)."""
    root = make_site(tmp_path, config="validation:\n  anchors: warn\n", plugin_options="page_size: 20000\njobs: 1\ncache: false")
    copy_tree(corpus, root / "docs")
    site = build(root, strict=True)
    assert any("(continued)" in page.read_text(encoding="utf-8") for page in site.rglob("index.html"))


def test_subagents_of_a_session_copied_without_its_folder_are_shown_from_its_progress_lines(corpus: Path, tmp_path: Path) -> None:
    """Claude Code (2.x) writes each message a subagent sends or gets into the session
    too, in an ``agent_progress`` line: a session file copied alone, without its
    ``subagents/`` folder, shows each such subagent from them, with its page, its
    calls and their results."""
    root = make_site(tmp_path)
    progress: dict[Path, dict[str, list[dict]]] = {}
    for path in transcript_files(corpus):
        found: dict[str, list[dict]] = {}
        for entry in lines(path):
            data = entry.get("data")
            if entry.get("type") == "progress" and isinstance(data, dict) and data.get("type") == "agent_progress":
                found.setdefault(data["agentId"], []).append(data["message"])
        if found and not path.name.startswith("agent-"):
            progress[path] = found
            (root / "docs" / path.name).write_bytes(path.read_bytes())  # the session alone
    assert progress
    site = build(root, strict=False)
    calls = 0
    for path, agents in progress.items():
        for agent_id, messages in agents.items():
            pages = with_parts(site / path.stem / f"agent-{agent_id}" / "index.html")
            read = [PageText(page) for page in pages]
            read.append(PageText.joined(read))
            titles = " ".join(summary.get_text(" ") for page in pages for summary in soup_of(page).select("details > summary"))
            for message in messages:
                for use in tool_uses(message):
                    assert use["name"] in titles, (path.name, agent_id, use["name"])
                    calls += 1
                for text in tool_results(message):
                    assert any(page.contains(source_words(_LINE_NUMBER.sub("", text))) for page in read), (path.name, agent_id, text[:60])
    assert calls > 50

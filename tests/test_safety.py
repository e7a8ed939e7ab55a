"""Transcripts are untrusted: the site shows their text, never runs it, and keeps
their secrets out. Checked on a real strict build of an adversarial site."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from mkdocs.exceptions import Abort, PluginError

from mkdocs_claude_transcripts.cache import Cache

from . import adversarial
from .conftest import ROOT, build, built_pages, copy_images_transcript, copy_tree, make_site

# A site with the extensions real Material sites turn on, snippets included: a
# transcript's --8<-- line must not include a file (check_paths fails the build).
EXTENSIONS = """markdown_extensions:
  - abbr
  - admonition
  - attr_list
  - def_list
  - footnotes
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.highlight
  - pymdownx.inlinehilite
  - pymdownx.snippets:
      check_paths: true
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
  - pymdownx.tasklist
"""
DANGEROUS = ("script", "style", "iframe", "svg", "object", "embed", "form", "link", "meta", "base")


@pytest.fixture(scope="module", params=["", "page_size: 300"], ids=["pages", "small-pages"])
def attacked(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> tuple[Path, list[str]]:
    # Also with pages so small that most messages are cut into pieces (render/cut.py).
    root = make_site(tmp_path_factory.mktemp("attacked"), EXTENSIONS, "copy_jsonl: true\n" + request.param)
    attacks = adversarial.write(root / "docs")
    return build(root, strict=True), attacks


def write_session(docs: Path, session: str, entries: list[dict]) -> None:
    """``entries`` as the transcript of ``session`` in ``docs``, each given its place
    (an id, the session's id, a time a second after the one before)."""
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:00:0{number}.000Z")
    (docs / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")


def command_entries(prompt: str, command: str, output: str) -> list[dict]:
    """A prompt, a Bash call running ``command``, and its ``output``."""
    return [
        {"type": "user", "message": {"role": "user", "content": prompt}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": command}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": output}]}},
    ]  # fmt: skip


def pages(site: Path) -> list[Path]:
    return sorted(site.joinpath("attacks").rglob("index.html"))


def session_parts(site: Path) -> list[BeautifulSoup]:
    """The pages of the attacking session, first to last (one, or several parts)."""
    folder = site / "attacks" / adversarial.SESSION
    parts = sorted(folder.glob("part-*/index.html"), key=lambda path: int(path.parent.name[5:]))
    return [BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser") for path in [folder / "index.html", *parts]]


def test_the_adversarial_site_builds_strictly_with_a_page_for_each_file(attacked: tuple[Path, list[str]]) -> None:
    site, _ = attacked
    names = {page.parent.name for page in pages(site) if not re.search(r"part-\d+$", page.parent.name)}
    assert adversarial.SESSION in names
    agent_pages = [name for name in names if name.startswith("agent-")]
    assert len(agent_pages) == 1 and re.fullmatch(r"agent-[A-Za-z0-9_-]+", agent_pages[0])


def test_no_markup_comes_from_transcript_text(attacked: tuple[Path, list[str]]) -> None:
    site, _ = attacked
    for page in pages(site) + [site / "index.html"]:
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert not soup.find_all(attrs={"data-planted": True}), page
        for element in soup.find_all(True):
            for name, value in element.attrs.items():
                assert not name.lower().startswith("on"), (page, element.name, name)
                if name in ("href", "src"):
                    assert not str(value).strip().lower().startswith(("javascript:", "data:", "vbscript:")), (page, value)
        article = soup.find("article")
        if article is None:
            continue
        for tag in DANGEROUS:
            assert not article.find_all(tag), (page, tag)
        for image in article.find_all("img"):
            assert re.fullmatch(r"images/[0-9a-f]{16}\.png", image["src"]), image


def test_attack_text_is_shown_literally_inside_its_block(attacked: tuple[Path, list[str]]) -> None:
    site, attacks = attacked
    parts = session_parts(site)
    # the prompt (in pieces, when pages are small: each "(continued)")
    prompt = parts[0].select_one("article .admonition.ct-user").find(class_="admonition-title").get_text().strip()
    pieces = [block for soup in parts for block in soup.select("article .admonition.ct-user")
              if block.find(class_="admonition-title").get_text().strip() in (prompt, prompt + " (continued)")]  # fmt: skip
    text = "".join(block.get_text() for block in pieces)
    for attack in ('<script data-planted="1">alert(1)</script>', "</div></details></div></article></body>",
                   '{{ config.site_name }}', "--8<--", "[ref]: javascript:alert(6)", "x" * 6000,
                   "<!-- claude-transcripts:section -->", "<!-- claude-transcripts:page -->"):  # fmt: skip
        assert attack in text, attack
    # the blocks after the prompt are still there, each where it belongs
    blocks = [block for soup in parts for block in soup.select("article > .admonition, article > details")]
    assert any("ct-tool" in block["class"] for block in blocks) and any("ct-assistant" in block["class"] for block in blocks)
    assert len(blocks) >= 15
    title = parts[0].title.get_text()
    soup = parts[0]
    assert "<script" in title and not soup.title.find_all(True)


def test_the_tool_block_holds_its_whole_output(attacked: tuple[Path, list[str]]) -> None:
    site, _ = attacked
    blocks = [d for soup in session_parts(site) for d in soup.select("article details.ct-tool") if d.summary.get_text().startswith("Bash")]
    output = "".join(block.get_text() for block in blocks)  # one block, or its pieces
    assert "</div></details></div></article></body>" in output
    assert "x" * 6000 in output


def test_no_planted_secret_reaches_the_site(attacked: tuple[Path, list[str]]) -> None:
    site, _ = attacked
    everything = "".join(p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*") if p.is_file())
    for kind, secret in adversarial.SECRETS.items():
        assert secret not in everything, kind
    assert "[REDACTED:github-token]" in everything
    assert "mallory" not in everything  # home folders shortened


def test_the_log_counts_redactions_and_never_shows_them(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = make_site(tmp_path)
    adversarial.write(root / "docs")
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        build(root, strict=False)
    log = "\n".join(r.getMessage() for r in caplog.records)
    assert re.search(r"attacks/0badc0de-1111-4222-8333-444455556666\.jsonl: redacted .*\d+ github-token", log)
    for secret in adversarial.SECRETS.values():
        assert secret not in log


def test_invalid_custom_pattern_stops_the_build_with_its_name(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    root = make_site(tmp_path, plugin_options="redact_patterns:\n  broken: '([a-z'")
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(root)
    assert any("'broken' is not a valid regular expression" in r.getMessage() for r in caplog.records)


def test_redaction_can_be_turned_off(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="redact: false\nshorten_home: false")
    adversarial.write(root / "docs")
    site = build(root, strict=False)
    page = (site / "attacks" / adversarial.SESSION / "index.html").read_text(encoding="utf-8")
    assert adversarial.SECRETS["github-token"] in page and "mallory" in page


def test_a_custom_pattern_redacts_text_and_leaves_ids_kinds_and_places_alone(tmp_path: Path) -> None:
    """A pattern that also matches the ids that tie a session together, the kinds of
    message, the anchors and the folders the pages go in changes the text alone."""
    s1, agent = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13", "a41c7e2"
    words = r"sessions|loose|3f2b9c1e|a41c7e2|b7e20f1|toolu_\w+|msg_\w+|\bprompt\b|tool_call|tool_result|assistant_text|\bm-[0-9a-f]+|png|metric"
    root = make_site(tmp_path, plugin_options=f"redact_patterns:\n  word: '{words}'")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "sessions")
    copy_images_transcript(root / "docs" / "images.jsonl")  # pasted images
    # A subagent whose session is not in the site: exported as a session of its own.
    (root / "docs" / "loose").mkdir()
    lines = (root / "docs" / "sessions" / s1 / "subagents" / f"agent-{agent}.jsonl").read_text(encoding="utf-8")
    (root / "docs" / "loose" / f"agent-{agent}.jsonl").write_text(lines.replace(s1, "0badf00d-0000-4000-8000-000000000000"), encoding="utf-8")
    site = build(root)

    page = BeautifulSoup((site / "sessions" / s1 / "index.html").read_text(encoding="utf-8"), "html.parser")
    text = page.select_one("article").get_text(" ")
    assert "metric" not in text and "[REDACTED:word]" in text
    assert f"agent-{agent}/" in [a["href"] for a in page.select("article a[href]")]  # the call links its subagent
    assert not [tag["id"] for tag in page.select("[id]") if "REDACTED" in tag["id"]]
    for folder in (site / "sessions" / s1, site / "sessions" / s1 / f"agent-{agent}", site / "loose" / f"agent-{agent}"):
        assert (folder / "index.html").is_file(), folder
    kinds = {m["kind"] for m in json.loads((site / "sessions" / s1 / "session.json").read_text())["messages"]}
    assert {"prompt", "tool_call", "tool_result", "assistant_text"} <= kinds
    orphan = json.loads((site / "loose" / f"agent-{agent}" / "session.json").read_text())
    assert [sub["id"] for sub in orphan["subagents"]] == [agent]
    assert list((site / "images").rglob("*.png"))  # written as files, and shown


def test_the_outputs_kept_beside_a_missing_session_go_to_its_subagents_and_are_not_published_raw(tmp_path: Path) -> None:
    """``<session>/tool-results/`` of a session whose file is not in the site: its
    subagents there show them, redacted; no folder of them is copied as it is, nor
    any other file the session keeps there (a subagent's meta.json, with or without
    its transcript, a workflow's record)."""
    sid, token = "5e55f00d-0000-4000-8000-000000000001", "ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8"
    root = make_site(tmp_path)
    folder = root / "docs" / "proj" / sid
    (folder / "subagents").mkdir(parents=True)
    (folder / "tool-results").mkdir()
    common = {"sessionId": sid, "agentId": "a1b2c3d", "isSidechain": True, "timestamp": "2025-06-01T10:00:00Z"}
    lines = [
        {**common, "type": "user", "uuid": "u1", "parentUuid": None, "message": {"role": "user", "content": "Read the settings."}},
        {**common, "type": "assistant", "uuid": "a1", "parentUuid": "u1", "message": {"id": "m1", "role": "assistant", "model": "claude-x",
            "content": [{"type": "tool_use", "id": "toolu_01Big", "name": "Bash", "input": {"command": "cat .env"}}]}},
        {**common, "type": "user", "uuid": "u2", "parentUuid": "a1", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01Big", "content": "Output too large; saved to tool-results/toolu_01Big.txt"}]}},
    ]  # fmt: skip
    (folder / "subagents" / "agent-a1b2c3d.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (folder / "tool-results" / "toolu_01Big.txt").write_text(f"GITHUB_TOKEN={token}\na line only the file holds\n")
    alone = root / "docs" / "proj" / "5e55f00d-0000-4000-8000-000000000002" / "tool-results"
    alone.mkdir(parents=True)
    (alone / "toolu_01Other.txt").write_text(token)  # a session with nothing else here
    (root / "docs" / "notes" / "tool-results").mkdir(parents=True)
    (root / "docs" / "notes" / "tool-results" / "readme.txt").write_text("the site's own")
    (folder / "subagents" / "agent-e0e0.jsonl").write_text("")  # a subagent that wrote nothing yet
    (folder / "subagents" / "agent-e0e0.meta.json").write_text(json.dumps({"agentType": "x", "description": token}))
    (folder / "subagents" / "agent-f0f0.meta.json").write_text(json.dumps({"agentType": "x", "description": token}))
    (folder / "workflows").mkdir()
    (folder / "workflows" / "wf_9.json").write_text(json.dumps({"runId": "wf_9", "args": {"DEPLOY": token}}))
    (alone.parent / "workflows").mkdir()
    (alone.parent / "workflows" / "wf_1.json").write_text(json.dumps({"runId": "wf_1", "args": {"DEPLOY": token}}))
    site = build(root)

    page = (site / "proj" / sid / "subagents" / "agent-a1b2c3d" / "index.html").read_text(encoding="utf-8")
    assert "a line only the file holds" in page and "[REDACTED:github-token]" in page
    assert not [p for p in site.rglob("*") if p.is_file() and token in p.read_text(encoding="utf-8", errors="replace")]
    assert not list(site.rglob("toolu_*.txt")) and not list(site.rglob("*.meta.json")) and not list(site.rglob("wf_*.json"))
    assert (site / "notes" / "tool-results" / "readme.txt").is_file()


def test_a_title_cut_from_a_prompt_keeps_no_part_of_a_secret(tmp_path: Path) -> None:
    """A session's title, a subagent's description and a lone subagent's title are
    the start of a prompt, cut: a token across the cut is redacted before it, not
    left as a piece too short for redaction to find (ghp_ and 30 characters are all
    of a GitHub token but its checksum)."""
    sid, lone = "7171e000-0000-4000-8000-000000000001", "7171e000-0000-4000-8000-000000000002"
    token = "ghp_R8vKq2LmX9sTz4WnB7cYd1FhJ6pQe3Ua0iGo"
    root = make_site(tmp_path)

    def lines(session: str, prompt: str, **more: object) -> str:
        entry = {"type": "user", "uuid": f"u-{session}", "parentUuid": None, "sessionId": session, "timestamp": "2025-06-01T10:00:00Z",
                 "message": {"role": "user", "content": prompt}, **more}  # fmt: skip
        return json.dumps(entry) + "\n"

    # the title is cut at the 80th character, a description at the 60th: each inside the token
    prompt = "Push the release branch to origin, and tag it, with the token " + token + " please"
    clone = "Clone the repository, then push it with " + token + " now"
    folder = root / "docs" / "proj"
    (folder / sid / "subagents").mkdir(parents=True)
    (folder / f"{sid}.jsonl").write_text(lines(sid, prompt))
    (folder / sid / "subagents" / "agent-b1b2c3d.jsonl").write_text(lines(sid, clone, isSidechain=True, agentId="b1b2c3d"))
    (folder / lone / "subagents").mkdir(parents=True)  # a subagent whose session is not in the site
    (folder / lone / "subagents" / "agent-c1b2c3d.jsonl").write_text(lines(lone, clone, isSidechain=True, agentId="c1b2c3d"))
    site = build(root)

    everything = "".join(p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*") if p.is_file())
    assert token[4:12] not in everything
    titles = {a.get_text(" ", strip=True) for a in BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").select("nav a")}
    # (the title is cut at the word before the marker; a description, shorter, inside it)
    assert any(title.endswith("Push the release branch to origin, and tag it, with the token…") for title in titles), titles
    assert sum("push it with [REDACTED" in title for title in titles) == 2, titles


def test_a_rebuild_from_the_cache_gives_the_same_site(attacked: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages written from the cache (outputs.py) are those the theme writes, whatever
    the text of the transcripts."""
    site, _ = attacked
    first = {path: path.read_bytes() for path in site.rglob("*.html")}
    kept: list[str] = []
    keep = Cache.load_output
    monkeypatch.setattr(Cache, "load_output", lambda cache, key: (found := keep(cache, key)) and kept.append(key) or found)
    assert build(site.parent, strict=True) == site
    assert {path: path.read_bytes() for path in site.rglob("*.html")} == first
    assert len(kept) == len(pages(site))  # the transcripts index too


def test_critic_marks_in_a_transcript_are_shown_as_written(tmp_path: Path) -> None:
    """pymdownx.critic's marks are a site's own editing: in a transcript (a prompt, a
    fence of it, a command), "{--" and "--}" are what was written."""
    marks = "{--removed--} {++added++} {~~a~>b~~} {==seen==}{>>note<<}"
    root = make_site(tmp_path, config="markdown_extensions:\n  - pymdownx.critic\n")
    (root / "docs" / "index.md").write_text("# Home\n\nThe site's own {--edit--} is read.\n")
    session = "c0c0c0c0-0000-4000-8000-000000000000"
    entries = [
        {"type": "user", "message": {"role": "user", "content": f"{marks}\n\n```\n{{-- in a fence\n```"}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo '--}'"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "--} and {++"}]}},
    ]  # fmt: skip
    write_session(root / "docs", session, entries)
    site = build(root)
    page = BeautifulSoup((site / session / "index.html").read_text(encoding="utf-8"), "html.parser")
    article = page.find("article")
    assert not article.find_all(["del", "ins", "mark"]) and not article.find_all(class_="critic")
    text = article.get_text()
    for written in ("{--removed--}", "{++added++}", "{~~a~>b~~}", "{==seen==}{>>note<<}", "{-- in a fence", "echo '--}'", "--} and {++"):
        assert written in text, written
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<del class="critic">edit</del>' in home  # the site's own pages are left to it


# A hook that does what mkdocs-include-markdown-plugin does, first of the plugins: the
# file a page's '{% include "..." %}' names, wherever it is in the page, takes its place.
_INCLUDE_HOOK = """import re
from pathlib import Path
from mkdocs.plugins import event_priority

@event_priority(100)
def on_page_markdown(markdown, page, config, files):
    return re.sub(r'\\{%\\s*include\\s+"([^"]+)"\\s*%\\}', lambda m: Path(m.group(1)).read_text(), markdown)
"""


@pytest.mark.parametrize("order", ["tags first", "tags last"])
def test_a_plugins_directive_in_a_transcripts_code_is_shown_as_written(tmp_path: Path, order: str) -> None:
    """Other plugins read their directives anywhere in a page's Markdown, code
    included. Material's tags plugin read "<!-- material/tags ... -->": a command's
    output holding one with options YAML cannot read stopped the build (on the
    session's page, and on a page showing an excerpt of it). mkdocs-include-markdown-
    plugin read '{% include "/path" %}': the file it names was published in the
    transcript's page. Both are shown as written; the site's own pages keep theirs."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the build machine's secret")
    plugins = ["  - tags", "  - claude-transcripts"]
    root = make_site(tmp_path / "site")
    (root / "hooks.py").write_text(_INCLUDE_HOOK)
    (root / "mkdocs.yml").write_text("site_name: Test\ntheme:\n  name: material\nhooks:\n  - hooks.py\nplugins:\n  - search\n"
                                     + "\n".join(plugins if order == "tags first" else plugins[::-1]) + "\n")  # fmt: skip
    session = "c0c0c0c0-0000-4000-8000-00000000000e"
    output = f'before\n<!-- material/tags {{ [[[ }} -->\n<!--material/tags-->\n{{% include "{secret}" %}}\nafter'
    write_session(root / "docs", session, command_entries("Show me the tags page: `<!-- material/tags { ]] } -->`", "cat docs/tags.md", output))
    (root / "docs" / "index.md").write_text(f"---\ntags: [home]\n---\n# Home\n\n```claude-transcript\npath: {session}.jsonl\n```\n")
    (root / "docs" / "tags.md").write_text(f'# Tags\n\n<!-- material/tags -->\n\n{{% include "{secret}" %}}\n')
    site = build(root)
    for page in (site / session / "index.html", site / "index.html"):
        article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article")
        assert output in article.select_one("details.ct-tool").get_text(), page
        assert "<!-- material/tags { ]] } -->" in article.select_one(".ct-user").get_text(), page
        assert "the build machine's secret" not in article.get_text(), page
    tags = BeautifulSoup((site / "tags" / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    assert tags.find(id="tag:home") and "the build machine's secret" in tags.get_text()


# A Python-Markdown extension that does what markdown-include does, before any other:
# the file a page's "{!path!}" names, wherever it is in the page, takes its place.
_INCLUDE_EXTENSION = """import re
from pathlib import Path
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

class Include(Preprocessor):
    def run(self, lines):
        return [re.sub(r"\\{!\\s*(.+?)\\s*!\\}", lambda m: Path(m.group(1)).read_text().strip(), line) for line in lines]

class IncludeExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(Include(md), "include", 101)

def makeExtension(**kwargs):
    return IncludeExtension(**kwargs)
"""


def test_an_include_of_an_extension_in_a_transcripts_code_is_shown_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """markdown-include reads "{!path!}" anywhere in a page, code included, before any
    other extension: a command's output holding one published the file it named, on
    the session's page and in an excerpt. It is shown as written; the site's own pages
    keep their includes."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the build machine's secret")
    (tmp_path / "include_like.py").write_text(_INCLUDE_EXTENSION)
    monkeypatch.syspath_prepend(str(tmp_path))
    root = make_site(tmp_path / "site", config="markdown_extensions:\n  - include_like\n")
    session = "c0c0c0c0-0000-4000-8000-00000000000f"
    output = f"before {{!{secret}!}} after"
    write_session(root / "docs", session, command_entries(f"Read `{{!{secret}!}}`, then:\n\n```\n{{!{secret}!}}\n```", "cat docs/page.md", output))
    (root / "docs" / "index.md").write_text(f"# Home\n\nOurs: {{!{secret}!}}\n\n```claude-transcript\npath: {session}.jsonl\n```\n")
    site = build(root)
    for page in (site / session / "index.html", site / "index.html"):
        article = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article")
        assert output in article.select_one("details.ct-tool").get_text(), page
        prompt = article.select_one(".ct-user").get_text()
        assert f"Read {{!{secret}!}}, then:" in prompt and prompt.count(f"{{!{secret}!}}") == 2, page
        assert article.get_text().count("the build machine's secret") == (page.parent == site), page


def test_a_marked_section_that_html_parsers_refuse_does_not_stop_the_build(tmp_path: Path) -> None:
    """MkDocs reads every page's text with Python's HTMLParser, which stops at a
    ``<![`` opening no section it knows: in a code span of a prompt, an answer or a
    tool's title, and in a page of the site's own, it is shown as written."""
    root = make_site(tmp_path)
    (root / "docs" / "index.md").write_text("# Home\n\nThe site's own `<![x` span.\n")
    entries = [
        {"type": "user", "message": {"role": "user", "content": "What does `<![i` mean in old IE HTML? And `<![ `?"}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "text", "text": "A conditional comment: `<![if IE]>`, then `<![endif]>`."},
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/srv/<![a.html"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "<![b"}]}},
    ]  # fmt: skip
    session = "c0c0c0c0-0000-4000-8000-00000000000b"
    write_session(root / "docs", session, entries)
    site = build(root)
    text = BeautifulSoup((site / session / "index.html").read_text(encoding="utf-8"), "html.parser").find("article").get_text()
    for written in ("<![i", "<![ ", "<![if IE]>", "/srv/<![a.html", "<![b"):
        assert written in text, written
    assert "<![x" in BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").find("article").get_text()


@pytest.mark.parametrize("generic", [True, False])
def test_math_in_a_transcript_reaches_arithmatex_as_on_a_page_of_the_site(tmp_path: Path, generic: bool) -> None:
    """pymdownx.arithmatex reads math as it stands: a transcript's braces, "<" and "&",
    which are escaped as entities, are read back as written, and arithmatex escapes
    them as it does on the site's own pages (``\\frac{a}{b}`` reached MathJax as
    ``\\frac&#123;a&#125;...``, and "<" as "&amp;lt;")."""
    text = ("Inline $\\frac{a}{b} < c \\& d$ and \\(x_{i} > 0\\), a literal &#123;.\n\n$$\n\\sum_{i=0}^{n} x_i < \\{ y \\}\n$$\n\n"
            "\\begin{align}\na &= b \\\\\n\\end{align}\n\n$$<img src=x onerror=alert(1)>$$\n\nAnd *em*{onclick=alert(1)} after.")  # fmt: skip
    root = make_site(tmp_path, config=f"markdown_extensions:\n  - attr_list\n  - pymdownx.arithmatex:\n      generic: {str(generic).lower()}\n")
    (root / "docs" / "math.md").write_text(f"# Math\n\n{text}\n", encoding="utf-8")
    session = "c0c0c0c0-0000-4000-8000-00000000000c"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Show me the math."}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": text}]}},
    ]
    write_session(root / "docs", session, entries)
    site = build(root)
    ours = BeautifulSoup((site / session / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    theirs = BeautifulSoup((site / "math" / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    found = [str(element) for element in ours.select(".arithmatex")]
    assert len(found) == 5
    assert found == [str(element) for element in theirs.select(".arithmatex")]
    assert not ours.find_all("img") and not ours.select("[onclick]")
    assert "a literal &#123;." in ours.get_text() and "{onclick=alert(1)} after" in ours.get_text()


@pytest.mark.parametrize("generic", [True, False])
def test_math_that_would_make_markup_in_the_browser_is_shown_as_text(tmp_path: Path, generic: bool) -> None:
    """MathJax turns ``\\href{javascript:...}{x}`` into a link that runs a script, and
    ``\\class``, ``\\cssId``, ``\\style``, ``\\bbox``'s styles and ``\\mmlToken``'s
    attributes into markup (a red box over the whole page): a transcript's math holding
    one is not given to arithmatex, whose math MathJax reads, but shown as text. Math
    beside it still is math."""
    commands = [
        "\\href{javascript:alert(1)}{click}", "\\class{planted}{x}", "\\cssId{planted}{x}",
        "\\style{position:fixed;top:0;left:0;width:100%;height:100%}{x}", "\\bbox[position:fixed;top:0]{x}",
        "\\mmlToken{mi}[href='javascript:alert(2)']{x}", "\\require{html}", "\\unicode[f]{x41}",
        "\\htmlClass{planted}{x}", "\\url{javascript:alert(3)}",
    ]  # fmt: skip
    text = "\n\n".join([*(f"Inline ${command}$ and \\({command}\\)." for command in commands),
                        "$$\n\\href{javascript:alert(4)}{block}\n$$", "\\begin{align}\n\\style{color:red}{a} &= b\n\\end{align}",
                        "Still math: $\\frac{a}{b}$ and $\\hrefs$ and $\\classes{x}$."])  # fmt: skip
    root = make_site(tmp_path, config=f"markdown_extensions:\n  - pymdownx.arithmatex:\n      generic: {str(generic).lower()}\n")
    session = "c0c0c0c0-0000-4000-8000-00000000000d"
    (root / "docs" / f"{session}.jsonl").write_text(json.dumps({
        "type": "assistant", "uuid": "00000000-0000-4000-8000-000000000000", "sessionId": session, "timestamp": "2025-05-05T10:00:00.000Z",
        "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": text}]}}) + "\n", encoding="utf-8")  # fmt: skip
    article = BeautifulSoup((build(root) / session / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    found = [element.get_text() for element in article.select(".arithmatex, script[type^='math/tex']")]
    assert found == ["\\(\\frac{a}{b}\\)", "\\(\\hrefs\\)", "\\(\\classes{x}\\)"] if generic else ["\\frac{a}{b}", "\\hrefs", "\\classes{x}"]
    shown = article.get_text()
    for command in commands:
        assert f"${command}$" in shown, command
    assert "\\href{javascript:alert(4)}{block}" in shown and "\\style{color:red}{a} &= b" in shown


def test_a_code_span_that_names_a_language_for_inlinehilite_is_shown_as_written(tmp_path: Path) -> None:
    """pymdownx.inlinehilite reads a code span's "#!lang " (or ":::lang ") as the
    language to show it in, and a site may give a language to a formatter of its own,
    as pymdownx's documentation does for math: a transcript's `#!math \\href{...}{x}`
    reached MathJax, which made a link that ran a script. A transcript's code span is
    the code it holds, "#!" and all."""
    config = """markdown_extensions:
  - pymdownx.arithmatex:
      generic: true
  - pymdownx.highlight
  - pymdownx.inlinehilite:
      custom_inline:
        - name: math
          class: arithmatex
          format: !!python/object/apply:pymdownx.arithmatex.arithmatex_inline_format {kwds: {mode: generic}}
  - pymdownx.superfences
"""
    root = make_site(tmp_path, config=config)
    (root / "docs" / "math.md").write_text("# Math\n\nThe site's own `#!math \\frac{a}{b}`.\n")
    session = "c0c0c0c0-0000-4000-8000-000000000010"
    spans = ["#!math \\href{javascript:alert(1)}{click}", "#!python print(1)", ":::math \\class{planted}{x}"]
    entries = [
        {"type": "user", "message": {"role": "user", "content": " and ".join(f"`{span}`" for span in spans)}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "true", "description": "ok"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "done"}]}},
    ]  # fmt: skip
    write_session(root / "docs", session, entries)
    site = build(root)
    article = BeautifulSoup((site / session / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    assert not article.select(".arithmatex")
    assert [code.get_text() for code in article.select(".ct-user code")] == spans
    theirs = BeautifulSoup((site / "math" / "index.html").read_text(encoding="utf-8"), "html.parser").find("article")
    assert theirs.select(".arithmatex")  # the site's own pages keep it


def test_a_secret_written_as_the_kind_of_an_entry_is_redacted_in_its_title(tmp_path: Path) -> None:
    """A system entry's subtype and an attachment's type title their notes: one that is
    not a kind's words (``api_error``) keeps its letters, so that a secret written in
    it (``sk_live_...``, ``aws_secret_access_key=...``) is found by its shape, on the
    page and in session.json (its underscores turned into spaces hid it)."""
    stripe, aws = "sk_live_51HdT7kP9qR2sAbCdEfGh", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ"
    session = "c0c0c0c0-0000-4000-8000-00000000000d"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Go."}},
        {"type": "system", "subtype": stripe, "content": "x"},
        {"type": "system", "subtype": "aws_secret_access_key=" + aws, "content": "x"},
        {"type": "attachment", "attachment": {"type": "stripe " + stripe, "content": "y"}},
        {"type": "system", "subtype": "brand_new_note", "content": "z"},
    ]
    pages = built_pages(tmp_path, session, entries)
    site = tmp_path / "site"
    everything = "".join(p.read_text(encoding="utf-8", errors="replace") for p in site.rglob("*") if p.is_file())
    assert "51HdT7kP9qR2s" not in everything and "wJalrXUtnFEMI" not in everything
    assert "[REDACTED:stripe-key]" in everything and "[REDACTED:aws-secret-key]" in everything
    page = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser").find("article").get_text()
    assert "Brand new note" in page  # a kind's words are still a title


def _one_call(name: str, given: dict) -> list[dict]:
    """The entries of a prompt, a call of tool ``name`` with input ``given``, and its result."""
    call = {"type": "tool_use", "id": "toolu_1", "name": name, "input": given}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"}
    return [
        {"type": "user", "message": {"role": "user", "content": "Do it."}},
        {"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [call]}},
        {"type": "user", "message": {"role": "user", "content": [result]}},
    ]  # fmt: skip


def test_the_breaks_in_a_long_name_of_a_title_are_the_plugins_own(tmp_path: Path) -> None:
    """A long name in a block's title may break after its separators (``<wbr>``, which
    the renderer writes); the same tag written in a transcript is shown as text, and
    the search index holds the name whole."""
    session = "c0c0c0c0-0000-4000-8000-00000000000f"
    path = "/repo/docs/<wbr>/units_preference-panel.notes.md"
    pages = built_pages(tmp_path, session, _one_call("Read", {"file_path": path}))
    soup = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser")
    title = soup.select_one("article details.ct-tool > summary")
    assert path in title.get_text()
    assert "units_<wbr/>preference-<wbr/>panel.<wbr/>notes.<wbr/>md" in title.decode_contents()
    assert len(title.find_all("wbr")) == 5  # after repo/ and the four separators of the name: none from the text
    index = (tmp_path / "site" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "units_preference-panel.notes.md" in index and "units_ preference" not in index


def test_a_long_tool_name_in_the_summary_may_break_after_its_separators(tmp_path: Path) -> None:
    """The summary's table of tool calls names the tools: a long one (an MCP tool's)
    may break after its separators, as in a block's title, and is whole in GitHub's
    flavour (the summary is not searched: the index holds no break either)."""
    from mkdocs_claude_transcripts.cli import main

    session = "c0c0c0c0-0000-4000-8000-000000000010"
    name = "mcp__some_server__some_long_tool_name"
    pages = built_pages(tmp_path, session, _one_call(name, {"query": "x"}))
    soup = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser")
    cell = next(td for td in soup.select("article details.ct-overview td") if name in td.get_text())
    assert cell.get_text() == name
    assert "mcp__<wbr/>some_<wbr/>server__<wbr/>some_<wbr/>long_<wbr/>tool_<wbr/>name" in cell.decode_contents()
    index = (tmp_path / "site" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "wbr" not in index
    out = tmp_path / "github"
    jsonl = next((tmp_path / "docs").rglob("*.jsonl"))
    assert main(["convert", str(jsonl), "-o", str(out), "--flavour", "github"]) == 0
    written = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.md"))
    assert "mcp\\_\\_some\\_server\\_\\_some\\_long\\_tool\\_name" in written and "wbr" not in written


def test_a_media_type_that_is_not_one_is_redacted_where_it_is_shown(tmp_path: Path) -> None:
    """An image's or a document's media type names its kind (``image/png``), and is
    left as it is; a text that is not a media type in its place is shown ("could not
    be decoded", a document's kind and size) and goes through redaction as any text."""
    token, home = "ghp_" + "Lk3Jh5Gf7Ds9Aq1Wz2Xc4Vb6Nm8Pl0OkIjUh", "/home/zorblatt/"
    session = "c0c0c0c0-0000-4000-8000-00000000000e"
    entries = [
        {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "Look."},
            {"type": "image", "source": {"type": "base64", "media_type": f"image/png {token} {home}", "data": "iVBORw0KGgo="}}]}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/srv/a.pdf"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "document", "title": "a.pdf", "source": {"type": "base64", "media_type": f"application/pdf {token}", "data": "JVBERi0x"}}]}]}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, session, entries)
    everything = "".join(p.read_text(encoding="utf-8", errors="replace") for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert token[4:20] not in everything and "zorblatt" not in everything
    text = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser").find("article").get_text()
    assert "image/png [REDACTED:github-token] ~/" in text and "application/pdf [REDACTED:github-token]" in text


def test_the_log_quotes_no_secret_from_a_value_it_could_not_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A problem's message quotes the value it could not read (a time, an image's
    type, an id): a secret there is redacted in the log as on the pages."""
    token = "ghp_" + "Lk3Jh5Gf7Ds9Aq1Wz2Xc4Vb6Nm8Pl0OkIjUh"
    root = make_site(tmp_path)
    session = "c0c0c0c0-0000-4000-8000-00000000000f"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Go."}, "timestamp": token},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": token, "data": "not base64!"}}]}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "d", "prompt": "p"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": f"agentId: {token}"}]},
         "toolUseResult": {"agentId": token}},
    ]  # fmt: skip
    for number, entry in enumerate(entries):
        entry.setdefault("timestamp", f"2025-05-05T10:00:0{number}.000Z")
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session)
    (root / "docs" / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    with caplog.at_level(logging.DEBUG, logger="mkdocs"):
        build(root, strict=False)
    log = "\n".join(r.getMessage() for r in caplog.records)
    assert "is not a date and time" in log and "is not valid base64" in log
    assert token[4:20] not in log


def test_a_home_alone_is_shortened_where_it_is_the_session_users(tmp_path: Path) -> None:
    """Known from the session's working directory; a web app's route of the same shape stays."""
    entries = [{"type": "user", "cwd": "/home/carol/app", "message": {"role": "user", "content": "my home /home/carol, the route /home/settings"}}]
    pages = built_pages(tmp_path, "5afe0000-0000-4000-8000-000000000077", entries)
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article").get_text(" ") for page in pages)
    assert "my home ~, the route /home/settings" in text and "carol" not in text

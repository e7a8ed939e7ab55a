"""A real ``mkdocs build --strict`` of example_site, checked in its HTML."""

from __future__ import annotations

import json
import posixpath
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from .conftest import ROOT, build, copy_tree

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"  # 2.1: subagents/ folder, a failing test
S2 = "9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58"  # 1.0: inline sidechain
S3 = "d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86"  # 2.0: agent file beside the session


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("example")
    copy_tree(ROOT / "example_site", root)
    return build(root, strict=True)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_each_session_and_subagent_has_a_page(site: Path) -> None:
    for session in (S1, S2, S3):
        assert (site / "transcripts" / session / "index.html").is_file()
    agents = sorted(p.parent.name for p in site.glob("transcripts/*/agent-*/index.html"))
    assert len(agents) == 3
    assert "agent-a41c7e2" in agents and "agent-b7e20f1" in agents


def test_titles_come_from_the_session(site: Path) -> None:
    titles = {s: soup(site / "transcripts" / s / "index.html").title.string for s in (S1, S2, S3)}
    assert titles[S1].startswith("2025-11-04 · Fix metric units in the forecast command")
    assert titles[S2].startswith("2025-08-19 · Plan the sync design for offline notes")
    assert titles[S3].startswith("2025-12-02 · RSS feed for the blog")
    agent = soup(site / "transcripts" / S1 / "agent-a41c7e2" / "index.html")
    assert agent.h1.get_text() == "Explore · Trace the units option"


def test_nav_nests_subagents_under_their_session(site: Path) -> None:
    # The example site prunes the nav: a page carries its own branch, here the session's.
    page = soup(site / "transcripts" / S1 / "index.html")
    nested = {}
    for item in page.select("nav.md-nav--primary li.md-nav__item--nested"):
        label = item.select_one(".md-ellipsis")
        links = [a["href"] for a in item.select("a.md-nav__link[href]")]
        nested[" ".join(label.get_text().split())] = links
    session = next(title for title in nested if "Fix metric units" in title)
    here = f"transcripts/{S1}/"
    targets = {posixpath.normpath(posixpath.join(here, href)) for href in nested[session]}
    assert targets >= {f"transcripts/{S1}", f"transcripts/{S1}/agent-a41c7e2"}, targets


def test_sessions_are_in_date_order_in_the_nav(site: Path) -> None:
    page = soup(site / "transcripts" / S1 / "index.html")
    text = " ".join(page.select_one("nav.md-nav--primary").get_text(" ").split())
    order = [text.index(t) for t in ("Plan the sync design", "Fix metric units", "RSS feed for the blog")]
    assert order == sorted(order)


def test_task_call_links_to_the_subagent_and_back(site: Path) -> None:
    session_page = site / "transcripts" / S1 / "index.html"
    links = [a["href"] for a in soup(session_page).select("article a[href]")]
    assert "agent-a41c7e2/" in links
    agent_page = soup(site / "transcripts" / S1 / "agent-a41c7e2" / "index.html")
    back = [a["href"] for a in agent_page.select("article a[href]") if a["href"].startswith("../#")]
    assert back, "the subagent page links back to the call that started it"
    anchor = back[0].split("#", 1)[1]
    assert soup(session_page).find(id=anchor) is not None
    # the 1.0 inline sidechain is linked the same way
    inline_links = [a["href"] for a in soup(site / "transcripts" / S2 / "index.html").select("article a[href]")]
    assert any(href.startswith("agent-") for href in inline_links)


def test_tool_calls_are_paired_and_failures_marked(site: Path) -> None:
    page = soup(site / "transcripts" / S1 / "index.html")
    titles = [" ".join(s.get_text().split()) for s in page.select("details > summary")]
    assert "Bash · python -m pytest tests/test_forecast.py -q" in titles
    assert "Read · weather/forecast.py" in titles
    failed = page.select("details.ct-tool-error > summary")
    assert [" ".join(s.get_text().split()) for s in failed] == ["Bash · python -m pytest tests/test_forecast.py -q"]
    # the result sits inside its call's block
    assert "AssertionError" in page.select_one("details.ct-tool-error").get_text()


def test_blocks_have_the_right_kinds(site: Path) -> None:
    page = soup(site / "transcripts" / S1 / "index.html")
    assert page.select(".admonition.ct-user")
    assert page.select(".admonition.ct-assistant")
    assert page.select("details.ct-thinking")
    assert page.select("details.ct-tool")


def test_transcripts_are_not_copied_but_other_jsonl_is(site: Path) -> None:
    assert (site / "data" / "points.jsonl").is_file()
    assert not list(site.rglob(f"{S1}*.jsonl"))
    assert not list(site.rglob("agent-*.jsonl"))
    assert not list(site.rglob("*.meta.json"))


def test_stylesheet_is_added(site: Path) -> None:
    page = soup(site / "index.html")
    hrefs = [link["href"] for link in page.select("link[rel=stylesheet]")]
    assert any(href.endswith("claude-transcripts.css") for href in hrefs)
    assert (site / "assets" / "claude-transcripts" / "claude-transcripts.css").is_file()


def test_search_index_holds_transcript_text(site: Path) -> None:
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "to_display" in index and "Eleventy" in index


def test_each_message_is_a_section_of_the_search_index_that_leads_to_it(site: Path) -> None:
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    sections = [doc for doc in docs if "#m-" in doc["location"] or "#t-" in doc["location"]]
    assert len(sections) > 20
    kelvin = [doc for doc in sections if "Kelvin" in doc["text"]]
    assert [doc["title"] for doc in kelvin] == ["User · 09:02"]  # the prompt that says it, by its title
    page, anchor = kelvin[0]["location"].split("#")
    assert soup(site / page / "index.html").find(id=anchor)
    assert max(len(doc["text"]) for doc in docs) < 5_000  # a message's text, not a page's


def test_the_example_site_builds_under_properdocs(tmp_path: Path) -> None:
    """ProperDocs, the maintained fork of MkDocs, finds the plugin by its own entry point."""
    command = shutil.which("properdocs", path=str(Path(sys.executable).parent)) or shutil.which("properdocs")
    if command is None:
        pytest.skip("ProperDocs is not installed")
    root = tmp_path / "example"
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):
        shutil.rmtree(root / made, ignore_errors=True)
    done = subprocess.run([command, "build", "--strict", "-f", str(root / "mkdocs.yml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "3 sessions and 3 subagents published" in done.stderr
    page = BeautifulSoup((root / "site" / "transcripts" / S1 / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert page.select("details.ct-tool") and page.select_one("details.ct-overview")
    assert (root / "site" / "transcripts" / S1 / "session.json").exists()

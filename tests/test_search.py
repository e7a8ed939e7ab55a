"""Transcript pages are indexed for Material's search one at a time, their entries
kept on disk: the index is the one Material's plugin makes when it indexes them itself."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest

from mkdocs_claude_transcripts import plugin as plugin_module
from mkdocs_claude_transcripts.search import Spool

from .conftest import ROOT, build, copy_tree, make_site


def index_of(tmp_path: Path, name: str) -> dict:
    root = make_site(tmp_path / name)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    (root / "docs" / "about.md").write_text("# About\n\nA page of the site's own.\n\n## Its section\n\nMore words.\n")
    site = build(root)
    index = site / "search" / "search_index.json"
    assert stat.S_IMODE(index.stat().st_mode) == stat.S_IMODE((site / "index.html").stat().st_mode)  # readable as any page
    return json.loads(index.read_text(encoding="utf-8"))


def test_the_index_is_the_one_material_makes_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spooled = index_of(tmp_path, "spooled")
    monkeypatch.setattr(plugin_module, "material_search", lambda config: None)  # Material indexes every page
    itself = index_of(tmp_path, "itself")
    assert spooled["config"] == itself["config"]
    key = lambda entry: json.dumps(entry, sort_keys=True)  # noqa: E731
    assert sorted(spooled["docs"], key=key) == sorted(itself["docs"], key=key)
    locations = {entry["location"].split("#")[0] for entry in spooled["docs"]}
    assert "about/" in locations and any(location.startswith("t/") for location in locations)


def test_a_page_left_out_of_search_stays_out(tmp_path: Path) -> None:
    root = make_site(tmp_path)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    hook = root / "hooks.py"
    hook.write_text(
        "def on_page_markdown(markdown, page, config, files):\n"
        "    if page.file.src_uri.startswith('t/3f2b9c1e'):\n"
        "        page.meta['search'] = {'exclude': True}\n"
        "    return markdown\n"
    )
    with (root / "mkdocs.yml").open("a") as config:
        config.write("hooks:\n  - hooks.py\n")
    entries = json.loads((build(root) / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    locations = {entry["location"].split("#")[0] for entry in entries}
    assert not any(location.startswith("t/3f2b9c1e") for location in locations)
    assert any(location.startswith("t/9c41d2aa") for location in locations)


def test_material_offline_plugin_gets_the_whole_index(tmp_path: Path) -> None:
    """The offline plugin turns the index into a script at the end of the build: with
    the transcript pages' entries in it."""
    root = make_site(tmp_path)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    config = (root / "mkdocs.yml").read_text().replace("  - search\n", "  - offline\n  - search\n")
    (root / "mkdocs.yml").write_text(config)
    site = build(root)
    script = (site / "search" / "search_index.js").read_text(encoding="utf-8")
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "to_display" in index and "to_display" in script


def test_entries_go_into_an_index_written_in_another_order(tmp_path: Path) -> None:
    from material.plugins.search.plugin import SearchIndex
    from mkdocs.structure.toc import TableOfContents

    search = SimpleNamespace(search_index=SearchIndex(lang=["en"], separator=" ", pipeline=[], fields={}))
    spool = Spool(search, str(tmp_path / "spool"))
    page = SimpleNamespace(content="<h1 id='a'>Title</h1><p>Some words</p>", toc=TableOfContents([]), url="t/", meta={}, title="T")
    spool.add(spool.index(page))  # type: ignore[arg-type]
    index = tmp_path / "site" / "search" / "search_index.json"
    index.parent.mkdir(parents=True)
    index.write_text(json.dumps({"docs": [{"location": "", "title": "Home", "text": ""}], "config": {"lang": ["en"]}}))
    spool.write_into(str(tmp_path / "site"))
    data = json.loads(index.read_text())
    assert data["config"] == {"lang": ["en"]}
    assert [entry["location"].split("#")[0] for entry in data["docs"]] == ["", "t/"]
    assert "Some words" in data["docs"][1]["text"]
    assert not list((tmp_path / "spool").iterdir())  # the spool file is gone


def test_a_title_in_the_index_leaves_out_the_permalink_of_its_heading(tmp_path: Path) -> None:
    # With the toc extension's permalinks, each heading ends with a "¶" link;
    # Material's index leaves it out of the titles it shows in results.
    root = make_site(tmp_path, "markdown_extensions:\n  - toc:\n      permalink: true\n")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    (root / "docs" / "about.md").write_text("# About\n\nA page of the site's own.\n")
    entries = json.loads((build(root) / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = {entry["location"]: entry["title"] for entry in entries}
    assert titles["about/"] == "About"
    assert titles["t/3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13/"] == "Fix metric units in the forecast command"
    assert titles["t/"] == "Transcripts"  # the index page
    assert not [title for title in titles.values() if "¶" in title]

"""The cache: a rebuild redoes only what changed, and the cache is safe to delete."""

from __future__ import annotations

import errno
import importlib.metadata
import io
import json
import logging
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError
from mkdocs.structure.pages import Page

from mkdocs_claude_transcripts import cache as cache_module
from mkdocs_claude_transcripts import outputs, parallel
from mkdocs_claude_transcripts.cache import Cache
from mkdocs_claude_transcripts.pages import Pages
from mkdocs_claude_transcripts.redact import Redactor
from mkdocs_claude_transcripts.render import messages as messages_module
from mkdocs_claude_transcripts.search import Spool

from .conftest import ROOT, build, copy_tree, make_site

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"


@pytest.fixture
def site_root(tmp_path: Path) -> Path:
    root = make_site(tmp_path, plugin_options="jobs: 1")  # conversions counted in this process
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    return root


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sessions each build converts (the others come from the cache)."""
    done: list[str] = []
    convert = cache_module.convert_session

    def counting(source, *args, **kwargs):
        done.append(source.src_uri)
        return convert(source, *args, **kwargs)

    monkeypatch.setattr(cache_module, "convert_session", counting)
    return done


def html_of(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in (site / "t").rglob("*.html")}


def search_index(site: Path) -> str:
    return (site / "search" / "search_index.json").read_text(encoding="utf-8")


def test_a_rebuild_with_no_change_converts_nothing_and_gives_the_same_site(
    site_root: Path, conversions: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = html_of(build(site_root))
    first_index = search_index(site_root / "site")
    assert len(conversions) == 3
    conversions.clear()
    rendered: list[str] = []
    render = Page.render
    monkeypatch.setattr(Page, "render", lambda page, *a: rendered.append(page.file.src_uri) or render(page, *a))
    second = html_of(build(site_root))
    assert conversions == []
    assert second == first
    assert search_index(site_root / "site") == first_index  # the search text kept in the cache is the same
    # Not one transcript page was rendered again, nor the transcripts index: only the site's own.
    assert sorted(rendered) == ["index.md"]


def test_what_other_plugins_make_of_a_page_is_written_and_searched_on_every_build(site_root: Path) -> None:
    # Cold, from the cache, then with a hook that makes something else of the pages
    # (each in a file of its own: MkDocs loads a hook file once per process).
    for number, word in enumerate(("Quokka", "Quokka", "Wombat")):
        (site_root / f"hooks{number}.py").write_text(
            "def on_page_markdown(markdown, page, config, files):\n"
            f"    return markdown + '\\n\\n{word}-md\\n' if page.file.src_uri.startswith('t/') else markdown\n"
            "def on_page_content(html, page, config, files):\n"
            f"    return html + '<p>{word}-html</p>' if page.file.src_uri.startswith('t/') else html\n"
        )
        make_site(site_root, config=f"hooks:\n  - hooks{number}.py\n", plugin_options="jobs: 1")
        site = build(site_root)
        pages = html_of(site)
        assert all(f"{word}-md" in html and f"{word}-html" in html for html in pages.values())
        assert word == "Quokka" or not any("Quokka" in html for html in pages.values())
        entries = json.loads(search_index(site))["docs"]
        marked = {entry["location"].split("#")[0] for entry in entries if f"{word}-html" in entry["text"]}
        assert marked == {uri.removesuffix("index.html") for uri in pages}


def append_prompt(site_root: Path) -> Path:
    """Append a prompt to the session S1, as Claude Code does; its file."""
    path = site_root / "docs" / "t" / f"{S1}.jsonl"
    line = {"type": "user", "uuid": "99999999-0000-4000-8000-000000000000", "sessionId": S1,
            "timestamp": "2025-11-04T09:59:00.000Z", "message": {"role": "user", "content": "One more question, appended."}}  # fmt: skip
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    return path


def test_a_changed_transcript_is_converted_again_alone(site_root: Path, conversions: list[str]) -> None:
    build(site_root)
    conversions.clear()
    append_prompt(site_root)
    site = build(site_root)
    assert conversions == [f"t/{S1}.jsonl"]
    assert "One more question, appended." in (site / "t" / S1 / "index.html").read_text(encoding="utf-8")


def test_a_clone_of_the_site_finds_its_sessions_in_the_cache_it_is_given(
    site_root: Path, tmp_path: Path, conversions: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions are known by their bytes, not by their files' times: a clone of the
    site in another folder (a CI job with a cache it restored), every file of it and
    of its cache newly written, converts only the session whose bytes changed; and its
    pages, their theme's folder in it too, are written from the cache."""
    (site_root / "overrides").mkdir()
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>Our footer</p>{% endblock %}\n')
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    first = html_of(build(site_root))
    clone = tmp_path / "elsewhere" / "clone"
    shutil.copytree(site_root, clone)
    later = (site_root / "mkdocs.yml").stat().st_mtime + 3600
    for path in clone.rglob("*"):
        os.utime(path, (later, later))
    conversions.clear()
    kept = _kept_outputs(monkeypatch)
    assert html_of(build(clone)) == first
    assert conversions == []
    transcript_pages = [uri for uri in first if uri.startswith("t/")]
    assert transcript_pages and set(transcript_pages) <= set(kept)
    append_prompt(clone)
    build(clone)
    assert conversions == [f"t/{S1}.jsonl"]
    conversions.clear()
    build(clone)
    assert conversions == []  # and the hashes it noted are used again

def test_a_transcript_that_grew_is_converted_with_what_its_last_conversion_found(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its messages rendered before are not rendered again, nor its long texts searched
    for secrets again (memo.py); the site is the one a build without the cache makes;
    the memo of a transcript that left the site goes with it."""
    rendered: list[str] = []
    searched: list[int] = []
    render, search = messages_module.render_message, Redactor._secrets_out
    monkeypatch.setattr(messages_module, "render_message", lambda message, ctx: rendered.append(type(message).__name__) or render(message, ctx))
    monkeypatch.setattr(Redactor, "_secrets_out", lambda self, value: searched.append(len(value)) or search(self, value))
    build(site_root)
    assert len(rendered) > 20 and max(searched) >= 512
    rendered.clear()
    searched.clear()
    path = append_prompt(site_root)
    grown = html_of(build(site_root))
    assert rendered == ["Prompt"] and max(searched) < 512
    memos = site_root / ".cache" / "claude-transcripts" / "memos"
    assert len(list(memos.glob("*.json"))) == 3
    shutil.rmtree(site_root / ".cache")
    assert html_of(build(site_root)) == grown
    path.unlink()
    shutil.rmtree(path.with_suffix(""))  # its subagents
    build(site_root)
    assert len(list(memos.glob("*.json"))) == 2


def test_a_build_with_nothing_to_convert_does_without_the_content_model(site_root: Path) -> None:
    """Its sessions come from the cache: the typed model (pydantic) is not even loaded,
    which is a third of the plugin's start-up, nor are the patterns that find secrets
    compiled."""
    build(site_root)
    script = (
        "import gc, sys; from mkdocs.commands.build import build; from mkdocs.config import load_config; "
        "from mkdocs_claude_transcripts.redact import Redactor; "
        "build(load_config(sys.argv[1], site_dir=sys.argv[2])); "
        "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'mkdocs_claude_transcripts.model')))); "
        "redactors = [o for o in gc.get_objects() if isinstance(o, Redactor)]; "
        "print(len(redactors), sum('_rules' in vars(o) for o in redactors))"
    )
    run = subprocess.run([sys.executable, "-c", script, str(site_root / "mkdocs.yml"), str(site_root / "site")], capture_output=True, text=True, check=True)
    modules, redactors = run.stdout.strip().splitlines()[-2:]
    assert modules == "[]"
    assert redactors.split()[0] != "0" and redactors.split()[1] == "0"


def test_other_options_convert_everything_again(site_root: Path, conversions: list[str]) -> None:
    build(site_root)
    conversions.clear()
    (site_root / "mkdocs.yml").write_text((site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", "- claude-transcripts:\n      thinking: hidden"))
    build(site_root)
    assert len(conversions) == 3


def test_the_cache_can_be_deleted(site_root: Path, conversions: list[str]) -> None:
    first = html_of(build(site_root))
    shutil.rmtree(site_root / ".cache")
    conversions.clear()
    assert html_of(build(site_root)) == first
    assert len(conversions) == 3


def test_damaged_files_in_the_cache_are_done_again(site_root: Path, conversions: list[str], caplog: pytest.LogCaptureFixture) -> None:
    """A file of the cache whose bytes are not what a build wrote (a disk's fault, a tool
    that wrote into it) stopped every later build: it is a miss, and what it held is
    made again (a page's HTML, read when the page is written, with a warning)."""
    first = html_of(build(site_root))
    cache = site_root / ".cache"
    damaged = [next(cache.rglob("*.entries")), *cache.rglob("*/session.json")]
    for path in damaged:
        path.write_bytes(b"\xff" + path.read_bytes()[1:] if path.suffix == ".entries" else b"[]")
    conversions.clear()
    assert html_of(build(site_root)) == first
    assert len(conversions) == 3  # each session.json of the cache was damaged
    html = next(path for path in cache.rglob("*.html") if "ct-" in path.read_text(encoding="utf-8", errors="replace"))
    html.write_bytes(html.read_bytes().replace(b"ct-", b"ct\xff", 1))
    with caplog.at_level(logging.WARNING):
        build(site_root, strict=False)
    assert f"its HTML in the cache ({html}) is damaged" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert html_of(build(site_root)) == first  # rendered again
    assert "is damaged" not in caplog.text


def published(site: Path) -> dict[str, bytes]:
    """The files the site holds as the cache made them: sessions' ``session.json``."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "t").rglob("session.json")}


def test_a_sessions_published_files_are_links_to_the_cache_that_nothing_writes_into(site_root: Path, conversions: list[str]) -> None:
    """Not copied at every build; and a tool that writes into the site's file, which
    is the cache's too, has the session converted again: the next site is as before."""
    site = build(site_root)
    first = published(site)
    assert len(first) == 3
    kept = list((site_root / ".cache").rglob("asset-*"))
    for uri in first:
        assert (site / uri).stat().st_nlink == 2
        assert any(os.path.samefile(site / uri, path) for path in kept)
    conversions.clear()
    build(site_root)
    assert conversions == []
    assert published(site) == first
    written = site / f"t/{S1}/session.json"
    with written.open("w", encoding="utf-8") as handle:  # into the file, as some tools do
        handle.write("{}")
    build(site_root)
    assert conversions == [f"t/{S1}.jsonl"]
    assert published(site) == first


def test_a_file_is_copied_where_it_cannot_be_linked_and_a_file_there_is_not_written_into(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.structure.files import File

    from mkdocs_claude_transcripts.linked import LinkedFile

    def placed(kind: type[File], src_uri: str, source: Path) -> Path:
        file = kind(src_uri, src_dir=None, dest_dir=str(tmp_path / "site"), use_directory_urls=True)
        file.abs_src_path = str(source)
        file.copy_file()
        return Path(file.abs_dest_path)

    old, new = tmp_path / "old", tmp_path / "new"
    old.write_text("old")
    new.write_text("new")
    assert os.path.samefile(placed(LinkedFile, "b/session.json", old), old)
    linked = placed(LinkedFile, "b/session.json", new)  # where a link to "old" is
    assert os.path.samefile(linked, new) and old.read_text() == "old"

    def elsewhere(source: str, target: str) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", elsewhere)
    copied = placed(LinkedFile, "a/session.json", new)
    assert copied.read_text() == "new" and not os.path.samefile(copied, new)
    assert copied.read_bytes() == placed(File, "c/session.json", new).read_bytes()  # as MkDocs copies it


@pytest.mark.parametrize("fails", [False, True])
def test_without_the_cache_nothing_is_kept(site_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: bool) -> None:
    """Not beside the site, nor in the temporary folder the build worked in, whether
    it ended well or not."""
    scratch = tmp_path / "temporary"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    config = (site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", "- claude-transcripts:\n      cache: false")
    if fails:
        (site_root / "hooks.py").write_text("def on_post_page(output, page, config):\n    raise RuntimeError('no pages today')\n")
        config += "\nhooks:\n  - hooks.py\n"
    (site_root / "mkdocs.yml").write_text(config)
    if fails:
        with pytest.raises(RuntimeError, match="no pages today"):
            build(site_root)
    else:
        build(site_root)
    assert not (site_root / ".cache").exists()
    assert [path.name for path in scratch.iterdir() if path.name.startswith("claude-transcripts-")] == []


@pytest.mark.parametrize(("folder", "inside"), [("docs/cache", "docs_dir"), ("site", "site_dir"), ("site/.cache", "site_dir")])
def test_the_cache_may_not_be_in_docs_dir_or_site_dir(site_root: Path, caplog: pytest.LogCaptureFixture, folder: str, inside: str) -> None:
    """Not in the site's sources; nor where MkDocs empties its folder as a build
    starts (the build stopped on a file gone) and publishes what is there."""
    (site_root / "mkdocs.yml").write_text((site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", f"- claude-transcripts:\n      cache_dir: {folder}"))
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_root)
    assert any(f"is inside {inside}" in r.getMessage() for r in caplog.records)
    assert not (site_root / folder).exists()


@pytest.mark.parametrize("folder", ["a-file", "a-file/cache"])
def test_a_cache_dir_that_cannot_be_written_in_stops_the_build_with_its_name(site_root: Path, caplog: pytest.LogCaptureFixture, folder: str) -> None:
    """Not halfway through the build, with a traceback from whichever entry of the
    cache came first (a read-only folder does the same; not testable as root)."""
    (site_root / "a-file").write_text("not a folder")
    (site_root / "mkdocs.yml").write_text((site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", f"- claude-transcripts:\n      cache_dir: {folder}"))
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_root)
    assert any(f"cache_dir '{folder}' cannot be written in" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("folder", [".", "notes", "one-file"])
def test_a_cache_dir_holding_files_of_its_own_stops_the_build_and_loses_none(site_root: Path, caplog: pytest.LogCaptureFixture, folder: str) -> None:
    """``cache_dir: .`` (or a folder of the user's): the cache took it for its own, wrote
    its files there and removed, as entries no build used, whatever was in its
    ``sessions/``, ``memos/``, ``pages/`` and ``html/`` folders."""
    kept = {"pages/chapter.md": "# Chapter", "sessions/2024/notes.txt": "notes", "memos/budget.json": "{}", "digests.json": "[1]"}
    if folder == "one-file":  # a file named as a folder of the cache
        kept = {"pages": "my pages"}
    for name, text in kept.items():
        (site_root / folder / name).parent.mkdir(parents=True, exist_ok=True)
        (site_root / folder / name).write_text(text)
    (site_root / "mkdocs.yml").write_text((site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", f"- claude-transcripts:\n      cache_dir: {folder}"))
    with caplog.at_level(logging.ERROR, logger="mkdocs"), pytest.raises((PluginError, Abort)):
        build(site_root)
    assert any(f"cache_dir '{folder}' holds files that are not the cache's" in r.getMessage() for r in caplog.records)
    assert all((site_root / folder / name).read_text() == text for name, text in kept.items())


def test_a_cache_made_before_it_was_marked_as_one_is_still_used(site_root: Path, conversions: list[str]) -> None:
    build(site_root)
    (site_root / ".cache" / "claude-transcripts" / "CACHEDIR.TAG").unlink()
    conversions.clear()
    build(site_root)
    assert conversions == [] and (site_root / ".cache" / "claude-transcripts" / "CACHEDIR.TAG").is_file()


def test_a_cache_dir_in_the_home_folder_is_found_there(site_root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (site_root / "mkdocs.yml").write_text((site_root / "mkdocs.yml").read_text().replace("- claude-transcripts:", "- claude-transcripts:\n      cache_dir: ~/.cache/ct"))
    build(site_root)
    assert (tmp_path / "home" / ".cache" / "ct").is_dir() and not (site_root / "~").exists()


def test_sessions_and_pages_done_by_worker_processes_are_what_the_build_does_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sites, indexes = {}, {}
    done: dict[str, list[int]] = {"convert_sessions": [], "render_pages": [], "write_pages": []}
    # However little there is to do (workers are otherwise left out for small sites).
    monkeypatch.setattr(parallel, "_CONVERT_ENOUGH", 0)
    monkeypatch.setattr(parallel, "_RENDER_ENOUGH", 0)
    monkeypatch.setattr(parallel, "_WRITE_ENOUGH", 0)
    for name, record in done.items():
        real = getattr(parallel, name)
        monkeypatch.setattr(parallel, name, lambda *a, real=real, record=record, **k: record.append(real(*a, **k)) or record[-1])
    indexed: dict[int, list[str]] = {1: [], 2: []}  # pages the build's own process indexes for search
    index = Spool.index
    for jobs in (1, 2):
        monkeypatch.setattr(Spool, "index", lambda spool, page, jobs=jobs: indexed[jobs].append(page.url) or index(spool, page))
        root = make_site(tmp_path / f"jobs-{jobs}", plugin_options=f"jobs: {jobs}\ncache: false")
        copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
        site = build(root)
        sites[jobs], indexes[jobs] = html_of(site), search_index(site)
    # With one job the build does everything itself; with two, the workers do (all
    # pages of the sessions, and the transcripts index), the build writing none of
    # them through the theme's template (with one job, that is not even tried).
    assert done == {"convert_sessions": [0, 3], "render_pages": [0, len(sites[1])], "write_pages": [len(sites[1])]}
    assert "t/index.html" in sites[1]
    assert sites[2] == sites[1]
    assert indexes[2] == indexes[1]
    # Their search entries too, but for the first page's, written before the workers start.
    assert len(indexed[1]) == len(sites[1]) and len(indexed[2]) == 1


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_pages_written_by_worker_processes_with_other_themes_are_what_the_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # MkDocs' own themes write the build's date
    monkeypatch.setattr(parallel, "_WRITE_ENOUGH", 0)
    written: list[int] = []
    write_pages = parallel.write_pages
    monkeypatch.setattr(parallel, "write_pages", lambda *a, **k: written.append(write_pages(*a, **k)) or written[-1])
    sites = {}
    for jobs in (1, 2):
        root = make_site(tmp_path / f"jobs-{jobs}", plugin_options=f"jobs: {jobs}")
        yml = root / "mkdocs.yml"
        yml.write_text(yml.read_text().replace("  name: material\n", f"  name: {theme}\n"))
        copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
        sites[jobs] = html_of(build(root))
    assert written == [len(sites[1])]
    assert sites[2] == sites[1]


@pytest.mark.parametrize("hook", ["def on_page_context(context, page, config, nav):\n    return context\n", "def on_page_markdown(markdown, page, config, files):\n    return markdown\n"])
def test_pages_are_written_by_worker_processes_only_where_no_other_plugin_sees_their_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hook: str
) -> None:
    monkeypatch.setattr(parallel, "_WRITE_ENOUGH", 0)
    written: list[int] = []
    write_pages = parallel.write_pages
    monkeypatch.setattr(parallel, "write_pages", lambda *a, **k: written.append(write_pages(*a, **k)) or written[-1])
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n", plugin_options="jobs: 2")
    (root / "hooks.py").write_text(hook)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    pages = html_of(build(root))
    assert written == ([] if "page_context" in hook else [len(pages)])


def test_a_warning_the_theme_gives_while_pages_are_written_by_workers_is_the_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A page whose template warns (here a filter another plugin adds) is written by
    the build itself: the warning is given once, and ``--strict`` counts it."""
    monkeypatch.setattr(parallel, "_WRITE_ENOUGH", 0)
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n", plugin_options="jobs: 2")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    (root / "hooks.py").write_text(
        "import logging\n"
        "def on_env(env, config, files):\n"
        "    env.filters['noted'] = lambda url: logging.getLogger('mkdocs.hooks').warning('the theme notes ' + url) or url\n"
        "    return env\n"
    )
    (root / "overrides").mkdir()
    (root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}{% if page %}{{ page.url | noted }}{% endif %}{% endblock %}\n')
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    with caplog.at_level(logging.WARNING):
        pages = html_of(build(root, strict=False))
    noted = sorted(r.getMessage().removeprefix("the theme notes ") for r in caplog.records if r.getMessage().startswith("the theme notes "))
    assert len(pages) > 2
    assert noted == sorted({*noted}) and {url.removesuffix('index.html') for url in pages} <= {*noted}
    with pytest.raises(Abort):
        build(root, strict=True)


def _compiled_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The templates compiled in this process (not in one forked from it)."""
    names: list[str] = []
    compile_ = jinja2.Environment.compile

    def recording(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", recording)
    return names


def test_the_templates_compiled_ahead_are_loaded_by_an_environment_made_as_mkdocs_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config(str(make_site(tmp_path) / "mkdocs.yml"))
    folder = tmp_path / "bytecode"
    folder.mkdir()
    ahead = config.theme.get_env()
    outputs.templates(ahead)
    ahead.bytecode_cache = outputs.Bytecode(str(folder), outputs.code_digest(config))
    # Material's main.html and what it names: base.html, its partials.
    assert outputs.compile_templates(ahead, ["main.html"]) > 10
    compiled = _compiled_here(monkeypatch)
    env = config.theme.get_env()
    env.bytecode_cache = outputs.Bytecode(str(folder), outputs.code_digest(config))
    for name in ("main.html", "base.html", "partials/header.html", "partials/nav.html", "partials/footer.html"):
        env.get_template(name)
    assert compiled == []
    # An environment set up otherwise (here, escaping every value) compiles its own.
    env = config.theme.get_env()
    env.autoescape = True
    env.bytecode_cache = outputs.Bytecode(str(folder), outputs.code_digest(config))
    env.get_template("main.html")
    assert compiled == ["main.html"]


def test_a_template_that_cannot_be_compiled_ahead_is_left_to_the_build(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="jobs: 2")
    (root / "overrides" / "partials").mkdir(parents=True)
    (root / "overrides" / "partials" / "footer.html").write_text("{% if %}\n")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    env = load_config(str(config)).theme.get_env()
    env.bytecode_cache = outputs.Bytecode(str(tmp_path), "")
    assert outputs.compile_templates(env, ["main.html"]) > 10  # the others are
    with pytest.raises(jinja2.TemplateSyntaxError, match="footer.html|Expected an expression"):
        build(root)


@pytest.mark.parametrize(("jobs", "cache"), [(1, "true"), (2, "true"), (2, "false")])
def test_with_workers_the_themes_templates_are_compiled_in_a_process_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int, cache: str
) -> None:
    compiled = _compiled_here(monkeypatch)
    started: list[int] = []
    compile_templates = parallel.compile_templates
    monkeypatch.setattr(parallel, "compile_templates", lambda *a: started.append(1) or compile_templates(*a))
    root = make_site(tmp_path, plugin_options=f"jobs: {jobs}\ncache: {cache}")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    pages = html_of(build(root))
    assert len(pages) > 2
    # With one job, the build compiles them itself, as MkDocs does.
    assert {"main.html", "base.html"} & {*compiled} == ({"main.html", "base.html"} if jobs == 1 else set())
    # The next build has them from the cache (without it, it compiles them ahead again).
    compiled.clear()
    assert html_of(build(root)) == pages
    assert started == ([] if jobs == 1 else [1] if cache == "true" else [1, 1])
    assert {"main.html", "base.html"} & {*compiled} == (set() if cache == "true" or jobs == 2 else {"main.html", "base.html"})


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_filter_another_plugin_adds_to_the_theme_is_called_as_it_asks(tmp_path: Path, jobs: int) -> None:
    """Jinja compiles a filter's call by what the filter asks for (here the template's
    context), and the templates compiled ahead were compiled without it: they are not
    the build's, nor are templates compiled by a build whose filters were others."""
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", tmp_path / "docs" / "t")
    (tmp_path / "overrides").mkdir()
    (tmp_path / "overrides" / "main.html").write_text(
        '{% extends "base.html" %}\n{% block footer %}{% if page %}<p class="noted">{{ "shown" | noted }}</p>{% endif %}{% endblock %}\n'
    )
    filters = {
        "context": "@jinja2.pass_context\ndef noted(context, value):\n    return value + ' on ' + context['page'].url\n",
        "plain": "def noted(value):\n    return value + ' plainly'\n",
    }
    for name, noted in filters.items():  # one hooks file each: MkDocs loads a file once per process
        (tmp_path / f"{name}.py").write_text(f"import jinja2\n{noted}\ndef on_env(env, config, files):\n    env.filters['noted'] = noted\n    return env\n")
        root = make_site(tmp_path, config=f"hooks:\n  - {name}.py\n", plugin_options=f"jobs: {jobs}")
        config = root / "mkdocs.yml"
        config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
        page = (build(root) / "index.html").read_text(encoding="utf-8")
        assert ('<p class="noted">shown on </p>' if name == "context" else '<p class="noted">shown plainly</p>') in page


def test_a_hook_that_changes_changes_the_transcript_pages_it_writes_into(tmp_path: Path) -> None:
    """Pages are kept whole from one build to the next: a hooks file is part of their
    key, as the site's plugins are by their versions (each build here is a process of
    its own, as MkDocs loads a hooks file once per process)."""
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    (root / "overrides").mkdir()
    (root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p class="noted">{{ "shown" | noted }}</p>{% endblock %}\n')
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    for said in ("first", "then"):
        (root / "hooks.py").write_text(f"def on_env(env, config, files):\n    env.filters['noted'] = lambda value: value + ' {said}'\n    return env\n")
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], capture_output=True, check=True)
        pages = html_of(root / "site")
        assert len(pages) > 2 and all(f'<p class="noted">shown {said}</p>' in page for page in pages.values())


def test_a_build_in_a_daemonic_process_does_its_work_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemonic process of ``multiprocessing`` may not start others: such a build
    converts, renders and writes its pages itself."""
    for enough in ("_CONVERT_ENOUGH", "_RENDER_ENOUGH", "_WRITE_ENOUGH"):
        monkeypatch.setattr(parallel, enough, 0)
    root = make_site(tmp_path, plugin_options="jobs: 2")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    process = multiprocessing.get_context("fork").Process(target=build, args=(root,), daemon=True)
    process.start()
    process.join(300)
    assert process.exitcode == 0
    assert len(html_of(root / "site")) > 2


def test_a_warning_given_while_the_templates_are_compiled_ahead_is_given_once(tmp_path: Path) -> None:
    """MkDocs warns, making the theme's environment, that a locale has no
    translations; the process compiling the templates makes one too, and stays quiet."""
    root = make_site(tmp_path, plugin_options="jobs: 2")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: mkdocs\n  locale: sw\n"))
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f", str(config)], capture_output=True, text=True, check=True)
    assert done.stderr.count("No translations could be found for the locale 'sw'") == 1


def test_a_page_that_warned_warns_again_on_the_next_build(site_root: Path) -> None:
    """A warning MkDocs gives while rendering a transcript page (here a link another
    plugin adds) is given on every build: such a page is not kept in the cache."""
    (site_root / "hooks.py").write_text(
        "def on_page_markdown(markdown, page, config, files):\n"
        "    session = page.file.src_uri.startswith('t/') and page.file.src_uri != 't/index.md'\n"
        "    return markdown + '\\n\\n[gone](missing.md)\\n' if session else markdown\n"
    )
    make_site(site_root, config="hooks:\n  - hooks.py\n", plugin_options="jobs: 1")
    for _ in range(2):
        with pytest.raises(Abort):
            build(site_root, strict=True)


def _kept_outputs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages each build writes from outputs kept in the cache."""
    kept: list[str] = []
    choose = Pages.choose_template

    def recording(self, context, page):
        choose(self, context, page)
        if context.get(outputs.CHOICE) == outputs.KEPT:
            kept.append(page.file.dest_uri)

    monkeypatch.setattr(Pages, "choose_template", recording)
    return kept


def test_a_rebuild_writes_unchanged_pages_and_their_search_entries_from_the_cache(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _kept_outputs(monkeypatch)
    indexed: list[str] = []
    index = Spool.index
    monkeypatch.setattr(Spool, "index", lambda spool, page: indexed.append(page.url) or index(spool, page))
    first = html_of(build(site_root))
    first_index = search_index(site_root / "site")
    assert kept == [] and len(indexed) == len(first)
    indexed.clear()
    second = html_of(build(site_root))
    assert second == first
    assert search_index(site_root / "site") == first_index
    assert indexed == []
    # Every page of the sessions, and the transcripts index.
    assert sorted(kept) == sorted(first)


def test_the_sites_own_code_is_known_by_its_bytes_not_its_times(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hooks file and a custom_dir's template given new times (a fresh checkout),
    their bytes the same: every page is written from the cache."""
    kept = _kept_outputs(monkeypatch)
    make_site(site_root, config="hooks:\n  - hooks.py\n", plugin_options="jobs: 1")
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    (site_root / "hooks.py").write_text("def on_env(env, config, files):\n    env.filters['noted'] = lambda value: value + ' here'\n    return env\n")
    (site_root / "overrides").mkdir()
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>{{ "shown" | noted }}</p>{% endblock %}\n')
    first = html_of(build(site_root))
    assert kept == [] and all("<p>shown here</p>" in page for page in first.values())
    later = config.stat().st_mtime + 3600
    for path in (site_root / "hooks.py", site_root / "overrides" / "main.html"):
        os.utime(path, (later, later))
    assert html_of(build(site_root)) == first
    assert sorted(kept) == sorted(first)


def _change_and_compare(site_root: Path, change: Callable[[], None]) -> tuple[dict[str, str], dict[str, str]]:
    """The site built with the cache after ``change``, and built without it."""
    build(site_root)
    change()
    kept = html_of(build(site_root))
    shutil.rmtree(site_root / ".cache")
    return kept, html_of(build(site_root))


def test_a_new_session_is_in_the_nav_of_every_page(site_root: Path) -> None:
    folder = site_root / "docs" / "t"
    aside = site_root / "aside"
    aside.mkdir()
    shutil.move(folder / f"{S1}.jsonl", aside / f"{S1}.jsonl")
    kept, fresh = _change_and_compare(site_root, lambda: shutil.move(aside / f"{S1}.jsonl", folder / f"{S1}.jsonl"))
    assert kept == fresh
    assert all(f"{S1}/" in html for uri, html in kept.items() if not uri.startswith(f"t/{S1}"))


def test_the_site_configuration_is_in_every_page(site_root: Path) -> None:
    config = site_root / "mkdocs.yml"
    kept, fresh = _change_and_compare(site_root, lambda: config.write_text(config.read_text().replace("site_name: Test", "site_name: Numbat Notes")))
    assert kept == fresh
    assert all("Numbat Notes" in html for html in kept.values())


def test_a_title_in_the_nav_is_in_every_page(site_root: Path) -> None:
    home = site_root / "docs" / "index.md"
    kept, fresh = _change_and_compare(site_root, lambda: home.write_text("# Bilby Basics\n"))
    assert kept == fresh
    assert all("Bilby Basics" in html for html in kept.values())


def _site_with_a_footer(site_root: Path, hook: str) -> None:
    """A template of the site's own whose footer writes ``word`` from the context,
    and ``hook``, a hook file's code that may call ``read_word(config)`` (word.txt)."""
    (site_root / "overrides").mkdir()
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>Footer: {{ word }}</p>{% endblock %}\n')
    (site_root / "hooks.py").write_text(
        "import os\n"
        "from mkdocs.plugins import event_priority\n"
        "def read_word(config):\n"
        "    with open(os.path.join(os.path.dirname(config.config_file_path), 'word.txt')) as handle:\n"
        "        return handle.read()\n" + hook
    )
    make_site(site_root, config="hooks:\n  - hooks.py\n", plugin_options="jobs: 1")
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))


def _footers_follow_the_word(site_root: Path) -> None:
    for word in ("Quokka", "Wombat"):
        (site_root / "word.txt").write_text(word)
        assert all(f"<p>Footer: {word}</p>" in html for html in html_of(build(site_root)).values())


def test_a_theme_override_and_what_plugins_add_to_the_context_are_in_every_page(site_root: Path) -> None:
    _site_with_a_footer(site_root, "def on_page_context(context, page, config, nav):\n    context['word'] = read_word(config)\n    return context\n")
    _footers_follow_the_word(site_root)
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>Changed: {{ word }}</p>{% endblock %}\n')
    assert all("<p>Changed: Wombat</p>" in html for html in html_of(build(site_root)).values())


@pytest.mark.parametrize(
    "hook",
    [
        # Sees the context after this plugin: what it adds is not known when the output is chosen.
        "@event_priority(-200)\ndef on_page_context(context, page, config, nav):\n    context['word'] = read_word(config)\n    return context\n",
        # Sees the output before this plugin: the output kept would be what it made.
        "@event_priority(200)\ndef on_post_page(output, page, config):\n    return output.replace('<p>Footer: </p>', '<p>Footer: ' + read_word(config) + '</p>')\n",
    ],
    ids=["context after", "output before"],
)
def test_pages_are_not_kept_when_another_plugin_comes_after_or_before(site_root: Path, monkeypatch: pytest.MonkeyPatch, hook: str) -> None:
    kept = _kept_outputs(monkeypatch)
    _site_with_a_footer(site_root, hook)
    _footers_follow_the_word(site_root)
    assert kept == []


@pytest.mark.parametrize("config", ["theme:\n  name: mkdocs\n", "theme:\n  name: readthedocs\n", "use_directory_urls: false\n"])
def test_pages_from_the_cache_are_those_of_other_themes_and_settings_too(site_root: Path, monkeypatch: pytest.MonkeyPatch, config: str) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # MkDocs' own themes write the build's date
    kept = _kept_outputs(monkeypatch)
    yml = site_root / "mkdocs.yml"
    yml.write_text(yml.read_text().replace("theme:\n  name: material\n", "") + config)
    first = html_of(build(site_root))
    assert html_of(build(site_root)) == first and kept
    home = site_root / "docs" / "index.md"
    changed, fresh = _change_and_compare(site_root, lambda: home.write_text("# Bilby Basics\n"))
    assert changed == fresh
    assert all("Bilby Basics" in html for html in fresh.values())


def _build_from_its_folder(site_root: Path, monkeypatch: pytest.MonkeyPatch, site_dir: str = "site", strict: bool = True) -> dict[str, str]:
    """The site built as ``mkdocs build -f mkdocs.yml [-d site_dir] [--strict]`` in
    its folder builds it: MkDocs is given the configuration file by the name given on
    the command line."""
    from mkdocs.commands.build import build as mkdocs_build

    monkeypatch.chdir(site_root)
    with open("mkdocs.yml", "rb") as handle:
        config = load_config(handle, strict=strict, site_dir=site_dir)
    assert config.config_file_path == "mkdocs.yml"
    mkdocs_build(config)
    return html_of(site_root / site_dir)


def test_pages_are_kept_however_mkdocs_is_run(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The configuration file named by its whole path or as `mkdocs.yml`, another site
    folder, --strict or not: the same pages, from the cache."""
    kept = _kept_outputs(monkeypatch)
    first = html_of(build(site_root))
    assert _build_from_its_folder(site_root, monkeypatch) == first
    assert sorted(kept) == sorted(first)
    kept.clear()
    assert _build_from_its_folder(site_root, monkeypatch, site_dir="public", strict=False) == first
    assert sorted(kept) == sorted(first)


def test_a_template_that_writes_the_configuration_files_name_has_it_as_given(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (site_root / "overrides").mkdir()
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>From {{ config.config_file_path }}</p>{% endblock %}\n')
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    assert all(f"<p>From {config}</p>" in html for html in html_of(build(site_root)).values())
    assert all("<p>From mkdocs.yml</p>" in html for html in _build_from_its_folder(site_root, monkeypatch).values())


def test_a_template_that_writes_where_the_docs_are_has_a_clones_pages_say_where_its_are(site_root: Path, tmp_path: Path) -> None:
    (site_root / "overrides").mkdir()
    (site_root / "overrides" / "main.html").write_text('{% extends "base.html" %}\n{% block footer %}<p>From {{ config.docs_dir }}</p>{% endblock %}\n')
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    build(site_root)
    clone = tmp_path / "elsewhere" / "clone"
    shutil.copytree(site_root, clone)
    assert all(f"<p>From {clone / 'docs'}</p>" in html for html in html_of(build(clone)).values())


def test_a_theme_that_writes_the_build_date_has_its_pages_made_at_every_build(site_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    kept = _kept_outputs(monkeypatch)
    yml = site_root / "mkdocs.yml"
    yml.write_text(yml.read_text().replace("theme:\n  name: material\n", "theme:\n  name: mkdocs\n"))
    build(site_root)
    build(site_root)
    assert kept == []


@pytest.mark.parametrize("module", ["markdown", "pygments", "pymdownx"])
def test_a_new_version_of_what_renders_pages_invalidates_the_cache(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    before = cache_module.code_fingerprint()
    monkeypatch.setattr(__import__(module), "__version__", "0.0.0")
    assert cache_module.code_fingerprint() != before


@pytest.mark.parametrize("package", ["mkdocs-material", "mkdocs-claude-transcripts"])  # the theme's; a plugin's
def test_a_new_version_of_the_theme_or_of_a_plugin_changes_the_code_pages_are_kept_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str
) -> None:
    config = load_config(str(make_site(tmp_path) / "mkdocs.yml"))
    before = outputs.code_digest(config)
    version = importlib.metadata.Distribution.version
    monkeypatch.setattr(importlib.metadata.Distribution, "version", property(lambda dist: "0.0.0" if dist.name == package else version.fget(dist)))
    assert outputs.code_digest(config) != before


def test_templates_compiled_with_other_settings_are_compiled_again(tmp_path: Path) -> None:
    """The theme's templates compiled at an earlier build are not used by an environment
    that compiles them otherwise (a plugin turning on autoescaping, say)."""
    site = make_site(tmp_path / "site")
    build(site)
    (site / "hooks.py").write_text("def on_env(env, config, files):\n    env.autoescape = True\n    return env\n")
    (site / "mkdocs.yml").write_text((site / "mkdocs.yml").read_text() + "hooks:\n  - hooks.py\n")
    page = (build(site) / "index.html").read_text(encoding="utf-8")
    fresh = make_site(tmp_path / "fresh", config="hooks:\n  - hooks.py\n", plugin_options="cache: false")
    shutil.copy(site / "hooks.py", fresh / "hooks.py")
    assert page == (build(fresh) / "index.html").read_text(encoding="utf-8")
    assert "&lt;h1" in page  # the hook's setting took effect


# Parts of every kind a key is made of: JSON, sets (in an order that changes with the
# hash seed), functions, objects whose repr holds their address, keys of mixed types
# and a cycle (which JSON cannot write as they are).
_PARTS = """
import json, sys
from mkdocs_claude_transcripts.cache import fingerprint
loop = [1]
loop.append(loop)
parts = [
    ({"b": [1, 2.5, None, True], "a": "é\\ud800"}, ("x", "y")),
    ({"words", "of", "a", "set"}, len, object()),
    ({1: "one", "two": 2},),
    (loop,),
]
print(json.dumps([fingerprint(*p) for p in parts]))
"""


def test_a_fingerprint_is_the_same_in_every_process_and_changes_with_any_part() -> None:
    def keys(seed: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", _PARTS], capture_output=True, text=True, check=True, env={"PYTHONHASHSEED": seed})
        return json.loads(done.stdout)

    first = keys("1")
    assert keys("2") == first and len(set(first)) == len(first)
    fingerprint = cache_module.fingerprint
    assert fingerprint({"a": [1, {"b": 2}]}) != fingerprint({"a": [1, {"b": 3}]})
    assert fingerprint({1: "x", "a": "y"}) != fingerprint({1: "x", "a": "z"})
    assert fingerprint({"f": len}) != fingerprint({"f": sorted})


def test_a_cache_file_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "new" / "entry.json"
    cache_module._write_atomically(target, "first")  # its folder made
    # A file of the name the next write would take (left by a process of this id that stopped while writing).
    taken = next(cache_module._WRITES) + 1
    (tmp_path / "new" / f".tmp-{os.getpid()}-{taken}").write_text("left over")
    cache_module._write_atomically(target, "second")
    assert target.read_text() == "second"

    class Full(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module, "_created", lambda path: Path(path).write_text("") or Full())
    with pytest.raises(OSError, match="No space"):
        cache_module._write_atomically(target, "third")
    assert target.read_text() == "second"
    assert sorted(p.name for p in target.parent.iterdir()) == sorted(["entry.json", f".tmp-{os.getpid()}-{taken}"])


def test_a_glossary_snippets_appends_to_every_page_is_the_one_of_this_build(site_root: Path) -> None:
    """Material's glossary: pymdownx.snippets appends a file of abbreviations to every
    page. The pages kept in the cache were rendered with the file as it was then."""
    glossary = site_root / "includes" / "abbreviations.md"
    glossary.parent.mkdir()
    glossary.write_text("*[Claude]: First definition\n")
    make_site(site_root, plugin_options="jobs: 1", config=(
        "markdown_extensions:\n  - abbr\n  - pymdownx.snippets:\n"
        f"      auto_append: [includes/abbreviations.md]\n      base_path: ['{site_root.as_posix()}']\n"
    ))  # fmt: skip
    kept, fresh = _change_and_compare(site_root, lambda: glossary.write_text("*[Claude]: Second definition\n"))
    assert kept == fresh
    assert all('<abbr title="Second definition">' in html for uri, html in kept.items() if uri != "t/index.html")  # (the index says no "Claude")


def test_a_markdown_extension_of_the_sites_hooks_is_the_one_of_this_build(tmp_path: Path) -> None:
    """An extension whose code changes, its settings the same (each build a process of
    its own, as MkDocs loads a hooks file once per process)."""
    root = make_site(tmp_path, config="hooks:\n  - hooks.py\n")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    config = root / "mkdocs.yml"
    for word in ("Quokka", "Wombat"):
        (root / "hooks.py").write_text(
            "from markdown.extensions import Extension\nfrom markdown.preprocessors import Preprocessor\n"
            f"class Stamp(Preprocessor):\n    def run(self, lines):\n        return lines + ['', 'Stamped {word}']\n"
            "class StampExtension(Extension):\n    def extendMarkdown(self, md):\n        md.preprocessors.register(Stamp(md), 'stamp', 1)\n"
            "def on_config(config):\n    config.markdown_extensions.append(StampExtension())\n    return config\n"
        )  # fmt: skip
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], capture_output=True, check=True)
        pages = html_of(root / "site")
        assert len(pages) > 2 and all(f"Stamped {word}" in page for page in pages.values())


def test_markdown_settings_a_later_hook_gives_are_those_of_the_pages(site_root: Path) -> None:
    """The pages' key is taken once every plugin and hook has set the configuration up."""
    (site_root / "hooks.py").write_text(
        "import os\n"
        "def on_config(config):\n"
        "    if os.path.exists(os.path.join(os.path.dirname(config.config_file_path), 'permalinks')):\n"
        "        config.mdx_configs.setdefault('toc', {})['permalink'] = True\n"
        "    return config\n"
    )
    make_site(site_root, config="hooks:\n  - hooks.py\nmarkdown_extensions:\n  - toc\n", plugin_options="jobs: 1")
    kept, fresh = _change_and_compare(site_root, lambda: (site_root / "permalinks").write_text(""))
    assert kept == fresh
    assert all('class="headerlink"' in html for html in kept.values())


def test_a_global_a_hook_gives_the_templates_is_in_every_page_as_it_is_now(site_root: Path) -> None:
    _site_with_a_footer(site_root, "def on_env(env, config, files):\n    env.globals['word'] = read_word(config)\n    return env\n")
    _footers_follow_the_word(site_root)


def test_an_icon_of_the_sites_own_is_in_every_page_as_it_is_now(site_root: Path) -> None:
    icons = site_root / "overrides" / ".icons" / "own"
    icons.mkdir(parents=True)
    (icons / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="red" d="M0 0h24v24H0z"/></svg>')
    config = site_root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n  icon:\n    logo: own/logo\n"))
    kept, fresh = _change_and_compare(site_root, lambda: (icons / "logo.svg").write_text((icons / "logo.svg").read_text().replace("red", "blue")))
    assert kept == fresh
    assert all('fill="blue"' in html for html in kept.values())


def test_an_id_an_output_prints_is_no_anchor_of_a_page_from_the_cache(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """MkDocs counts the ids (and the names of links) of a page's tags as its anchors;
    a section of a page taken from the cache is read for them, its text left out."""
    root = make_site(tmp_path, config="validation:\n  anchors: warn\n", plugin_options="jobs: 1")
    session = "1d1d1d1d-0000-4000-8000-000000000000"
    entries: list[dict] = [
        {"type": "user", "message": {"role": "user", "content": "Which ids does the template use?"}},
        {"type": "assistant", "message": {"id": "m0", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "grep -n id= page.html"}}]}},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": '12: <div id="target-xyz"> <a name="old-anchor">'}]}},
    ]  # fmt: skip
    for number in range(60):  # enough that the output is not in the last sections of the page
        entries.append({"type": "user", "message": {"role": "user", "content": f"Question {number}: " + "words " * 200}})
    docs = root / "docs"
    path = docs / f"{session}.jsonl"

    def write(count: int) -> None:
        lines = []
        for number, entry in enumerate(entries[:count]):
            entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:{number // 60:02d}:{number % 60:02d}.000Z")
            lines.append(json.dumps(entry) + "\n")
        path.write_text("".join(lines), encoding="utf-8")

    (docs / "about.md").write_text(f"# About\n\nSee [the div]({session}/index.md#target-xyz) and [the link]({session}/index.md#old-anchor).\n")
    for count in (len(entries) - 1, len(entries)):  # cold, then with a line appended
        write(count)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="mkdocs"):
            build(root, strict=False)
        log = "\n".join(r.getMessage() for r in caplog.records)
        assert "does not contain an anchor '#target-xyz'" in log and "does not contain an anchor '#old-anchor'" in log


def test_the_anchors_of_html_are_the_ids_of_its_tags_and_the_names_of_its_links() -> None:
    from mkdocs_claude_transcripts.rendering import _anchors

    html = '<p>&lt;div id="in-text"&gt; name="x"</p><div id=\'kept\' data-id="data"><a class="c" name="link"></a><span name="span"></span></div>'
    assert _anchors(html) == {"kept", "link"}


def test_a_session_another_build_stored_meanwhile_is_taken_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two builds at once sharing a cache (``mkdocs serve`` running while ``mkdocs
    build`` is run) both convert a session the cache lacked as they started: the one
    that stores it second does not remove the files the first publishes, which that
    build reads its pages from (it stopped on a file gone)."""
    from mkdocs_claude_transcripts.pipeline import RenderOptions, SourceFile, discover

    path = ROOT / "example_site" / "docs" / "transcripts" / f"{S1}.jsonl"
    (source,) = [s for s in discover([SourceFile(f"t/{S1}.jsonl", str(path))]).sessions]
    first, second = Cache(tmp_path, "settings"), Cache(tmp_path, "settings")
    key = first.session_key(source)
    assert second.session_key(source) == key and not second.has_session(key)  # as both builds started
    published = first.convert(source, key, RenderOptions(), Redactor())
    pages = [page.path for page in published.pages]
    replace = os.replace

    def checking(src: str, dst: str) -> None:
        assert all(os.path.exists(page) for page in pages), "the first build's pages were removed"
        replace(src, dst)

    monkeypatch.setattr(cache_module.os, "replace", checking)
    stored = second.convert(source, key, RenderOptions(), Redactor())
    assert [page.path for page in stored.pages] == pages
    assert all(os.path.exists(page) for page in pages)
    assert not [p for p in (tmp_path / "sessions").iterdir() if p.name.startswith(".tmp-")]  # its own work, dropped

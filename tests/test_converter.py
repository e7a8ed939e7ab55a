"""The converter: a process started as MkDocs starts, which loads the content model
meanwhile and converts the sessions the build lacks (parallel.Converter)."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace

import pytest
from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

from mkdocs_claude_transcripts import cache as cache_module
from mkdocs_claude_transcripts import parallel, pipeline, workers
from mkdocs_claude_transcripts.transcript.discovery import SessionSource

from .conftest import ROOT, build, copy_tree, make_site

# Records, as a build's process ends, whether it loaded the content model.
HOOK = """
import json, sys

def on_post_build(config):
    loaded = sorted(name for name in sys.modules if name.startswith("mkdocs_claude_transcripts.model"))
    with open(config.config_file_path + ".model", "w") as handle:
        json.dump(loaded, handle)
"""


def _example(root: Path, jobs: int, config: str = "") -> Path:
    """A site of the example's sessions."""
    make_site(root, config=config, plugin_options=f"jobs: {jobs}")
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    return root


def _site(root: Path, jobs: int) -> Path:
    """The example, with the hook that records whether the build loaded the model."""
    _example(root, jobs, config="hooks:\n  - hooks.py\n")
    (root / "hooks.py").write_text(HOOK)
    return root


def _mkdocs_build(root: Path) -> list[str]:
    """``mkdocs build`` in a process of its own; the modules of the content model it loaded."""
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml")], capture_output=True, check=True, timeout=300)
    return json.loads((root / "mkdocs.yml.model").read_text())


def _pages(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in (site / "t").rglob("*.html")}


def _grow(root: Path) -> None:
    """One prompt more at the end of the example's longest session."""
    path = max((root / "docs" / "t").rglob("*.jsonl"), key=lambda p: p.stat().st_size)
    last = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    line = {"type": "user", "uuid": "9e0e4c53-5d0b-4b8e-9d77-0d1d1a1a1a1a", "parentUuid": last.get("uuid"), "sessionId": last.get("sessionId"),
            "timestamp": "2030-01-01T00:00:00.000Z", "message": {"role": "user", "content": "Twelve quarrelsome ostriches."}}  # fmt: skip
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def test_with_workers_the_build_converts_in_the_converter_and_never_loads_the_model(tmp_path: Path) -> None:
    one, two = _site(tmp_path / "one", jobs=1), _site(tmp_path / "two", jobs=2)
    # With one job, the build converts the sessions itself; with two, the converter does.
    assert _mkdocs_build(one) != []
    assert _mkdocs_build(two) == []
    assert _pages(two / "site") == _pages(one / "site")
    # And the session that grew since, on the next build.
    for root in (one, two):
        _grow(root)
    assert _mkdocs_build(one) != []
    assert _mkdocs_build(two) == []
    pages = _pages(two / "site")
    assert pages == _pages(one / "site")
    assert any("Twelve quarrelsome ostriches." in page for page in pages.values())


def _built_as_mkdocs_builds(root: Path, started: Callable[[], object] = lambda: None) -> Path:
    """A build in this process, its plugins started and shut down as the command line
    does it; ``started`` runs once they are started."""
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
    config.plugins.on_startup(command="build", dirty=False)
    try:
        started()
        mkdocs_build(config)
    finally:
        config.plugins.on_shutdown()
    return root / "site"


def _broken(*args: object, **kwargs: object) -> None:
    raise RuntimeError("not here")


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each converter answered the build."""
    answers: list[bool] = []
    convert = parallel.Converter.convert
    monkeypatch.setattr(parallel.Converter, "convert", lambda self, *a: answers.append(convert(self, *a)) or answers[-1])
    return answers


def test_what_the_converter_could_not_convert_the_build_converts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _pages(build(_example(tmp_path / "a", jobs=1)))
    answers = _recorded(monkeypatch)
    # Conversion fails in the converter, forked as the build starts, and not in the build.
    with pytest.MonkeyPatch.context() as broken:
        broken.setattr(cache_module, "convert_session", _broken)
        site = _built_as_mkdocs_builds(_example(tmp_path / "b", jobs=2), started=broken.undo)
    assert answers == [True]
    assert _pages(site) == expected
    assert multiprocessing.active_children() == []


def _unsendable(self: object, protocol: int) -> None:
    raise TypeError("cannot be sent")


@pytest.mark.parametrize("how", ["ended", "unsendable"])
def test_a_converter_that_ended_or_cannot_be_given_the_work_leaves_it_to_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    expected = _pages(build(_example(tmp_path / "a", jobs=1)))
    answers = _recorded(monkeypatch)
    started: list[parallel.Converter | None] = []
    start = parallel.Converter.start
    monkeypatch.setattr(parallel.Converter, "start", classmethod(lambda cls: started.append(start()) or started[-1]))
    if how == "unsendable":
        monkeypatch.setattr(SessionSource, "__reduce_ex__", _unsendable)
    site = _built_as_mkdocs_builds(_example(tmp_path / "b", jobs=2), started=lambda: how == "ended" and started[0]._process.kill())
    assert answers == [False]
    assert _pages(site) == expected
    assert multiprocessing.active_children() == []


def test_the_converter_ends_with_a_build_that_fails(tmp_path: Path) -> None:
    root = _example(tmp_path, jobs=2)
    (root / "hooks.py").write_text("def on_pre_build(config):\n    raise RuntimeError('no build today')\n")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text() + "hooks:\n  - hooks.py\n")
    with pytest.raises(RuntimeError, match="no build today"):
        _built_as_mkdocs_builds(root)
    assert multiprocessing.active_children() == []
    # And as MkDocs' command ends, whatever ended the build.
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "no build today" in done.stderr


def test_the_converter_is_started_where_sessions_changed_since_the_last_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking it costs a build a little: a build whose sessions' files and folders
    are as the last build left them does without it."""
    root = _example(tmp_path, jobs=2)
    started: list[bool] = []
    start = parallel.Converter.start
    monkeypatch.setattr(parallel.Converter, "start", classmethod(lambda cls: started.append(True) or start()))

    def started_by_a_build() -> bool:
        started.clear()
        _built_as_mkdocs_builds(root)
        assert multiprocessing.active_children() == []
        return started == [True]

    assert started_by_a_build()  # the first
    assert not started_by_a_build()
    _grow(root)
    assert started_by_a_build()
    assert not started_by_a_build()
    # A new session in a folder that holds one.
    first = next((root / "docs" / "t").rglob("*.jsonl"))
    (first.parent / "0f0e0d0c-0b0a-4090-8070-605040302010.jsonl").write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    assert started_by_a_build()
    assert not started_by_a_build()
    # And whatever the record of the last build holds, once the cache is gone.
    shutil.rmtree(root / ".cache")
    assert started_by_a_build()
    # A site with no sessions (yet) is one whose sessions did not change.
    for path in (root / "docs" / "t").rglob("*.jsonl"):
        path.unlink()
    assert started_by_a_build()
    assert not started_by_a_build()


class _Noisy(Extension):
    """Warns as it renders, or fails."""

    def __init__(self, fails: bool) -> None:
        super().__init__()
        self.fails = fails

    def extendMarkdown(self, md: Markdown) -> None:
        fails = self.fails

        class Noisy(Preprocessor):
            def run(self, lines: list[str]) -> list[str]:
                if fails:
                    raise ValueError("not today")
                logging.getLogger("mkdocs.extensions").warning("a warning of the extension")
                return lines

        md.preprocessors.register(Noisy(md), "noisy", 100)


@pytest.mark.parametrize("fails", [False, True])
def test_setting_up_rendering_while_the_build_waits_says_and_breaks_nothing(caplog: pytest.LogCaptureFixture, fails: bool) -> None:
    """What warns or fails then warns or fails where a page is rendered, and is
    reported there."""
    config = SimpleNamespace(markdown_extensions=["admonition", _Noisy(fails)], mdx_configs={})
    with caplog.at_level(logging.DEBUG):
        parallel.warm_up(config)
    assert caplog.records == []
    # The same extension, where a page is rendered.
    with caplog.at_level(logging.DEBUG), pytest.raises(ValueError) if fails else nullcontext():
        Markdown(extensions=config.markdown_extensions).convert("text")
    warned = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert warned == ([] if fails else ["a warning of the extension"])


def test_while_the_converter_converts_the_build_sets_up_rendering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done: list[list[str]] = []
    warm_up = parallel.warm_up
    monkeypatch.setattr(parallel, "warm_up", lambda config: done.append(list(config.markdown_extensions)) or warm_up(config))
    root = _example(tmp_path, jobs=2)
    _built_as_mkdocs_builds(root)
    assert len(done) == 1 and "pymdownx.superfences" in done[0]
    _built_as_mkdocs_builds(root)  # nothing to convert, nothing to wait for
    assert len(done) == 1


def test_where_processes_cannot_be_forked_the_build_does_the_work_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on Windows, whose processes are spawned, not forked."""
    expected = _pages(build(_example(tmp_path / "a", jobs=1)))
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: pytest.fail(f"a '{method}' context asked for"))
    answers = _recorded(monkeypatch)
    site = _built_as_mkdocs_builds(_example(tmp_path / "b", jobs=2))
    assert answers == []
    assert _pages(site) == expected


def test_the_plugin_kept_from_one_build_to_the_next_holds_nothing_of_the_last(tmp_path: Path) -> None:
    """MkDocs keeps a plugin that has ``on_startup`` for every configuration it loads
    in a process (under ``mkdocs serve``, from one build to the next): a build with
    the plugin turned off publishes no transcript, and leaves the cache as it was."""
    root = _example(tmp_path, jobs=1)
    first = _pages(build(root))
    assert first
    kept = sorted(path.relative_to(root) for path in (root / ".cache").rglob("*") if path.is_file())
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("      jobs: 1", "      jobs: 1\n      enabled: false"))
    site = build(root)
    assert not (site / "t" / "index.html").exists() and _pages(site) == {}
    assert sorted(path.relative_to(root) for path in (root / ".cache").rglob("*") if path.is_file()) == kept
    config.write_text(config.read_text().replace("\n      enabled: false", ""))
    assert _pages(build(root)) == first


def test_loading_keeps_the_collector_off_then_leaves_what_was_loaded_out_of_it() -> None:
    # In a process of its own: what it freezes stays frozen.
    code = (
        "import gc\nfrom mkdocs_claude_transcripts.workers import loading\n"
        "frozen = gc.get_freeze_count()\nwith loading():\n    import mkdocs_claude_transcripts.pipeline\n    inside = gc.isenabled()\n"
        "print(inside, gc.isenabled(), gc.get_freeze_count() > frozen + 10000)\n"
        "gc.disable()\nwith loading():\n    pass\nprint(gc.isenabled())"  # left off by whoever turned it off
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "True", "False"]


def test_the_markdown_set_up_beforehand_holds_each_kind_of_block_pages_hold() -> None:
    from mkdocs_claude_transcripts.render.fences import FENCES

    extensions = ["admonition", "attr_list", "pymdownx.details", "pymdownx.superfences", "tables"]
    html = Markdown(extensions=extensions, extension_configs={"pymdownx.superfences": {"custom_fences": FENCES}}).convert(parallel._sample())
    for made in ('<div class="admonition note">', '<details class="info">', "<table>", "<li>", "<strong>", "<code>",
                 'class="highlight language-bash"', '<pre class="ct-text">'):  # fmt: skip
        assert made in html, made


def _pid() -> bytes:
    return str(os.getpid()).encode()


def _fails_in_another_process(parent: int) -> Callable[[], bytes]:
    def work() -> bytes:
        if os.getpid() != parent:
            raise RuntimeError("not here")
        return b"made here"

    return work


def test_work_done_aside_gives_its_bytes_from_a_process_of_its_own() -> None:
    result = workers.aside(_pid)
    assert int(result()) != os.getpid()
    assert multiprocessing.active_children() == []


def test_work_that_fails_aside_is_done_again_by_the_caller_where_its_error_is_seen() -> None:
    assert workers.aside(_fails_in_another_process(os.getpid()))() == b"made here"
    with pytest.raises(RuntimeError, match="not here"):
        workers.aside(_broken)()  # type: ignore[arg-type]
    assert multiprocessing.active_children() == []


def test_where_forking_is_not_safe_work_aside_is_done_by_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # as under mkdocs serve
    assert int(workers.aside(_pid)()) == os.getpid()


def _exports(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "t").rglob("session.json")}


def test_the_converter_converting_a_session_alone_makes_its_session_json_aside_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one, two = _example(tmp_path / "one", jobs=1), _example(tmp_path / "two", jobs=2)
    build(one)
    _built_as_mkdocs_builds(two)
    for root in (one, two):
        _grow(root)
    made_by = tmp_path / "aside"
    real = pipeline.aside

    def recorded(work: Callable[[], bytes]) -> Callable[[], bytes]:
        with made_by.open("a") as handle:
            handle.write(f"{os.getpid()}\n")
        return real(work)

    monkeypatch.setattr(pipeline, "aside", recorded)
    expected = _exports(build(one))
    assert not made_by.exists()  # one job: made in line
    site = _built_as_mkdocs_builds(two)
    assert [int(pid) != os.getpid() for pid in made_by.read_text().split()] == [True]  # by the converter, for the session that grew
    assert expected and _exports(site) == expected
    assert b"Twelve quarrelsome ostriches." in b"".join(expected.values())

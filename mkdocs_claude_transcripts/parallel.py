"""Work done on every core before MkDocs' loop over the pages: converting the
sessions that are not in the cache (in a process started with MkDocs, which loads
the content model meanwhile), rendering to HTML the transcript pages that are not,
then putting them through the theme's template (its templates compiled meanwhile).
All of it lands in the cache, where the build then finds it as it would on a
rebuild; nothing else changes, and the site is the same.

MkDocs renders one page after another in one process, and on a site of transcripts
Python-Markdown takes most of the build. The work is spread over forked processes
(``workers``); where they cannot be used, nothing happens here and the build does
all the work itself.

A page is rendered with MkDocs' own ``Page.render`` and the site's configuration,
and written with the context MkDocs' ``get_context`` gives it and the theme's
environment. A page whose rendering or writing logs a warning is left to MkDocs, so
that the warning is shown, and counted by ``--strict``, in the build itself.
"""

from __future__ import annotations

import atexit
import functools
import logging
import multiprocessing.process
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import jinja2
from mkdocs.commands.build import get_context
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from . import outputs
from .cache import Cache
from .pages import Pages, markdown_of
from .redact import Redactor
from .render import markdown as md
from .render.context import RenderOptions
from .rendering import WarningCount, to_render
from .rendering import render as render_page
from .toc import toc_to_json
from .transcript.discovery import SessionSource
from .workers import can_fork, end, in_background, in_workers, loading

if TYPE_CHECKING:
    from multiprocessing.connection import Connection


def convert_sessions(sources: Sequence[tuple[SessionSource, str]], options: RenderOptions, redactor: Redactor, cache: Cache, workers: int) -> int:
    """Convert each source into the cache under its key; how many were."""
    if sources:
        from . import pipeline  # noqa: F401 (the content model, loaded once, before the workers are forked)

    def convert(job: tuple[SessionSource, str]) -> int:
        source, key = job
        cache.convert(source, key, options, redactor)
        return 1

    return _each(sources, convert, workers, lambda job: job[0].size(), _CONVERT_ENOUGH)


class Converter:
    """A process forked as MkDocs starts (``start``, at ``on_startup``): it loads the
    content model while MkDocs reads its configuration and lists the site's files,
    work of one process that leaves a core free, then converts the sessions the build
    finds missing from the cache (``convert``), on every core. The build's own process
    never loads the model: a rebuild after a transcript grew waits for its conversion
    alone. It serves one build, and ends with its ``convert`` or ``stop``."""

    def __init__(self, process: multiprocessing.process.BaseProcess, connection: Connection) -> None:
        self._process = process
        self._connection = connection

    @classmethod
    def start(cls) -> Converter | None:
        """The converter, started (None where forking is not safe)."""
        if not can_fork():
            return None
        ours, theirs = multiprocessing.Pipe()
        # Not daemonic, so that it may start workers; stopped at the latest as the build's process ends.
        process = in_background(functools.partial(_converter, theirs, ours), daemon=False)
        theirs.close()
        if process is None:
            ours.close()
            return None
        converter = cls(process, ours)
        atexit.register(converter.stop)
        return converter

    def convert(
        self,
        sources: Sequence[tuple[SessionSource, str]],
        options: RenderOptions,
        redactor: Redactor,
        cache: Cache,
        workers: int,
        meanwhile: Callable[[], None] = lambda: None,
    ) -> bool:
        """Convert each source into the cache under its key, the build doing
        ``meanwhile`` as it waits; whether the converter did its work (what it could
        not convert is still missing from the cache, for the build to convert, and
        report why). The converter ends."""
        try:
            self._connection.send((list(sources), options, redactor, cache, workers))
            meanwhile()
            return bool(self._connection.recv())
        except Exception:  # noqa: BLE001 (it ended, or its work could not be sent)
            return False
        finally:
            self.stop()

    def stop(self) -> None:
        atexit.unregister(self.stop)
        self._connection.close()
        end(self._process)


def _converter(connection: Connection, other: Connection) -> None:
    """The converter's process: the content model, then the one request of the build."""
    other.close()  # the build's end: without it, its ending is seen here
    _start_worker()  # what would warn or fail here is done again by the build, which says so
    with loading():
        from . import pipeline  # noqa: F401 (the content model, loaded before any request, and before the workers are forked)

    try:
        sources, options, redactor, cache, workers = connection.recv()
    except Exception:  # noqa: BLE001 (the build ended, or its request could not be read: it does the work)
        return
    # What fails here is missing from the cache: the build converts it again, and reports the error.
    try:
        shared = convert_sessions(sources, options, redactor, cache, workers)
    except Exception:  # noqa: BLE001
        shared = 0
    if not shared:  # too little to share among workers: converted here, session.json beside it on the core the build leaves free
        for source, key in sources:
            try:
                cache.convert(source, key, options, redactor, export_aside=workers > 1)
            except Exception:  # noqa: BLE001, S112
                continue
    try:
        connection.send(True)
    except OSError:  # the build has ended
        pass


def _sample() -> str:
    """Markdown of the kinds transcript pages hold, made as they are made, for ``warm_up``."""
    text = "Text with **strong**, `code`, a [link](https://example.com), <kbd>html</kbd> &amp; an entity."
    return "\n".join([
        md.heading("A title"), "", *md.prose(text), "",
        *md.block("note", "A note", md.prose("Its text.")),
        *md.block("info", "Folded", md.bullets(["a list", "of items"]), collapsible="closed"),
        *md.table(["a", "b"], [["1", "2"]]), "",
        *md.fence("echo text | grep t", "bash"), "", *md.fence("plain text"),
    ])  # fmt: skip


def warm_up(config: MkDocsConfig) -> None:
    """Set up what rendering any page takes (the site's Markdown extensions and their
    patterns, the highlighting of code), for the first page the build renders, and
    the workers it forks, not to pay for it: done while the build has nothing else to
    do, waiting for its sessions to be converted. Nothing of it is kept but what
    Python keeps (modules, compiled patterns, lexers); what would warn or fail here
    warns or fails, and is reported, where a page is rendered."""
    with _counting_warnings():
        try:
            import markdown

            markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs).convert(_sample())
        except Exception:  # noqa: BLE001, S110
            pass


@dataclass
class PageJob:
    file: File
    key: str


def render_pages(
    jobs: Sequence[PageJob], config: MkDocsConfig, files: Files, cache: Cache, workers: int, search_text: Callable[[str], str], settings: str
) -> int:
    """Render each page into the cache under its key, with the text the search index
    is given of it; how many were. ``settings``: the site's Markdown settings."""

    def render(job: PageJob) -> int:
        page = job.file.page or Page(None, job.file, config)
        page.markdown = markdown_of(job.file)
        _warnings.count = 0
        sections = render_page(page, config, files, cache, settings)
        try:
            if _warnings.count:
                return 0
            anchors = sorted(page.present_anchor_ids or ())
            html = page.content or ""
            cache.store_html(job.key, html, toc_to_json(page.toc), anchors, sections, page.url, settings, search_text(html))
            return 1
        finally:
            page.markdown = page.content = None  # a worker renders many pages: none is kept

    def weight(job: PageJob) -> int:
        """What is rendered of a page: of a page of a conversation that went on, its top
        and last sections alone (rendering.py), which starting workers would cost more
        than; all of a page rendered at its URL for the first time."""
        kept = cache.section_digests(job.file.url, settings)
        return to_render(markdown_of(job.file), kept) if kept else len(job.file.content_bytes)

    return _each(jobs, render, workers, weight, _RENDER_ENOUGH)


def write_pages(
    pages: Sequence[Page], config: MkDocsConfig, files: Files, nav: Navigation, env: jinja2.Environment, transcripts: Pages, workers: int
) -> int:
    """Put each page through the theme's template, as MkDocs' loop over the pages
    would, its output into the cache; how many were. Only for sites whose other
    plugins read pages' context without changing it (see ``Pages.context_ahead``)."""
    listed = files.documentation_pages(inclusion=InclusionLevel.is_included)

    def write(page: Page) -> int:
        _warnings.count = 0
        config._current_page = page
        page.active = True  # the theme shows it as the current page
        try:
            context = get_context(nav, listed, config, page)
            template = env.get_template(page.meta.get("template", "main.html"))
            if not transcripts.context_ahead(context, page):
                return 0
            output = template.render(context)
            return int(not _warnings.count and transcripts.keep_output(output, page))
        finally:
            page.active = False
            config._current_page = None
            page.content = ""  # as MkDocs' loop will find it

    if not pages or len(pages) < _WRITE_ENOUGH or workers < 2 or not can_fork():
        return 0
    # The first here: the theme's templates are compiled once, before the workers are forked.
    with _counting_warnings():
        try:
            first = write(pages[0])
        except Exception:
            first = 0  # the build writes it again, and reports the error
    return first + _each(pages[1:], write, workers, lambda page: 1, 0)


def compile_templates(config: MkDocsConfig, folder: str) -> multiprocessing.process.BaseProcess | None:
    """Compile the theme's templates into a bytecode cache at ``folder``, in a process
    of its own started now, while the build lists its files and has its sessions
    converted (a core is free, at least while it lists them); the build then loads
    them from the cache rather than compiling them. The process, to join before the
    templates are used."""

    def work() -> None:
        _start_worker()  # what would warn or fail here is done again by the build, which says so
        try:
            env = config.theme.get_env()  # as MkDocs makes it
            outputs.templates(env)
            env.bytecode_cache = outputs.Bytecode(folder, outputs.code_digest(config))
            outputs.compile_templates(env, ["main.html", outputs.PROXY, outputs.KEPT, *sorted(config.theme.static_templates)])
        except Exception:  # noqa: BLE001, S110
            pass

    return in_background(work)


# ---------------------------------------------------------------- the workers


# Starting workers costs about what converting 2 MB of transcripts, rendering 256 KB
# of Markdown or writing 16 pages costs in one process: less work than this is left
# to the build.
_CONVERT_ENOUGH = 2 * 1024 * 1024
_RENDER_ENOUGH = 256 * 1024
_WRITE_ENOUGH = 16  # pages


def _each(items: Sequence[Any], work: Callable[[Any], int], workers: int, size: Callable[[Any], int], enough: int) -> int:
    """``work`` on every item in worker processes, the largest (by ``size``) given
    first; the sum of what it returned (an item whose work failed counts 0: the build
    does it again itself, and reports the error). 0 where workers cannot be used, or
    the items, of ``size``, weigh less than ``enough`` together."""
    sized = sorted(((size(item), item) for item in items), key=lambda pair: -pair[0])
    if sum(weight for weight, _ in sized) < enough:
        return 0
    done = in_workers([item for _, item in sized], work, workers, _start_worker)
    return 0 if done is None else sum(result or 0 for _, result in done)


_warnings = WarningCount()  # in a worker, its only handler: the build does again what warned, and shows it


def _start_worker() -> None:
    for name in ("", "mkdocs"):
        logging.getLogger(name).handlers = [_warnings]


@contextmanager
def _counting_warnings() -> Iterator[None]:
    """In the build's own process, warnings counted, not shown, as in a worker."""
    loggers = [logging.getLogger(name) for name in ("", "mkdocs")]
    handlers = [logger.handlers for logger in loggers]
    _start_worker()
    try:
        yield
    finally:
        for logger, kept in zip(loggers, handlers):
            logger.handlers = kept

"""Work done on every core before MkDocs' loop over the pages: converting the
sessions that are not in the cache, then rendering to HTML the transcript pages
that are not. Both land in the cache, where the build then finds them as it would
on a rebuild; nothing else changes, and the site is the same.

MkDocs renders one page after another in one process, and on a site of transcripts
Python-Markdown takes most of the build. The workers are forked, so they share the
configuration and files of the build as they are. Where ``fork`` is missing
(Windows), where the process runs other threads (``mkdocs serve``), or with one job,
nothing happens here and the build does all the work itself.

A page is rendered with MkDocs' own ``Page.render`` and the site's configuration. A
page whose rendering logs a warning is left to MkDocs, so that the warning is shown,
and counted by ``--strict``, in the build itself.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import meta

from .cache import Cache
from .pipeline import SessionSource, convert_session
from .redact import Redactor
from .render.context import RenderOptions
from .toc import toc_to_json


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Forking is safe in a process of one thread."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def convert_sessions(sources: Sequence[tuple[SessionSource, str]], options: RenderOptions, redactor: Redactor, cache: Cache, workers: int) -> int:
    """Convert each source into the cache under its key; how many were."""

    def convert(job: tuple[SessionSource, str]) -> int:
        source, key = job
        cache.store_session(key, convert_session(source, options, redactor))
        return 1

    return _each(sorted(sources, key=lambda job: -_size(job[0])), convert, workers)


@dataclass
class PageJob:
    file: File
    key: str


def markdown_of(file: File) -> str:
    """The Markdown MkDocs hands to the plugins for a page generated with ``file``."""
    source, _ = meta.get_data(file.content_string)
    return source


def render_pages(jobs: Sequence[PageJob], config: MkDocsConfig, files: Files, cache: Cache, workers: int) -> int:
    """Render each page into the cache under its key; how many were."""

    def render(job: PageJob) -> int:
        page = job.file.page or Page(None, job.file, config)
        page.markdown = markdown_of(job.file)
        _warnings.count = 0
        page.render(config, files)
        if _warnings.count:
            return 0
        cache.store_html(job.key, page.content or "", toc_to_json(page.toc), sorted(page.present_anchor_ids or ()))
        return 1

    return _each(sorted(jobs, key=lambda job: -len(job.file.content_bytes)), render, workers)


# ---------------------------------------------------------------- the workers

_work: Callable[[Any], int] | None = None
_items: Sequence[Any] = ()


def _each(items: Sequence[Any], work: Callable[[Any], int], workers: int) -> int:
    """``work`` on every item in forked processes (the largest items first, so given
    first); the sum of what it returned. Nothing is done, and 0 returned, where
    processes cannot be forked or would not help."""
    global _work, _items
    if workers < 2 or len(items) < 2 or not can_fork():
        return 0
    _work, _items = work, items
    try:
        # A worker is replaced after some items, so that its memory stays that of one.
        pool = multiprocessing.get_context("fork").Pool(min(workers, len(items)), _start_worker, maxtasksperchild=48)
        with pool:
            return sum(pool.imap_unordered(_run, range(len(items))))
    finally:
        _work, _items = None, ()


def _run(index: int) -> int:
    assert _work is not None
    try:
        return _work(_items[index])
    except Exception:  # the build does it again itself, and reports the error
        return 0


class _Warnings(logging.Handler):
    """Counts the warnings of a worker, and keeps them quiet: the build does again
    what logged one, and shows them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


_warnings = _Warnings()


def _start_worker() -> None:
    for name in ("", "mkdocs"):
        logging.getLogger(name).handlers = [_warnings]


def _size(source: SessionSource) -> int:
    total = 0
    for path in source.paths():
        try:
            total += os.path.getsize(path)
        except OSError:
            pass
    return total

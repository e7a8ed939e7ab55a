"""The files of the paths given to the command line, each with the name it has in
the output (the plugin has MkDocs' files instead)."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator
from pathlib import Path

from .transcript.discovery import SourceFile


class UsageError(Exception):
    """A mistake in the command line or its paths: said on stderr, exit status 2."""


def source_files(paths: list[str], skipped: list[str] | None = None) -> Iterator[SourceFile]:
    """The files of ``paths``, each named relative to the folder given (prefixed by
    that folder's name when several are given). A single ``.jsonl`` comes with what
    belongs to it beside it: its ``<session>/`` folder and ``agent-*.jsonl`` files.

    A file reached twice (a folder given twice, an agent's file given with its
    session, sessions of one folder given one by one) comes once, with its first
    name; a path whose names would be another's (``a/proj`` and ``b/proj``) is put
    under a name of its own (``proj-2``). Folders that are links are followed, as
    MkDocs follows them; one that cannot be read is named in ``skipped``."""
    prefix = len(paths) > 1
    seen: set[str] = set()  # the real paths of the files given
    used: set[str] = set()  # their names
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise UsageError(f"no such file or folder: {given}")
        root, group = (path.name if prefix else "", files_under(path, skipped)) if path.is_dir() else ("", _with_companions(path, skipped))
        fresh = []
        for name, item in group:
            real = os.path.realpath(item)
            if real not in seen:
                seen.add(real)
                fresh.append((name, item))
        if any(posixpath.join(root, name) in used for name, _ in fresh):
            root = _free_root(root or path.parent.name or "input", [name for name, _ in fresh], used)
        for name, item in fresh:
            used.add(posixpath.join(root, name))
            yield SourceFile(posixpath.join(root, name), item)


def files_under(path: Path, skipped: list[str] | None = None) -> list[tuple[str, str]]:
    """The files under ``path``, by their names relative to it, in order; folders that
    are links followed, as MkDocs follows them, each folder once."""
    found: list[tuple[tuple[str, ...], str]] = []
    visited: set[str] = set()

    def unreadable(error: OSError) -> None:
        if skipped is not None:
            skipped.append(f"{error.filename}: {error.strerror or error}")

    for folder, folders, files in os.walk(path, onerror=unreadable, followlinks=True):
        real = os.path.realpath(folder)
        if real in visited:  # a link back to a folder above, or a folder reached twice
            folders[:] = []
            continue
        visited.add(real)
        relative = Path(folder).relative_to(path).parts
        # (A transcript's name that is not a file, a link to nothing or a pipe, is kept,
        # to be named as one that cannot be read; other names are kept as files only.)
        kept = [name for name in files if name.endswith(".jsonl") or os.path.isfile(os.path.join(folder, name))]
        found += [((*relative, name), os.path.join(folder, name)) for name in kept]
    return [("/".join(parts), item) for parts, item in sorted(found)]


def _with_companions(path: Path, skipped: list[str] | None) -> list[tuple[str, str]]:
    companions = files_under(path.parent / path.stem, skipped) if (path.parent / path.stem).is_dir() else []
    named = [(path.name, str(path))] + [(posixpath.join(path.stem, name), item) for name, item in companions]
    return named + [(p.name, str(p)) for p in sorted(path.parent.glob("agent-*.jsonl")) if p != path]


def _free_root(base: str, names: list[str], used: set[str]) -> str:
    number = 2
    while any(posixpath.join(f"{base}-{number}", name) in used for name in names):
        number += 1
    return f"{base}-{number}"

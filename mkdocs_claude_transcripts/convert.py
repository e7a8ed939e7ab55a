"""``mkdocs-claude-transcripts convert``: the pages of transcripts, written to a folder
or a single file, without MkDocs.

    convert PATH... -o OUT                 pages, images, session.json, an index, the stylesheet
    convert PATH... --single-file -o F     one file (or stdout), e.g. for a PR comment
        [--flavour github] [--max-chars N] GitHub's Markdown; cut to fit a comment
    convert PATH... --report               what would be redacted, and the problems found
"""

from __future__ import annotations

import os
import posixpath
import re
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO
from urllib.parse import unquote

from .console import printable, say, write_document
from .inputs import UsageError, source_files
from .insights.export import written_here
from .pipeline import Converted, Redactor, Row, SessionSource, SourceFile, convert_session, discover, stylesheet
from .render import layout
from .render.context import RenderOptions
from .render.flavour import FLAVOURS, Flavour, one_file
from .render.guard import MARKER
from .render.index import contents, index_pages
from .render.text import plural
from .report import Level, condensed
from .workers import cores, in_workers


@dataclass
class Request:
    paths: list[str]
    out: str | None = None
    single_file: bool = False
    max_chars: int | None = None
    flavour: str = "material"
    report: bool = False
    options: RenderOptions = field(default_factory=RenderOptions)
    redact: bool = True
    jobs: int = 0  # worker processes; 0: one per core


def run(request: Request, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Do what ``request`` asks; the exit status."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    if request.max_chars is not None and not request.single_file:
        raise UsageError("--max-chars goes with --single-file")
    skipped: list[str] = []
    files = list(source_files(request.paths, skipped))
    if not request.single_file and not request.report and not request.out:
        raise UsageError("say where to write the pages: -o FOLDER (or --single-file, or --report)")
    if not request.single_file and not request.report and request.out == "-":
        raise UsageError("-o -: pages go into a folder; only --single-file writes to stdout")
    out = None if request.report or request.single_file else Path(request.out or ".")
    _check_output(out, None if out is not None or request.report or request.out in (None, "-") else Path(request.out))
    if request.single_file and not request.report and request.out not in (None, "-"):
        _not_read(Path(request.out), files)
    for folder in skipped:
        say(f"warning: {folder}: the folder cannot be read; left out", stderr)
    found = discover(files)
    # The agent files that came along with a file given alone belong to it, or to nothing here.
    alone = {str(Path(p)) for p in request.paths if Path(p).is_file()}
    found.sessions = [s for s in found.sessions if s.orphan_agent is None or not alone or s.path in alone or _in_folder(s.path, request.paths)]
    for empty in found.empty:
        say(f"info: {empty.src_uri}: is empty; there is no session to show", stderr)
    for stranger in found.strangers:
        say(f"warning: {stranger.src_uri}: holds no Claude Code entries; left out", stderr)
    for unreadable in found.unreadable:
        say(f"warning: {unreadable.src_uri}: cannot be read as a file (a link to nothing, a pipe, a device, a file you may not read); left out", stderr)
    if not found.sessions:
        say("error: no Claude Code session among the paths given", stderr)
        return 1
    # Two whose pages would share a folder, or one whose page would be where a page of the output folder is.
    moved = layout.places([source.src_uri for source in found.sessions], _taken(out))
    for source in found.sessions:
        source.place = moved.get(source.src_uri)
    options = request.options
    if request.single_file:
        options = replace(options, page_size=0, export=False)  # one page per conversation
    redactor = Redactor(enabled=request.redact)
    progress = Progress(len(found.sessions), stderr)
    change = FLAVOURS[request.flavour]
    # Into a folder, each session's pages are written where it is converted.
    finish = (lambda done: write_session(done, out, change)) if out is not None else None
    converted = convert_all(found.sessions, options, redactor, request.jobs or cores(), progress, finish)
    progress.done()
    for done in converted:
        problems = [p for report in done.reports for p in report.problems]
        for problem in problems if request.report else condensed(problems, "--report"):
            if problem.level is not Level.INFO or request.report:
                say(f"{problem.level.value}: {problem}", stderr if not request.report else stdout)
    if request.report:
        say(report_text(converted), stdout, end="")
    elif request.single_file:
        text = single_file(converted, request.flavour, request.max_chars, options)
        if request.out in (None, "-"):
            write_document(text, stdout)
        else:
            Path(request.out).parent.mkdir(parents=True, exist_ok=True)
            Path(request.out).write_text(text, encoding="utf-8")
    else:
        assert out is not None
        write_folder_rest(converted, out, request.flavour, options)
    return 0


def convert_all(
    sources: list[SessionSource], options: RenderOptions, redactor: Redactor, jobs: int, progress: Progress,
    finish: Callable[[Converted], Converted] | None = None,
) -> list[Converted]:  # fmt: skip
    """Every session converted (and given to ``finish``, where it is converted), in the
    order given: in worker processes where they can be used (the largest sessions
    given out first), else one after another; a session alone, with ``jobs`` to
    spare, has its ``session.json`` made beside its pages."""

    def work(source: SessionSource, export_aside: bool = False) -> Converted:
        converted = convert_session(source, options, redactor, export_aside=export_aside)
        return finish(converted) if finish else converted

    done: list[Converted | None] = [None] * len(sources)
    by_size = sorted(range(len(sources)), key=lambda i: -sources[i].size())
    results = in_workers([sources[i] for i in by_size], work, jobs)
    for index, result in results or ():
        done[by_size[index]] = result
        if result is not None:
            progress.step(sources[by_size[index]].src_uri)
    for index, source in enumerate(sources):
        if done[index] is None:  # not done by a worker: done here, where a failure shows
            progress.step(source.src_uri)
            done[index] = work(source, export_aside=jobs > 1 and len(sources) == 1)
    return [result for result in done if result is not None]


def _in_folder(path: str, given: list[str]) -> bool:
    return any(Path(g).is_dir() and Path(path).is_relative_to(Path(g)) for g in given)


def write_session(done: Converted, out: Path, change: Flavour) -> Converted:
    """Write the pages, images and session.json of a session into ``out``; the session
    without their content, which is written. Files this command wrote before in the
    session's folder that it does not write now (a later part or a subagent's page of
    a session that is shorter now, an image it no longer shows, session.json with
    ``--no-json``) are removed."""
    for page in done.pages:
        _write(out, page.src_uri, change(page.markdown))
    for asset in done.assets:
        _write(out, asset.src_uri, asset.content)
    _remove_stale(out, {page.src_uri for page in done.pages}, {asset.src_uri for asset in done.assets})
    return replace(done, pages=[replace(page, markdown="") for page in done.pages], assets=[replace(asset, content=b"") for asset in done.assets])


def _remove_stale(out: Path, pages: set[str], assets: set[str]) -> None:
    """Remove the files of this command's making (see ``_ours``) in the folders of
    ``pages`` that are neither among them nor among ``assets``: its pages, session.json
    and the files of its ``images/`` folder (which goes too, if that empties it)."""
    written = pages | assets
    for folder in {posixpath.dirname(src_uri) for src_uri in pages}:
        if not folder:  # the output folder itself: the index, a site's own pages
            continue
        here, images = out / folder, out / folder / "images"
        found = [*here.glob("*.md"), here / "session.json", *images.glob("*")]
        stale = [path for path in found if f"{folder}/{path.relative_to(here).as_posix()}" not in written and _ours(path)]
        for path in stale:
            path.unlink()
        if any(path.parent == images for path in stale) and not any(images.iterdir()):
            images.rmdir()


def write_folder_rest(converted: list[Converted], out: Path, flavour: str, options: RenderOptions) -> None:
    """What a folder holds besides the sessions' pages: the index, the stylesheet. Of
    what an earlier run wrote there, the index's later parts that this one does not
    write go, and the stylesheet, in GitHub's flavour (whose pages use none); and the
    files of the sessions its index listed that this run is not given."""
    change = FLAVOURS[flavour]
    written = {page.src_uri for done in converted for page in done.pages} | {asset.src_uri for done in converted for asset in done.assets}
    rows: list[Row] = [done.row for done in converted]
    taken = _taken(out)
    index = layout.index_place([row.page for row in rows], lambda page: page in written or taken(page))
    if index is not None:
        listed = _listed_sessions(out, index)  # read before the index is written again
        parts = index_pages(rows, index, options)
        for src_uri, markdown in parts:
            _write(out, src_uri, change(markdown))
        _remove_index_parts(out / posixpath.dirname(index), {out / src_uri for src_uri, _ in parts})
        given = {posixpath.dirname(src_uri) for src_uri in written}
        now = {out / src_uri for src_uri in written} | {out / src_uri for src_uri, _ in parts}
        _remove_sessions(out, listed - given, now)
    if flavour == "material":
        _write(out, layout.STYLESHEET, stylesheet())
    else:
        _remove_stylesheet(out)


_INDEX_PART = re.compile(r"transcripts-part-[0-9]+\.md")


def _remove_index_parts(folder: Path, written: set[Path]) -> None:
    """Remove the parts of an index an earlier run wrote in ``folder`` that are not
    among those ``written`` now."""
    for path in folder.glob("transcripts-part-*.md"):
        if _INDEX_PART.fullmatch(path.name) and path not in written and _ours(path):
            path.unlink()


# A link in a row of the index's table, to a session's first page: its target.
_LISTED = re.compile(r"(?<!\\)\]\((?P<target>[^()\s]+)\)")


def _listed_sessions(out: Path, index: str) -> set[str]:
    """The folders of the sessions listed by the index at ``index`` (and the parts it
    goes on in, beside it), if this command wrote it: those of an earlier run, each the
    folder of a page ``index.md`` the index links to, in the output folder."""
    folder = posixpath.dirname(index)
    parts = (path for path in (out / folder).glob("transcripts-part-*.md") if _INDEX_PART.fullmatch(path.name))
    pages = [out / index, *parts]
    listed: set[str] = set()
    for page in pages:
        if not _ours(page):
            continue
        try:
            lines = page.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            continue
        for line in lines:
            if not line.startswith("| "):  # a row of its table
                continue
            for found in _LISTED.finditer(line):
                target = posixpath.normpath(posixpath.join(folder, unquote(found["target"], errors="surrogateescape")))
                session = posixpath.dirname(target)
                # (A session's folder is one under the index's, as the index places itself.)
                if posixpath.basename(target) == "index.md" and _under(session, folder):
                    listed.add(session)
    return listed


def _under(path: str, folder: str) -> bool:
    """Whether ``path`` (normalised, relative) is in ``folder`` or below, not ``folder`` itself."""
    if path.startswith(("/", "../")) or path in (".", "..", "", folder):
        return False
    return not folder or path.startswith(folder + "/")


def _remove_sessions(out: Path, folders: set[str], written: set[Path]) -> None:
    """Remove the files of this command's making (see ``_ours``) in ``folders``, the
    folders of sessions an earlier run wrote, but for those ``written`` now: pages,
    session.json, the images of their ``images/`` folder; then the folders they leave
    empty. Any other file, and what is in any other folder, stays."""
    for folder in sorted(folders, reverse=True):
        here = out / folder
        if here.is_symlink() or not here.is_dir():
            continue
        images = here / "images"
        inside = [*images.glob("*")] if images.is_dir() and not images.is_symlink() else []
        for path in [*here.glob("*.md"), here / "session.json", *inside]:
            if path not in written and _ours(path):
                path.unlink()
        for empty in (images, here, *(out / parent for parent in Path(folder).parents[:-1])):
            if empty == images and not images.is_dir():
                continue
            try:
                empty.rmdir()
            except OSError:  # not empty (or not a folder): it, and the folders it is in, stay
                break


def _remove_stylesheet(out: Path) -> None:
    """Remove the stylesheet an earlier run wrote, and the folders it leaves empty."""
    path = out / layout.STYLESHEET
    if _ours(path):
        path.unlink()
        for folder in path.relative_to(out).parents[:-1]:
            try:
                (out / folder).rmdir()
            except OSError:  # not empty
                break


def _check_output(folder: Path | None, file: Path | None) -> None:
    """That the output can be written: a folder, or a file (not a folder)."""
    if folder is not None and folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {folder}: is a file; the pages go into a folder")
    if file is not None and file.is_dir():
        raise UsageError(f"-o {file}: is a folder; --single-file writes a file")
    for place in (folder, file and file.parent):
        existing = next((p for p in (place, *place.parents) if p.exists()), None) if place is not None else None
        if existing is not None and not existing.is_dir():
            raise UsageError(f"-o {folder or file}: {existing} is a file, not a folder")
        if existing is not None and not os.access(existing, os.W_OK):
            raise UsageError(f"-o {folder or file}: {existing} cannot be written to")


def _not_read(file: Path, files: list[SourceFile]) -> None:
    """That the file to write is none of the files read: a transcript given, or one of
    its (through a link too), would be replaced by the page."""
    if not file.exists():
        return
    for source in files:
        try:
            same = os.path.samefile(file, source.path)
        except OSError:
            continue
        if same:
            raise UsageError(f"-o {file}: is a file read ({source.src_uri}); choose another file to write to")


def _taken(out: Path | None) -> Callable[[str], bool]:
    """Whether a page's place in ``out`` holds a file of another making (a site's own
    ``index.md``): one this command wrote, which starts with its marker, is written
    again."""

    def taken(src_uri: str) -> bool:
        if out is None or not (out / src_uri).is_file():
            return False
        return not _ours(out / src_uri)

    return taken


def _ours(path: Path) -> bool:
    """Whether the file at ``path`` is one this command wrote: a page starts with its
    marker, a session.json says this package made it, an image of a session's
    ``images/`` folder is named after its content, as this command names them, the
    stylesheet starts as this package's does."""
    try:
        if not path.is_file():
            return False
        if path.parent.name == "images" and path.suffix != ".md":
            return path.name == layout.image_name(path.read_bytes(), path.suffix[1:])
        with open(path, "rb") as handle:
            start = handle.read(4096)
    except OSError:
        return False
    if path.name == "session.json":
        return written_here(start)
    if path.name == posixpath.basename(layout.STYLESHEET):
        return start.startswith(stylesheet().split(b"\n", 1)[0])
    return MARKER.encode() in start


def _write(out: Path, src_uri: str, content: bytes | str) -> None:
    target = out / src_uri
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        target.write_text(content, encoding="utf-8")
    else:
        target.write_bytes(content)


def single_file(converted: list[Converted], flavour: str, max_chars: int | None, options: RenderOptions) -> str:
    """Every page, one after another, in one file, cut to ``max_chars`` if given; of
    several sessions, a list of them first (a file cut short still names them all)."""
    first = [contents([done.row for done in converted], options)] if len(converted) > 1 else []
    try:
        return one_file(first + [page.markdown for done in converted for page in done.pages], FLAVOURS[flavour], max_chars)
    except ValueError as problem:
        raise UsageError(f"--max-chars {max_chars}: {problem}") from None


def report_text(converted: list[Converted]) -> str:
    """What publishing these sessions would redact, and what was found wrong."""
    lines = []
    total: Counter[str] = Counter()
    for done in converted:
        problems = sum(1 for report in done.reports for p in report.problems if p.level is not Level.INFO)
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(done.redactions.items())) or "nothing"
        lines.append(f"{done.source.src_uri}: {plural(done.row.messages, 'message')}; redacted: {kinds}; {plural(problems, 'problem')}")
        total += done.redactions
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(total.items())) or "nothing"
    lines.append(f"{plural(len(converted), 'session')}; redacted in all: {kinds}")
    return "\n".join(lines) + "\n"


class Progress:
    """A progress line on a terminal; nothing otherwise."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total, self.stream, self.count = total, stream, 0
        self.shown = total > 1 and stream.isatty() and os.environ.get("TERM") != "dumb"

    def step(self, name: str) -> None:
        self.count += 1
        if self.shown:
            width = 30
            filled = width * self.count // self.total
            shown = printable(name, self.stream)[-40:]
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.count}/{self.total} {shown:<40}")
            self.stream.flush()

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()

"""A cache of converted sessions and of rendered pages, kept outside ``docs_dir``.

Its entries, each a folder or a file named by a key:

* a session: its pages (Markdown), images and ``session.json``, nav entry,
  problems and redaction counts, keyed by the session's files (their names in its
  folder and a hash of their bytes) and by everything that shapes the output (the
  plugin's code and options). A file is hashed again only when its size or time of
  last change is not what it was when last hashed (``digests.json``): a clone of the
  site, with new times on every file, finds its sessions in a cache it was given.
  The site holds its images and ``session.json`` as links to these files
  (``linked.py``): one whose bytes changed since it was written (a tool that wrote
  into the site's file) has the session converted again;
* a page's HTML, with its table of contents, anchors, sections and the text the
  search index is given, keyed by the page's Markdown, its URL and the Markdown
  configuration: ``<key>.html`` beside ``<key>.json``; and for each URL of a page
  of several sections of messages, the key of the page last rendered there, whose
  sections a page that changed takes (``rendering.py``): ``<key of the URL>.url``
  (a page of one section of messages is rendered whole when it changes);
* the entries a page gives Material's search index: ``<key>.entries``;
* the Markdown of the transcripts index, for the plugins that read a page from its
  file: ``pages/<hash of it>.md``;
* for each transcript file, the memo of its last conversion (``memo.py``), which
  the next one takes: ``memos/<key of the file>.json``;
* a whole page as the theme's template wrote it, keyed by everything the template
  is given (``outputs.py``): ``<key>.page``, what comes before the page's HTML and
  what comes after it (the HTML itself is known by the key);
* the files the last build read its sessions from, and their folders, by size and
  time (``sources.json``): whether they are as they were tells, as the next build
  starts, that it likely has nothing to convert;
* the hashes of those files and of the files of the sessions it published, each
  with the size and time it had when hashed (``digests.json``).

Any of them can be deleted whenever no build runs: a missing entry is made again.
Writes go through a temporary file and a rename, so a build that stops halfway
leaves no half-written entry. Entries not used by a build are removed at its end.
Beside them, ``templates/`` holds the theme's templates compiled by Jinja.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import itertools
import json
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from mkdocs.utils import meta

from .listing import NavEntry, Row
from .memo import Memo
from .report import Level, Problem
from .transcript.discovery import SessionSource

if TYPE_CHECKING:
    from .pipeline import Converted, Redactor, RenderOptions

_PACKAGE = Path(__file__).parent


def convert_session(*args: Any, **kwargs: Any) -> Converted:
    """``pipeline.convert_session``, loaded once a session is to be converted: a build
    whose sessions are all in the cache does without the content model."""
    from .pipeline import convert_session as convert

    return convert(*args, **kwargs)


def code_fingerprint() -> str:
    """A hash of this package's code and of the versions of what renders its pages
    (Python-Markdown, its extensions, Pygments): a new version, or a change,
    invalidates the cache."""
    import markdown
    import pygments
    import pymdownx

    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*")):
        if path.suffix in (".py", ".css") and path.is_file():
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    versions = (markdown.__version__, pygments.__version__, getattr(pymdownx, "__version__", ""))
    digest.update(repr(versions).encode())
    return digest.hexdigest()


def package_version(name: str) -> str | None:
    """The installed version of the distribution ``name`` (None: not installed)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def text_digest(text: str) -> str:
    """A hash of a page's Markdown or HTML."""
    return bytes_digest(text.encode("utf-8", "surrogatepass"))


def bytes_digest(data: bytes) -> str:
    """A hash of bytes (a file's, as written or read)."""
    return hashlib.sha256(data).hexdigest()


def fingerprint(*parts: Any) -> str:
    """A hash of ``parts`` (settings, a site, a page) that is the same from one process
    to the next (see ``stable``)."""
    try:  # JSON as it is, and ``stable`` for what is not (two to three times faster)
        text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=stable)
    except (TypeError, ValueError, RecursionError):  # keys of mixed types, a cycle, nesting past Python's stack
        text = json.dumps(stable(parts), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def stable(value: Any, depth: int = 0) -> Any:
    """``value`` as plain JSON data that is the same from one process to the next
    (functions named, plugins by their configuration, other objects without their
    address in memory)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if depth > 12:
        return type(value).__name__
    if isinstance(value, Mapping):
        return {str(key): stable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [stable(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((stable(item, depth + 1) for item in value), key=repr)
    if isinstance(value, type) or callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '')}.{value.__qualname__}"
    if hasattr(value, "config") and isinstance(value.config, Mapping):  # a plugin
        return {"plugin": type(value).__qualname__, "config": stable(value.config, depth + 1)}
    return _ADDRESS.sub("", repr(value))


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass
class StoredPage:
    src_uri: str
    title: str
    part: int
    agent_id: str | None
    path: str  # the Markdown, in the cache
    digest: str | None  # of that Markdown as MkDocs reads it (no front matter), for its page key


@dataclass
class CachedPage:
    toc: list[dict[str, Any]]
    anchors: list[str]


# A page of a top and one section of messages has nothing to take from its last
# rendering when it changes (its section of messages changed): it is rendered whole.
# The record of a page's URL is kept from three sections on (a file fewer for each
# page of a short session).
_URL_KEPT_FROM = 3


@dataclass
class Section:
    """A section of a page's HTML (rendering.py)."""

    digest: str  # of its Markdown ("": never taken for another page's)
    length: int  # of its HTML


@dataclass
class StoredSession:
    nav: NavEntry
    started: datetime | None
    pages: list[StoredPage]
    assets: list[tuple[str, str]]  # (src_uri, path in the cache)
    problems: list[Problem]
    row: Row
    redactions: Counter[str] = field(default_factory=Counter)


class Cache:
    def __init__(self, root: str | Path, settings: str) -> None:
        self.root = Path(root)
        self.settings = settings
        # Where pages' files are: paths as strings, made for every page of every build.
        self._html_root = os.path.join(self.root, "html", "")
        self._used: set[Path] = set()  # session folders
        self._used_pages: set[str] = set()  # keys of pages
        self._used_memos: set[str] = set()
        self._used_sources: set[str] = set()  # names of generated pages' files
        self._digests: dict[str, list[Any]] | None = None  # path -> [size, time, hash], as the last build left them
        self._used_digests: dict[str, list[Any]] = {}  # those of this build's files

    # ------------------------------------------------------------ sessions

    def session_key(self, source: SessionSource) -> str:
        """The key of a session: its place, its files' names beside it and their bytes
        (those that are there), and the settings."""
        folder = os.path.dirname(source.path)
        files = [[os.path.relpath(path, folder), digest] for path in source.paths() if (digest := self.file_digest(path))]
        return fingerprint(self.settings, source.src_uri, source.place, files)

    def file_digest(self, path: str, written: list[Any] | None = None) -> str | None:
        """A hash of a file's bytes (None: it cannot be read); not read again when its
        size and time of last change are those it had when last hashed, or those
        ``written`` gives with its hash (size, time, hash: a file of the cache, as it
        was written)."""
        if self._digests is None:
            self._digests = _load_digests(self.root / _DIGESTS)
        status = file_stat(path)  # (before reading: a change made meanwhile shows at the next build)
        known = next((k for k in (self._digests.get(path), written) if k is not None and k[:2] == status), None)
        if known is not None:
            digest = known[2]
        elif status[0] is None or (digest := file_hash(path)) is None:
            return None
        self._used_digests[path] = [*status, digest]
        return digest

    def _session_folder(self, key: str) -> Path:
        return self.root / "sessions" / key

    def has_session(self, key: str) -> bool:
        return (self._session_folder(key) / "session.json").exists()

    def load_session(self, key: str) -> StoredSession | None:
        folder = self._session_folder(key)
        try:
            data = json.loads((folder / "session.json").read_text(encoding="utf-8"))
            stored = _session_from_json(data, folder)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):  # not there, or not what a build writes: damaged
            return None
        if not all(os.path.exists(page.path) for page in stored.pages):
            return None
        for (_, path), asset in zip(stored.assets, data["assets"]):
            written = [*asset.get("stat", ()), asset.get("digest")]
            if self.file_digest(path, written) != asset.get("digest"):
                return None  # written into since (through the site's link to it)
        self._used.add(folder)
        return stored

    def store_session(self, key: str, converted: Converted) -> StoredSession:
        final = self._session_folder(key)
        final.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=final.parent))
        pages = []
        for number, page in enumerate(converted.pages):
            name = f"page-{number}.md"
            (work / name).write_text(page.markdown, encoding="utf-8")
            digest = text_digest(meta.get_data(page.markdown)[0])
            pages.append({"src_uri": page.src_uri, "title": page.title, "part": page.part, "agent_id": page.agent_id, "file": name, "digest": digest})
        assets = []
        for number, asset in enumerate(converted.assets):
            name = f"asset-{number}"
            (work / name).write_bytes(asset.content)
            assets.append({"src_uri": asset.src_uri, "file": name, "stat": file_stat(str(work / name)), "digest": bytes_digest(asset.content)})
        data = {
            "nav": _nav_to_json(converted.nav),
            "started": converted.started.isoformat() if converted.started else None,
            "pages": pages,
            "assets": assets,
            "problems": [
                {"path": p.path, "line": p.line, "message": p.message, "level": p.level.value}
                for report in converted.reports
                for p in report.problems
            ],
            "redactions": dict(converted.redactions),
            "row": converted.row.to_json(),
        }
        (work / "session.json").write_text(json.dumps(data), encoding="utf-8")
        # Another build sharing the cache may have stored it meanwhile (the same, by its
        # key), and be reading its pages: its folder is kept. One that is damaged is
        # replaced.
        stored = self.load_session(key)
        if stored is None:
            shutil.rmtree(final, ignore_errors=True)
            try:
                os.replace(work, final)
            except OSError:  # stored by another build between the two
                if (stored := self.load_session(key)) is None:
                    raise
            else:
                self._used.add(final)
                return _session_from_json(data, final)
        shutil.rmtree(work, ignore_errors=True)
        return stored

    def convert(self, source: SessionSource, key: str, options: RenderOptions, redactor: Redactor, export_aside: bool = False) -> StoredSession:
        """Convert a session into the cache under ``key``, with the memo of its last
        conversion (``export_aside``: see ``pipeline.convert_session``)."""
        path = self._memo_file(source)
        memo = _load_memo(path)
        stored = self.store_session(key, convert_session(source, options, redactor, memo, export_aside))
        _write_atomically(path, memo.to_json())
        return stored

    def _memo_file(self, source: SessionSource) -> Path:
        return self.root / "memos" / f"{fingerprint(self.settings, source.src_uri, 'memo')}.json"

    def keep_memo(self, source: SessionSource) -> None:
        """Keep a session's memo at the end of this build (the plugin keeps that of
        every session it publishes, converted or not)."""
        self._used_memos.add(self._memo_file(source).stem)

    # ------------------------------------------------------------ pages

    def page_key(self, markdown: str, url: str, markdown_settings: str, digest: str | None = None) -> str:
        """The key of a page's HTML; ``digest``, when known, is ``text_digest(markdown)``."""
        return fingerprint(self.settings, markdown_settings, url, digest or text_digest(markdown))

    def _html_file(self, key: str, suffix: str) -> str:
        return f"{self._html_root}{key[:2]}/{key}{suffix}"

    def html_path(self, key: str) -> str:
        """Where a page's HTML is kept (for reading it when it is needed)."""
        return self._html_file(key, ".html")

    def load_page(self, key: str) -> CachedPage | None:
        """What a page's rendering made but its HTML (read with ``read_html``)."""
        try:
            data, _ = self._record(key)
        except (OSError, ValueError, TypeError):
            return None
        if not os.path.exists(self._html_file(key, ".html")):
            return None
        self._used_pages.add(key)
        return CachedPage(data["toc"], data["anchors"])

    def forget_page(self, key: str) -> None:
        """Leave a page's rendering out of the cache (it is rendered again)."""
        self._used_pages.discard(key)
        with contextlib.suppress(OSError):
            os.remove(self._html_file(key, ".json"))

    def keep(self, key: str) -> None:
        """Keep a page's entries at the end of this build, though it did not use them."""
        self._used_pages.add(key)

    def read_html(self, key: str) -> str:
        return _read(self._html_file(key, ".html"))

    def has_html(self, key: str) -> bool:
        return os.path.exists(self._html_file(key, ".json"))

    def store_html(
        self,
        key: str,
        html: str,
        toc: list[dict[str, Any]],
        anchors: list[str],
        sections: list[Section] | None = None,
        url: str = "",
        markdown_settings: str = "",
        search: str | None = None,
    ) -> None:
        """Keep a page's HTML, with the text it gives the search index when known;
        with its ``sections``, as the page last rendered at ``url``."""
        _write_atomically(self._html_file(key, ".html"), html)
        data: dict[str, Any] = {"toc": toc, "anchors": anchors, "search": search is not None}
        if sections:
            data["sections"] = [[section.digest, section.length] for section in sections]
        _write_atomically(self._html_file(key, ".json"), json.dumps(data) + "\n" + (search or ""))  # see _record
        self._used_pages.add(key)
        if sections and len(sections) >= _URL_KEPT_FROM:
            record = self.url_key(url, markdown_settings)
            _write_atomically(self._html_file(record, ".url"), key)
            self._used_pages.add(record)

    def url_key(self, url: str, markdown_settings: str) -> str:
        """The key of what is kept for a URL (keep it with ``keep``)."""
        return fingerprint(self.settings, markdown_settings, url, "url")

    def load_sections(self, url: str, markdown_settings: str) -> dict[str, str]:
        """The sections of the page last rendered at ``url``: digest of its Markdown ->
        its HTML."""
        try:
            key = _read(self._html_file(self.url_key(url, markdown_settings), ".url"))
            sections = self._record(key)[0]["sections"]
            html = self.read_html(key)
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        kept: dict[str, str] = {}
        at = 0
        for digest, length in sections:
            if digest:
                kept[digest] = html[at : at + length]
            at += length + 1  # and the line between two
        return kept if at == len(html) + 1 else {}

    def section_digests(self, url: str, markdown_settings: str) -> set[str]:
        """The digests of the sections ``load_sections`` gives, without their HTML."""
        try:
            key = _read(self._html_file(self.url_key(url, markdown_settings), ".url"))
            return {digest for digest, _ in self._record(key)[0]["sections"] if digest}
        except (OSError, ValueError, KeyError, TypeError):
            return set()

    def load_search_text(self, key: str) -> str | None:
        """The text a page's HTML gives the search index, when kept before."""
        try:
            return self._record(key, with_search=True)[1]
        except (OSError, ValueError, TypeError):
            return None

    def _record(self, key: str, with_search: bool = False) -> tuple[dict[str, Any], str | None]:
        """What is kept beside a page's HTML (``<key>.json``): a line of JSON, then the
        text the page gives the search index, when known (read only when asked for:
        a rebuild reads the record of every page)."""
        with open(self._html_file(key, ".json"), encoding="utf-8") as handle:
            data = json.loads(handle.readline())
            if not isinstance(data, dict):
                raise TypeError("not a page's record")
            return data, handle.read() if with_search and data.get("search") else None

    def load_entries(self, key: str) -> str | None:
        """A page's search entries, a line each, when kept before."""
        try:
            text = _read(self._html_file(key, ".entries"))
        except (OSError, ValueError):  # (not there, or not UTF-8: damaged)
            return None
        self._used_pages.add(key)
        return text

    def store_entries(self, key: str, entries: str) -> None:
        _write_atomically(self._html_file(key, ".entries"), entries)
        self._used_pages.add(key)

    def load_output(self, key: str) -> tuple[str, str] | None:
        """What the theme wrote before a page's HTML and after it, when kept before."""
        try:
            text = _read(self._html_file(key, ".page"))
            head, _, text = text.partition("\n")
            at = int(head)
        except (OSError, ValueError):
            return None
        self._used_pages.add(key)
        return text[:at], text[at:]

    def has_output(self, key: str) -> bool:
        return os.path.exists(self._html_file(key, ".page"))

    def store_output(self, key: str, before: str, after: str) -> None:
        """Keep what the theme wrote before and after a page's HTML."""
        _write_atomically(self._html_file(key, ".page"), f"{len(before)}\n{before}{after}")
        self._used_pages.add(key)

    # ------------------------------------------------------------ generated pages

    def store_source(self, markdown: str) -> str:
        """Keep the Markdown of a page the plugin makes (the transcripts index) as a
        file, known by its text: some plugins read every page from its file. Its path."""
        path = self.root / "pages" / f"{text_digest(markdown)}.md"
        if not path.exists():
            _write_atomically(path, markdown)
        self._used_sources.add(path.name)
        return str(path)

    # ------------------------------------------------------------ the last build's files

    def record_sources(self, paths: Iterable[str]) -> None:
        """Note how the files and folders of this build's sessions are (``sources_unchanged``)."""
        _write_atomically(self.root / _SOURCES, json.dumps(_stats(sorted(set(paths)))))

    # ------------------------------------------------------------ upkeep

    def prune(self) -> None:
        """Remove the entries this build did not use; note the hashes of the files it read."""
        if self._digests is not None and self._used_digests != self._digests:
            _write_atomically(self.root / _DIGESTS, json.dumps(self._used_digests))
        for folder in (self.root / "sessions").glob("*"):
            if folder not in self._used and not folder.name.startswith(".tmp-"):
                shutil.rmtree(folder, ignore_errors=True)
        for path in (self.root / "memos").glob("*.json"):
            if path.stem not in self._used_memos:
                path.unlink(missing_ok=True)
        for path in (self.root / "pages").glob("*.md"):
            if path.name not in self._used_sources:
                path.unlink(missing_ok=True)
        for path in (self.root / "html").glob("*/*"):
            if path.name.split(".", 1)[0] not in self._used_pages and not path.name.startswith(".tmp-"):
                path.unlink(missing_ok=True)


_SOURCES = "sources.json"
_DIGESTS = "digests.json"

# What marks a folder as this cache's (the tag of cache folders, which backups skip).
_TAG = "CACHEDIR.TAG"
_TAG_TEXT = "Signature: 8a477f597d28d172789f06886806bc55\n# The cache of mkdocs-claude-transcripts: it may be deleted.\n"
# The names of what the cache keeps in its folder, and in the folders of its entries
# (keys, and the first two letters of keys); a cache made before it was marked holds no others.
_OWN = re.compile(r"(?:sessions|memos|pages|html|templates|digests\.json|sources\.json|\.tmp-.*|search-.*\.jsonl|pages-.*)")
_KEYED = ("sessions", "memos", "pages", "html")
_KEY = re.compile(r"(?:[0-9a-f]{64}(?:\.\w+)?|[0-9a-f]{2}|\.tmp-.*)")


def claim(folder: str) -> bool:
    """Mark ``folder`` (which is there) as the cache's, when it is new, or holds nothing
    but what the cache keeps; False when it holds files of another's, which the cache
    would write over, or remove as entries no build used."""
    tag = os.path.join(folder, _TAG)
    try:
        with open(tag, encoding="utf-8") as handle:
            if handle.read() == _TAG_TEXT:
                return True
    except (OSError, ValueError):
        pass
    names = os.listdir(folder)
    keyed = [os.path.join(folder, name) for name in _KEYED if name in names]
    if any(not _OWN.fullmatch(name) for name in names) or not all(map(os.path.isdir, keyed)):
        return False
    if any(not _KEY.fullmatch(entry) for path in keyed for entry in os.listdir(path)):
        return False
    _write_atomically(tag, _TAG_TEXT)
    return True


def sources_unchanged(root: str | Path) -> bool:
    """Whether the files and folders the last build using the cache at ``root`` read
    its sessions from are as they were (a file added to one of those folders changes
    the folder)."""
    try:
        recorded = json.loads((Path(root) / _SOURCES).read_text(encoding="utf-8"))
        return isinstance(recorded, list) and recorded == _stats(str(entry[0]) for entry in recorded)
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        return False


def _stats(paths: Iterable[str]) -> list[list[Any]]:
    return [[path, *file_stat(path)] for path in paths]


def file_stat(path: str) -> list[int | None]:
    """A file's size and time of last change (None and None: it is not there)."""
    try:
        status = os.stat(path)
    except OSError:
        return [None, None]
    return [status.st_size, status.st_mtime_ns]


def file_hash(path: str) -> str | None:
    """A hash of a file's bytes (None: it cannot be read, or is not a file: a pipe
    would be waited on for ever)."""
    if not os.path.isfile(path):
        return None
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def _load_digests(path: Path) -> dict[str, list[Any]]:
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(recorded, dict):
        return {}
    return {key: value for key, value in recorded.items() if isinstance(value, list) and len(value) == 3 and isinstance(value[2], str)}


def _load_memo(path: Path) -> Memo:
    try:
        return Memo.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return Memo()


_WRITES = itertools.count()


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _write_atomically(path: str | Path, text: str) -> None:
    """Write ``path`` whole or not at all: into a file beside it, then renamed. The
    file is named by the process and a count (two thirds of the time of ``tempfile``'s
    random names, on a cold build that writes thousands), or, where that name is
    taken (a process of that id that stopped while writing, another machine sharing
    the cache), by ``tempfile``."""
    folder = os.path.dirname(path)
    temporary = os.path.join(folder, f".tmp-{os.getpid()}-{next(_WRITES)}")
    try:
        out = _created(temporary)
    except FileExistsError:
        handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        out = os.fdopen(handle, "w", encoding="utf-8")
    try:
        with out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _created(path: str) -> IO[str]:
    """A new file, opened for writing (its folder made if it is not: a cache's first
    entry there, or a cache deleted since)."""
    try:
        return open(path, "x", encoding="utf-8")
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return open(path, "x", encoding="utf-8")


def _nav_to_json(entry: NavEntry) -> dict[str, Any]:
    return {"title": entry.title, "page": entry.page, "children": [_nav_to_json(c) for c in entry.children]}


def _nav_from_json(data: dict[str, Any]) -> NavEntry:
    return NavEntry(data["title"], data["page"], [_nav_from_json(c) for c in data["children"]])


def _session_from_json(data: dict[str, Any], folder: Path) -> StoredSession:
    return StoredSession(
        nav=_nav_from_json(data["nav"]),
        started=datetime.fromisoformat(data["started"]) if data["started"] else None,
        pages=[
            StoredPage(p["src_uri"], p["title"], p["part"], p["agent_id"], str(folder / p["file"]), p.get("digest"))
            for p in data["pages"]
        ],
        assets=[(a["src_uri"], str(folder / a["file"])) for a in data["assets"]],
        problems=[Problem(p["path"], p["line"], p["message"], Level(p["level"])) for p in data["problems"]],
        row=Row.from_json(data["row"]),
        redactions=Counter(data["redactions"]),
    )

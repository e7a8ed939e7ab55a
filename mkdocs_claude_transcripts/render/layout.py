"""Where each generated page goes, relative to the docs root.

A session file ``sessions/abc.jsonl`` becomes the page ``sessions/abc/index.md``
(published at ``sessions/abc/``), and each of its subagents the page
``sessions/abc/agent-<id>.md``, whatever folder the agent's file came from. All
pages of a session share one folder, so a link between two of them is the same
from any of them.

Folders whose names start with a dot (Claude Code keeps its files in
``.claude/``) lose the dot in page paths, since sites do not publish hidden
folders: ``.claude/projects/x/abc.jsonl`` becomes ``claude/projects/x/abc/``.

Where a page of the site, or an earlier session's, already has that place
(``notes.md`` beside ``notes.jsonl``), the session gets another name to be placed
as (``places``, kept as ``SessionSource.place``: ``notes-session.jsonl``, so
``notes-session/``).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable
from importlib import resources

STYLESHEET = "assets/claude-transcripts/claude-transcripts.css"  # where the plugin's stylesheet goes


def stylesheet() -> bytes:
    """The plugin's stylesheet, to publish at ``STYLESHEET``."""
    return resources.files("mkdocs_claude_transcripts").joinpath("assets/claude-transcripts.css").read_bytes()


def base(source: str) -> str:
    """The folder that holds the generated pages of the session file ``source``."""
    parts = posixpath.splitext(source)[0].split("/")
    return "/".join(part.lstrip(".") or "_" for part in parts)


def session_page(source: str, part: int = 1) -> str:
    """The session's page; a long session's later parts are ``part-2.md``, ``part-3.md``..."""
    return base(source) + ("/index.md" if part == 1 else f"/part-{part}.md")


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_LIKE_A_PART = re.compile(r"-part(?:-[0-9]+)?$")


def agent_name(agent_id: str) -> str:
    """An agent's id as its pages' names hold it (the first of that name in a session;
    the next ones get ``-2``, ``-3``...). The later parts of agent ``x`` are
    ``agent-x-part-2``...: a name that would be one of those (``x-part-2``), or
    become one with a number (``x-part``), ends in ``_``."""
    name = _UNSAFE.sub("-", agent_id)[:48] or "agent"
    return name + "_" if _LIKE_A_PART.search(name) else name


def agent_page(source: str, agent_id: str, part: int = 1) -> str:
    return base(source) + (f"/agent-{agent_id}.md" if part == 1 else f"/agent-{agent_id}-part-{part}.md")


def image_name(content: bytes, extension: str) -> str:
    """The name of an image's file in the ``images/`` folder beside its session's
    pages: its content's hash (an image pasted twice is one file)."""
    return f"{hashlib.sha1(content).hexdigest()[:16]}.{extension}"


def export_file(source: str) -> str:
    """The session's JSON export, beside its first page."""
    return base(source) + "/session.json"


def places(
    sources: list[str], taken: Callable[[str], bool] = lambda url: False, where: Callable[[str], str] = lambda page: page
) -> dict[str, str]:
    """Another name to place a session's pages as, for each session file (of
    ``sources``, in order) whose first page would be where a page already is (``taken``)
    or where an earlier session's is: ``notes.jsonl`` beside ``notes.md`` is placed as
    ``notes-session.jsonl``, then ``notes-session-2.jsonl``...; or in a folder where a
    file goes: ``404.html/x.jsonl`` as ``404.html-session/x.jsonl``. ``where``: the
    place a page is published at (its URL), given its path."""
    defaults = {where(session_page(source)) for source in sources}
    # A folder of pages cannot be where a file is: a session's session.json, what MkDocs,
    # its search and this plugin write (x/session.json.jsonl beside x.jsonl).
    files = {base(source) + "/session.json" for source in sources} | _WRITTEN
    # Nor where another session's later parts and subagents go (x/part-2.jsonl beside
    # a long x.jsonl), which are not known yet.
    folders = {base(source) for source in sources}
    used: set[str] = set()
    moved = {}
    for source in sources:
        start = _off_files(source, files, taken)
        place = None if start == source else start
        first, number = where(session_page(start)), 1
        while (
            taken(first) or first in used or (place is not None and first in defaults)
            or _on_a_file(first, files, taken) or _among_pages(base(place or source), folders)
        ):  # fmt: skip
            place = _other_name(start, number)
            first = where(session_page(place))
            number += 1
        if place is not None:
            moved[source] = place
        used.add(first)
    return moved


_WRITTEN = frozenset({"404.html", "sitemap.xml", "sitemap.xml.gz", "search/search_index.json", STYLESHEET})


_PAGE_NAME = re.compile(r"(?:part-[0-9]+|agent-.+)$")
_NAME_MAX = 255  # bytes of a file's name, on most file systems


def _other_name(source: str, number: int) -> str:
    """The ``number``th other name of a session file: ``x-session.jsonl``,
    ``x-session-2.jsonl``...; ``session-agent-x.jsonl``... where the name would still be
    one of a session's pages (``agent-x-session``: the page of agent ``x-session``)."""
    folder, name = posixpath.split(base(source))
    suffix = f"-{number}" if number > 1 else ""
    name = _cut(name, len(f"-session{suffix}"))
    if _PAGE_NAME.match(f"{name}-session{suffix}"):
        return posixpath.join(folder, f"session-{name}{suffix}.jsonl")
    return posixpath.join(folder, f"{name}-session{suffix}.jsonl")


def _off_files(source: str, files: set[str], taken: Callable[[str], bool]) -> str:
    """``source`` with each of its folders that is where a file goes (of ``files``, or
    ``taken``: a folder ``404.html/`` or ``sitemap.xml/``, where the site writes a file
    of its own) named beside it instead, ``404.html-session/``, ``404.html-session-2/``...:
    no page can be in a file."""
    parts = source.split("/")
    for index, name in enumerate(parts[:-1]):
        number = 1
        while (folder := "/".join(parts[: index + 1])) in files or taken(folder):
            suffix = f"-session-{number}" if number > 1 else "-session"
            parts[index] = _cut(name, len(suffix)) + suffix
            number += 1
    return "/".join(parts)


def _cut(name: str, added: int) -> str:
    """``name``, cut (between two characters) where it would make, with ``added``
    bytes more, a name longer than a file system takes."""
    room = _NAME_MAX - added
    if len(name.encode("utf-8", "surrogatepass")) > room:
        return name.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore")
    return name


def _among_pages(folder: str, folders: set[str]) -> bool:
    """Whether ``folder`` is named as a page in the folder of another session's pages."""
    parent, name = posixpath.split(folder)
    return parent in folders and _PAGE_NAME.match(name) is not None


def _on_a_file(page: str, files: set[str], taken: Callable[[str], bool]) -> bool:
    """Whether a folder ``page`` would be in is a file (of ``files``, or ``taken``)."""
    folder = posixpath.dirname(page)
    while folder:
        if folder in files or taken(folder):
            return True
        folder = posixpath.dirname(folder)
    return False


def index_place(session_pages: list[str], taken: Callable[[str], bool]) -> str | None:
    """Where the transcripts index goes by default: atop the folder that holds every
    session's folder of pages, as ``index.md``, or ``transcripts.md`` when that is
    ``taken``, or ``transcripts-2.md``...; None when all are."""
    folders = [posixpath.dirname(posixpath.dirname(page)) for page in session_pages]
    common = posixpath.commonpath(folders) if folders and all(folders) else ""
    for name in ("index.md", "transcripts.md", *(f"transcripts-{number}.md" for number in range(2, 100))):
        candidate = posixpath.join(common, name) if common else name
        if not taken(candidate):
            return candidate
    return None


def index_part(index: str, part: int) -> str:
    """Where part ``part`` of the transcripts index at ``index`` goes (the first: the
    index itself), beside it."""
    return index if part == 1 else posixpath.join(posixpath.dirname(index), f"transcripts-part-{part}.md")


def relative(target: str, from_page: str) -> str:
    """A link from one generated page to another, as Markdown links between pages are written."""
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")

"""Find the Claude Code sessions among a set of files, and what belongs to each.

Claude Code has laid out subagents in three ways over time:

* up to about 2.0.2, subagent lines sit inside the session file (``isSidechain``),
  and are split out by the build step, not here;
* about 2.0.55 to 2.1.1, ``agent-<id>.jsonl`` files lie beside the session file and
  name their session in their ``sessionId`` field;
* from about 2.1.2, ``<session>/subagents/agent-<id>.jsonl`` (workflow agents in
  ``subagents/workflows/<run>/``), with an ``agent-<id>.meta.json`` beside each
  from about 2.1.12x.

Large tool outputs live in ``<session>/tool-results/<tool_use_id>.txt``.
Discovery looks at a file's first lines only; it never reads a whole transcript.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

from .encoding import open_utf8
from .halves import whole_characters
from .jsonstrings import loads
from .types import KNOWN_TYPES

_SNIFF_BYTES = 64 * 1024
_MARKERS = ("sessionId", "leafUuid", "messageId", "parentUuid", "isSidechain", "aiTitle", "customTitle")
_TYPE_RE = re.compile(rb'"type"\s*:\s*"([a-z-]+)"')
_SESSION_RE = re.compile(rb'"sessionId"\s*:\s*"([^"]+)"')
_AGENT_RE = re.compile(rb'"agentId"\s*:\s*"([^"]+)"')
_UUID_NAME = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_COMPANION_DIRS = ("subagents", "tool-results", "workflows")


@dataclass(frozen=True)
class SourceFile:
    """A file as the caller knows it: its path relative to the docs root, and on disk."""

    src_uri: str
    path: str


@dataclass
class AgentMeta:
    agent_type: str | None = None
    description: str | None = None
    tool_use_id: str | None = None


@dataclass
class AgentSource:
    src_uri: str
    path: str
    agent_id: str
    session_id: str | None
    meta: AgentMeta | None = None
    meta_problem: str | None = None  # what is wrong with its meta.json, to report with the agent's file
    workflow_run: str | None = None  # the run folder name, for workflow agents


@dataclass
class SessionSource:
    src_uri: str
    path: str
    session_id: str
    agents: list[AgentSource] = field(default_factory=list)
    tool_results: dict[str, str] = field(default_factory=dict)  # tool_use_id -> path
    companions: list[SourceFile] = field(default_factory=list)  # files that belong to it (agents' meta, tool results)
    orphan_agent: AgentSource | None = None  # set when this "session" is an agent whose session is missing
    place: str | None = None  # the file its pages are placed as, when not its own (a page of the site is there)

    @property
    def stem(self) -> str:
        return posixpath.splitext(self.src_uri)[0]

    def paths(self) -> list[str]:
        """Every file the session is read from, for telling whether it changed."""
        return [self.path, *(a.path for a in self.agents), *(f.path for f in self.companions)]

    def size(self) -> int:
        """The bytes of its files (those still there): how long it takes to convert."""
        total = 0
        for path in self.paths():
            try:
                total += os.path.getsize(path)
            except OSError:
                pass
        return total


@dataclass
class Discovery:
    sessions: list[SessionSource]
    empty: list[SourceFile]  # transcript-named files with nothing in them
    claimed: set[str]  # src_uris of every file that belongs to a session (sessions included)
    strangers: list[SourceFile] = field(default_factory=list)  # named like transcripts, holding something else
    # .jsonl files that cannot be read as files: a link to nothing, a pipe (whose
    # reading would wait for ever), a device; left out of the site (MkDocs would stop
    # on the first, and wait on the second).
    unreadable: list[SourceFile] = field(default_factory=list)


@dataclass(frozen=True)
class _Sniff:
    agent_id: str | None
    session_id: str | None
    sidechain: bool


def discover(files: Iterable[SourceFile]) -> Discovery:
    files = list(files)
    by_uri = {f.src_uri: f for f in files}
    sessions: list[SessionSource] = []
    agents: list[AgentSource] = []
    empty: list[SourceFile] = []
    strangers: list[SourceFile] = []
    unreadable: list[SourceFile] = []
    for f in files:
        if not f.src_uri.endswith(".jsonl"):
            continue
        if not _regular(f.path):
            unreadable.append(f)
            continue
        named_so = _looks_like_transcript_name(f.src_uri)
        sniff = sniff_file(f.path, whole=named_so)
        if sniff is None:
            if named_so:
                (empty if _is_empty(f.path) else strangers).append(f)
            continue
        name = posixpath.basename(f.src_uri)
        if name.startswith("agent-") or (sniff.sidechain and sniff.agent_id):
            agent_id = sniff.agent_id or name[len("agent-") : -len(".jsonl")]
            agents.append(AgentSource(f.src_uri, f.path, agent_id, sniff.session_id))
        else:
            stem = posixpath.splitext(name)[0]
            sessions.append(SessionSource(f.src_uri, f.path, sniff.session_id or stem))

    by_stem = {s.stem: s for s in sessions}
    by_id: dict[str, list[SessionSource]] = {}
    for s in sessions:
        by_id.setdefault(s.session_id, []).append(s)
        stem_id = posixpath.basename(s.stem)
        if stem_id != s.session_id:
            by_id.setdefault(stem_id, []).append(s)

    orphans: list[SessionSource] = []
    for agent in sorted(agents, key=lambda a: a.src_uri):
        _attach_meta(agent, by_uri)
        owner = _owner_by_path(agent, by_stem) or _owner_by_id(agent, by_id)
        if owner is None:
            orphans.append(SessionSource(agent.src_uri, agent.path, agent.session_id or agent.agent_id, orphan_agent=agent))
        else:
            owner.agents.append(agent)

    claimed: set[str] = set()
    _collect_companions(by_stem, files)
    claimed |= _orphan_companions(orphans, set(by_stem), files)
    for s in sessions:
        claimed.add(s.src_uri)
        claimed.update(f.src_uri for f in s.companions)
    for s in sessions + orphans:
        for agent in s.agents + ([s.orphan_agent] if s.orphan_agent else []):
            claimed.add(agent.src_uri)
            for extra in _agent_companions(agent, by_uri):
                if extra.src_uri not in claimed:
                    claimed.add(extra.src_uri)
                    s.companions.append(extra)
    claimed.update(f.src_uri for f in empty + unreadable)
    return Discovery(sessions + orphans, empty, claimed, strangers, unreadable)


def _regular(path: str) -> bool:
    """Whether ``path`` is a file (or a link to one) that can be read to its end, and may be."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode) and os.access(path, os.R_OK)
    except (OSError, ValueError):
        return False


def sniff_file(path: str, whole: bool = False) -> _Sniff | None:
    """Tell whether ``path`` holds a Claude Code transcript, from its first lines; with
    ``whole`` (a file named as transcripts are, or whose first lines name a session,
    whatever their kind), from its first entry, wherever it is."""
    try:
        handle, _ = open_utf8(path)
        with handle:
            head = handle.read(_SNIFF_BYTES)
            whole = whole or _SESSION_RE.search(head) is not None
            *complete, cut_short = head.split(b"\n")
            sniff = _sniff_lines(complete)
            if (sniff is None or sniff.session_id is None) and cut_short.lstrip(b"\x00").lstrip().startswith(b"{"):
                # The first lines do not tell, and the next is longer than what was read (a
                # pasted image, a huge output): judged by its start when that names the
                # session (Claude Code writes the entry's fields before its message), else
                # read whole.
                sniff = _sniff_start(cut_short.lstrip(b"\x00")) or _sniff_lines([*complete, cut_short + handle.readline()]) or sniff
            elif sniff is None and whole:
                sniff = _sniff_lines([cut_short + handle.readline()])
            # Lines of another kind, or not JSON, before the first entry (a kind of entry
            # Claude Code writes since, a write cut short): the file is read on.
            while sniff is None and whole and (lines := handle.readlines(_SNIFF_BYTES)):
                sniff = _sniff_lines(lines)
    except OSError:
        return None
    return sniff


def _sniff_lines(lines: list[bytes]) -> _Sniff | None:
    found = False
    session_id = agent_id = None
    sidechain = False
    for line in lines:
        try:
            data = loads(line.lstrip(b"\x00").decode("utf-8", errors="replace"))  # (after what a write cut short left)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to be read
            continue
        if not isinstance(data, dict) or _str(data.get("type")) not in KNOWN_TYPES:
            continue
        if not any(marker in data for marker in _MARKERS):
            continue
        found = True
        session_id = session_id or _str(data.get("sessionId"))
        agent_id = agent_id or _str(data.get("agentId"))
        sidechain = sidechain or data.get("isSidechain") is True
        if session_id and (agent_id or not sidechain):
            break
    if not found:
        return None
    return _Sniff(agent_id if sidechain or agent_id else None, session_id, sidechain)


def _sniff_start(head: bytes) -> _Sniff | None:
    kind = _TYPE_RE.search(head)
    session = _SESSION_RE.search(head)
    if not kind or kind.group(1).decode() not in KNOWN_TYPES or not session:
        return None
    agent = _AGENT_RE.search(head)
    sidechain = b'"isSidechain":true' in head.replace(b" ", b"")
    return _Sniff(agent.group(1).decode() if agent else None, session.group(1).decode(), sidechain)


def _str(value: object) -> str | None:
    """A non-empty string, half characters made whole (``halves.py``), or None."""
    return whole_characters(value, [0]) if isinstance(value, str) and value else None


def _looks_like_transcript_name(src_uri: str) -> bool:
    stem = posixpath.splitext(posixpath.basename(src_uri))[0]
    return bool(_UUID_NAME.match(stem)) or stem.startswith("agent-")


def _is_empty(path: str) -> bool:
    try:
        handle, _ = open_utf8(path)
        with handle:
            return not handle.read(_SNIFF_BYTES).strip()
    except OSError:
        return False


def _owner_by_path(agent: AgentSource, by_stem: dict[str, SessionSource]) -> SessionSource | None:
    """``<base>/<session>/subagents/.../agent-x.jsonl`` belongs to ``<base>/<session>.jsonl``."""
    folder = _session_folder(agent)
    return by_stem.get(folder) if folder is not None else None


def _session_folder(agent: AgentSource) -> str | None:
    """``<base>/<session>`` for ``<base>/<session>/subagents/.../agent-x.jsonl``."""
    parts = agent.src_uri.split("/")
    if "subagents" not in parts:
        return None
    index = len(parts) - 1 - parts[::-1].index("subagents")
    return "/".join(parts[:index]) or None


def _orphan_companions(orphans: list[SessionSource], stems: set[str], files: list[SourceFile]) -> set[str]:
    """What a session keeps in its folder (``<session>/subagents``, ``/tool-results``,
    ``/workflows``) when its file is not there: its outputs given to the subagents of
    that session found in the folder, and nothing of it published as it is (a
    subagent's meta.json, a workflow's journal or an output may hold what redaction
    would take out). Their src_uris."""
    by_folder: dict[str, list[SessionSource]] = {}
    agents = set()
    for orphan in orphans:
        if orphan.orphan_agent is not None:
            agents.add(orphan.src_uri)
            folder = _session_folder(orphan.orphan_agent)
            if folder is not None:
                by_folder.setdefault(folder, []).append(orphan)
    taken = set()
    for f in files:
        parts = f.src_uri.split("/")
        for index in range(1, len(parts) - 1):
            folder = "/".join(parts[:index])
            if parts[index] in _COMPANION_DIRS and (folder in by_folder or _UUID_NAME.match(parts[index - 1])):
                break  # (a folder of the site's own that happens to be called so is not one)
        else:
            continue
        if folder in stems:
            continue  # the session's own (_collect_companions)
        owners = by_folder.get(folder, [])
        taken.add(f.src_uri)
        if f.src_uri in agents:
            continue
        for owner in owners:
            _add_companion(owner, f, parts, index)
    return taken


def _owner_by_id(agent: AgentSource, by_id: dict[str, list[SessionSource]]) -> SessionSource | None:
    candidates = by_id.get(agent.session_id or "", [])
    if not candidates:
        return None
    here = posixpath.dirname(agent.src_uri)
    # The nearest session file wins: same folder first, then the longest shared path.
    return max(candidates, key=lambda s: (posixpath.dirname(s.src_uri) == here, len(posixpath.commonpath([s.src_uri, agent.src_uri]))))


def _attach_meta(agent: AgentSource, by_uri: dict[str, SourceFile]) -> None:
    meta_file = by_uri.get(agent.src_uri[: -len(".jsonl")] + ".meta.json")
    parts = agent.src_uri.split("/")
    if "workflows" in parts[:-1]:
        agent.workflow_run = parts[-2]
    if meta_file is None:
        return
    name = posixpath.basename(meta_file.src_uri)
    if not _regular(meta_file.path):  # (a pipe would be waited on for ever)
        agent.meta_problem = f"{name} cannot be read as a file (a link to nothing, a pipe, a device); the subagent is shown without its type and description"
        return
    try:
        with open(meta_file.path, encoding="utf-8") as handle:
            data = loads(handle.read())
    except (OSError, ValueError, RecursionError) as error:
        why = "is not valid JSON" if isinstance(error, (ValueError, RecursionError)) else f"cannot be read ({error.strerror or error})"
        agent.meta_problem = f"{name} {why}; the subagent is shown without its type and description"
        return
    if not isinstance(data, dict):
        agent.meta_problem = f"{name} is not a JSON object; the subagent is shown without its type and description"
        return
    fields = {"agentType": data.get("agentType"), "description": data.get("description"), "toolUseId": data.get("toolUseId")}
    wrong = sorted(key for key, value in fields.items() if value is not None and not isinstance(value, str))
    if wrong:
        agent.meta_problem = f"{name}: ignored field(s) of an unexpected type: {', '.join(wrong)}"
    agent.meta = AgentMeta(_str(fields["agentType"]), _str(fields["description"]), _str(fields["toolUseId"]))


def _agent_companions(agent: AgentSource, by_uri: dict[str, SourceFile]) -> list[SourceFile]:
    """Files that travel with an agent file: its meta.json, and a workflow run's journal."""
    base = agent.src_uri[: -len(".jsonl")]
    folder = posixpath.dirname(agent.src_uri)
    found = [base + ".meta.json"]
    if agent.workflow_run:
        found.append(posixpath.join(folder, "journal.jsonl"))
    return [by_uri[uri] for uri in found if uri in by_uri]


def _collect_companions(by_stem: dict[str, SessionSource], files: list[SourceFile]) -> None:
    """Everything under ``<session>/subagents``, ``/tool-results`` and ``/workflows``."""
    for f in files:
        parts = f.src_uri.split("/")
        for index, part in enumerate(parts[:-1]):
            if part not in _COMPANION_DIRS or index == 0:
                continue
            session = by_stem.get("/".join(parts[:index]))
            if session is None:
                continue
            _add_companion(session, f, parts, index)
            break


def _add_companion(session: SessionSource, f: SourceFile, parts: list[str], index: int) -> None:
    """``f``, whose path's ``parts`` hold the session's folder of companions at
    ``index``, given to ``session``; a tool's output (``tool-results/<id>.txt``, or
    ``<id>.json`` for a result of content blocks) known by its call's id, where it is a
    file (a pipe would be waited on for ever). Of a ``.txt`` and a ``.json``, the text."""
    session.companions.append(f)
    name, ext = posixpath.splitext(parts[-1])
    kept_apart = parts[index] == "tool-results" and index == len(parts) - 2 and ext in (".txt", ".json")
    if kept_apart and (ext == ".txt" or name not in session.tool_results) and _regular(f.path):
        session.tool_results[name] = f.path

"""Build the content model of a session from its files: the session file and its agents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from .. import model as m
from ..redact import Redactor, home_users
from ..report import FileReport
from ..transcript import raw
from ..transcript.discovery import AgentSource, SessionSource
from ..transcript.progress import agent_chains
from ..transcript.reader import read_entries
from .agents import Spawned, first_prompt, link, settle_ids, split_sidechains
from .conversation import Conversation
from .text import named, shorten

__all__ = ["BuildResult", "build_session"]

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass
class BuildResult:
    session: m.Session
    reports: list[FileReport] = field(default_factory=list)
    redactions: Counter[str] = field(default_factory=Counter)  # how many values of each kind were replaced


@dataclass
class _Titles:
    """The names a session gives itself; the most deliberate one wins."""

    custom: str = ""
    ai: str = ""
    summaries: list[tuple[str | None, str]] = field(default_factory=list)

    def see(self, entry: raw.AnyEntry) -> None:
        if isinstance(entry, raw.CustomTitleEntry) and entry.customTitle.strip():
            self.custom = entry.customTitle.strip()
        elif isinstance(entry, raw.AiTitleEntry) and entry.aiTitle.strip():
            self.ai = entry.aiTitle.strip()
        elif isinstance(entry, raw.SummaryEntry) and entry.summary.strip():
            self.summaries.append((entry.leafUuid, entry.summary.strip()))

    def best(self, uuids: Container[str], prompt: str) -> str:
        """The title; ``prompt``, the first one, redacted already (see ``build_session``)."""
        own = [text for leaf, text in self.summaries if leaf in uuids]
        # Older sessions start with summaries of the sessions they continue:
        # those name this session only when nothing better is at hand.
        others = [text for _, text in self.summaries]
        return self.custom or self.ai or (own[-1] if own else "") or shorten(prompt) or (others[-1] if others else "")


def build_session(
    source: SessionSource, hidden: frozenset[str] = frozenset(), redactor: Redactor | None = None
) -> BuildResult:
    """Build the session of ``source``; messages whose ``kind`` is in ``hidden`` are
    left out (and their lines counted as hidden); every text of the session goes
    through ``redactor``, when there is one, before anything else sees it."""
    # A title cut from a prompt is cut from the prompt redacted: a secret cut short
    # would no longer be one that redaction finds (see redact.py).
    clean: Callable[[str], str] = redactor.text if redactor is not None else str
    report = FileReport(source.src_uri)
    result = BuildResult(session=m.Session(id=source.session_id, source=source.place or source.src_uri), reports=[report])
    titles = _Titles()
    own: list[tuple[int, raw.AnyEntry]] = []
    inline: list[tuple[int, raw.AnyEntry]] = []
    progress: list[tuple[int, raw.ProgressEntry]] = []  # a subagent's messages, as the session has them too
    standalone = source.orphan_agent is not None
    if source.orphan_agent is not None and source.orphan_agent.meta_problem:
        report.problem(None, source.orphan_agent.meta_problem)
    for line, entry in read_entries(source.path, report):
        if not standalone and getattr(entry, "isSidechain", False):
            inline.append((line, entry))
        else:
            titles.see(entry)
            own.append((line, entry))
            if isinstance(entry, raw.ProgressEntry):
                progress.append((line, entry))
    main = Conversation(report, hidden, source.tool_results)
    main.run(own)
    del own

    session = result.session
    session.messages, session.responses = main.messages, main.responses
    session.started, session.ended = main.first, main.last
    session.cwd, session.branch = main.cwd, main.branch
    session.versions, session.models = main.versions, list(main.models)
    session.pr_links, session.agent_name = main.pr_links, main.agent_name

    spawned = [
        _inline_agent(group, Conversation(report, hidden, source.tool_results)) for group in split_sidechains(inline)
    ]
    for agent_source in source.agents:
        agent_report = FileReport(agent_source.src_uri)
        result.reports.append(agent_report)
        if agent_source.meta_problem:
            agent_report.problem(None, agent_source.meta_problem)
        spawned.append(_file_agent(agent_source, Conversation(agent_report, hidden, source.tool_results)))
    if progress and not standalone:
        filed = {agent_source.agent_id for agent_source in source.agents}
        for agent_id, (call, chain) in agent_chains(progress, filed, report).items():
            spawned.append(_progress_agent(agent_id, call, chain, Conversation(report, hidden, source.tool_results)))
    settle_ids(spawned)
    if redactor is not None:
        # The session's users, known before any text is redacted: a home folder alone
        # (/home/x) is shortened where it is theirs (redactor.users). What the redactor
        # remembers of texts seen (for other users, a conversion that failed) goes.
        redactor.take_counts()
        redactor.users = home_users([session.cwd, main.cwd, *(s.conversation.cwd for s in spawned)])
    try:
        _finish(source, session, main, spawned, titles, clean)
        if redactor is not None:
            m.map_strings(session, redactor.text, redactor.field, redactor.diff)
    finally:
        if redactor is not None:
            redactor.users = frozenset()
    if redactor is not None:
        result.redactions = redactor.take_counts()
        # The log quotes what it could not read (a time, an image's type, an id): not
        # a secret in it. (Not counted: the counts say what the pages hold.)
        for report_ in result.reports:
            report_.problems = [replace(problem, message=redactor.text(problem.message)) for problem in report_.problems]
        redactor.take_counts()
    return result


def _finish(source: SessionSource, session: m.Session, main: Conversation, spawned: list[Spawned], titles: _Titles, clean: Callable[[str], str]) -> None:
    """Link the session's agents to their calls, order them, and title the session."""
    owners: list[tuple[str | None, Conversation]] = [(None, main)]
    owners += [(s.agent.id, s.conversation) for s in spawned]
    link(owners, spawned, clean)
    spawned.sort(key=lambda s: (s.conversation.first is None, s.conversation.first or _EPOCH, s.agent.id))
    session.agents = [s.agent for s in spawned]
    for s in spawned:
        for model_name in s.conversation.models:
            if model_name not in session.models:
                session.models.append(model_name)
    agent = source.orphan_agent
    if agent is not None:
        meta = agent.meta
        label = ((meta.agent_type if meta else None) or m.own_agent(agent.agent_id) or "Agent") + " · "
        session.orphan_agent = True
        session.title = named(label + ((meta.description if meta else None) or shorten(clean(first_prompt(main.messages)), 60) or agent.agent_id), clean)
    else:
        session.title = named(titles.best(main.uuids, clean(first_prompt(main.messages))), clean) or f"Session {source.session_id[:8]}"


def _inline_agent(group: list[tuple[int, raw.AnyEntry]], conversation: Conversation) -> Spawned:
    conversation.run(group)
    root = getattr(group[0][1], "uuid", None) or f"line{group[0][0]}"
    agent = m.Agent(id=root.replace("-", "")[:8], messages=conversation.messages, responses=conversation.responses)
    return Spawned(agent, conversation, prompt=first_prompt(conversation.messages))


def _progress_agent(agent_id: str, call: str | None, chain: list[tuple[int, raw.AnyEntry]], conversation: Conversation) -> Spawned:
    conversation.run(chain)
    agent = m.Agent(id=agent_id, tool_use_id=call, messages=conversation.messages, responses=conversation.responses)
    return Spawned(agent, conversation, prompt=first_prompt(conversation.messages))


def _file_agent(source: AgentSource, conversation: Conversation) -> Spawned:
    conversation.run(list(read_entries(source.path, conversation.report)))
    meta = source.meta
    agent = m.Agent(
        id=source.agent_id,
        source=source.src_uri,
        agent_type=meta.agent_type if meta else None,
        description=meta.description if meta else None,
        tool_use_id=meta.tool_use_id if meta else None,
        name=conversation.agent_name,
        messages=conversation.messages,
        responses=conversation.responses,
    )
    return Spawned(agent, conversation, workflow_run=source.workflow_run, prompt=first_prompt(conversation.messages))


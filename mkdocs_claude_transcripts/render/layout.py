"""Where each generated page goes, relative to the docs root.

A session file ``sessions/abc.jsonl`` becomes the page ``sessions/abc/index.md``
(published at ``sessions/abc/``), and each of its subagents the page
``sessions/abc/agent-<id>.md``, whatever folder the agent's file came from.

Folders whose names start with a dot (Claude Code keeps its files in
``.claude/``) lose the dot in page paths, since sites do not publish hidden
folders: ``.claude/projects/x/abc.jsonl`` becomes ``claude/projects/x/abc/``.
"""

from __future__ import annotations

import posixpath


def base(source: str) -> str:
    """The folder that holds the generated pages of the session file ``source``."""
    parts = posixpath.splitext(source)[0].split("/")
    return "/".join(part.lstrip(".") or "_" for part in parts)


def session_page(source: str) -> str:
    return base(source) + "/index.md"


def agent_page(source: str, agent_id: str) -> str:
    return base(source) + f"/agent-{agent_id}.md"


def relative(target: str, from_page: str) -> str:
    """A link from one generated page to another, as Markdown links between pages are written."""
    return posixpath.relpath(target, posixpath.dirname(from_page) or ".")

"""The plugin's options, as they are written under ``- claude-transcripts:`` in mkdocs.yml.

Each option's docstring is its documentation; docs/configuration.md is made from them.
"""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


def _patterns(default: str) -> c.PathSpec:
    """Gitignore-style patterns, one per line, as MkDocs' own ``exclude_docs`` takes them."""
    option = c.PathSpec()
    option.default = default
    return option


class TranscriptsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn the plugin off without removing it: transcripts are then left as plain files."""

    include = _patterns("*.jsonl")
    """Which files of `docs_dir` are looked at, as gitignore-style patterns, one per line
    (like MkDocs' own `exclude_docs`). Files that are not Claude Code transcripts are
    left alone whatever this says."""

    exclude = _patterns("")
    """Transcripts to leave out, as gitignore-style patterns, one per line. Applies to
    session files; a session's subagents follow their session."""

    thinking = c.Choice(("shown", "collapsed", "hidden"), default="collapsed")
    """How Claude's thinking is shown: `shown` (an open block), `collapsed` (a closed
    block that opens on click) or `hidden` (left out)."""

    tool_calls = c.Choice(("open", "collapsed"), default="collapsed")
    """Whether tool calls, each with its result, start `open` or `collapsed`."""

    copy_jsonl = c.Type(bool, default=False)
    """Also publish the transcript `.jsonl` files themselves. Off by default: the
    pages are what is meant to be read, and the raw files hold more than they show."""

    title_format = c.Type(str, default="{date} · {title}")
    """The title of a session's page and nav entry. `{title}` is the session's title
    (its custom or AI title, its summary, or its first prompt), `{date}` the day it
    started (YYYY-MM-DD, UTC), `{id}` the session id."""

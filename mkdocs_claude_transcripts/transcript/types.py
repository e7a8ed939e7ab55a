"""The entry types of Claude Code's transcripts, by name (the raw models are in
``raw.py``; discovery tells a transcript by them without loading those)."""

from __future__ import annotations

# Entries that describe the session rather than say something in it.
METADATA_TYPES = frozenset(
    {
        "file-history-snapshot",
        "last-prompt",
        "mode",
        "permission-mode",
        "pr-link",
        "agent-name",
        "agent-color",
        "agent-setting",
        "tag",
        # Claude Code 2.1's bookkeeping: file history, attribution, worktrees, content
        # replaced by stubs, context collapse, forks, relocations, speculation.
        "file-history-delta",
        "attribution-snapshot",
        "worktree-state",
        "isolation-latch",
        "bridge-session",
        "content-replacement",
        "fork-context-ref",
        "frame-link",
        "artifact-comment-monitor",
        "continued-in",
        "relocated",
        "ended-by-model",
        "speculation-accept",
        "marble-origami-snapshot",
        "marble-origami-reset",
        "marble-origami-commit",  # a context collapse: its summary is shown (build/conversation.py)
        "atis-latch",  # (2.1.2xx: an opaque token, never shown)
        # Later 2.1.2xx: Claude Code's running reckoning of the session's cost and
        # usage, written again and again; the first line of a session forked from
        # another, whose history it inherits (``cause: fork_inherit``); a ledger of
        # artifacts' reactions.
        "cost-state",
        "history-suppression",
        "artifact-autoreact-ledger",
    }
)

# Entries with a model of their own in raw.py.
ENTRY_TYPES = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "ai-title",
        "custom-title",
        "attachment",
        "queue-operation",
        "progress",
    }
)

KNOWN_TYPES = frozenset(ENTRY_TYPES | METADATA_TYPES)

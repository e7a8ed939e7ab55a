"""A conversation written again under new uuids, shown once.

Resuming a session, Claude Code (2.0) may write the whole conversation it goes on
from into the file again: the same entries, each with a new ``uuid`` and the time
of the resume. Lines with a ``uuid`` seen before are merged where they are read;
these are found here, before the conversation is built:

* an assistant entry is written again when an earlier one holds the same response
  (its message id) and the same content, and names no other request (``requestId``);
* a user entry (a prompt, tool results, notes) when an earlier one holds each of
  its content blocks (a prompt and its IDE note in one entry may come back as two)
  and the assistant entry after it is the one written again of the entry after
  that earlier one. A prompt typed again ("yes") gets an answer of its own, and is
  shown.
"""

from __future__ import annotations

from typing import Any

from ..transcript import raw


def written_again(entries: list[tuple[int, raw.AnyEntry]], doubtful: set[int] | None = None) -> set[int]:
    """The lines of ``entries`` (in the order they are shown) that write again what
    earlier lines wrote; into ``doubtful``, those of assistant entries found so after
    a user entry that shares no block with the one before the earlier entry (a resumed
    session, or a backend that gives every response one id and answered another prompt
    in the same words)."""
    again_of = _assistants_again(entries)
    if doubtful is not None:
        doubtful.update(entries[index][0] for index, first in again_of.items() if _answer_other(entries, index, first))
    if not again_of:
        return set()
    following = _next_assistants(entries)
    found = {entries[index][0] for index in again_of}
    # By the index of an assistant entry, the user entries right before it, by each of their blocks.
    before: dict[int, dict[Any, list[raw.UserEntry]]] = {}
    for index, (line, entry) in enumerate(entries):
        after = following[index]
        blocks = _blocks(entry.message.content) if isinstance(entry, raw.UserEntry) else []
        if after is None or not blocks:
            continue
        first = again_of.get(after)
        if first is not None:  # an earlier user entry before the answer this one comes before again
            held = before.get(first, {}).get(_block_key(blocks[0]), [])
            if any(_holds(earlier, blocks) for earlier in held):
                found.add(line)
        kept = before.setdefault(after, {})
        for key in {_block_key(block) for block in blocks}:
            kept.setdefault(key, []).append(entry)
    return found


def _answer_other(entries: list[tuple[int, raw.AnyEntry]], index: int, first: int) -> bool:
    """Whether the user entry last before ``index`` is a prompt (a text) sharing no block
    with that last before ``first`` (a call's result between them is not: a response
    written again once its call had run)."""
    before, earlier = _user_before(entries, index), _user_before(entries, first)
    return any(key[0] == "text" for key in before) and bool(earlier) and not before & earlier


def _user_before(entries: list[tuple[int, raw.AnyEntry]], index: int) -> frozenset[Any]:
    """The blocks (by ``_block_key``) of the last user entry before ``index``."""
    for _, entry in reversed(entries[max(0, index - _LOOKED_BACK) : index]):
        if isinstance(entry, raw.UserEntry):
            return frozenset(_block_key(block) for block in _blocks(entry.message.content))
    return frozenset()


_LOOKED_BACK = 64


def _holds(earlier: raw.UserEntry, blocks: list[Any]) -> bool:
    """Whether ``earlier`` holds each of ``blocks`` (each looked for among its blocks of
    the same key alone: an entry of thousands of blocks is not compared with each)."""
    by_key: dict[Any, list[Any]] = {}
    for block in _blocks(earlier.message.content):
        by_key.setdefault(_block_key(block), []).append(block)
    return all(block in by_key.get(_block_key(block), ()) for block in blocks)


def _assistants_again(entries: list[tuple[int, raw.AnyEntry]]) -> dict[int, int]:
    """By index, the assistant entries that write an earlier one again: the index of
    that earlier one."""
    alike: dict[tuple[str, Any], list[int]] = {}  # by response and _key, the entries not written again
    again: dict[int, int] = {}
    for index, (_, entry) in enumerate(entries):
        if not isinstance(entry, raw.AssistantEntry) or not entry.message.id or not entry.message.content:
            continue
        earlier = alike.setdefault((entry.message.id, _key(entry.message.content)), [])
        # The last few only: entries alike but for other fields, by the thousand, are not
        # a million comparisons (one not matched is shown, as it would be without this).
        same = next((i for i in earlier[-_COMPARED:] if _same_answer(entries[i][1], entry)), None)
        if same is None:
            earlier.append(index)
        else:
            again[index] = same
    return again


_COMPARED = 8


def _same_answer(first: raw.AnyEntry, again: raw.AssistantEntry) -> bool:
    """Whether ``again`` writes ``first`` again: the same content, and no other request
    named (a response written again keeps its request's id, and a backend that gives
    every response one id, the same words to a prompt typed again, still gives each
    request its own)."""
    if not isinstance(first, raw.AssistantEntry) or first.message.content != again.message.content:
        return False
    return not (first.requestId and again.requestId and first.requestId != again.requestId)


def _key(content: Any) -> tuple[Any, ...]:
    """What tells content blocks apart: the kind of each, its id, its text."""
    if isinstance(content, str):
        return ("text", content)
    return tuple((type(block).__name__, *(_field(block, name) for name in ("id", "text", "thinking"))) for block in content)


def _field(block: Any, name: str) -> str | None:
    """A field of a block, as a string (a block of a kind not known may hold anything
    under any name)."""
    value = getattr(block, name, None)
    return value if value is None or isinstance(value, str) else repr(value)


def _next_assistants(entries: list[tuple[int, raw.AnyEntry]]) -> list[int | None]:
    """For each index, that of the next assistant entry (None: there is none)."""
    following: list[int | None] = [None] * len(entries)
    upcoming = None
    for index in range(len(entries) - 1, -1, -1):
        following[index] = upcoming
        if isinstance(entries[index][1], raw.AssistantEntry):
            upcoming = index
    return following


def _block_key(block: Any) -> Any:
    """What tells a user entry's blocks apart: a text, or the kind of block and the
    call it answers."""
    return block if isinstance(block, tuple) else (type(block).__name__, _field(block, "tool_use_id"))


def _blocks(content: Any) -> list[Any]:
    """A message's content as blocks, a text as text whether it is a block or not."""
    if isinstance(content, str):
        return [("text", content)] if content else []
    return [("text", block.text) if isinstance(block, raw.TextBlock) else block for block in content or []]

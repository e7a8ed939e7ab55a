"""The order of a conversation, and the parts of it left behind by a rewind.

Entries chain through ``parentUuid``. When the user rewinds to an earlier point
and goes on, the new prompt's parent already has a child: the start of the
branch that was abandoned. That branch (the earlier child and everything under
it written before the new prompt) is shown apart, where it happened, so the
main line reads without interleaving. Forks that are not rewinds (parallel
tool results, progress lines) are not branches: only a new prompt makes one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Container

from ..transcript import raw


def in_chain_order(entries: list[tuple[int, raw.AnyEntry]]) -> list[tuple[int, raw.AnyEntry]]:
    """File order, but an entry written before its parent comes right after it.

    Entries chain through ``parentUuid``, which is the order Claude Code meant;
    the file is nearly always written in that order, and where a parent is not in
    the file, or comes earlier, file order stands.
    """
    position = {getattr(e, "uuid", None): i for i, (_, e) in enumerate(entries) if getattr(e, "uuid", None)}
    late: dict[str, list[tuple[int, raw.AnyEntry]]] = defaultdict(list)
    ordered: list[tuple[int, raw.AnyEntry]] = []
    for index, item in enumerate(entries):
        parent = getattr(item[1], "parentUuid", None)
        if parent and position.get(parent, -1) > index:
            late[parent].append(item)
            continue
        _place(item, ordered, late)
    for items in late.values():  # parents that never came (a cycle): keep them all
        ordered.extend(items)
    return ordered


def _place(item: tuple[int, raw.AnyEntry], ordered: list[tuple[int, raw.AnyEntry]], late: dict[str, list]) -> None:
    """``item``, then the entries waiting for it, each followed by those waiting for
    it, depth first (with a stack of its own: a chain written child before parent
    may be thousands of entries deep)."""
    stack = [item]
    while stack:
        placed = stack.pop()
        ordered.append(placed)
        uuid = getattr(placed[1], "uuid", None)
        if uuid and uuid in late:
            stack.extend(reversed(late.pop(uuid)))


def abandoned(entries: list[tuple[int, raw.AnyEntry]], again: Container[int] = ()) -> dict[int, int]:
    """Map the line of each entry on an abandoned branch to the line where its branch starts.

    A prompt whose parent already has a child (a user or assistant entry before it)
    abandons that child and what came under it before the prompt; but a prompt written
    again (``again``: lines a resumed session wrote again under new uuids, replays.py),
    whose copy of the conversation goes on where the first one was. An entry under
    several such children belongs to the branch the earliest prompt abandoned it by
    (the first such child, if that prompt abandoned several). Each child's entries
    are gathered once, up to the last prompt that can abandon them, so that a session
    rewound thousands of times from one point, or a long chain rewound at every step,
    takes time in proportion to its length.
    """
    children: dict[str, list[int]] = defaultdict(list)
    prompts_of: dict[str, list[int]] = defaultdict(list)  # by parent, in order
    for index, (_, entry) in enumerate(entries):
        uuid, parent = getattr(entry, "uuid", None), getattr(entry, "parentUuid", None)
        if uuid and parent:
            children[parent].append(index)
        if parent and _is_prompt(entry) and entries[index][0] not in again:
            prompts_of[parent].append(index)
    best: dict[int, tuple[int, int, int]] = {}  # member -> (prompt, order, start line)
    for parent, prompts in prompts_of.items():
        for order, sibling in enumerate(children.get(parent, [])):
            if sibling >= prompts[-1] or not isinstance(entries[sibling][1], (raw.UserEntry, raw.AssistantEntry)):
                continue
            start = entries[sibling][0]
            for member in _subtree(sibling, entries, children, prompts[-1]):
                # The first prompt after both the child and the member abandons it.
                prompt = prompts[bisect_right(prompts, max(sibling, member))]
                found = (prompt, order, start)
                if member not in best or found < best[member]:
                    best[member] = found
    return {entries[member][0]: start for member, (_, _, start) in best.items()}


def _subtree(root: int, entries: list[tuple[int, raw.AnyEntry]], children: dict[str, list[int]], before: int) -> list[int]:
    """``root`` and the entries under it that come before ``before``."""
    found, stack, seen = [], [root], set()
    while stack:
        index = stack.pop()
        if index in seen or index >= before:
            continue
        seen.add(index)
        found.append(index)
        uuid = getattr(entries[index][1], "uuid", None)
        if uuid:
            stack.extend(children.get(uuid, []))
    return found


def _is_prompt(entry: raw.AnyEntry) -> bool:
    if not isinstance(entry, raw.UserEntry) or entry.isMeta or entry.isCompactSummary:
        return False
    content = entry.message.content
    if isinstance(content, str):
        return bool(content.strip())
    if isinstance(content, list):
        return any(isinstance(b, raw.TextBlock) for b in content) and not any(isinstance(b, raw.ToolResultBlock) for b in content)
    return False

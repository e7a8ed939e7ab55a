"""The order of a conversation, and the parts of it left behind by a rewind.

Entries chain through ``parentUuid``. When the user rewinds to an earlier point
and goes on, the new prompt's parent already has a child: the start of the
branch that was abandoned. That branch (the earlier child and everything under
it written before the new prompt) is shown apart, where it happened, so the
main line reads without interleaving. Forks that are not rewinds (parallel
tool results, progress lines) are not branches: only a new prompt makes one.
"""

from __future__ import annotations

from collections import defaultdict

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
    ordered.append(item)
    uuid = getattr(item[1], "uuid", None)
    for child in late.pop(uuid, []) if uuid else []:
        _place(child, ordered, late)


def abandoned(entries: list[tuple[int, raw.AnyEntry]]) -> dict[int, int]:
    """Map the line of each entry on an abandoned branch to the line where its branch starts."""
    children: dict[str, list[int]] = defaultdict(list)
    index_of: dict[str, int] = {}
    for index, (_, entry) in enumerate(entries):
        uuid, parent = getattr(entry, "uuid", None), getattr(entry, "parentUuid", None)
        if uuid:
            index_of.setdefault(uuid, index)
        if uuid and parent:
            children[parent].append(index)
    branch_of: dict[int, int] = {}
    for index, (_, entry) in enumerate(entries):
        if not _is_prompt(entry) or not entry.parentUuid:  # type: ignore[union-attr]
            continue
        for sibling in children[entry.parentUuid]:  # type: ignore[union-attr]
            if sibling >= index or not isinstance(entries[sibling][1], (raw.UserEntry, raw.AssistantEntry)):
                continue
            start = entries[sibling][0]
            for member in _subtree(sibling, entries, children):
                if member < index:
                    branch_of.setdefault(entries[member][0], start)
    return branch_of


def _subtree(root: int, entries: list[tuple[int, raw.AnyEntry]], children: dict[str, list[int]]) -> list[int]:
    found, stack, seen = [], [root], set()
    while stack:
        index = stack.pop()
        if index in seen:
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

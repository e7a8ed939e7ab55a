"""Entries by the thousand where a session usually holds a few (rewinds from one
point, results of one tool call): converted in time that grows with the session.
Branches left by rewinds are those the rule gives (tests/golden/rewind.* shows one)."""

from __future__ import annotations

import random

from mkdocs_claude_transcripts.build import branches
from mkdocs_claude_transcripts.transcript.raw import ENTRY


def entry(line: int, kind: str, parent: int | None) -> tuple[int, object]:
    data: dict = {"uuid": f"u{line}", "parentUuid": f"u{parent}" if parent is not None else None, "sessionId": "s",
                  "timestamp": "2025-01-01T00:00:00Z"}  # fmt: skip
    if kind == "prompt":
        data.update(type="user", message={"role": "user", "content": f"prompt {line}"})
    elif kind == "result":
        data.update(type="user", message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]})
    else:
        data.update(type="assistant", message={"role": "assistant", "id": f"m{line}", "content": [{"type": "text", "text": "a"}]})
    return line, ENTRY.validate_python(data)


def by_the_letter(entries: list) -> dict[int, int]:
    """The rule as said: each prompt abandons every earlier user or assistant child of
    its parent, with what came under it before the prompt; the earliest prompt wins."""
    found: dict[int, int] = {}
    for index, (_, prompt) in enumerate(entries):
        if not branches._is_prompt(prompt) or not prompt.parentUuid:
            continue
        for sibling, (line, child) in enumerate(entries[:index]):
            if getattr(child, "parentUuid", None) != prompt.parentUuid or child.type not in ("user", "assistant") or not child.uuid:
                continue
            under, todo = set(), [sibling]
            while todo:
                at = todo.pop()
                if at in under or at >= index:
                    continue
                under.add(at)
                todo += [i for i, (_, e) in enumerate(entries) if getattr(e, "parentUuid", None) == entries[at][1].uuid]
            for member in sorted(under):
                found.setdefault(entries[member][0], line)
    return found


def test_branches_are_those_the_rule_gives() -> None:
    rng = random.Random(7)
    for _ in range(300):
        made = []
        for line in range(1, rng.randrange(2, 30)):
            parent = None if line == 1 or rng.random() < 0.05 else rng.randrange(1, line)
            made.append(entry(line, rng.choice(["prompt", "prompt", "answer", "answer", "result"]), parent))
        ordered = branches.in_chain_order(made)
        assert branches.abandoned(ordered) == by_the_letter(ordered)


def chain_order_by_the_letter(entries: list) -> list:
    """File order, but an entry written before its parent right after it (and after
    what comes right after its parent before it): placed as it is read, or once its
    parent is."""
    position = {e.uuid: i for i, (_, e) in enumerate(entries) if getattr(e, "uuid", None)}
    waiting: dict[str, list] = {}
    ordered: list = []

    def place(item) -> None:
        ordered.append(item)
        for child in waiting.pop(item[1].uuid, []):
            place(child)

    for index, item in enumerate(entries):
        parent = item[1].parentUuid
        if parent and position.get(parent, -1) > index:
            waiting.setdefault(parent, []).append(item)
        else:
            place(item)
    return ordered + [item for items in waiting.values() for item in items]


def test_entries_written_before_their_parents_come_after_them() -> None:
    rng = random.Random(11)
    for _ in range(300):
        count = rng.randrange(2, 30)
        made = [entry(line, rng.choice(["prompt", "answer", "result"]), rng.randrange(1, count + 1) if rng.random() < 0.9 else None)
                for line in range(1, count + 1)]  # fmt: skip
        rng.shuffle(made)
        assert branches.in_chain_order(made) == chain_order_by_the_letter(made)


def test_a_chain_written_backwards_thousands_deep_is_put_in_order() -> None:
    n = 20_000  # deeper than Python lets a function call itself
    written = [entry(line, "prompt" if line % 2 else "answer", line - 1 if line else None) for line in reversed(range(n))]
    assert [line for line, _ in branches.in_chain_order(written)] == list(range(n))


def test_a_thousand_rewinds_gather_each_entry_a_few_times(monkeypatch) -> None:
    visited: list[int] = []
    gather = branches._subtree

    def counted(*args):
        found = gather(*args)
        visited.extend(found)
        return found

    monkeypatch.setattr(branches, "_subtree", counted)
    n = 2000
    same_point = [entry(0, "prompt", None)] + [entry(line, "prompt", 0) for line in range(1, n)]
    # A chain rewound at every step: each answer goes on, and a prompt comes from its parent too.
    chain = [entry(0, "prompt", None)] + [entry(line, "answer", max(0, line - 2)) if line % 2 else entry(line, "prompt", max(0, line - 3))
                                          for line in range(1, n)]  # fmt: skip
    for entries in (same_point, chain):
        visited.clear()
        assert len(branches.abandoned(branches.in_chain_order(entries))) > n / 3
        assert len(visited) < 3 * n


def test_anchors_wanted_thousands_of_times_are_numbered_in_one_pass() -> None:
    """Thousands of results of one tool call (or any anchor wanted again and again)
    each get the next free number, without trying every number before it."""
    from mkdocs_claude_transcripts.build.conversation import Conversation
    from mkdocs_claude_transcripts.report import FileReport

    class Counted(set):
        checks = 0

        def __contains__(self, item: object) -> bool:
            Counted.checks += 1
            return super().__contains__(item)

    conversation = Conversation(FileReport("s.jsonl"))
    conversation._anchors = Counted({"r-t-3"})  # taken by another anchor
    given = [conversation._anchor("r-t") for _ in range(3000)]
    assert given[:4] == ["r-t", "r-t-2", "r-t-4", "r-t-5"] and len(set(given)) == 3000
    assert Counted.checks < 3 * 3000  # trying every number made it millions

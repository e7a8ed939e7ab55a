"""Prompts typed while Claude works, queued by the thousand: shown as the rules say
(build/steering.py), in time that grows with the queue."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_claude_transcripts.build import steering
from mkdocs_claude_transcripts.transcript.raw import ENTRY


def operation(kind: str, text: str = "") -> dict:
    return {"type": "queue-operation", "operation": kind, **({"content": text} if text else {}), "sessionId": "s"}


def queued(text: str) -> dict:
    return {"type": "attachment", "uuid": f"u-{text}", "sessionId": "s", "attachment": {"type": "queued_command", "prompt": text}}


def by_the_letter(entries: list) -> dict[int, tuple[str, bool]]:
    """The rules as the module says them, with the queue as a list."""
    cards = Counter(steering.prompt_text(e.attachment.get("prompt")).strip() for _, e in entries if getattr(e, "type", "") == "attachment")
    queue: list[tuple[int, str]] = []
    popped: list[tuple[int, str]] = []
    shown: dict[int, tuple[str, bool]] = {}
    for line, entry in entries:
        if getattr(entry, "type", "") != "queue-operation":
            continue
        kind, text = entry.operation, steering.prompt_text(entry.content).strip()
        if kind == "enqueue":
            queue.append((line, text))
        elif kind == "dequeue" and queue:
            queue.pop(0)
        elif kind in ("popAll", "clear"):
            popped += queue
            queue.clear()
        elif kind == "remove":
            found = next((i for i, (_, q) in enumerate(queue) if q == text), None) if text else (0 if queue else None)
            text = text or (queue[found][1] if found is not None else "")
            if found is not None:
                del queue[found]
            if text and cards[text] > 0:
                cards[text] -= 1
            elif text:
                shown[line] = (text, True)
    shown.update({line: (text, False) for line, text in popped + queue if text and cards[text] == 0})
    return shown


TEXTS = ["", "a", "b", "c"]
OPERATIONS = st.one_of(
    st.tuples(st.sampled_from(["enqueue", "remove"]), st.sampled_from(TEXTS)),
    st.tuples(st.sampled_from(["dequeue", "popAll", "clear"]), st.just("")),
    st.tuples(st.just("card"), st.sampled_from(TEXTS[1:])),
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(OPERATIONS, max_size=24))
def test_queued_prompts_are_shown_as_the_rules_say(made: list[tuple[str, str]]) -> None:
    entries = [(line, ENTRY.validate_python(queued(text) if kind == "card" else operation(kind, text))) for line, (kind, text) in enumerate(made, 1)]
    assert steering.plan(entries) == by_the_letter(entries)


def test_thousands_of_prompts_removed_newest_first_are_each_shown_once() -> None:
    n = 20_000
    made = [operation("enqueue", f"prompt {i}") for i in range(n)] + [operation("remove", f"prompt {i}") for i in reversed(range(n))]
    shown = steering.plan([(line, ENTRY.validate_python(entry)) for line, entry in enumerate(made, 1)])
    assert shown == {n + 1 + k: (f"prompt {n - 1 - k}", True) for k in range(n)}


def test_prompts_taken_back_out_of_the_queue_show_unless_sent_after_all() -> None:
    """``popAll`` puts the queued prompts back in the prompt's input: one sent then as it
    was shows as that prompt alone; one not sent shows as queued and never sent. Both
    were lost."""
    prompt = {"type": "user", "uuid": "p", "sessionId": "s", "message": {"role": "user", "content": "run the tests"}}
    made = [operation("enqueue", "run the tests"), operation("enqueue", "and lint"), operation("popAll"), prompt]
    shown = steering.plan([(line, ENTRY.validate_python(entry)) for line, entry in enumerate(made, 1)])
    assert shown == {2: ("and lint", False)}

"""Prompts typed while Claude works ("steering"), shown once whatever the era.

Claude Code records a queued prompt in up to three places: ``queue-operation``
lines (``enqueue`` with the text, then ``dequeue`` when it is sent as a normal
prompt, or ``remove`` when it is delivered mid-turn), and from about 2.1.101 a
``queued_command`` attachment in the conversation. The ``remove`` carries the
text only from about 2.1.205; before that the text is in the ``enqueue`` or the
attachment.

The rules, from the reference catalogue: the attachment is what is shown; a
``remove`` whose text an attachment already shows is not (matched by text, one
attachment for one ``remove``); any other ``remove`` is shown with its text or
its ``enqueue``'s. Nothing is dropped when pairing fails: an unmatched ``remove``
shows, and a prompt enqueued but never sent nor removed shows too, as does one
taken back out of the queue (``popAll``, into the prompt's input to be edited, or
``clear``) that is not then sent as a prompt of its own, word for word.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from itertools import count
from typing import Any

from ..transcript import raw


def prompt_text(value: Any) -> str:
    """The text of a queued prompt: a string, or content blocks (text and images)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n\n".join(b["text"] for b in value if isinstance(b, dict) and isinstance(b.get("text"), str))
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value["text"]
    return ""


# The operations on the queue of prompts that ``plan`` follows.
OPERATIONS = frozenset({"enqueue", "dequeue", "popAll", "clear", "remove"})


def plan(entries: list[tuple[int, raw.AnyEntry]]) -> dict[int, tuple[str, bool]]:
    """Which queue-operation lines show a steering prompt: its text, and whether it was sent."""
    cards = Counter(
        prompt_text(e.attachment.get("prompt")).strip()
        for _, e in entries
        if isinstance(e, raw.AttachmentEntry) and e.attachment.get("type") == "queued_command"
    )
    queue = _Queue()
    popped: list[tuple[int, str]] = []
    shown: dict[int, tuple[str, bool]] = {}
    for line, entry in entries:
        if not isinstance(entry, raw.QueueOperationEntry):
            continue
        operation, text = entry.operation, prompt_text(entry.content).strip()
        if operation == "enqueue":
            queue.add(line, text)
        elif operation == "dequeue":
            queue.take_first()
        elif operation in ("popAll", "clear"):
            popped += queue.left()
            queue = _Queue()
        elif operation == "remove":
            # The item a remove stands for: the first of its text, or the first.
            queued = queue.take(text) if text else queue.take_first()
            text = text or queued
            if not text:
                continue
            if cards[text] > 0:
                cards[text] -= 1  # the attachment shows it
                continue
            shown[line] = (text, True)
    sent = _prompts(entries) if popped else {}
    for line, text in popped:
        later = sent.get(text, [])
        again = next((at for at in later if at > line), None)
        if again is not None:
            later.remove(again)  # sent as a prompt after all
        elif text and cards[text] == 0:
            shown[line] = (text, False)
    for line, text in queue.left():
        if text and cards[text] == 0:
            shown[line] = (text, False)
    return shown


def _prompts(entries: list[tuple[int, raw.AnyEntry]]) -> dict[str, list[int]]:
    """The lines of each text the user sent as a prompt."""
    found: dict[str, list[int]] = {}
    for line, entry in entries:
        if isinstance(entry, raw.UserEntry):
            content = entry.message.content
            text = content if isinstance(content, str) else "\n\n".join(b.text for b in content or [] if isinstance(b, raw.TextBlock))
            found.setdefault(text.strip(), []).append(line)
    return found


class _Queue:
    """The prompts waiting, in order: taken from the front, or the first of a text,
    each in a time that does not grow with the queue (a session may queue prompts by
    the thousand, and remove them newest first)."""

    def __init__(self) -> None:
        self._waiting: OrderedDict[int, tuple[int, str]] = OrderedDict()  # number: (line, text)
        self._by_text: dict[str, deque[int]] = {}  # the numbers waiting with each text, in order
        self._numbers = count()

    def add(self, line: int, text: str) -> None:
        number = next(self._numbers)
        self._waiting[number] = (line, text)
        self._by_text.setdefault(text, deque()).append(number)

    def take_first(self) -> str:
        if not self._waiting:
            return ""
        _, (_, text) = self._waiting.popitem(last=False)
        self._by_text[text].popleft()  # the first of the queue is the first of its text
        return text

    def take(self, text: str) -> str:
        numbers = self._by_text.get(text)
        if not numbers:
            return ""
        del self._waiting[numbers.popleft()]
        return text

    def left(self) -> list[tuple[int, str]]:
        return list(self._waiting.values())

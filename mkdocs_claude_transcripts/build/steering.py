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
shows, and a prompt enqueued but never sent nor removed shows too.
"""

from __future__ import annotations

from collections import Counter, deque
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


def plan(entries: list[tuple[int, raw.AnyEntry]]) -> dict[int, tuple[str, bool]]:
    """Which queue-operation lines show a steering prompt: its text, and whether it was sent."""
    cards = Counter(
        prompt_text(e.attachment.get("prompt")).strip()
        for _, e in entries
        if isinstance(e, raw.AttachmentEntry) and e.attachment.get("type") == "queued_command"
    )
    queue: deque[tuple[int, str]] = deque()
    shown: dict[int, tuple[str, bool]] = {}
    for line, entry in entries:
        if not isinstance(entry, raw.QueueOperationEntry):
            continue
        operation, text = entry.operation, prompt_text(entry.content).strip()
        if operation == "enqueue":
            queue.append((line, text))
        elif operation == "dequeue":
            if queue:
                queue.popleft()
        elif operation in ("popAll", "clear"):
            queue.clear()
        elif operation == "remove":
            queued = _take(queue, text)
            text = text or queued
            if not text:
                continue
            if cards[text] > 0:
                cards[text] -= 1  # the attachment shows it
                continue
            shown[line] = (text, True)
    for line, text in queue:
        if text and cards[text] == 0:
            shown[line] = (text, False)
    return shown


def _take(queue: deque[tuple[int, str]], text: str) -> str:
    """Remove from the queue the item a ``remove`` stands for; return its text."""
    if text:
        for index, (_, queued) in enumerate(queue):
            if queued == text:
                del queue[index]
                return queued
        return ""
    return queue.popleft()[1] if queue else ""

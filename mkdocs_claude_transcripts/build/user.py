"""What a user entry's text is: a prompt, or one of the things Claude Code writes in
the user's name (slash commands and their output, bash mode, task notifications,
memory notes, teammate messages, reminders, interruptions, compaction summaries).

Claude Code marks these with XML-like tags inside the text; the seed catalogue
lists them, and ``KNOWN_TAGS`` here is the list this module reads.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from .. import model as m

_OPEN = re.compile(r"<(?P<name>[a-z][a-z0-9_-]*)(?P<attrs>\s[^<>]*)?>")
_CLOSE = re.compile(r"</(?P<name>[a-z][a-z0-9_-]*)\s*>")
# (A name starts where a word does: tried inside a long word, it would read the word
# to its end from each of its letters.)
_ATTR = re.compile(r'(?<![\w-])([a-zA-Z_][\w-]*)\s*=\s*"([^"]*)"')
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]$")
# Versions before the isCompactSummary flag mark the summary only by its opening words.
_CONTINUED = "This session is being continued from a previous conversation"

IDE_TAGS = {"ide_opened_file": "opened_file", "ide_selection": "selection", "ide_diagnostics": "diagnostics"}
COMMAND_TAGS = ("command-name", "command-message", "command-args", "command-contents")
OUTPUT_TAGS = ("local-command-stdout", "local-command-stderr")
BASH_TAGS = ("bash-input", "bash-stdout", "bash-stderr")
KNOWN_TAGS = frozenset(
    {
        *IDE_TAGS,
        *COMMAND_TAGS,
        *OUTPUT_TAGS,
        *BASH_TAGS,
        "local-command-caveat",
        "system-reminder",
        "task-notification",
        "user-memory-input",
        "teammate-message",
    }
)


@dataclass
class Tagged:
    """A user text split into its known tags and the rest."""

    tags: dict[str, list[str]] = field(default_factory=dict)
    attrs: dict[str, dict[str, str]] = field(default_factory=dict)  # of the first of each tag
    rest: str = ""
    # Each known tag, in order: its name, its body and its attributes as written.
    spans: list[tuple[str, str, str]] = field(default_factory=list)

    def first(self, name: str) -> str:
        values = self.tags.get(name)
        return values[0].strip() if values else ""

    def has(self, *names: str) -> bool:
        return any(name in self.tags for name in names)


class _Tag(NamedTuple):
    start: int
    end: int
    name: str
    attrs: str
    body: str


def _tags(text: str) -> Iterator[_Tag]:
    """Each ``<name ...>body</name>`` of ``text``, from its start, the body up to the
    first closing tag of its name; a tag that none closes is text, and what a tag
    holds is its body (a tag inside another is not one of its own). Each closing tag
    is found once: a text of thousands of tags that nothing closes (pasted HTML)
    is not searched to its end from each."""
    closing: dict[str, list[tuple[int, int]]] = {}
    for close in _CLOSE.finditer(text):
        closing.setdefault(close["name"], []).append((close.start(), close.end()))
    at = 0
    while (opening := _OPEN.search(text, at)) is not None:
        ends = closing.get(opening["name"], [])
        index = bisect_left(ends, (opening.end(), -1))
        if index == len(ends):
            at = opening.start() + 1
            continue
        start, end = ends[index]
        yield _Tag(opening.start(), end, opening["name"], opening["attrs"] or "", text[opening.end() : start])
        at = end


def split_tags(text: str) -> Tagged:
    tagged = Tagged()
    pieces: list[str] = []
    last = 0
    for tag in _tags(text):
        if tag.name not in KNOWN_TAGS:
            continue
        pieces.append(text[last : tag.start])
        last = tag.end
        tagged.tags.setdefault(tag.name, []).append(tag.body)
        tagged.spans.append((tag.name, tag.body, tag.attrs))
        if tag.name not in tagged.attrs:
            tagged.attrs[tag.name] = dict(_ATTR.findall(tag.attrs))
    pieces.append(text[last:])
    tagged.rest = "".join(pieces).strip()
    return tagged


def classify(text: str, images: list[m.Image], *, meta: bool, compact_summary: bool) -> list[m.Message]:
    """The messages a user entry's text (and pasted images) stands for: usually
    one; more when a tagged part comes with text of its own, which is never dropped."""
    if compact_summary or text.startswith(_CONTINUED):
        return [m.CompactSummary(text=text)]
    if "<" not in text:  # the common case: a plain prompt
        return [_plain(text.strip() if _INTERRUPTED.match(text.strip()) else text, images, meta)]
    tagged = split_tags(text)
    main = _tagged(tagged)
    reminders = [r.strip() for r in tagged.tags.get("system-reminder", []) if r.strip()]
    ide = [m.IdeNote(kind=IDE_TAGS[tag], text=body.strip()) for tag in IDE_TAGS for body in tagged.tags.get(tag, [])]
    if main is None:
        if not tagged.rest and not images and not ide:
            return [m.Reminder(text="\n\n".join(reminders))] if reminders else [_plain(text, images, meta)]
        prompt = _plain(tagged.rest, images, meta)
        if isinstance(prompt, m.Prompt):
            prompt.ide, prompt.reminders = ide, reminders
            return [prompt]
        # meta text keeps its tags as written
        return [m.Instructions(text=text)]
    found: list[m.Message] = [main, *_left_over(tagged, main)]
    if isinstance(main, m.TaskNotification) and tagged.rest and not meta:
        main.note, tagged.rest = tagged.rest, ""  # Claude Code's own words about the task
    if tagged.rest or images or ide:
        extra = _plain(tagged.rest, images, meta)
        if isinstance(extra, m.Prompt):
            extra.ide = ide
        elif ide:  # text Claude Code added, which has no IDE notes of its own: they are its text
            extra = m.Instructions(text="\n\n".join(part for part in (tagged.rest.strip(), *(note.text for note in ide)) if part))
        found.append(extra)
    if reminders:
        found.append(m.Reminder(text="\n\n".join(reminders)))
    return found


def _plain(text: str, images: list[m.Image], meta: bool) -> m.Message:
    if _INTERRUPTED.match(text.strip()) and not images:
        return m.Interruption(text=text.strip())
    return m.Instructions(text=text) if meta else m.Prompt(text=text, images=images)


def _tagged(tagged: Tagged) -> m.Message | None:
    """The message for the kind of tag the text carries, if any; its ``rest`` is left
    for the caller."""
    if tagged.has(*COMMAND_TAGS):
        name = tagged.first("command-name") or tagged.first("command-message")
        message = tagged.first("command-message")
        return m.SlashCommand(
            name=name if name.startswith("/") else "/" + name,
            args=tagged.first("command-args"),
            status=message if message and message != name.lstrip("/") else "",
            text=tagged.first("command-contents"),
        )
    if tagged.has(*OUTPUT_TAGS):
        return m.CommandOutput(stdout=tagged.first("local-command-stdout"), stderr=tagged.first("local-command-stderr"))
    if tagged.has("local-command-caveat"):
        return m.Instructions(text=tagged.first("local-command-caveat"), caveat=True)
    if tagged.has(*BASH_TAGS):
        return m.ShellCommand(
            command=tagged.first("bash-input"),
            stdout=tagged.first("bash-stdout"),
            stderr=tagged.first("bash-stderr"),
        )
    if tagged.has("task-notification"):
        return task_notification(tagged.first("task-notification"))
    if tagged.has("user-memory-input"):
        return m.Memory(text=tagged.first("user-memory-input"))
    if tagged.has("teammate-message"):
        attrs = tagged.attrs.get("teammate-message", {})
        sender = attrs.get("teammate_id") or attrs.get("from") or attrs.get("name") or ""
        return m.TeammateMessage(sender=sender, text=tagged.first("teammate-message"))
    return None


# The tags each kind of message reads, the first of each; the others of a text are
# shown by messages of their own (_left_over).
_READS: dict[type, tuple[str, ...]] = {
    m.SlashCommand: COMMAND_TAGS,
    m.CommandOutput: OUTPUT_TAGS,
    m.Instructions: ("local-command-caveat",),
    m.ShellCommand: BASH_TAGS,
    m.TaskNotification: ("task-notification",),
    m.Memory: ("user-memory-input",),
    m.TeammateMessage: ("teammate-message",),
}
_KIND_OF = {name: names for names in _READS.values() for name in names}


def _left_over(tagged: Tagged, main: m.Message) -> list[m.Message]:
    """The messages of the tags of a text that ``main`` does not read, in order: a
    second teammate's message, task notification or command, the output of a
    command written with it. A tag starts a message of its own, unless the one
    before is of its kind and has no tag of its name (a command's arguments after
    its name). Reminders and IDE notes go with the prompt."""
    unread = set(_READS[type(main)])
    groups: list[Tagged] = []
    for name, body, attrs in tagged.spans:
        if name in unread:
            unread.discard(name)  # the one ``main`` shows
            continue
        if name not in _KIND_OF:
            continue
        group = groups[-1] if groups else None
        if group is None or name in group.tags or _KIND_OF[next(iter(group.tags))] != _KIND_OF[name]:
            group = Tagged()
            groups.append(group)
        group.tags[name] = [body]
        group.attrs[name] = dict(_ATTR.findall(attrs))
    return [message for group in groups if (message := _tagged(group)) is not None]


_NOTIFICATION_FIELDS = ("task-id", "tool-use-id", "status", "summary", "result", "output-file")


def task_notification(body: str) -> m.TaskNotification:
    inner = split_tags_any(body)
    return m.TaskNotification(
        task_id=inner.get("task-id", ""),
        tool_use_id=inner.get("tool-use-id", ""),
        status=inner.get("status", ""),
        summary=inner.get("summary", ""),
        result=inner.get("result", ""),
        output_file=inner.get("output-file", ""),
        details={k.replace("-", " "): v for k, v in inner.items() if k not in _NOTIFICATION_FIELDS},
    )


def split_tags_any(text: str) -> dict[str, str]:
    """The first body of every tag in ``text``, whatever its name (for structured bodies)."""
    found: dict[str, str] = {}
    for tag in _tags(text):
        found.setdefault(tag.name, tag.body.strip())
    return found

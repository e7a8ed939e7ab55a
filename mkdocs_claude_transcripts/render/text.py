"""Plain-text clean-up before display: terminal colour codes, ``cat -n`` prefixes,
the footers Claude Code adds to agent results."""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves), OSC sequences (titles, links), and lone escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_NUMBERED = re.compile(r"^ *(\d+)(?:→|\t)(.*)$")
_REMINDER = re.compile(r"\n*<system-reminder>(.*?)</system-reminder>\s*", re.DOTALL)
_WORD = re.compile(r"\S+")  # what str.split() keeps: \s is the same Unicode whitespace
_AGENT_FOOTER = re.compile(r"\n*agentId: [\w-]+(?: \([^)]*\))?\s*(?:<usage>.*?</usage>)?\s*$", re.DOTALL)


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text) if "\x1b" in text else text


def numbered(text: str) -> tuple[str, int | None]:
    """Strip the line numbers Read puts before each line (``   12→code``).

    Returns the text and the first line's number, or the text unchanged and None
    when its lines are not all numbered.
    """
    lines = text.rstrip("\n").split("\n")
    matches = [_NUMBERED.match(line) for line in lines]
    if not lines or not all(matches):
        return text, None
    return "\n".join(m.group(2) for m in matches if m), int(matches[0].group(1))  # type: ignore[union-attr]


def split_reminders(text: str) -> tuple[str, list[str]]:
    """Take the ``<system-reminder>`` blocks out of a tool's output."""
    if "<system-reminder>" not in text:
        return text, []
    found = [r.strip() for r in _REMINDER.findall(text)]
    return _REMINDER.sub("\n", text).rstrip(), found


def agent_answer(text: str) -> str:
    """An agent's final answer without the footer naming its id and usage."""
    return _AGENT_FOOTER.sub("", text)


def first_words(text: str, width: int) -> str:
    """``" ".join(text.split())[:width]``, reading no more of ``text`` than that needs
    (a label of a page made of a piece of a message of megabytes)."""
    words: list[str] = []
    length = -1
    for word in _WORD.finditer(text):
        words.append(word.group())
        length += len(words[-1]) + 1
        if length >= width:
            break
    return " ".join(words)[:width]


def first_line(text: str, width: int = 100) -> str:
    for line in text.strip().splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= width else line[: width - 1] + "…"
    return ""


def duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return f"{int(seconds)} s"
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    return f"{hours // 24} days {hours % 24} h"


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"

"""Plain-text clean-up before display: terminal colour codes, ``cat -n`` prefixes,
the footers Claude Code adds to agent results."""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves), OSC sequences (titles, links), and lone escapes.
# (Redaction looks for secrets in a text without them too, as its page shows it.)
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_NUMBERED = re.compile(r"^ *(\d+)(?:→|\t)(.*)$")
_WORD = re.compile(r"\S+")  # what str.split() keeps: \s is the same Unicode whitespace
_AGENT_FOOTER = re.compile(r"agentId: [\w-]+(?: \([^)]*\))?\s*(?:<usage>.*?</usage>\s*)?", re.DOTALL)
_OPEN, _CLOSE = "<system-reminder>", "</system-reminder>"
_SPACES = re.compile(r"\s*")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text) if "\x1b" in text else text


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
    """Take the ``<system-reminder>`` blocks out of a tool's output, each with the line
    breaks before it and the blank after it, which become one line break. (Found with
    ``str.find``: a pattern starting with those line breaks was tried at each of a long
    run of them, and read the run to its end each time.)"""
    if _OPEN not in text:
        return text, []
    found: list[str] = []
    pieces: list[str] = []
    done = 0
    while (start := text.find(_OPEN, done)) != -1 and (end := text.find(_CLOSE, start)) != -1:
        found.append(text[start + len(_OPEN) : end].strip())
        pieces += [text[done:start].rstrip("\n"), "\n"]
        done = _SPACES.match(text, end + len(_CLOSE)).end()  # type: ignore[union-attr]
    pieces.append(text[done:])
    return "".join(pieces).rstrip(), found


def agent_answer(text: str) -> str:
    """An agent's final answer without the footer naming its id and usage, which ends
    it, and the line breaks before it."""
    at = text.rfind("agentId: ")
    if at == -1 or not _AGENT_FOOTER.fullmatch(text, at):
        return text
    return text[:at].rstrip("\n")


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


def spent_thinking(thinking: int) -> str:
    """What follows a count of output tokens: those of them spent thinking, where known
    (`` (20 thinking)``)."""
    return f" ({thinking:,} thinking)" if thinking else ""


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"

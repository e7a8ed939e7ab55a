"""Small text helpers shared by the build step."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

_SPACE = re.compile(r"\s+")
# Markup a prompt may wrap its words in: a comment, a closing tag, and an opening tag
# where a word starts (``Vec<String>`` and ``a < b > c`` are words, not tags).
_TAG = re.compile(r"<!--[^\n]{0,200}?-->|</[A-Za-z][\w:.-]{0,50}\s*>|(?<![\w<])<[A-Za-z][\w:.-]{0,50}(?:\s[^<>\n]{0,200})?/?>")
# What starts a Markdown block: quote marks, a heading's, a list item's, a table row's.
_LEAD = re.compile(r"(?:(?:>|#{1,6}(?=\s|$)|[-*+](?=\s)|\d{1,9}[.)](?=\s)|\[[ xX]\](?=\s))\s*)+")
_FENCE = re.compile(r"\s{0,3}(`{3,}|~{3,})")
_MARKUP_ONLY = re.compile(r"[\s|:#>*_=+~-]*")  # a rule, a table's line of dashes, an empty heading
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w*])")
_CODE = re.compile(r"(`+)(?=[^`])(.+?)(?<=[^`])\1(?!`)")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_LINK = re.compile(r"!?\[([^\[\]\n]{1,200})\]\([^()\s]{1,500}\)")


def shorten(text: str, width: int = 80) -> str:
    """The first line of ``text`` worth reading, collapsed, without the Markdown marks
    that start it or wrap its words, and cut at a word to ``width`` columns (a wide
    character, as in Chinese, counts two). Fenced code is passed over, unless the text
    holds nothing else."""
    first_code = ""
    fence = ""
    for raw in text.strip().splitlines():
        if fence:
            if raw.strip().startswith(fence) and not raw.strip(fence[0]).strip():
                fence = ""
            elif not first_code:
                first_code = _collapsed(raw)
            continue
        opened = _FENCE.match(raw)
        if opened:
            fence = opened.group(1)
            continue
        line = _plain(raw)
        if line:
            return _cut(line, width)
    return _cut(first_code, width) if first_code else ""


# How many columns of a name the transcript gives (a session's title, a subagent's
# description or type) are kept: MkDocs' nav holds it on every page of the site, and a
# title of a megabyte (a custom-title entry) made every page a megabyte larger.
NAME_WIDTH = 200


def named(text: str, clean: Callable[[str], str] = str) -> str:
    """``text`` as a name: as it is, or, longer than ``NAME_WIDTH`` columns, on one line
    and cut at a word; ``clean``ed (redacted) before it is cut, so that no part of a
    secret is left too short for its pattern."""
    if len(text) <= NAME_WIDTH // 2 or _cut(line := _collapsed(text), NAME_WIDTH) == line:
        return text
    return _cut(_collapsed(clean(text)), NAME_WIDTH)


def _collapsed(line: str) -> str:
    return _SPACE.sub(" ", line).strip()


def _plain(line: str) -> str:
    if _MARKUP_ONLY.fullmatch(line):
        return ""
    line = _collapsed(_TAG.sub(" ", line))
    line = _LEAD.sub("", line, count=1) if _LEAD.match(line) else line
    if line.startswith("|"):  # a table's row: its cells
        line = " · ".join(cell.strip() for cell in line.strip("|").split("|") if cell.strip())
    if "](" in line:
        line = _LINK.sub(r"\1", line)
    if "**" in line:
        line = _STRONG.sub(r"\1", line)
    if "`" in line:
        line = _CODE.sub(_code, line)
    if "\\" in line:
        line = _ESCAPE.sub(r"\1", line)
    return line.strip()


def _code(match: re.Match[str]) -> str:
    """A code span's code, as CommonMark reads it (a space each side, when both have one, is padding)."""
    code = match.group(2)
    return code[1:-1] if len(code) > 2 and code[0] == code[-1] == " " and code.strip() else code


def _columns(char: str) -> int:
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 0 if _joins(char) else 1


def _joins(char: str) -> bool:
    """Whether ``char`` belongs with the one before it (an accent, a joiner, a variation
    selector, a skin tone): a line is not cut before it."""
    return (
        unicodedata.combining(char) > 0
        or unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char in "\u200d\ufe0e\ufe0f"
        or "\U0001f3fb" <= char <= "\U0001f3ff"
        or "\U000e0020" <= char <= "\U000e007f"  # the tags of a flag's emoji
    )


def _cut(line: str, width: int) -> str:
    """``line``, or its start up to ``width`` columns and an ellipsis: at the last space
    when there is one in its last third, and never inside a character made of several
    (a letter and its accent, an emoji joined by a zero-width joiner)."""
    if len(line) <= width // 2:
        return line
    used = 0
    end = -1  # where the line reaches ``width`` columns less one, the ellipsis's
    for index, char in enumerate(line):
        used += _columns(char)
        if end < 0 and used > width - 1:
            end = index
        if used > width:
            break
    else:
        return line
    while end > 0 and (_joins(line[end]) or line[end - 1] == "\u200d"):
        end -= 1
    space = line.rfind(" ", 0, end + 1)
    if space > end * 2 // 3:
        end = space
    return line[:end].rstrip() + "…"

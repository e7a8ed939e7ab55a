"""Brackets that Python-Markdown would search a paragraph for, written so that it need not.

Python-Markdown looks for the end of every "[" (and of a link's target) through the
rest of its paragraph, with each of its link patterns; a "[" that nothing closes
costs a search to the paragraph's end, and brackets nested inside others a search
for each. A paragraph of thousands of terminal colour codes ("\\x1b[33m") took
minutes. ``escape_unclosed`` escapes such brackets where that changes nothing on the
page (tests/test_markdown_properties.py renders both and compares).
"""

from __future__ import annotations

import re
from bisect import bisect_left

# What pairs brackets as Python-Markdown does: escapes, code spans (their backticks), brackets.
_BRACKETS = re.compile(r"\\.|`+|[\[\]]")
_TICKS = re.compile(r"`+")
_NEIGHBOUR = re.compile(r"[^\W_]|[\s\ufffd\[\]]")  # what may stand beside a bracket escaped
_SPACE = re.compile(r"\s")
_ADDRESS_MARK = re.compile(r"://|www\.|@")
_ESCAPABLE = frozenset("\\`*_{}[]()>#+-.!")  # what Python-Markdown escapes with a backslash
# A line that may be indented code (in quotes too), where an escape would show.
_INDENTED = re.compile(r"^(?:[ ]{0,3}>[ ]?)*(?:[ ]{4}|[ ]{0,3}\t)")
SEEN_AT_MOST = 8  # unclosed brackets a paragraph keeps where an extension could see their escape
DEEPEST = 16  # brackets nested deeper are shown as text

Place = tuple[int, int]  # a line of out, a column


def escape_unclosed(out: list[str], fenced: list[range], texts: set[int] | frozenset[int] = frozenset()) -> None:
    """Escape, in place, every "[" of ``out`` (the lines of a text, ``fenced`` those
    of its fences, ``texts`` those indented as code that are text of a list's item)
    that no "]" closes within its paragraph, and the brackets nested more than
    ``DEEPEST`` deep.

    Brackets are paired as Python-Markdown pairs them; those in code spans and
    escaped ones do not count. A paragraph ends at a blank line or a fence; a bracket
    closed by a "]" further on is left alone, even if that "]" is in another block
    (a table cell, say), and so are brackets before and on a line indented as code.
    An escape is seen by other extensions as a letter would be: brackets one of them
    could see (``_inert``, or in a paragraph with math, ``$`` or ``\\(``, which may
    go on over several lines) are escaped only past ``SEEN_AT_MOST`` in a paragraph.
    """
    pairs, unclosed, paragraph_of, math = _brackets(out, {index for lines in fenced for index in lines}, texts)
    escaped: list[Place] = []
    seen: dict[int, list[Place]] = {}  # by paragraph, the unclosed brackets an extension could see
    addresses: dict[int, _Addresses] = {}
    for place in unclosed:
        if paragraph_of[place[0]] not in math and _inert(out, place, addresses):
            escaped.append(place)
        else:
            seen.setdefault(paragraph_of[place[0]], []).append(place)
    for places in seen.values():
        if len(places) > SEEN_AT_MOST:  # too many to leave: escaped all the same
            escaped += places
    closing: list[Place] = []  # where the pairs around the one at hand close
    for opening, closed in pairs:  # in the order they open
        while closing and closing[-1] < opening:
            closing.pop()
        if len(closing) >= DEEPEST:
            escaped += [opening, closed]
        else:
            closing.append(closed)
    by_line: dict[int, list[int]] = {}
    for index, column in escaped:
        by_line.setdefault(index, []).append(column)
    for index, columns in by_line.items():
        line = out[index]
        if "\t" in line:  # Python-Markdown expands tabs: as it would have, before the escapes move them
            columns = [len(line[:column].expandtabs(4)) for column in columns]
            line = line.expandtabs(4)
        for column in sorted(columns, reverse=True):
            line = line[:column] + "\\" + line[column:]
        out[index] = line


def _inert(out: list[str], place: Place, addresses: dict[int, _Addresses]) -> bool:
    """Whether an escape of the bracket at ``place`` changes nothing but the search for
    its end: it is between spaces, letters, digits, brackets or escaped characters (not
    next to the marks of emphasis, which tell a letter from a bracket), not in a web
    address or an email address (which may hold brackets). ``addresses``: what is
    known of the lines' addresses, by line."""
    line = out[place[0]]
    column = place[1]
    before = line[column - 1] if column else " "
    after = line[column + 1] if column + 1 < len(line) else " "
    # An escaped character is a placeholder to the other extensions, as the escape will be.
    if column >= 1 and escaped(line, column - 1):
        before = " "
    if after == "\\" and line[column + 2 : column + 3] in _ESCAPABLE:
        after = " "
    if not (_NEIGHBOUR.match(before) and _NEIGHBOUR.match(after)):
        return False
    if before.isspace():
        return True
    found = addresses.get(place[0])
    if found is None:
        found = addresses[place[0]] = _Addresses(line)
    return not found.in_word_before(column)


class _Addresses:
    """Where a line's words begin, and where the marks of web and email addresses
    (``://``, ``www.``, ``@``) are in it: found once for all its brackets (a line of
    thousands of colour codes was read whole for each)."""

    def __init__(self, line: str) -> None:
        self.spaces = [match.start() for match in _SPACE.finditer(line)]
        marks = list(_ADDRESS_MARK.finditer(line))
        self.starts = [mark.start() for mark in marks]
        self.ends = [mark.end() for mark in marks]

    def in_word_before(self, column: int) -> bool:
        """Whether the word that runs up to ``column`` holds such a mark before it."""
        index = bisect_left(self.spaces, column)
        word = self.spaces[index - 1] + 1 if index else 0
        index = bisect_left(self.starts, word)
        while index < len(self.starts) and self.starts[index] < column:
            if self.ends[index] <= column:
                return True
            index += 1
        return False


def _brackets(
    out: list[str], skip: set[int], texts: set[int] | frozenset[int],
) -> tuple[list[tuple[Place, Place]], list[Place], dict[int, int], set[int]]:  # fmt: skip
    """The brackets of ``out`` that Python-Markdown pairs, in the order they open;
    those that no "]" closes (outside the lines of ``skip``); the paragraph (a
    number) of each line holding them; the paragraphs that may hold math. Lines
    indented as code are taken for code but for those of ``texts``."""
    pairs: list[tuple[Place, Place]] = []
    opened: list[Place] = []  # each "[" not closed yet
    unclosed: list[Place] = []
    paragraph_of: dict[int, int] = {}
    math: set[int] = set()
    paragraph = 0
    for index, line in enumerate(out):
        if index in skip or not line.strip():
            unclosed += opened
            opened = []
            paragraph += 1
            continue
        if "$" in line or "\\(" in line:
            math.add(paragraph)
        if "[" not in line and "]" not in line:
            continue
        if _INDENTED.match(line) and index not in texts:
            # Code, or a paragraph going on: its brackets, and those before, are left as they are.
            opened = []
            paragraph += 1
            continue
        paragraph_of[index] = paragraph
        at = 0
        while match := _BRACKETS.search(line, at):
            at = match.end()
            found = match.group()
            if found == "[":
                opened.append((index, match.start()))
            elif found == "]":
                if opened:
                    pairs.append((opened.pop(), (index, match.start())))
            elif found[0] == "`":  # a code span, to its closing run of as many backticks
                end = _closing_run(line, at, len(found))
                at = end if end >= 0 else at
    pairs.sort()
    return pairs, unclosed + opened, paragraph_of, math


def _closing_run(line: str, at: int, length: int) -> int:
    """Where the run of ``length`` backticks that closes a code span ends, after ``at``; -1 if none does."""
    for match in _TICKS.finditer(line, at):
        if len(match.group()) == length:
            return match.end()
    return -1


def escaped(text: str, index: int) -> bool:
    """Whether the character at ``index`` is escaped: after an odd run of backslashes."""
    at = index
    while at and text[at - 1] == "\\":
        at -= 1
    return (index - at) % 2 == 1

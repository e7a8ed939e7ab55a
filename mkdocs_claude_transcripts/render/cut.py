"""How much a page holds, and a message too long for one, cut into pieces.

What a page holds is reckoned by ``weight``: about the characters of HTML its
Markdown makes, highlighted code counting a tag for each word (a page of code would
otherwise be many times the size of a page of prose), a table's rows a tag for each
cell.

A page is cut between messages; a single message can still be longer than a page
(a pasted log or table, a long rewound branch, a huge tool output). Its Markdown is
cut into pieces here, each complete in itself: what is open where a piece ends (a
code fence, the region kept out of the search index) is closed, and opened again at
the start of the next piece, with the blocks around it, titled "(continued)". Numbered
code goes on from the line it had reached; a table goes on under its header again.
Once the pieces are placed on pages, those on one page are made one again
(``cut_at``, with the cuts between pages only).

This reads only the Markdown the renderer writes (render/markdown.py): blocks whose
body is indented by four spaces, fences, tables whose rows start with "|", and the
markers of tool output.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .markdown import (
    BLOCK_HEAD,
    OUTPUT_END,
    OUTPUT_START,
    PERMALINK,
    block_head,
    fence_closes,
    fence_open,
    starts_table,
)

_START = re.compile(r'data-start="(\d+)"')
# The info of a fence of code in a language: highlighted, a tag a word (and a number a line).
_LANGUAGE = re.compile(r'[ \t]*(?:\{[^}]*data-lang="|[A-Za-z])')
_TABLE_ROW = re.compile(r"^\s*\|")


@dataclass
class _Open:
    """A block, fence or output region open at some line."""

    kind: str  # "block", "fence", "output", "table"
    indent: int
    line: str  # the line that opened it (a table's header)
    mark: str = ""  # a fence's backticks or tildes; the line under a table's header
    lines: int = 0  # a fence's lines so far
    filled: bool = False  # something is in it, in the piece being made

    def reopen(self) -> list[str]:
        if self.kind == "block":
            head = BLOCK_HEAD.match(self.line)
            assert head is not None
            title = PERMALINK.sub("", head["title"]).removesuffix(" (continued)")
            return [head["indent"] + block_head(head["marker"], head["kind"], title + " (continued)"), ""]
        if self.kind == "fence":
            start = _START.search(self.line)
            if start:
                return [_START.sub(f'data-start="{int(start[1]) + self.lines}"', self.line, count=1)]
        if self.kind == "output":
            return [self.line, ""]
        if self.kind == "table":
            return [self.line, self.mark]
        return [self.line]

    def close(self) -> list[str]:
        if self.kind == "fence":
            return [" " * self.indent + self.mark]
        return ["", " " * self.indent + OUTPUT_END] if self.kind == "output" else []


def weight(lines: list[str]) -> int:
    """About how many characters of HTML ``lines`` make: their own, an entity for each
    ``<``, ``>`` and ``&``, in highlighted code a tag for each word or sign and a line
    number for each line, in tables the tags of each cell."""
    text = "\n".join(lines)
    cells = _cells(lines) if "|" in text else 0
    if "```" not in text and "~~~" not in text:
        return len(text) + 1 + cells + _entities(text)  # no fence: no code
    code = [line for line, highlighted in zip(lines, _highlighted(lines)) if highlighted]
    return len(text) + 1 + cells + _entities(text) + _code_weight("\n".join(code), len(code))


def weights(lines: list[str]) -> list[int]:
    """``weight`` of each line."""
    return [
        len(line) + 1 + _entities(line) + (_code_weight(line, 1) if highlighted else _cells([line]) if "|" in line else 0)
        for line, highlighted in zip(lines, _highlighted(lines))
    ]


def _entities(text: str) -> int:
    # Each is written as an entity of four or five characters: in code and in text
    # shown as it is (a line of "&<" is four times as long in HTML). Prose holds them
    # as entities already, and is counted a little over.
    return 3 * (text.count("<") + text.count(">")) + 4 * text.count("&")


def _cells(lines: list[str]) -> int:
    # A row of a table is a tag around each cell (about 10 characters for each "|").
    return sum(10 * line.count("|") for line in lines if _TABLE_ROW.match(line))


def _code_weight(code: str, lines: int) -> int:
    # Spaces and the commonest signs of code stand for the tokens highlighting wraps in
    # tags (about 32 characters each); a line number is about 48.
    return 32 * (code.count(" ") + code.count("(") + code.count(".") + code.count(",")) + 48 * lines


def _highlighted(lines: list[str]) -> list[bool]:
    """Which lines are inside a fence of highlighted code."""
    out = []
    mark = None
    for line in lines:
        if mark is not None:
            if fence_closes(line, mark):
                mark = None
            out.append(mark is not None)
            continue
        opened = fence_open(line)
        if opened and _LANGUAGE.match(opened["info"]):
            mark = opened["fence"]
        out.append(False)
    return out


# Where a piece of a message begins after another: the lines that close, at the end of
# the piece before, what is open there, and those that open it again at its own start.
Joint = tuple[list[str], list[str]]


def cut(lines: list[str], limit: int) -> list[tuple[list[str], int, int, Joint]]:
    """``lines`` (one message's Markdown) in pieces that weigh about ``limit`` at most
    (see ``weight``), each with its weight, the index in ``lines`` of its first line
    and its joint with the piece before (none for the first); in one piece when it
    fits, or when ``limit`` is 0."""
    whole = weight(lines)
    if not limit or whole <= limit:
        return [(lines, whole, 0, ([], []))]
    weighed = weights(lines)
    size = 0

    def cut_before(index: int, opened: list[_Open], previous: str, line: str) -> bool:
        following = lines[index + 1] if index + 1 < len(lines) else ""
        return size >= limit and _may_cut(opened, previous, line, following, size, limit)

    def started(again: list[str]) -> None:
        nonlocal size
        size = sum(len(line) + 1 for line in again)

    def weigh(index: int) -> None:
        nonlocal size
        size += weighed[index]

    return [(piece, weight(piece), start, joint) for piece, start, joint in _cut_where(lines, cut_before, started, weigh)]


def cut_at(lines: list[str], joints: dict[int, Joint]) -> list[list[str]]:
    """``lines`` cut before each line whose index is a key of ``joints``, places where
    ``cut`` cut them, with the joints it gave there (some of its cuts left out: the
    pieces shown on one page). What is open at a line depends on the lines before it
    alone, so that each piece is the one ``cut`` made, joined to those after it on
    its page."""
    pieces: list[list[str]] = []
    head: list[str] = []
    begin = 0
    for at in sorted(joints):
        closing, again = joints[at]
        ended = head + lines[begin:at] + closing
        pieces.append(ended if ended[-1] == "" else [*ended, ""])  # a piece ends its last block
        head, begin = again, at
    pieces.append(head + lines[begin:])
    return pieces


def _cut_where(
    lines: list[str],
    cut_before: Callable[[int, list[_Open], str, str], bool],
    started: Callable[[list[str]], None],
    weigh: Callable[[int], None],
) -> list[tuple[list[str], int, Joint]]:
    """``lines`` in pieces, cut before each line ``cut_before`` says (given its index,
    what is open, the line before and the line); each piece with the index of its
    first line and its joint with the piece before. ``started`` is given what a new
    piece opens again, ``weigh`` the index of each line as it goes into a piece."""
    pieces: list[tuple[list[str], int, Joint]] = []
    current: list[str] = []
    start = 0
    joint: Joint = ([], [])
    opened: list[_Open] = []
    previous = earlier = ""
    for index, line in enumerate(lines):
        _end_blocks(opened, line)
        if current and cut_before(index, opened, previous, line):
            closing = [closing for item in reversed(opened) for closing in item.close()]
            ended = current + closing
            pieces.append((ended if ended[-1] == "" else [*ended, ""], start, joint))  # a piece ends its last block
            again = [again for item in opened for again in item.reopen()]
            current, start, joint = list(again), index, (closing, again)
            started(current)
            for item in opened:
                item.filled = False
        _follow(opened, line, previous, earlier)
        current.append(line)
        weigh(index)
        previous, earlier = line, previous
    pieces.append((current, start, joint))
    return pieces


def _may_cut(opened: list[_Open], previous: str, line: str, following: str, size: int, limit: int) -> bool:
    """Whether a piece may end before ``line`` (``following`` after it): the next piece
    begins with something, what is open has something in it; inside a fence, before
    any line of it; in a table, before a row of its body; elsewhere before a paragraph
    (or any line, once well past the limit), but not inside a table's header or where
    the next piece would begin with one."""
    if not line.strip() or (opened and not opened[-1].filled):
        return False
    if opened and opened[-1].kind == "fence":
        return not fence_closes(line, opened[-1].mark)
    if BLOCK_HEAD.match(previous) or OUTPUT_START in (previous.strip(), line.strip()) or line.strip() == OUTPUT_END:
        return False  # a block or region would begin, or end, with nothing in it
    if opened and opened[-1].kind == "table" and _TABLE_ROW.match(line):
        return True  # between two rows of its body: the next piece starts with its header again
    if "|" in line and (starts_table(previous, line) or starts_table(line, following)):
        return False
    return not previous.strip() or size > limit * 3 // 2


def _end_blocks(opened: list[_Open], line: str) -> None:
    """The blocks ``line`` is not inside of end before it: it is not indented under them
    (a table ends at any line that is not one of its rows)."""
    if opened and opened[-1].kind == "table" and not _TABLE_ROW.match(line):
        opened.pop()
    if line.strip() and not (opened and opened[-1].kind == "fence"):
        indent = len(line) - len(line.lstrip(" "))
        while opened and opened[-1].kind == "block" and indent <= opened[-1].indent:
            opened.pop()


def _follow(opened: list[_Open], line: str, previous: str, earlier: str) -> None:
    """Keep ``opened`` up to date with what ``line`` (after ``previous``, itself after
    ``earlier``) opens or closes (its end of blocks is ``_end_blocks``)."""
    if opened and opened[-1].kind == "fence":
        if fence_closes(line, opened[-1].mark):
            opened.pop()
        else:
            opened[-1].lines += 1
            opened[-1].filled = True
        return
    stripped = line.strip()
    if not stripped:
        return
    for item in opened:
        item.filled = True
    indent = len(line) - len(line.lstrip(" "))
    if stripped.startswith("|") and _TABLE_ROW.match(previous) and not earlier.strip() and starts_table(previous, line):
        # (A table starts a block, after a blank line; its rows here start with "|".)
        opened.append(_Open("table", indent, previous, mark=line, filled=False))
    elif stripped == OUTPUT_START:
        opened.append(_Open("output", indent, line))
    elif stripped == OUTPUT_END:
        if opened and opened[-1].kind == "output":
            opened.pop()
    elif BLOCK_HEAD.match(line):
        opened.append(_Open("block", indent, line))
    elif fence := fence_open(line):
        opened.append(_Open("fence", indent, line, mark=fence["fence"]))

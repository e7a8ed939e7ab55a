"""The only place that writes Markdown syntax around transcript text.

Transcript text is data. Each function here takes text from a transcript and
returns Markdown that shows that text and nothing more: it cannot open HTML
tags, close the block it sits in, start another extension's directive, or
turn into a link that breaks ``mkdocs build --strict``.

* ``inline``: a single line shown literally (titles, table cells, link text);
* ``fence``: a block shown verbatim, in a code fence longer than any run of
  backticks inside it;
* ``prose``: Markdown that stays Markdown (prompts and answers), with raw HTML
  escaped, block directives and headings neutralised, attribute lists and
  template syntax disarmed, and links kept only when they point to the web;
* ``block``: an admonition or a collapsible block around Markdown made by the
  functions above, indented so that nothing inside can end it early.

docs/safety.md lists exactly what is rendered as Markdown and what verbatim.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from urllib.parse import quote, urlsplit
from xml.etree.ElementTree import Element

from markdown.blockprocessors import HRProcessor
from markdown.extensions.tables import TableProcessor
from markdown.inlinepatterns import BACKTICK_RE, BacktickInlineProcessor

from . import brackets
from .fences import CODE, PLAIN
from .guard import MARKER, PERMALINK_REST
from .layout import relative
from .text import strip_ansi

# Python-Markdown keeps placeholders between STX and ETX; transcript text must
# never carry them, or it could bring back stashed HTML. Other control characters
# (C0 but tab and newline, DEL, C1 but NEL, which is whitespace) are not text
# either, nor the two noncharacters YAML refuses: a page's front matter that YAML
# refuses is read by MkDocs as text, and the page goes without its settings
# (render/guard.py, render_macros: false).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NEWLINES = re.compile(r"\r\n?")
# A line of transcript text longer than this (a minified file, a blob of JSON or
# base64) is shown up to here, with the number of characters left out: a page is
# cut between lines, and one such line would make a page of many megabytes. Claude
# Code's own limits stay under it (a command's output is cut at 30,000 characters).
# Highlighted code makes up to twenty times its size in HTML: its lines are cut sooner.
LONG_LINE = 50_000
LONG_CODE_LINE = 10_000
# A paragraph whose length times its marks (what Python-Markdown reads as escapes,
# entities, code spans, emphasis, links, tags) passes this is cut (``_Paragraph``); a
# line that does alone is shown as text.
_PARAGRAPH_WEIGHT = 1 << 22
_MARKS = "\\&`*_[<"
_BLOCK_STARTS = "\t>|"
_QUOTE = re.compile(r"(?: {0,3}>[ ]?)+")  # the marks of a quote, nested or not (matched where a line's text starts)

# Characters with a meaning in inline Markdown. Those Python-Markdown can
# escape with a backslash get one; the others become character references.
_INLINE_ESCAPES = {
    **{c: "\\" + c for c in "\\`*_{}[]!"},
    "<": "&lt;",
    "&": "&amp;",
    "|": "&#124;",
    "~": "&#126;",
    "^": "&#94;",
    "$": "&#36;",
    '"': "&quot;",
    "==": "&#61;=",  # mark (pymdownx.mark)
    ":": "&#58;",  # only where it would open an emoji shortcode, as in :smile:
}
_INLINE_RE = re.compile(r"==|:(?=[\w+-]+:)|[" + re.escape("\\`*_{}[]!<&|~^$\"") + "]")
# Out of web addresses, the character that makes each of pymdownx.smartsymbols' marks
# (``(c)``, ``c/o``, ``+/-``, ``=/=``, ``1/2``, ``-->``, ``1st``) something else, as a
# character reference: a literal text is what was written, where a file's path
# "/srv/1/2/x" showed "/srv/½/x", and "a --> b" "a → b".
_INLINE_TEXT_RE = re.compile(
    _INLINE_RE.pattern + r"|(?i:\((?=(?:tm|c|r)\)))|(?<=[cC+=\d])/(?=[oO\-=\d])|(?<=--)>"
    r"|(?<=\d)(?:s(?=t\b)|n(?=d\b)|r(?=d\b)|t(?=h\b))"
)
# In a web address (a title's, a message's), those with a backslash get a character
# reference instead: pymdownx.magiclink, where a site has it, ends an address at an
# escape (``https://example.com/a\_b`` was a link to ``https://example.com/a``), and
# reads through a reference, which no emphasis reads either.
ADDRESS_REFERENCES = {c: f"&#{ord(c)};" for c in "\\`*_{}[]!"}
# A web address as pymdownx.magiclink finds one: where it may start (at the start of
# the text, after a space or one of these marks, or one escaped with a backslash,
# which Python-Markdown has replaced by then), up to a space or a "<"; then less the
# marks it leaves out of an address's end, and those that would end it with a
# reference (of which it would link all but the ";"), and a ")" it holds no "(" for.
_INLINE_ADDRESS = re.compile(r"(?i)(?<![^\s*_~^\[('\"\\`{}\]!])(?:(?:ht|f)tps?://|www\.)[^\s<]*")
_ADDRESS_TRAILING = frozenset("?!.,:*_~^'\";" + "\\`{}[]&|$")
_LINE_START = re.compile(r"^([#>+\-]|\d+[.)])")

# Inline code spans are found by Python-Markdown's own processor, whichever
# version is installed (the way it pairs backticks has changed between versions).
_BACKTICKS = BacktickInlineProcessor(BACKTICK_RE)
_ESCAPED_TICK = re.compile(r"(?<!\\)((?:\\\\)*)\\`")
_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_LANG = re.compile(r"[A-Za-z0-9_+#.-]{1,40}")
# Fence languages that extensions turn into live content (diagrams, math).
_LIVE_LANGS = frozenset({"mermaid", "math", "diagram", "dot", "plantuml"})
_CONTAINER = r"^(?P<lead>[ \t]*(?:>[ \t]*)*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?)"
# Python-Markdown reads any line that starts with # as a heading, space or not.
_LEAD = re.compile(_CONTAINER)
_HEADING = re.compile(_CONTAINER + r"(?P<hashes>#{1,6})(?P<rest>.*)$")
# (after quote marks and list markers in any order and number: a quote in an item, "- >[x]: ...")
_DEFINITION = re.compile(r"^(?P<lead>[ \t]*(?:(?:>|(?:[-+*]|\d{1,9}[.)])[ \t])[ \t]*)*)(?P<mark>\*?\[)(?=[^\]]*\]:)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_DIRECTIVE = re.compile(r"(!{3,}|\?{3,}|/{3,}|={3,})")
_LINK_TARGET = re.compile(r"\](?=\(\s*(<?))")  # a lookahead: targets may hold the next "]("
_TARGET_END = re.compile(r"[\s)>]")
_WEB_START = re.compile(r"(?i)https?://|mailto:")
_NOT_IN_WEB_LINK = re.compile(r"[<\"']")
_HOST_END = re.compile(r"[/?#\s]")
_PLAIN_URL = re.compile(r"^https?://[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+$")
# A brace not already escaped: preceded by an even run of backslashes (or none).
_BRACE = re.compile(r"(?<!\\)((?:\\\\)*)([{}])")
_IMAGE_START = re.compile(r"!\[")
_PARENS = re.compile(r"[()]")
_DEEPEST_BLOCKS = 16  # quotes and lists nested deeper are shown as text
_MARKER = re.compile(r"[ \t]*(?P<marker>>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]))[ \t]*")
# A line of list markers may be a rule, as Python-Markdown reads it (matched where a line's text starts).
_RULE = re.compile(HRProcessor.SEARCH_RE.pattern.removeprefix("^"))
_TOC = re.compile(r"^\s*\[TOC\]\s*$", re.IGNORECASE)
# Block starts that CommonMark (which Claude writes) lets follow a paragraph line
# directly, but Python-Markdown does not: a blank line is put before them.
_LIST_ITEM = re.compile(r" {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+\S")  # (matched where a line's text starts)
_ITEM = re.compile(r"^[ \t]*(?P<marker>[-+*]|\d{1,9}[.)])(?P<gap>[ \t]+)(?=\S)")
# (In a quote or not; the spaces after a ">" are read by the next "[ \t]*" alone: read by
# either of two, they made a line of sixteen marks with no item after them try 2^16 ways.)
_TEXT_ITEM = re.compile(r"^(?:[ \t]*>)*[ \t]*(?P<marker>[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_EMPTY_ITEM = re.compile(r"^[ \t]*(?P<marker>[-+*]|\d{1,9}[.)])(?P<gap>[ \t]+)$")
_COMPOUND = re.compile(r"[ \t]*(?:(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|>)")  # an item's text, a block of its own
_ITEM_START = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")  # an item, its text empty or not
_PARTED = re.compile(r"^[ \t>]*0*(?P<number>\d{1,9})\)[ \t]+\S")  # an item of a list numbered "1)", which Python-Markdown reads as text
_PARTED_ANYWHERE = re.compile(_PARTED.pattern, re.MULTILINE)  # the same, on any line of a text
_READ_ITEM = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}\.)(?:[ \t]|$)")  # an item as Python-Markdown reads one ("1)" is not)
_IN_QUOTE = re.compile(r"^[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*>")
_ROW = re.compile(r" {0,3}\|.*\|[ \t]*$")  # a table's row, matched where a line's text starts
_QUOTED_ROW = re.compile(r"^[ \t>]*\|.*\|[ \t]*$")  # a table's row, in a quote or a list or not
_DELIMITER_ROW = re.compile(r"^[ \t>]*\|(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*$")  # the line under a table's header
# What Python-Markdown may take for the line under a table's header, in a quote or not:
# "|", ":", "-" and spaces, its cells empty or not ("|||" is one, "| - | -" too).
_SEPARATOR_LIKE = re.compile(r"^[ >]*(?=[^|]*\|)[|:\- ]*$")
_TABLES = TableProcessor(SimpleNamespace(md=SimpleNamespace(tab_length=4)), {})  # type: ignore[arg-type]


def clean(text: str) -> str:
    """Normalise newlines and drop characters that are not text: terminal colour
    codes (a prompt pasted from a terminal) go whole, any other control character is
    shown as \ufffd."""
    text = strip_ansi(text)
    if "\r" in text:
        text = _NEWLINES.sub("\n", text)
    return _CONTROL.sub("\ufffd", text)


def _shortened(text: str, limit: int = LONG_LINE) -> str:
    """``text`` with each line longer than ``limit`` cut there, saying how much of it
    is left out."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    if max(map(len, lines)) <= limit:
        return text
    return "\n".join(line if len(line) <= limit else _cut_line(line, limit) for line in lines)


def _cut_line(line: str, limit: int = LONG_LINE) -> str:
    kept = limit - 64  # room for the note: what is cut once is not cut again
    return f"{line[:kept]} ... ({len(line) - kept:,} more characters on this line)"


def inline(text: str, limit: int | None = None) -> str:
    """``text`` on one line, shown literally wherever inline Markdown is allowed; the
    changes of direction it leaves open left out, as a title's are (``_bidi_balanced``):
    a file's name in a block's title turned what the plugin writes after it (a Read's
    "(lines 10–14)" read "(41–01 senil)")."""
    text = " ".join(clean(text).split())
    if _BIDI.search(text):
        text = _bidi_balanced(text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    elif len(text) > LONG_LINE:
        text = _cut_line(text)
    escaped = _escaped_inline(text)
    # What would start a heading, a quote or a list if it came first on a line.
    return _LINE_START.sub(lambda m: _escaped_marker(m.group()), escaped, count=1)


def _escaped_inline(text: str) -> str:
    """``text`` with each character that has a meaning in inline Markdown escaped; in
    a web address, in a way that leaves it whole to pymdownx.magiclink."""
    if "://" not in text and "www." not in text.lower():
        return _INLINE_TEXT_RE.sub(_inline_escape, text)
    parts: list[str] = []
    last = 0
    for found in _INLINE_ADDRESS.finditer(text):
        end = found.start() + _address_length(found.group())
        parts.append(_INLINE_TEXT_RE.sub(_inline_escape, text[last : found.start()]))
        parts.append(_INLINE_RE.sub(_address_escape, text[found.start() : end]))
        last = end
    parts.append(_INLINE_TEXT_RE.sub(_inline_escape, text[last:]))
    # magiclink reads an address up to a space or a "<", then leaves out the marks at
    # its end: a character reference among them (``~`` as ``&#126;``) would be read
    # into it but for its ";". A break, which shows nothing, ends it where it ends.
    for index in range(1, len(parts) - 1, 2):
        if "&#" in parts[index + 1].split(" ", 1)[0]:
            parts[index] += BREAK
    return "".join(parts)


def _inline_escape(found: re.Match[str]) -> str:
    mark = found.group()
    return _INLINE_ESCAPES.get(mark) or f"&#{ord(mark)};"


def _address_escape(found: re.Match[str]) -> str:
    return ADDRESS_REFERENCES.get(found.group()) or _INLINE_ESCAPES[found.group()]


def _address_length(address: str) -> int:
    """How much of ``address`` to write as one (see ``_ADDRESS_TRAILING``)."""
    end = len(address)
    while end:
        last = address[end - 1]
        if last in _ADDRESS_TRAILING or (last == ")" and address.count(")", 0, end) > address.count("(", 0, end)):
            end -= 1
        else:
            break
    return end


def front_matter(title: str, tags: list[str] | None = None) -> list[str]:
    """The page's metadata, then the marker that turns on the guard (render/guard.py).

    Themes print the title and tags into HTML unescaped (Material's nav and
    ``<title>``), so they are HTML-escaped here; JSON strings are YAML strings, so
    nothing can end the front matter early. ``render_macros: false`` keeps
    mkdocs-macros away. The page's one heading is its title, so Material's table of
    contents would be an empty column beside it: hidden, the messages have its width.
    """
    lines = ["---", f"title: {_yaml_text(title)}", "render_macros: false", "hide: [toc]"]
    if tags:
        lines += ["tags:"] + [f"  - {_yaml_text(tag)}" for tag in tags]
    return lines + ["---", MARKER, ""]


def _yaml_text(text: str) -> str:
    line = " ".join(_SURROGATE.sub("\ufffd", clean(text)).replace("\u2028", " ").replace("\u2029", " ").split())
    return json.dumps(html.escape(_bidi_balanced(line), quote=True), ensure_ascii=False)


# Characters that turn the direction of the text after them (RLO, ...), up to the one
# that ends them (PDF, PDI) or the end of the block they are in.
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def _bidi_balanced(text: str) -> str:
    """``text`` without the changes of direction it leaves open: a title is put beside
    other text (the site's name after it in ``<title>``), which a right-to-left
    override in it would turn too. Those it ends itself are kept."""
    opened: list[tuple[int, str]] = []  # where each is, and what ends it
    for found in _BIDI.finditer(text):
        mark = found.group()
        if mark == "\u202c":  # PDF: the last embedding or override, not past an isolate
            if opened and opened[-1][1] == "\u202c":
                opened.pop()
        elif mark == "\u2069":  # PDI: the last isolate, and what is open in it
            ends = [n for n, (_, closer) in enumerate(opened) if closer == "\u2069"]
            if ends:
                del opened[ends[-1] :]
        else:
            opened.append((found.start(), "\u2069" if mark in "\u2066\u2067\u2068" else "\u202c"))
    left = {start for start, _ in opened}
    return "".join(char for n, char in enumerate(text) if n not in left) if left else text


def heading(text: str) -> str:
    """The page's title, as its one first-level heading."""
    escaped = inline(text)
    if escaped.endswith("#"):
        escaped = escaped[:-1] + "\\#"  # a trailing # would close the heading and vanish
    return f"# {escaped}"


def fence(text: str, lang: str = "", first_line: int | None = None, searchable: bool = True) -> list[str]:
    """A code fence showing ``text`` verbatim, as lines; numbered from ``first_line``
    if given; left out of the search index (Material's) unless ``searchable``.

    The fences are the plugin's own (render/fences.py): PLAIN for text, CODE for a
    language, which it names in ``data-lang``.
    """
    lang = _language(lang)
    text = _shortened(clean(text), LONG_LINE if lang in ("", "text") else LONG_CODE_LINE)
    ticks = "`" * max(3, _longest_backticks(text) + 1)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    numbered = first_line is not None and first_line > 0
    attributes = []
    if lang not in ("", "text") or numbered:
        attributes += [f'data-lang="{lang}"'] if lang and lang != "text" else []
        attributes += [f'data-start="{int(first_line)}"'] if numbered else []  # type: ignore[arg-type]
        name = CODE
    else:
        name = PLAIN
    if not searchable:
        attributes.append('data-search-exclude=""')
    if not attributes:
        return [ticks + name, *lines, ticks]
    return [ticks + "{ ." + name + " " + " ".join(attributes) + " }", *lines, ticks]


def prose(text: str, line_breaks: bool = False) -> list[str]:
    """Markdown text from a transcript, kept as Markdown but made harmless, as lines.

    With ``line_breaks``, a line of a paragraph that goes on after a line break starts
    a line of its own on the page, as on GitHub's comments: text a person typed, where
    each line break was meant (CommonMark runs such lines into one)."""
    out: list[str] = []
    written = -1  # the line of out last written as a line of text
    lines = clean(text).split("\n")
    lists = _ListIndent()
    fenced: list[range] = []  # lines of out that are fences of our own
    paragraph = _Paragraph()
    i = 0
    previous = ""
    boxed = False  # the line before was shown in a box of its own
    blank = False  # the line before was blank, and written here (not as a fence's)
    quote_list = ""  # the marks of the quote the line is in, if it holds a list's item
    while i < len(lines):
        line = lines[i]
        if _goes_on_blanks(line, blank):
            i += 1
            continue
        blank = False
        after_box, boxed = boxed, False
        code = _code_indent(line, lists) if line[:1] in (" ", "\t") and not previous.strip() else None
        if code is not None:
            # Code indented four spaces more than its block, where a block starts:
            # Python-Markdown shows it as it is (this code's escapes too, and a fence's
            # backticks); written as a fence of ours.
            start = len(out)
            i = _copy_indented_code(lines, i, code, " " * lists.read_indent(), out)
            fenced.append(range(start, len(out)))
            previous = ""
            continue
        quote_listed = bool(quote_list)  # the quote before this line holds a list's item
        quote_list = _quote_list(line, quote_list) if quote_list or ">" in line else ""
        # Out of any list: a line after a blank line, less indented than the list's items, ends it.
        unlisted = not lists.items or (not previous.strip() and _indent_of(line) < lists.items[0].column)
        marks = _quoted_code(line, previous, quote_list) if unlisted and ">" in line else None
        if marks is not None:  # the same in a quote, the fence in the quote
            lists.close()
            start = len(out)
            i = _copy_quoted_code(lines, i, marks, out)
            fenced.append(range(start, len(out)))
            previous = ""
            continue
        quoted = _quoted_fence(line) if unlisted and ">" in line else None
        if quoted is not None:  # a fence in a quote: a fence of ours in the quote
            lists.close()
            start = len(out)
            i = _copy_quoted_fence(lines, i, *quoted, bool(quote_list) and _in_quoted_item(out), out)
            fenced.append(range(start, len(out)))
            quote_list = quote_list if i < len(lines) and _QUOTE.match(lines[i]) else ""
            previous = ""
            continue
        opened = fence_open(line)
        if opened:
            indent = lists.indent_of(line)
            start = len(out)
            i = _copy_fence(lines, i, opened, indent, out)  # its long lines cut by fence()
            fenced.append(range(start, len(out)))
            previous = ""
            continue
        if "`" in line:
            line, i = _joined_code_span(lines, i)
        if len(line) > LONG_LINE:
            line = _cut_line(line)
        elif line.isspace():
            # Blank: Python-Markdown sees only spaces and tabs as blank, this code any
            # whitespace (a line of U+2028 before "- " would make a heading of it).
            line = ""
        cut = None
        if not previous.strip():
            paragraph.reset()
        elif _starts_block(line, previous, bool(lists.items), bool(lists.pad)):
            out.append("")
            paragraph.reset()
            lists.lazy_indented = False
        elif lists.items and _RULE.match(line) and not _ITEM.match(line) and _indent_of(line) < lists.items[-1].column:
            # A rule less indented than an item's text ends the list (under its text,
            # it is not a heading's line, as CommonMark reads it).
            out.append("")
            paragraph.reset()
            lists.close()
            previous = ""
        elif (cut := paragraph.cut(line, previous, lists, lines[i + 1] if i + 1 < len(lines) else "")) is not None:
            out.append(cut)
            if cut and not _QUOTE.match(line) and not lists.items:
                line = f"{cut} {line}"  # a line the quote took lazily, kept in it
            paragraph.reset(listed=lists.lazy_indented)
        line = lists.line(_capped(line), after_blank=not previous.strip(), at=len(out))
        item_text = bool(lists.pad) or len(out) in lists.texts
        after_rule = line.lstrip(" >")[:1] == "-" and bool(out) and bool(_RULE.match(out[-1], _text_start(out[-1], item_text)))
        converted = lists.pad + _prose_line(line, previous, item_text, after_rule)
        if (cut is not None or after_box) and (item := _TEXT_ITEM.match(converted)) and not _LIST_ITEM.match(converted[item.start("marker") :]):
            # A line that went on a paragraph ("* ", "1. "), after a cut or a box, where
            # a block starts, would start a list's item with no text: it stays text.
            converted = converted[: item.start("marker")] + _escaped_marker(item["marker"]) + converted[item.end("marker") :]
        marks = _marks(converted)
        heavy = len(converted) * marks > _PARAGRAPH_WEIGHT
        if heavy and not lists.items and not paragraph.quote and _plain(line):
            # A line that alone weighs more than a paragraph may (data, such as minified
            # JSON, or a run of marks) is shown as it is, as text, in a box of its own.
            if out and out[-1]:
                out.append("")
            start = len(out)
            out += [*fence(line), ""]
            fenced.append(range(start, len(out)))
            paragraph.reset()
            previous, boxed = line, True  # the next line goes on after it, where a block starts
            i += 1
            continue
        if heavy and (span := _as_code(line, lists, paragraph.quote)) is not None:
            # Such a line in a quote or a list's item is shown as text in its place.
            converted = lists.pad + span
            marks = _marks(converted)
        at = _text_start(converted, item_text)
        quoted_heading = "#" in line and not lists.items and _is_quoted_heading(_HEADING.match(line))
        if item_text and converted.lstrip(" ")[:1] == ">" and out and out[-1].lstrip(" ")[:1] not in ("", ">") and not paragraph.quoted:
            # A quote right under an item's text: CommonMark lets it interrupt a
            # paragraph, Python-Markdown does not in an item (it showed its marks).
            out.append("")
        elif out and out[-1].strip(" >") and (quoted_heading or _block_under_text(converted, at, out[-1], lines[i + 1 : i + 2], quote_listed)):
            out.append(converted[:at].rstrip())  # (a heading in a quote starts a block too)
            paragraph.reset()
        # In a list, Python-Markdown copies an item's text so far at each of its lines.
        first = not out or not out[-1]
        table = first and i + 1 < len(lines) and starts_table(converted, lines[i + 1])
        # (A line break costs what a mark does: see _Paragraph.)
        broken = line_breaks and written == len(out) - 1 and not first and not paragraph.table and _breaks_before(converted, out[-1])
        if broken:
            converted = _break(converted, out)
        paragraph.add(converted, marks + bool(lists.items) + broken, first=first, item_text=item_text, table=table)
        out.append(converted)
        written = len(out) - 1
        if quoted_heading or (converted.startswith("**") and _is_heading(_HEADING.match(line))):
            out.append(converted[:at].rstrip())  # a heading ends its paragraph (in a quote, with its marks)
            if line.startswith("#"):
                lists.close()  # and, where a line starts with it, the list it came after
            line = ""
        previous = line
        blank = not lines[i].strip()
        i += 1
    if ")" in text and _PARTED_ANYWHERE.search(text):
        _break_before_parted(out, fenced, lists.breaks)
    if "[" in text:
        brackets.escape_unclosed(out, fenced, lists.texts)
    for at in sorted(lists.breaks | lists.ends.keys(), reverse=True):
        level = lists.ends.get(at)
        out[at:at] = [""] if level is None else ["", " " * (4 * level) + LIST_END, ""]
    return out


# How many lines after its first the code spans of a line may go on to, written as one.
_CODE_SPAN_LINES = 10
# What starts a line that may start a block (or a definition, an abbreviation) in a
# paragraph: such a line is not taken into a code span from the line above.
_NOT_JOINED = "<:[*+-=#>|!?/~"


def _joined_code_span(lines: list[str], i: int) -> tuple[str, int]:
    """Line ``i`` of ``lines``, a line of a paragraph, with the lines after it that a
    code span opened on it goes on to, and the number of the last line it takes in.

    Markdown reads a code span across the line breaks of a paragraph (each one a space
    in the code); lines are written here one by one, where a backtick with no match on
    its line would be shown as it is: so the lines of such a span are written as one.
    Only plain lines of text are taken in, in the same quote (or going on it lazily)."""
    line = lines[i]
    if "|" in line or line.lstrip(" \t>")[:1] == "#":  # a table's row or a heading: one line
        return line, i
    quote = _QUOTE.match(line.lstrip(" \t"))
    depth = quote.group().count(">") if quote else 0
    last = i
    while _unclosed(line):
        joined, end, found = line.rstrip(" \t"), len(line.rstrip(" \t")), False
        for at in range(last + 1, min(i + 1 + _CODE_SPAN_LINES, len(lines))):
            text = _after_marks(lines[at], depth)
            if text is None or not _goes_on_span(text):
                break
            joined = f"{joined.rstrip(' ')} {text}"
            if len(joined) > LONG_LINE:
                break
            if "`" in text and any(begin < end < stop for begin, stop, _ in _code_spans(joined)):
                line, last, found = joined, at, True
                break
        if not found:
            break
    return line, last


def _goes_on_span(text: str) -> bool:
    """Whether ``text``, the text of a line under a line of a paragraph, goes on the
    paragraph as text of its own (a block of no kind: not a quote, an item, a table, a
    heading, a rule, a fence...)."""
    if not text.strip() or text[:1] in _NOT_JOINED or "|" in text or fence_open(text):
        return False
    return not (_ITEM_START.match(text) or _RULE.match(text) or _SETEXT.match(text) or _DIRECTIVE.match(text))


def _unclosed(line: str) -> bool:
    """Whether ``line`` holds a backtick outside its code spans (one that may open a
    span that a later line closes)."""
    taken = [(begin, end) for begin, end, _ in _code_spans(line)]
    return any(not any(begin <= run.start() < end for begin, end in taken) for run in re.finditer(r"`+", line))


def _breaks_before(line: str, previous: str) -> bool:
    """Whether a line break before ``line``, under ``previous`` (both written), is one in
    a paragraph's text: not where a block starts, nor after a break already there."""
    text, before = line.lstrip(" \t>"), previous.lstrip(" \t>")
    if not text.strip() or not before.strip() or previous.expandtabs(4).endswith("  ") or _ITEM_START.match(text):
        return False
    while (item := _ITEM_START.match(before)) and before[item.end() :].strip():
        before = before[item.end() :].lstrip()
    if _MARKER_ALONE.match(before):
        return False  # a marker alone, which would start an item (or a definition) once followed by spaces
    return _marks_before(line) == _marks_before(previous)  # (a quote starts, or one ends)


_MARKER_ALONE = re.compile(r"(?:[-+*:]|\d{1,9}[.)])\s*$")


def _marks_before(line: str) -> int:
    """The number of quote marks before the text of a line."""
    return line[: len(line) - len(line.lstrip(" \t>"))].count(">")


def _break(line: str, out: list[str]) -> str:
    """A line break after the last line of ``out``, before ``line``, which is returned.
    Python-Markdown reads a line break before marks of emphasis, which a line's end
    kept from opening (or its start from closing) one: white space keeps them so."""
    out[-1] += "   " if out[-1][-1] in "*_" else "  "
    at = len(line) - len(line.lstrip(" \t>"))
    if line[at] not in "*_":
        return line
    # Its tabs made spaces first, as Python-Markdown makes them: the space put before
    # the mark would move their stops (a tab that ended a line made a line break).
    line = line.expandtabs(4)
    at = len(line) - len(line.lstrip(" >"))
    return line[:at] + " " + line[at:]


def starts_table(header: str, under: str) -> bool:
    """Whether a block that starts with these two lines may be a table, as Python-Markdown
    reads them (``tables``: a header of cells, then a line of "-", ":" and "|"; "|||" is
    one). In a quote, the line under the header is taken for one when it may be."""
    if "|" not in header or not _SEPARATOR_LIKE.match(under):
        return False
    return ">" in under or _TABLES.test(None, f"{header}\n{under}")  # type: ignore[arg-type]


def _goes_on_blanks(line: str, blank: bool) -> bool:
    """Whether ``line`` is blank after a blank line of prose, and so is left out: a run
    of blank lines is one blank line to Markdown (in code they are kept: code is
    copied into a fence, and its lines are not read here), and Python-Markdown takes
    time growing with the square of their number."""
    return blank and not line.strip()


def _break_before_parted(out: list[str], fenced: list[range], blanks: set[int]) -> None:
    """A line break before each item of a list numbered "1)" (CommonMark's list,
    Python-Markdown's text, which ran the items into one line): a list that starts a
    paragraph, or one from "1)" on (a list of another number does not interrupt a
    paragraph). Python-Markdown copies the rest of a paragraph at each line break, as
    at each mark (``_Paragraph``): where a paragraph's length times its breaks passes
    its weight, the item starts a paragraph instead (a blank line before it, added to
    ``blanks``), unless it is in a quote or a list."""
    listed = False
    code: set[int] | None = None  # the lines of fences, once an item is found
    length = breaks = 0  # of the paragraph so far
    for at, line in enumerate(out):
        if not line.strip(" >"):
            listed = False
            length = breaks = 0
            continue
        length += len(line) + 1
        item = _PARTED.match(line) if ")" in line else None
        if item is None:
            continue
        code = {index for lines in fenced for index in lines} if code is None else code
        previous = out[at - 1] if at else ""
        if at in code or at - 1 in code:
            listed = False
        elif listed or item["number"] == "1" or not previous.strip(" >"):
            if previous.strip(" >") and not previous.endswith("  "):
                if length * breaks > _PARAGRAPH_WEIGHT and line[:1] not in " \t>" and previous[:1] not in " \t>":
                    blanks.add(at)
                    length, breaks = len(line) + 1, 0
                else:
                    out[at - 1] += "  "
                    breaks += 1
            listed = True


class _Paragraph:
    """The weight of the paragraph being written: a long paragraph of lines full of
    marks is cut in two where a line begins. Python-Markdown copies the rest of a
    paragraph at each mark it reads (an escape, an entity, a code span), so a paragraph
    costs its length times its marks: a pasted log of 484 KB holding a few ``<`` and
    ``&`` a line, one paragraph, took 2.9 s to render, where cut every 60 lines or so
    it takes 0.5 s. A paragraph of prose, with few marks, is seldom long enough to be
    cut."""

    def __init__(self) -> None:
        self.reset()

    def reset(self, listed: bool = False) -> None:
        self.length = self.marks = 0
        self.table = False  # it is a table (to Python-Markdown: a header, then a line under it)
        self.quote = ""  # the marks of the quote it is in, which its lines go on in
        self.quoted = False  # whether it is in a quote, in a list or not
        self.listed = listed  # whether it is in a list whose first item starts a block
        self.item_quote = ""  # the indentation and marks of the quote in an item it is in

    def add(self, line: str, marks: int, first: bool, item_text: bool = False, table: bool = False) -> None:
        """A line of the paragraph, holding ``marks``; ``first`` if it starts a block;
        ``item_text`` if it is text of a list's item; ``table`` if a table's header."""
        if not self.length:
            self.table = table
            quote = _QUOTE.match(line)
            self.quote = quote.group().rstrip() if quote else ""
            self.quoted = bool(_IN_QUOTE.match(line))
            self.listed = self.listed or (first and bool(_ITEM_START.match(line[quote.end() if quote else 0 :])))
            at = _text_start(line, item_text) if item_text and not quote else 0
            self.item_quote = line[:at].rstrip() if ">" in line[:at] else ""
        self.length += len(line)
        self.marks += marks

    def cut(self, line: str, previous: str, lists: _ListIndent, following: str = "") -> str | None:
        """What to write before ``line`` (``following`` after it) to end the paragraph
        there, past its weight: a blank line, or in a quote a line of its marks; None to
        go on (in a table, before a line indented as code or a table's header, between
        lines of quotes nested unlike). In a list, the lines after the cut are indented
        into their item."""
        if self.length * self.marks <= _PARAGRAPH_WEIGHT or not line.strip() or self.table:
            return None
        if lists.items and self.item_quote:
            return self._cut_in_item(line, previous)
        if lists.items or (self.listed and not self.quote):
            # A list is cut only where this code reads it as Python-Markdown does: its
            # first item starts a block, out of quotes. (In a quote, a list's item is
            # cut with the quote's marks, its text going on after the cut in the quote.)
            listed = self.listed and lists.items and not self.quoted
            return "" if listed and lists.cut(line, previous) else None
        inner, before = line, previous
        if self.quote:
            own, last = _QUOTE.match(line), _QUOTE.match(previous)
            if own is not None and own.group().rstrip() != self.quote:
                return None
            inner, before = line[own.end() if own else 0 :], previous[last.end() if last else 0 :]
        if not (inner.strip() and _plain(inner, rows=True) and _plain(before, rows=True)):
            return None
        # (Lines of "|" that are no table, a query's result pasted, are cut as text is,
        # but for a line that would be a table's header after the cut.)
        return None if _LIST_ITEM.match(inner) or starts_table(inner, following) else self.quote


    def _cut_in_item(self, line: str, previous: str) -> str | None:
        # A quote in a list's item: cut with a line of its indentation and marks, where
        # the line has as many marks (or none: it goes on the quote lazily).
        depth = self.item_quote.count(">")
        inner, before = (_after_marks(text, depth) for text in (line, previous))
        if inner is None or before is None or not (inner.strip() and _plain(inner) and _plain(before)):
            return None
        return None if _ITEM_START.match(inner) or _ROW.match(inner) or _ROW.match(before) else self.item_quote


def _after_marks(line: str, depth: int) -> str | None:
    """The text of ``line`` after its indentation and its ``depth`` quote marks (or none,
    a lazy line); None if it has another number of them."""
    text = line.lstrip(" \t")
    quote = _QUOTE.match(text)
    if quote is None:
        return text
    return text[quote.end() :] if quote.group().count(">") == depth else None


def _plain(line: str, rows: bool = False) -> bool:
    """Whether ``line`` starts as a line of a paragraph: not a quote or (unless ``rows``)
    a table row, and indented less than code (a cut before it would make code of an
    indented line)."""
    text = line.lstrip(" ")
    return len(line) - len(text) < 4 and text[:1] not in ("\t>" if rows else _BLOCK_STARTS)


def _as_code(line: str, lists: _ListIndent, lazy_quote: str) -> str | None:
    """A line of a quote or of a list's item that weighs more than a paragraph may: its
    text as a code span after its marks (Python-Markdown reads a code span at once);
    None for a line that may be code (indented four spaces in its block) or a table's
    row. ``lazy_quote``: the marks of the quote the line's paragraph is in, which a line
    without them goes on lazily, and gets."""
    lead = _LEAD.match(line).group()  # type: ignore[union-attr]
    text = line[len(lead) :]
    quote = _QUOTE.match(line)
    if lazy_quote and not quote:
        lead = f"{lazy_quote} {lead}"
    elif quote:
        inner = line[quote.end() :]
        if inner[:1] == "\t" or len(inner) - len(inner.lstrip(" ")) >= 4:
            return None
    elif not lists.items or (not lists.pad and not _ITEM.match(line) and len(lead) >= 4 * len(lists.items) + 4):
        return None
    if not text.strip() or _ROW.match(text):
        return None
    span = _code_span(text)
    return lead + ("&#8203;" if span.startswith("```") else "") + span  # never a fence's opening


def _marks(line: str) -> int:
    """How many marks Python-Markdown reads in a line of Markdown (see ``_Paragraph``),
    a line break (two spaces at its end) among them."""
    return sum(map(line.count, _MARKS)) + line.endswith("  ")


def _capped(line: str) -> str:
    """``line`` with its quote or list markers after the ``_DEEPEST_BLOCKS``th shown as
    text: Python-Markdown parses each level of nesting a level deeper in its own stack,
    and a line of hundreds ("- - - - ...") stopped the build."""
    if len(line) <= _DEEPEST_BLOCKS or _RULE.match(line):
        return line
    at = count = 0
    while (found := _MARKER.match(line, at)) and found.end() > at:
        count += 1
        if count > _DEEPEST_BLOCKS:
            return line[: found.start("marker")] + _escaped_marker(found["marker"]) + line[found.end("marker") :]
        at = found.end()
    return line


def _escaped_marker(marker: str) -> str:
    """A mark that would start a block (``#``, ``>``, ``-``, ``1.``), shown as text."""
    return marker[:-1] + "\\" + marker[-1] if marker[0].isdigit() else "\\" + marker


def _goes_on(text: str) -> bool:
    """Whether ``text``, a line's text under a paragraph's line, goes on that paragraph
    (CommonMark: a quote, a heading or a rule there starts a block)."""
    return text[:1] not in _BLOCK_STARTS and not _RULE.match(text) and not (text[:1] == "#" and _is_heading(_HEADING.match(text)))


def _starts_block(line: str, previous: str, listed: bool, item_text: bool) -> bool:
    """Whether ``line`` needs a blank line before it; ``item_text``: ``previous`` went
    on its item's text lazily, and was indented into it."""
    if _LIST_ITEM.match(line):  # (in a list, an item's indented text before it is not; a table's row is)
        indented = item_text or previous.startswith((" ", "\t"))
        return not _LIST_ITEM.match(previous) and (not listed or not indented or bool(_QUOTED_ROW.match(previous)))
    return "#" in line and _is_heading(_HEADING.match(line))


def _block_under_text(line: str, at: int, previous: str, following: list[str], quote_listed: bool) -> bool:
    """Whether ``line``, its text starting at ``at``, under a line of text, needs a
    blank line (or one of its quote's marks) before it: a rule ("***", "- ---") ends
    the block it is in, which Python-Markdown then reads again from there (a block of
    rules took time growing with their square). CommonMark lets a table's header, and
    a list's first item, interrupt a paragraph, Python-Markdown does not: a table
    under text, in a list's item or a quote as at the top, had its rows shown as text,
    and a list under a quote's text its markers (at the top, ``_starts_block``)."""
    if _RULE.match(line, at):
        return True
    if _ROW.match(line, at):
        return not _QUOTED_ROW.match(previous) and bool(following and _DELIMITER_ROW.match(following[0]))
    return ">" in line[:at] and not quote_listed and bool(_LIST_ITEM.match(line, at)) and not _LIST_ITEM.match(previous, _text_start(previous, True))


def _is_quoted_heading(match: re.Match[str] | None) -> bool:
    """A heading in a quote, at the start of its text (shown in bold, as at the top)."""
    if not match or match["rest"][:1] not in (" ", "\t", ""):
        return False
    lead = match["lead"]
    return ">" in lead and not lead.strip(" >") and len(lead) - len(lead.rstrip(" ")) <= 4 and _QUOTE.match(lead) is not None


def _is_heading(match: re.Match[str] | None) -> bool:
    """A heading as the transcript's author meant it: # and a space, at the start of a line."""
    return bool(match and not match["lead"].strip() and len(match["lead"]) < 4 and match["rest"][:1] in (" ", "\t", ""))


@dataclass
class _Item:
    column: int  # where the item's text starts
    nested_at: int | None = None  # output line of a nested list right under its first line
    # Its text starts another list on its first line ("- 1. x"), or it is an item only
    # to this code ("1)", which Python-Markdown does not read as one): not cut.
    compound: bool = False
    parted: bool = False  # "1)": an item to CommonMark, text to Python-Markdown


class _ListIndent:
    """Re-indent lists written the CommonMark way (nested items under the parent's
    text, often 2 or 3 spaces in) the way Python-Markdown reads them (4 spaces a
    level). Without this, Python-Markdown flattens such lists, or moves their text.

    Two more of its quirks are avoided here. Inside a block, an item whose first
    line is followed at once by a nested list, and later by a blank line and more
    text (its own, or a nested item's), is shown with the nested list first: such
    items get a blank line before their nested list (``breaks``), which keeps their
    order. And Python-Markdown reads the lines after a blank line as one block, all
    of it in the item the first is indented into: an item less indented than that
    line (the next item of the list above) gets a blank line before it too.
    """

    def __init__(self) -> None:
        self.items: list[_Item] = []
        self.breaks: set[int] = set()  # output lines to put a blank line before
        self.texts: set[int] = set()  # output lines indented as code, but text of an item
        self.lazy_indented = False  # lazy lines indented into their item, since a cut
        self.pad = ""  # the indentation to put before the line last given, once written
        self.quoted = False  # a quote in an item, which lazy lines go on
        self._last_item_line = -2
        self._after_rule = False  # the line before was a rule in an item
        self._block_level = 0  # the level of the item the lines since a blank line are in
        self._text_level = 0  # the level of the item the last line of text went in (0: none)
        self._kinds: list[str] = []  # by level, the kind of the list open there ("-" or "1.")
        self.ends: dict[int, int] = {}  # output lines where a list of another kind starts: the level

    def line(self, line: str, after_blank: bool, at: int) -> str:
        self.pad = ""
        if not line.strip():
            self.lazy_indented = self.quoted = False
            return line
        lead = len(line) - len(line.lstrip(" \t"))
        indent = _indent_of(line)
        # An item with no text is one where a block starts (under text, "- " is a line
        # under a heading, and shown as text).
        item = _ITEM.match(line) or (_EMPTY_ITEM.match(line) if after_blank else None)
        after_rule, self._after_rule = self._after_rule, False
        if item and _RULE.match(line, item.start("marker")):
            # A rule, as Python-Markdown reads it ("- ---"), not an item: it ends the
            # lists nested where it stands, and the lines after it are not indented
            # into an item (in an item, it is a rule of the item's).
            self._close(indent, after_blank)
            self.lazy_indented = self.quoted = False
            if not self.items:
                self.close()
                return line
            del self._kinds[len(self.items) :]
            # A blank line is put before it (a block starts): see the class.
            self._block_level = len(self.items)
            self._keep_order()
            self._after_rule = True
            self.texts.add(at)
            return " " * (4 * len(self.items)) + line[item.start("marker") :]
        if after_rule and self.items and not item and not after_blank and indent < self.items[-1].column:
            # Under a rule in an item, a line less indented than the item's text has
            # no paragraph to go on lazily: it ends the item.
            self._close(indent, after_blank)
            if not self.items:
                self.breaks.add(at)
                self.close()
                return line
        if item:
            if self.lazy_indented and not after_blank:
                self.breaks.add(at)  # the indented lines before would take it for their text
            self.lazy_indented = self.quoted = False
            self._close(indent, after_blank)
            level = len(self.items)
            if after_blank:
                self._block_level = level
                self._keep_order()
            elif level < self._block_level:
                self.breaks.add(at)
                self._block_level = level
            if level:
                self.texts.add(at)
            if level >= _DEEPEST_BLOCKS:  # shown as a line of the deepest item's text
                return " " * (4 * level) + _escaped_marker(item["marker"]) + " " + line[item.end() :]
            if self.items and self._last_item_line == at - 1 and self.items[-1].nested_at is None:
                self.items[-1].nested_at = at
            column = indent + len(item["marker"]) + min(len(item["gap"].expandtabs(4)), 4)
            parted = item["marker"].endswith(")")
            self._list_of(item["marker"], level, at, parted)
            if level and not after_blank and self._last_item_line != at - 1 and self._text_level == level:
                # A list nested right under its item's text (not under its first line):
                # Python-Markdown reads it as text without a blank line.
                self.breaks.add(at)
            self.items.append(_Item(column, compound=parted or bool(_COMPOUND.match(line, item.end())), parted=parted))
            self._last_item_line = at
            return " " * (4 * level) + item["marker"] + " " + line[item.end() :]
        if self.items and line[lead:].startswith(">") and indent < self.items[-1].column and not after_blank and not self.lazy_indented:
            # A quote starts a block (no lazy line): less indented than an item's text,
            # it ends that item, where Python-Markdown would take it in.
            self._close(indent, after_blank)
            if not self.items:
                self.breaks.add(at)
                self.close()
                return line
            self._keep_order()  # (a blank line is put before it, as under an item's text)
        self.quoted = self.quoted or line[lead:].startswith(">")
        if self.items and indent < self.items[-1].column and not after_blank and (self.lazy_indented or _goes_on(line[lead:])):
            # A lazy line, which goes on the paragraph of its item: indented into the
            # item once written (Python-Markdown ended a nested list at it, and what
            # followed it, a fence, was then code showing its markup). After a cut, any
            # line (as a line of its own, "---" or "#" at its start would not be escaped).
            self.pad = " " * (4 * len(self.items))
            self.texts.add(at)
            self._text_level = len(self.items)
            return line[lead:]
        new = self._continuation(indent, after_blank)
        del self._kinds[len(self.items) + (not after_blank) :]  # (a line right under an item goes on its text)
        if after_blank:
            self._block_level = len(self.items)
        self._text_level = 0 if new is None else len(self.items)
        if new is None:
            return line
        if new < 4 * len(self.items) + 4:  # not code in its item
            self.texts.add(at)
        return " " * new + line[lead:]

    def cut(self, line: str, previous: str) -> bool:
        """Whether a paragraph of an item may end before ``line``, a line of its text;
        if so, the lines of its text that follow, up to a blank line or an item, are
        indented into the item (a line that went on lazily would end the list after
        the blank line)."""
        text = line.lstrip(" \t")
        if _ITEM.match(line) or text[:1] in _BLOCK_STARTS or _ROW.match(previous):
            return False
        if self.items[-1].compound or self.quoted:
            return False  # its text would go on in a block this code does not follow
        if _indent_of(line) >= self.items[-1].column + 4:
            return False  # after a blank line, code
        self.lazy_indented = True
        return True

    def indent_of(self, line: str) -> str:
        """The indentation a fence starting on ``line`` gets (a fence is never a lazy
        line): never that of code in its block, which would show the fence's markup
        (a fence indented four spaces or more under a line of text, where it is not
        code, is shown as the code it holds)."""
        lead = len(line) - len(line.lstrip(" \t"))
        new = self._continuation(_indent_of(line), after_blank=True)
        if new is None:
            return line[:lead] if _indent_of(line) < 4 else ""
        read = self.read_indent()
        return " " * (new if new < read + 4 else read)

    def read_indent(self) -> int:
        """The indentation of the text of the last item open, as Python-Markdown reads
        the items ("1)" is text to it)."""
        return 4 * sum(not item.parted for item in self.items)

    def _continuation(self, indent: int, after_blank: bool) -> int | None:
        if not self.items:
            return None
        if indent < self.items[-1].column and not after_blank:
            return None  # a lazy continuation line: left as it is, the list goes on
        self._close(indent, after_blank)
        if not self.items:
            return None
        if after_blank:
            self._keep_order()
        return 4 * len(self.items) + indent - self.items[-1].column

    def _keep_order(self) -> None:
        """After a blank line, in the items open: a blank line before a nested list
        right under an item's first line (see the class)."""
        self.breaks.update(item.nested_at for item in self.items if item.nested_at is not None)

    def close(self) -> None:
        """End every list: what follows is not in any."""
        self.items.clear()
        self._kinds.clear()
        self.lazy_indented = False

    def _list_of(self, marker: str, level: int, at: int, parted: bool) -> None:
        """Note the kind of list an item at ``level`` is in. Where the list open there
        is of the other kind (numbered, or not), CommonMark starts a new list, and
        Python-Markdown would go on with the one before: it is ended (``ends``)."""
        del self._kinds[level + 1 :]  # the lists nested in the item before end
        if parted:  # text to Python-Markdown: it neither goes on a list nor ends one
            return
        kind = "1." if marker[0].isdigit() else "-"
        if len(self._kinds) > level and self._kinds[level] != kind:
            self.ends[at] = level
            self._keep_order()  # the end comes after a blank line (see the class)
        self._kinds[level:] = [kind]

    def _close(self, indent: int, after_blank: bool) -> None:
        while self.items and self.items[-1].column > indent:
            self.items.pop()


def block(kind: str, title: str, body: Iterable[str], *, collapsible: str | None = None) -> list[str]:
    """An admonition (``collapsible=None``) or a collapsible block, ``"open"`` or
    ``"closed"``, around ``body``: Markdown lines made by this module.

    ``title`` is Markdown made by ``inline`` (or our own links); ``kind`` is one of our
    CSS classes. The body is indented, so no line of it can end the block.
    """
    marker = {"open": "???+", "closed": "???"}.get(collapsible or "", "!!!")
    lines = [block_head(marker, kind, title), ""]
    for line in body:
        lines.append("    " + line if line else "")
    lines.append("")
    return lines


def block_head(marker: str, kind: str, title: str) -> str:
    """The first line of a block (``BLOCK_HEAD`` reads it back)."""
    return f'{marker} {kind} "{title}"'


# The head of a block written by ``block`` (for reading the pages this module writes).
BLOCK_HEAD = re.compile(r'^(?P<indent>[ \t]*)(?P<marker>!!!|\?\?\?\+?) (?P<kind>ct-[a-z-]+) "(?P<title>.*)"[ \t]*$')


# Where a line may break in a block's title: after the separators inside a long name
# (a tool's, a path), in the Markdown ``inline`` makes of it (``_`` escaped as ``\_``).
# A shorter word fits on a line of a title on the narrowest phone (320 px) whole. An
# address is left whole: an extension of the site's (pymdownx.magiclink) may link it.
BREAK = "<wbr>"
_LONG_WORD = re.compile(r"\S{21,}")
_ADDRESS = re.compile(r"://|www\.|@", re.IGNORECASE)
_SEPARATORS = re.compile(r"(?<=\w)(?:\\_|[-./])+(?=\w)")


def breakable(title: str) -> str:
    """A title made by ``inline``, with a break after each run of separators inside its
    long words (``mcp__github__create_pull_request``, ``src/app/settings/panel.py``): on
    a narrow page, such a name goes on to the next line at one of them, not in the
    middle of a word (a part of it wider than the whole line still breaks where it must)."""
    return _LONG_WORD.sub(_broken, title)


def _broken(word: re.Match[str]) -> str:
    if _ADDRESS.search(word.group()):
        return word.group()
    return _SEPARATORS.sub(lambda found: found.group() + BREAK, word.group())


def permalink(ident: str, href: str) -> str:
    """The permalink of a message, right after the title of its block, with no space
    between them where a line could break (``PERMALINK`` finds it). Not a stop of the
    Tab key, which goes from control to control rather than through one link per
    message; still a link, that the pointer follows and copies and that assistive
    technology lists."""
    return f"<a id='{ident}' class='ct-anchor' href='{href}' {PERMALINK_REST}></a>"


_ANCHOR = r"<a id='(?P<ident>[A-Za-z0-9_-]+)' class='ct-anchor' href='[^']*' " + re.escape(PERMALINK_REST) + "></a>"
PERMALINK = re.compile(" ?" + _ANCHOR)
# The title of a block with its permalink, in the HTML Python-Markdown makes of it: an
# admonition's title or a collapsible block's summary (for reading the pages rendered).
TITLED = re.compile(r"<(?:p class=\"admonition-title\"|summary)>(?P<title>[^\n]*?) ?" + _ANCHOR + r"\s*</(?:p|summary)>")


# Comments around tool output, so that the plugin can leave it out of the page the
# search index is made from (plugin.py), without parsing it.
OUTPUT_START, OUTPUT_END = "<!--ct-output-->", "<!--/ct-output-->"
# Between two lists of different kinds (numbered or not), where CommonMark ends the
# first: Python-Markdown would go on with it, the second's items in the first list.
LIST_END = "<!--ct-list-->"


def unsearched(lines: list[str]) -> list[str]:
    """``lines`` marked as not to be searched."""
    return [OUTPUT_START, "", *lines, "", OUTPUT_END]


def folded(
    text: str, lang: str = "text", limit: int = 0, first_line: int | None = None, searchable: bool = True
) -> list[str]:
    """A fence showing ``text``, cut after ``limit`` lines (0: never) with the rest
    in a closed block that says how many lines it holds."""
    lines = clean(text).rstrip("\n").split("\n")
    if limit <= 0 or len(lines) <= limit + max(3, limit // 5):
        return fence(text, lang, first_line, searchable)
    rest = len(lines) - limit
    after = None if first_line is None else first_line + limit
    tail = fence("\n".join(lines[limit:]), lang, after, searchable)
    more = block("ct-more", f"{rest:,} more lines", tail, collapsible="closed")
    return fence("\n".join(lines[:limit]), lang, first_line, searchable) + [""] + more


class Made(str):
    """Inline Markdown made by this module (a link, a code span), to place as it is."""


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A table of cells on one line each: plain text, shown literally, or ``Made``."""
    if not rows:
        return []
    width = len(header)
    lines = ["| " + " | ".join(inline(h) for h in header) + " |", "|" + "---|" * width]
    for row in rows:
        cells = [_cell(cell) for cell in (row + [""] * width)[:width]]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _cell(cell: str) -> str:
    if isinstance(cell, Made):  # tables keep a "|" inside a code span, and links have none
        return cell or " "
    return inline(cell, limit=300) or " "


def code(text: str, limit: int = 200) -> Made:
    """``text`` on one line as a code span (a command, a file name), shown literally."""
    text = " ".join(clean(text).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    if not text:
        return Made("")
    return Made(_code_span(text))


def fields(values: dict[str, str]) -> list[str]:
    """Named values, one per line of a list: ``- **name**: value``; empty ones left out."""
    return [f"- **{inline(name)}**: {inline(value, limit=500)}" for name, value in values.items() if value]


def meta(text: str, *kinds: str) -> list[str]:
    """A small line of facts (``text`` is Markdown made by this module), with more
    CSS classes of ours if given."""
    return [text, "{ " + " ".join("." + kind for kind in ("ct-meta", *kinds)) + " }"]


def part_links(number: int, uris: list[str], page: str) -> list[str]:
    """The line that leads from part ``number`` of a page (at ``page``) to the others,
    at ``uris``."""
    links = [f"Part {number} of {len(uris)}"]
    if number > 1:
        links.append(link("← previous part", relative(uris[number - 2], page)))
    if number < len(uris):
        links.append(link("next part →", relative(uris[number], page)))
    if number > 2:
        links.append(link("first part", relative(uris[0], page)))
    return meta(" · ".join(links)) + [""]


def label(text: str) -> str:
    """A short heading inside a block: ``text`` in bold, on a line of its own."""
    return f"**{inline(text)}**"


def bullets(items: Iterable[str]) -> list[str]:
    """A list of items, each inline Markdown made by this module."""
    return [f"- {item}" for item in items]


def image(alt: str, target: str) -> str:
    """An image we wrote into the site; ``alt`` is shown literally, and the target is
    %-encoded as ``link``'s (in an excerpt, it holds the names of the session's folders)."""
    return f"![{inline(alt)}]({_url(target)})"


def web_link(url: str) -> str:
    """A URL from a transcript: a link when it is a plain web address, text otherwise."""
    if _PLAIN_URL.match(url):
        return f"<{url}>"
    return inline(url)


def link(text: str, target: str) -> Made:
    """A link we make ourselves, to a page or anchor of the site; ``text`` is shown
    literally, and the target's characters that a URL cannot hold as they are (a
    space, ``(``, a letter of another alphabet, in a folder's name) are %-encoded."""
    return Made(f"[{inline(text)}]({_url(target)})")


def _url(target: str) -> str:
    """``target`` (a path, maybe with an anchor, which is made of ``_ANCHOR_NAME``'s
    characters) %-encoded: a ``#`` in a folder's name too; a byte of a file's name that
    is not UTF-8 (kept by Python as a lone surrogate) as itself."""
    path, hashed, anchor = target.rpartition("#")
    if hashed and _ANCHOR_NAME.fullmatch(anchor):
        return quote(path, safe="/", errors="surrogateescape") + "#" + anchor
    return quote(target, safe="/", errors="surrogateescape")


_ANCHOR_NAME = re.compile(r"[A-Za-z0-9_-]*")


def outside_code(lines: list[str], pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> list[str]:
    """``lines`` of Markdown with each match of ``pattern`` outside code (a fence, a code
    span) given to ``replace``: in code, text is what was written."""
    out: list[str] = []
    mark = None  # of the fence the line is in
    for line in lines:
        if mark is not None:
            mark = None if fence_closes(line, mark) else mark
        elif opened := fence_open(line):
            mark = opened["fence"]
        elif pattern.search(line):
            spans = [(start, end) for start, end, _ in _code_spans(line)] if "`" in line else []
            line = pattern.sub(lambda found, spans=spans: found.group() if any(a <= found.start() < b for a, b in spans) else replace(found), line)
        out.append(line)
    return out


def snippet_guard(markdown: str) -> str:
    """Escape lines that pymdownx.snippets would read as an include (``--8<--``).

    Snippets runs before any other parsing, even inside code blocks; a leading
    ``;`` is its own escape, which it removes again.
    """
    return _SNIPPET.sub(r"\1;\2", markdown)


_SNIPPET = re.compile(r"(?m)^([ \t]*)(;*-+8<-+)")


# ---------------------------------------------------------------- prose internals


def _language(lang: str) -> str:
    match = _LANG.match(lang.strip())
    if not match:
        return ""
    name = match.group()
    return "text" if name.lower() in _LIVE_LANGS else name


def _copy_fence(lines: list[str], start: int, opened: re.Match[str], indent: str, out: list[str]) -> int:
    """Copy a fenced block of prose, rewritten as a fence of our own making at ``indent``."""
    original = opened["indent"]
    end = fence_end(lines, start, opened["fence"])
    body = [line[len(original) :] if line.startswith(original) else line.lstrip() for line in lines[start + 1 : end]]
    i = end + 1
    _put_fence(out, "\n".join(body), _info(opened), indent)
    return i


def _info(opened: re.Match[str]) -> str:
    """The language a fence's opening names (``python``, ``{.python}``)."""
    return opened["info"].strip().split(" ")[0].lstrip("{.")


def _put_fence(out: list[str], text: str, info: str, indent: str, after: str = "") -> None:
    """Write ``text`` as a fence of our own at ``indent`` (in a quote, its marks, then
    any indentation of an item in it), a block of its own; ``after``: the line after it."""
    blank = indent.rstrip()  # a blank line, in the quote if the fence is in one
    if out and (out[-1].strip(" >") if blank else out[-1].strip()):
        out.append(blank)
    out.extend(indent + f if f else blank for f in fence(text, info))
    out.append(after)


def _code_indent(line: str, lists: _ListIndent) -> int | None:
    """Where a block starts: the columns of indentation that make ``line`` code (four
    more than its block's: the document's, or the text of the list's item it is in),
    or None when it is not code."""
    if not line.strip():  # blank, to Python (the line is taken for blank below)
        return None
    block = lists.items[-1].column if lists.items else 0
    return block + 4 if _indent_of(line) >= block + 4 else None


def _copy_indented_code(lines: list[str], start: int, columns: int, indent: str, out: list[str]) -> int:
    """Copy the code indented ``columns`` from line ``start``, with the blank lines
    inside it, as a fence of our own at ``indent``; the index of the line after it."""
    end, at = start + 1, start + 1  # the first line is code
    while at < len(lines) and (not lines[at].strip() or _indent_of(lines[at]) >= columns):
        if lines[at].strip():
            end = at + 1
        at += 1
    _put_fence(out, "\n".join(line.expandtabs(4)[columns:] for line in lines[start:end]), "", indent)
    return end


def _quote_list(line: str, listed: str) -> str:
    """The marks of the quote ``line`` is in, if it or a line before in that quote is a
    list's item (``listed``: as found before ``line``); "" if none."""
    if not line.strip():
        return ""
    quote = _QUOTE.match(line)
    if quote is None:
        return listed  # a lazy line, or text after the quote
    marks = quote.group().replace(" ", "")
    if marks != listed and not listed.startswith(marks):
        listed = ""
    return marks if _ITEM_START.match(line[quote.end() :]) else listed


def _quoted_code(line: str, previous: str, listed: str) -> str | None:
    """The marks of the quote ``line`` is code in (indented four spaces in it, where a
    block of the quote starts: after a line of its marks alone), or None; not in a
    quote that holds a list (``listed``: its marks), whose items this code does not
    follow (four spaces in, a line may be an item's text)."""
    line = line.expandtabs(4)  # as Python-Markdown reads it: ">\tx" is "> " and two spaces
    quote = _QUOTE.match(line)
    if quote is None or _indent_of(line[quote.end() :]) < 4 or not line[quote.end() :].strip():
        return None
    marks = quote.group().replace(" ", "")
    if marks == listed:
        return None
    if not previous.strip():
        return marks
    before = _QUOTE.match(previous)
    return marks if before and before.group().replace(" ", "") == marks and not previous[before.end() :].strip() else None


def _copy_quoted_code(lines: list[str], start: int, marks: str, out: list[str]) -> int:
    """Copy the code of the quote of ``marks`` from line ``start`` as a fence of ours in
    that quote; the index of the line after it."""
    body: list[str] = []
    end = at = start
    while at < len(lines) and (quote := _QUOTE.match(line := lines[at].expandtabs(4))) and quote.group().replace(" ", "") == marks:
        inner = line[quote.end() :]
        if inner.strip() and _indent_of(inner) < 4 and at > start:  # (the first line is code)
            break
        body.append(inner[4:])
        at += 1
        if inner.strip():
            end = at
    _put_fence(out, "\n".join(body[: end - start]), "", " ".join(marks) + " ", _after_quoted(lines, end, marks))
    return end


def _quoted_fence(line: str) -> tuple[int, re.Match[str]] | None:
    """The depth of the quote ``line`` opens a fence in, and the fence's opening (its
    ``indent`` after the quote's marks), or None."""
    if "```" not in line and "~~~" not in line:
        return None
    quote = _QUOTE.match(line)
    opened = fence_open(line[quote.end() :]) if quote else None
    if quote is None or opened is None or _indent_of(opened["indent"]) >= 4:
        return None
    return quote.group().count(">"), opened


def _in_quoted_item(out: list[str]) -> bool:
    """Whether the last line of text written, in a quote, is in a list's item as
    Python-Markdown reads it: indented four spaces in, or the item's first line, where
    no paragraph goes on right above it (an item there is text to Python-Markdown)."""
    inners = []
    for line in reversed(out):
        quote = _QUOTE.match(line)
        if quote is None or (inners and not line[quote.end() :].strip()):
            break
        if inner := line[quote.end() :]:
            inners.append(inner)
    if not inners or (not _READ_ITEM.match(inners[0]) and _indent_of(inners[0]) < 4):
        return False
    return _indent_of(inners[0]) >= 4 or len(inners) == 1 or any(_READ_ITEM.match(inner) for inner in inners[1:])


def _copy_quoted_fence(lines: list[str], start: int, depth: int, opened: re.Match[str], listed: bool, out: list[str]) -> int:
    """Copy the fence ``opened`` on line ``start`` in a quote ``depth`` deep, up to its
    closing line or the end of the quote, as a fence of ours in that quote (in the item
    before it, where the quote holds a list and the fence is indented); the index of
    the line after it."""
    marks = re.compile(r"(?: {0,3}>[ ]?)" + "{" + str(depth) + "}")
    indent = len(opened["indent"].expandtabs(4))
    body: list[str] = []
    at = start + 1
    while at < len(lines) and (quote := marks.match(lines[at])):  # (a fence takes no lazy line)
        inner = lines[at][quote.end() :]
        at += 1
        if fence_closes(inner, opened["fence"]):
            break
        body.append(inner[min(indent, len(inner) - len(inner.lstrip(" "))) :])
    prefix = "> " * depth + ("    " if listed and indent else "")
    _put_fence(out, "\n".join(body), _info(opened), prefix, _after_quoted(lines, at, ">" * depth))
    return at


def _after_quoted(lines: list[str], at: int, marks: str) -> str:
    """The line after a fence of ours in the quote of ``marks``: a line of its marks
    alone, where the quote goes on at line ``at`` (at its end, the fence would be put
    in a paragraph); else a blank line."""
    return " ".join(marks) if at < len(lines) and _QUOTE.match(lines[at]) else ""


def _indent_of(line: str) -> int:
    return len(line[: len(line) - len(line.lstrip(" \t"))].expandtabs(4))


def fence_open(line: str) -> re.Match[str] | None:
    """The opening of a code fence on ``line`` (groups ``indent``, ``fence``, ``info``),
    or None. A backtick fence's info string holds no backtick."""
    if "```" not in line and "~~~" not in line:
        return None
    opened = _FENCE_OPEN.match(line)
    if opened and opened["fence"][0] == "`" and "`" in opened["info"]:
        return None
    return opened


def fence_end(lines: list[str], start: int, mark: str) -> int:
    """The line that closes the fence opened by ``mark`` on line ``start``;
    ``len(lines)`` when none does (the fence runs to the end)."""
    for i in range(start + 1, len(lines)):
        if fence_closes(lines[i], mark):
            return i
    return len(lines)


def fence_closes(line: str, mark: str) -> bool:
    """Whether ``line`` closes a fence opened by ``mark`` (as many backticks or tildes, or more)."""
    if mark not in line:
        return False
    stripped = line.strip()
    return stripped.startswith(mark) and not stripped.strip(mark[0])


def _prose_line(line: str, previous: str, item_text: bool = False, after_rule: bool = False) -> str:
    """A line of prose, escaped; ``item_text`` if it is text of a list's item (indented
    as the item's text is: what is at its start is read there as at a line's start);
    ``after_rule`` if the line before it was written as a rule."""
    # Each pattern is tried only on lines holding a character it needs.
    bracket = "[" in line
    if bracket and _TOC.match(line):
        return line.replace("[", "\\[", 1)
    if line.lstrip(" >")[:1] in ("=", "-"):
        # A line of = or - under a line of text, in a quote or an item too, would make
        # a heading of it (and one after the other, in a quote, took time growing with
        # their square, each read with the rest of the quote again).
        at = _text_start(line, item_text)
        inner = line[at:]
        if inner.lstrip(" ")[:1] in ("=", "-") and _SETEXT.match(inner):
            above = previous[_text_start(previous, item_text) :]
            if line[:at].count(">") != previous[: len(previous) - len(above)].count(">"):
                above = ""  # under a line out of its quote, it starts the quote: a rule
            if inner.strip()[0] == "=" or (above.strip() and not after_rule):  # (a rule is no heading's text)
                return line[:at] + _escape_outside_code(inner, setext=True)
    heading = _HEADING.match(line) if "#" in line else None
    top = _is_heading(heading)
    if top or _is_quoted_heading(heading):
        text = heading["rest"].strip().rstrip("#").strip()  # type: ignore[index]
        lead = "" if top else heading["lead"]  # type: ignore[index]
        return f"{lead}**{_escape_outside_code(text)}**" if text else lead.rstrip()
    escaped = _escape_outside_code(line, row="\\|" in line and bool(_QUOTED_ROW.match(line)))
    if heading:
        # A heading inside a list or a quote, or "#word": shown as text.
        escaped = _HEADING.sub(lambda m: m["lead"] + "\\" + m["hashes"] + m["rest"], escaped, count=1)
    definition = _DEFINITION.match(escaped) if bracket and "]:" in escaped else None
    if definition:
        # A link reference, footnote or abbreviation definition would vanish; show it.
        at = definition.end("lead")
        escaped = escaped[:at] + "\\" + escaped[at:]
    if bracket and previous.endswith("]") and escaped[(at := _text_start(escaped, item_text)) : at + 1] == "[":
        escaped = escaped[:at] + "\\" + escaped[at:]  # a reference's label on the next line (see _REFERENCE)
    return escaped


def _text_start(line: str, item_text: bool) -> int:
    """Where the text of ``line`` starts, after its quote's marks, and after the
    indentation of a list's item for its text (a quote may be in an item)."""
    at = len(line) - len(line.lstrip(" ")) if item_text else 0
    quote = _QUOTE.match(line, at)
    return quote.end() if quote else at


def _escape_outside_code(line: str, setext: bool = False, row: bool = False) -> str:
    """Escape ``line`` but for its code spans, which are written anew.

    Every backtick outside a code span becomes a character reference and every code
    span gets a fence of its own, so the backticks of a line pair up the same way
    whatever the lines around it and whatever the version of Python-Markdown. In a
    table's ``row``, ``\\|`` in a code span is a ``|`` of the code, as on GitHub
    (Python-Markdown does not end a cell inside a code span).
    """
    parts: list[str] = []
    last = 0
    for begin, end, code in _code_spans(line) if "`" in line else ():
        parts.append(_escape_outside(line[last:begin]))
        parts.append(_code_span(code.replace("\\|", "|") if row else code))
        last = end
    parts.append(_escape_outside(line[last:]))
    result = "".join(parts)
    if setext and (first := result.lstrip()[:1]) in ("=", "-"):  # ("==" is escaped already)
        at = len(result) - len(result.lstrip())
        result = result[:at] + ("&#61;" if first == "=" else "\\-") + result[at + 1 :]
    return result


def _code_spans(line: str) -> Iterator[tuple[int, int, str]]:
    """The code spans of ``line`` as Python-Markdown finds them: start, end, code."""
    data = line
    at = 0
    while match := _BACKTICKS.compiled_re.search(data, at):
        found, begin, end = _BACKTICKS.handleMatch(match, data)
        if end is None or begin is None or end <= at:
            break
        if isinstance(found, Element):
            yield begin, end, html.unescape(found.text or "")
        if found is not None:
            # Python-Markdown puts a placeholder where it matched; so do we, of the same length.
            data = data[:begin] + "\x00" * (end - begin) + data[end:]
        at = end


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0) if "`" in text else 0


def _code_span(code: str) -> str:
    ticks = "`" * (_longest_backticks(code) + 1)
    # A space before a code that starts as pymdownx.inlinehilite's choice of language
    # ("#!python", ":::math") leaves it the code's text: "#!math \\href{...}" was given
    # to a site's math formatter (MathJax made a link that ran a script of it).
    pad = " " if not code or code[0] == "`" or code[-1] == "`" or code.startswith(("#!", ":::")) else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _escape_outside(text: str) -> str:
    """Escape text outside code spans; its backticks can then open nothing."""
    if "`" in text:
        text = _ESCAPED_TICK.sub(r"\1`", text)
    return _escape_text(text).replace("`", "&#96;")


def _escape_text(text: str) -> str:
    """Escape one stretch of prose that is outside code spans."""
    if not text:
        return text
    if "](" in text or "![" in text:
        text = _neutralise_links(text)
    if "://" in text and ("_" in text or "*" in text):
        parts = _BARE_URL.split(text)  # every other one a web address
        escape = itertools.cycle((_escaped_plain, _escaped_address))
        return "".join(next(escape)(part) for part in parts)
    return _escaped_plain(text)


def _escaped_plain(text: str) -> str:
    if "]" in text and _REFERENCE.search(text):
        text = _REFERENCE.sub(r"\1\\[", text)
    if "*" in text:
        text = _GLOB_STAR.sub(r"\\*", text)
    return _braces_and_directives(text.replace("&", "&amp;").replace("<", "&lt;"))


def _escaped_address(address: str) -> str:
    """A web address of prose (which holds no "<"), its marks of emphasis as character
    references (see ``_BARE_URL``)."""
    return _braces_and_directives(_URL_MARKS.sub(_mark_reference, address.replace("&", "&amp;")))


def _mark_reference(found: re.Match[str]) -> str:
    return ADDRESS_REFERENCES[found.group(1)]


def _braces_and_directives(text: str) -> str:
    if "{" in text or "}" in text:
        text = _BRACE.sub(_brace, text)
    if "!!!" in text or "???" in text or "///" in text or "===" in text:
        text = _DIRECTIVE.sub(_directive, text)
    return text


# A "[" right after a "]" (or after it and a space): with the one before, a reference
# link (``[text][label]``, ``dp[i][j]``). No transcript defines one (a definition is
# shown as text), but mkdocs-autorefs (mkdocstrings) reads every such pair as a
# reference to the site's pages: ``dp[i][j]`` was shown as "dpi", linked to the
# section of a page of the site named "j", and, in an excerpt, an address it did not
# know stopped a strict build. The "[" is escaped; the text is the same.
_REFERENCE = re.compile(r"(\][ \t]?)\[")


# A web address written as it is (not a link's target): GitHub makes it a link, and
# its underscores and asterisks are its own; Python-Markdown would read them as emphasis
# (http://localhost/__devtools__/ lost its underscores). They are written as character
# references (``ADDRESS_REFERENCES``), not escaped with a backslash.
# (Not a link's target; as GitHub reads them, the marks that end it are not its own.)
_BARE_URL = re.compile(r"((?<!\]\()(?<!\]\(<)(?<!\w)https?://[^\s<>()\[\]\"'`]*[^\s<>()\[\]\"'`?!.,:*_~])")
_URL_MARKS = re.compile(r"(?<!\\)([_*])")


# The asterisk of a file pattern (``tests/*.py``, ``add-*.sh``, ``src/*/main.rs``),
# which no emphasis starts or ends: Python-Markdown paired it with the next asterisk of
# the paragraph (``**tests/*.py**`` lost an asterisk, ``a/*.py and b/*.py`` turned
# italic between the two), where GitHub shows it as written.
_GLOB_STAR = re.compile(r"(?<=[\w/.-])\*(?=\.\w)|(?<=/)\*(?=/)")


def _brace(match: re.Match[str]) -> str:
    """A brace as an entity: attr_list reads none, and math, read by pymdownx.arithmatex
    on a transcript page, gets it back as written (render/guard.py)."""
    return match.group(1) + ("&#123;" if match.group(2) == "{" else "&#125;")


def _directive(match: re.Match[str]) -> str:
    run = match.group()
    first = {"!": "\\!", "?": "&#63;", "/": "&#47;", "=": "&#61;"}[run[0]]
    return first + run[1:]


def _neutralise_links(text: str) -> str:
    """Keep links to the web; show every other link (relative, ``javascript:``,
    images) as the text it is, so it can neither run nor break a strict build. A link
    to the web is one whose target, up to a space, ``)`` or ``>``, starts with
    ``https://``, ``http://`` or ``mailto:`` and holds no ``<``, quote or apostrophe,
    and whose parenthesis is closed in ``text`` (else Python-Markdown would look for
    its end through the rest of the paragraph, at every such link). Where targets end,
    where those characters are and the parentheses are each found once (``_Places``):
    a text of thousands of ``](`` read the rest of the text from each."""
    chars = list(text)
    places: _Places | None = None
    for match in _LINK_TARGET.finditer(text):
        start = match.end(1)
        if not match.group(1) and _WEB_START.match(text, start):
            places = places or _Places(text)
            if places.web_target(start) and places.closes(match.end() + 1) and _readable_host(text, start):
                continue
        _escape_at(chars, text, match.start())
    for match in _IMAGE_START.finditer(text):
        _escape_at(chars, text, match.start())
    return "".join(chars)


def _readable_host(text: str, start: int) -> bool:
    """Whether the host of the web address starting at ``start`` is one MkDocs can
    read: ``https://[x`` (or ``https://\\[x``), a bracket that is not an address, and
    ``https://a／b``, whose characters read as ``/`` under NFKC, stop its build at the
    link (``urlsplit`` refuses them). Only the host counts: up to the first ``/``,
    ``?``, ``#``, space, or ``)`` that closes the link; its escapes read back."""
    at = _WEB_START.match(text, start).end()  # type: ignore[union-attr]
    if not text.endswith("//", start, at):
        return True  # mailto: names no host
    end = _HOST_END.search(text, at)
    host: list[str] = []
    depth = 0
    index = at
    stop = end.start() if end else len(text)
    while index < stop:
        char = text[index]
        if char == "\\" and index + 1 < stop:
            host.append(text[index + 1])
            index += 2
            continue
        if char == ")":
            if not depth:
                break
            depth -= 1
        elif char == "(":
            depth += 1
        host.append(char)
        index += 1
    try:
        urlsplit("//" + "".join(host))
    except ValueError:
        return False
    return True


class _Places:
    """Where a text's link targets may end, where it holds what no web link does, and
    how deep in parentheses each of its parentheses leaves it."""

    def __init__(self, text: str) -> None:
        self.ends = [match.start() for match in _TARGET_END.finditer(text)]
        self.unsafe = [match.start() for match in _NOT_IN_WEB_LINK.finditer(text)]
        self.parens: list[int] = []
        self.depth: list[int] = []
        depth = 0
        for match in _PARENS.finditer(text):
            depth += 1 if match.group() == "(" else -1
            self.parens.append(match.start())
            self.depth.append(depth)
        self.lowest = self.depth[:]  # the lowest depth from each parenthesis on
        for index in range(len(self.lowest) - 2, -1, -1):
            self.lowest[index] = min(self.lowest[index], self.lowest[index + 1])
        self.length = len(text)

    def web_target(self, start: int) -> bool:
        """Whether the target starting at ``start`` holds no ``<``, quote or apostrophe."""
        index = bisect_left(self.ends, start)
        end = self.ends[index] if index < len(self.ends) else self.length
        index = bisect_left(self.unsafe, start)
        return index == len(self.unsafe) or self.unsafe[index] >= end

    def closes(self, at: int) -> bool:
        """Whether the parenthesis opened before ``at`` is closed after it."""
        index = bisect_left(self.parens, at)
        if index == len(self.parens):
            return False
        before = self.depth[index - 1] if index else 0
        return self.lowest[index] < before


def _escape_at(chars: list[str], text: str, index: int) -> None:
    if not brackets.escaped(text, index) and not chars[index].startswith("\\"):
        chars[index] = "\\" + chars[index]

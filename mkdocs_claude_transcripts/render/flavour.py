"""The pages in other flavours of Markdown, for use outside a site this plugin builds.

The plugin's pages use two fences of its own (render/fences.py) that only its
builds know. ``portable`` rewrites them as standard Material fences (a language,
``linenums``), for another generator with Material's extensions (Zensical, a
site without the plugin). ``github`` goes further, for GitHub (a pull-request
comment, a README): no front matter, admonitions and collapsible blocks as
``<details>``, plain fences, no attribute lists, no permalinks, and text that
GitHub would take for a mention (``@name``) or a reference to an issue (``#12``,
``owner/repo#12``, ``GH-12``) shown as written without pinging or linking.

Both only rewrite the syntax the renderer writes; the text inside fences is
left as it is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

from .guard import MARKER, SECTION
from .markdown import ADDRESS_REFERENCES, BLOCK_HEAD, BREAK, LIST_END, OUTPUT_END, OUTPUT_START, PERMALINK, outside_code

Flavour = Callable[[str], str]  # a page's Markdown, as the plugin writes it -> in another flavour

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,})(?:(?P<plain>ct-text)|\{ \.(?P<kind>ct-code|ct-text)(?P<attrs>[^}]*)\})[ \t]*$")
_ATTR = re.compile(r'(data-[a-z-]+)="([^"]*)"')
_ATTR_LIST = re.compile(r"^[ \t]*\{ (?:\.ct-[a-z-]+ ?)+\}[ \t]*$")
_ESCAPE = re.compile(r"\\(.)")
_ANCHOR_LINK = re.compile(r"(?<!\\)\[((?:\\.|[^\]\\])*)\]\(#[^)\s]*\)")
_ROW = re.compile(r"^[ \t>]*\|.*\|[ \t]*$")
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_PAGE_LINK = re.compile(r"(?<!\\)(!?)\[((?:\\.|[^\]\\])*)\]\((?!https?://|mailto:|#)[^)\s]*\)")
# What GitHub reads in a comment's text as a mention (``@name``, ``@org/team``; not an
# e-mail address, whose ``@`` follows a letter) or as a reference to an issue (``#12``,
# ``owner/repo#12``, ``GH-12``; not a character reference, ``&#96;``); and the
# addresses of links, in which it reads neither and which are left as they are.
_REFERENCE = re.compile(
    r"(?P<address>(?:https?|ftp)://[^\s<>]*|www\.[^\s<>]*|\]\([^\s)]*)"
    r"|(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])|(?<!&)#(?=[0-9])|(?<![A-Za-z0-9_])GH-(?=[0-9])",
    re.IGNORECASE,
)
# An empty HTML comment, which GitHub shows as nothing: after the "@", "#" or "GH-" of
# one of those, the text reads and copies as written, and mentions or links nothing.
# (Backslash escapes and character references, ``\@`` or ``&#64;``, do not stop them.)
_UNLINKED = "<!-- -->"
# An address on GitHub of an issue, a pull request or a discussion: a link to it makes
# GitHub add a reference back to the comment on its page (on every push that posts a
# preview again). Through GitHub's redirect, it leads there and adds none.
_THREAD = re.compile(r"(?P<host>https?://(?:www\.)?github\.com)/[^/\s]+/[^/\s]+/(?:issues|pull|discussions)/[0-9]", re.IGNORECASE)
_REDIRECT = "https://redirect.github.com"
# A web address written as it is, which GitHub links (``https://``): its marks as
# typed, not as the site's pages write them (``ADDRESS_REFERENCES``). GitHub links the
# text as it is written, references and all (``a&#95;b`` was shown as written, and
# ``a\_b`` led to ``a%5C_b``), and reads no emphasis in the address it links.
_WEB = re.compile(r"https?://", re.IGNORECASE)
_AS_TYPED = {ADDRESS_REFERENCES[mark]: mark for mark in "_*"} | {"\\" + mark: mark for mark in "_*"} | {"&amp;": "&"}
_TYPED = re.compile("|".join(map(re.escape, _AS_TYPED)))
# The breaks in a long name go (a name is one word), but one that ends a web address
# before a character reference (``<wbr>&#126;``), which GitHub, too, reads into it.
_BREAK = re.compile(re.escape(BREAK) + "(?!&#)")


def portable(markdown: str) -> str:
    """Material Markdown any site with pymdownx.superfences can render."""
    return "\n".join(_fences(_without_sections(markdown.split("\n")), github=False))


def github(markdown: str) -> str:
    """GitHub-flavoured Markdown, without Material's syntax. A page keeps its marker,
    first, a comment GitHub does not show: the command line knows its own pages by it
    (those of another making in its output folder are not written over)."""
    lines = _without_sections(_without_front_matter(markdown.split("\n")))
    marked = MARKER in (line.strip() for line in lines[:1])
    lines = [line for line in _fences(lines, github=True) if line.strip() not in (MARKER, OUTPUT_START, OUTPUT_END, LIST_END)]
    text = "\n".join(_blocks(lines)).strip("\n") + "\n"
    text = _outside_fences(text, lambda line: _row_pipes(_ANCHOR_LINK.sub(lambda found: found[1], line)))  # their permalinks are gone
    text = "\n".join(outside_code(text.split("\n"), _REFERENCE, _unlinked))
    if BREAK in text:  # the breaks in a long name (a block's title, the summary's table)
        text = "\n".join(outside_code(text.split("\n"), _BREAK, lambda found: ""))
    return f"{MARKER}\n\n{text}" if marked else text


def _row_pipes(line: str) -> str:
    """A table's row with each ``|`` inside a code span escaped: GitHub ends a cell at
    one there (Python-Markdown does not, and would show the backslash)."""
    if "`" not in line or not _ROW.match(line):
        return line
    return _CODE_SPAN.sub(lambda found: found[1] + found[2].replace("|", "\\|") + found[1], line)


def _unlinked(found: re.Match[str]) -> str:
    """A mention or a reference to an issue that GitHub shows as written and does not
    follow; a link's address as it is, but for one to an issue, a pull request or a
    discussion on GitHub, which leads there through ``redirect.github.com``."""
    address = found["address"]
    if not address:
        return found[0] + _UNLINKED
    thread = _THREAD.match(address, 2 if address.startswith("](") else 0)
    if thread is None:
        bare = _WEB.match(address) and found.string[found.start() - 1 : found.start()] != "<"
        return _TYPED.sub(lambda mark: _AS_TYPED[mark[0]], address) if bare else address
    if address.startswith("](") or found.string[found.start() - 1 : found.start()] == "<":
        return address[: thread.start()] + _REDIRECT + address[thread.end("host") :]
    # Written as it is: shown as written, a link through the redirect.
    written = address.rstrip(".,:;!?*_~'\"")
    tail = address[len(written) :]
    if written.endswith(")") and written.count(")") > written.count("("):
        written, tail = written[:-1], ")" + tail
    return f"[{written}]({_REDIRECT}{written[thread.end('host') - thread.start() :]}){tail}"


def without_page_links(markdown: str) -> str:
    """Links to other pages and images shown as their text (for a single file)."""
    return _outside_fences(markdown, lambda line: _PAGE_LINK.sub(lambda found: found[2], line))


def one_file(pages: list[str], change: Flavour, max_chars: int | None = None) -> str:
    """``pages`` one after another in one file, in a flavour; cut before the first
    top-level block that does not fit ``max_chars``, with a line saying how many are
    left out. Raises ValueError when not even that line fits."""
    bodies = [without_front_matter(without_page_links(page)) for page in pages]
    chunks = [chunk for body in bodies for chunk in _top_level(body)]
    whole = change("\n".join(chunks))
    if max_chars is None or len(whole) <= max_chars:
        return whole

    def cut(kept: int) -> str:
        note = f"{len(chunks) - kept:,} more blocks are not shown here, to fit."
        return change("\n".join([*chunks[:kept], "", f"*{note}*", ""]))

    kept, low, high = 0, 0, len(chunks)
    while low <= high:  # the most chunks that fit with the note
        middle = (low + high) // 2
        if len(cut(middle)) <= max_chars:
            kept, low = middle, middle + 1
        else:
            high = middle - 1
    text = cut(kept)
    if len(text) > max_chars:
        raise ValueError("too small to hold anything")
    return text


def _top_level(markdown: str) -> list[str]:
    """A page cut where a top-level block, heading or line of facts begins."""
    chunks: list[list[str]] = [[]]
    for line, fenced in _fenced(markdown.split("\n")):
        if not fenced and line[:1] not in ("", " ", "\t", "{") and chunks[-1] and chunks[-1][-1] == "":
            chunks.append([])
        chunks[-1].append(line)
    return ["\n".join(chunk) for chunk in chunks if any(line.strip() for line in chunk)]


def _fenced(lines: list[str]) -> Iterator[tuple[str, bool]]:
    """Each line, and whether it belongs to a code fence (its delimiters included)."""
    fence: str | None = None
    for line in lines:
        stripped = line.strip()
        if fence is not None:
            yield line, True
            fence = None if stripped == fence else fence
        elif stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
            yield line, True
        else:
            yield line, False


def _outside_fences(text: str, change: Callable[[str], str]) -> str:
    """``change`` applied to each line of ``text`` that is not inside a code fence."""
    return "\n".join(line if fenced else change(line) for line, fenced in _fenced(text.split("\n")))


def without_front_matter(markdown: str) -> str:
    """A page without its front matter and the markers of the plugin's pages (for a single file)."""
    return "\n".join(line for line in _without_sections(_without_front_matter(markdown.split("\n"))) if line.strip() != MARKER)


def _without_sections(lines: list[str]) -> list[str]:
    """``lines`` without the lines between sections of a page (and the blank line
    after each), which only the plugin's own rendering uses."""
    kept: list[str] = []
    after = False
    for line in lines:
        if line == SECTION or (after and not line):
            after = line == SECTION
            continue
        after = False
        kept.append(line)
    return kept


def _without_front_matter(lines: list[str]) -> list[str]:
    if lines and lines[0] == "---" and "---" in lines[1:]:
        return lines[lines.index("---", 1) + 1 :]
    return lines


def _fences(lines: list[str], github: bool) -> list[str]:
    out: list[str] = []
    closing: str | None = None
    closing_indent = ""
    for line in lines:
        if closing is not None:
            out.append(line)
            if line.strip() == closing and line.startswith(closing_indent):
                closing = None
            continue
        opened = _FENCE.match(line) if "```" in line else None
        if opened is None:
            out.append(line)
            continue
        attrs = dict(_ATTR.findall(opened["attrs"] or ""))
        info = attrs.get("data-lang", "")
        if attrs.get("data-start") and not github:
            info += f' linenums="{attrs["data-start"]}"'
        out.append(opened["indent"] + opened["ticks"] + info)
        closing, closing_indent = opened["ticks"], opened["indent"]
    return out


def _blocks(lines: list[str]) -> list[str]:
    """Admonitions and collapsible blocks as ``<details>``, at the left margin (an
    indented HTML block would be code on GitHub)."""
    out: list[str] = []
    i = 0
    in_fence: str | None = None
    while i < len(lines):
        line = lines[i]
        if in_fence is not None:
            out.append(line)
            if line.strip() == in_fence:
                in_fence = None
            i += 1
            continue
        fence = re.match(r"^[ \t]*(`{3,})", line)
        if fence:
            in_fence = fence[1]
            out.append(line)
            i += 1
            continue
        if _ATTR_LIST.match(line):
            i += 1
            continue
        opened = BLOCK_HEAD.match(line)
        if opened is None:
            out.append(PERMALINK.sub("", line))
            i += 1
            continue
        indent = len(opened["indent"].expandtabs(4))
        body: list[str] = []
        i += 1
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i][indent + 4 :] if lines[i].strip() else "")
            i += 1
        shown = " open" if opened["marker"] in ("!!!", "???+") else ""
        out += [f"<details{shown}>", f"<summary>{_title(opened['title'])}</summary>", ""]
        out += _blocks(body)
        out += ["", "</details>", ""]
    return out


def _title(markdown: str) -> str:
    """A block's title (inline Markdown made by the renderer) as HTML text."""
    text = PERMALINK.sub("", markdown)
    text = _PAGE_LINK.sub(lambda found: found[2], text)
    text = _ESCAPE.sub(lambda found: html.escape(found[1]), text)
    return text.strip()


FLAVOURS: dict[str, Flavour] = {"material": portable, "github": github}

"""A Python-Markdown extension that makes sure a transcript page carries no markup
of the transcript's making, whatever slipped past the escaping of ``markdown.py``.

On a page that starts with ``MARKER`` (the pages this package writes, and only
those), raw HTML is shown as text, except the permalink anchors the renderer
writes; links must go to the web, to an anchor, or to a page or image of the
session; images must be images the renderer wrote. Other pages of the site are
left exactly as they are.
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as etree
from typing import Any
from urllib.parse import urlsplit

from markdown import Markdown, util
from markdown.extensions import Extension
from markdown.inlinepatterns import HTML_RE, HtmlInlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from .fences import reassembled_at_once
from .math import read_as_written
from .plaintext import PRIORITY, PlainText

MARKER = "<!-- claude-transcripts:page -->"
# The line between two sections of a page (its top, groups of messages, its links to
# the next part): it is kept in the HTML, where the plugin cuts the page into the
# HTML of each section (rendering.py), then takes it out. No other raw HTML is.
SECTION = "<!-- claude-transcripts:section -->"
# What other plugins read as their directives in a page's Markdown, wherever it is,
# code included: the start of a comment (Material's tags plugin made a listing of a
# transcript's "<!-- material/tags -->", and stopped the build on one whose options
# YAML could not read) and of a template's tag (mkdocs-include-markdown-plugin put
# the file a transcript's '{% include "/etc/passwd" %}' names into the site; "{{",
# "{#"), and so does the Python-Markdown extension markdown-include ("{!/etc/passwd!}").
# In a transcript page and in an excerpt, the other plugins see each with a control
# character inside (``hidden``), which transcript text never holds (``clean`` in
# markdown.py): a page's are shown again before MkDocs renders it (pages.py), then
# hidden from the extensions that read the page first (``_Hidden``) up to the guard;
# an excerpt's as Python-Markdown reads it (``_ExcerptsAside``).
# (The plugin's own comments, its marker, sections and excerpts, are left as they are.)
_DIRECTIVE_START = re.compile(r"<!(?=--)(?!-- ?/?(?:claude-transcripts:|ct-))|\{(?=[{%#!])")
_HIDE = "\x1f"


def hidden(text: str) -> str:
    """``text`` with the directives of other plugins hidden from them."""
    return _DIRECTIVE_START.sub("\\g<0>" + _HIDE, text) if "<!--" in text or "{" in text else text


def shown(text: str) -> str:
    """``text`` as it was before ``hidden``."""
    return text.replace(_HIDE, "") if _HIDE in text else text


# The lines around an excerpt of a session in a page of the site (embed.py), which
# has no guard: the same hash in both, of the excerpt's Markdown, which the
# excerpt's text cannot hold. They are taken out before the page is read.
_EXCERPT = re.compile(r"[ \t]*<!-- claude-transcripts:excerpt ([0-9a-f]{16}) -->")
_EXCERPT_END = "<!-- /claude-transcripts:excerpt {} -->"

# What a message's permalink says of itself, after its id, class and target (it is
# written by ``markdown.permalink``).
PERMALINK_REST = "tabindex='-1' title='Link to this message' aria-label='Link to this message'"
# The raw HTML the renderer itself writes: the permalink of a message (the inline
# pattern sees its opening and closing tags one at a time), the breaks in a block's
# title, and the comments around tool output.
_ANCHOR = re.compile(
    r"^(?:<a id='[A-Za-z0-9_-]+' class='ct-anchor' href='#[A-Za-z0-9_-]+' " + re.escape(PERMALINK_REST) + ">|</a>"
    r"|<wbr>|<!--ct-output-->|<!--/ct-output-->|<!--ct-list-->)$"
)
# Links kept: to the web, to an anchor, and to the pages the plugin writes (a page of
# the session, or a session's page from the transcripts index; a name's characters
# that a URL cannot hold as they are %-encoded).
_HREF = re.compile(
    r"^(?:(?:https?://|mailto:)[^\s<>\"']+|#[A-Za-z0-9_-]+"
    r"|(?:\.\./)*(?:[A-Za-z0-9_%-][A-Za-z0-9_.%-]*/)*[A-Za-z0-9_.%-]+\.md(?:#[A-Za-z0-9_-]+)?)$",
    re.IGNORECASE,
)
# A backslash escape as Python-Markdown holds it until its last step (``unescape``),
# after this guard and before MkDocs reads the link (``\[`` in ``https://\[x``).
_ESCAPED = re.compile(f"{util.STX}([0-9]+){util.ETX}")
_SRC = re.compile(r"^images/[0-9a-f]{16}\.(?:png|jpg|gif|webp)$")
_UNSAFE_ATTRIBUTE = re.compile(r"^(?:on|style$|srcdoc$|formaction$|xlink:|action$|background$)", re.IGNORECASE)


class _Hidden(Preprocessor):
    """First of all: on a transcript page, the directives of the extensions that read
    a page before the guard does (markdown-include) are hidden from them, where the
    site has such an extension."""

    def run(self, lines: list[str]) -> list[str]:
        hide = bool(lines) and lines[0].strip() == MARKER and self._read_before_guard()
        self.md.ct_hidden = hide  # type: ignore[attr-defined]
        return [lines[0], *map(hidden, lines[1:])] if hide else lines

    def _read_before_guard(self) -> bool:
        """Whether another preprocessor reads the page's lines between this one and
        the guard's."""
        order = [type(processor) for processor in self.md.preprocessors]
        return order.index(_Marker) - order.index(_Hidden) > 1


class _Marker(Preprocessor):
    """Notices the marker, and turns the guard on for this page."""

    def run(self, lines: list[str]) -> list[str]:
        if not lines or lines[0].strip() != MARKER:
            return lines
        if getattr(self.md, "ct_hidden", False):
            lines = list(map(shown, lines))  # (``_Hidden``)
        self.md.ct_guard = True  # type: ignore[attr-defined]
        blocks = self.md.preprocessors
        if "html_block" in blocks:
            # Raw HTML blocks become paragraphs, whose HTML the inline guard escapes.
            blocks["html_block"].run = lambda lines: lines  # type: ignore[method-assign]
        if "critic" in blocks:
            # pymdownx.critic's marks are the site's own editing: in a transcript, as in
            # its code, "{--" and "--}" are what was written.
            blocks["critic"].run = lambda lines: lines  # type: ignore[method-assign]
        self.md.inlinePatterns.register(_GuardedHtml(HTML_RE, self.md), "html", 90)
        if "olist" in self.md.parser.blockprocessors:
            # A numbered list starts at its first number, as CommonMark has it: steps
            # between which code was shown ("1." ... "2." ...) were each numbered 1.
            self.md.parser.blockprocessors["olist"].LAZY_OL = False  # type: ignore[attr-defined]
        if "fenced_code_block" in blocks and type(blocks["fenced_code_block"]).__name__ == "SuperFencesBlockPreprocessor":
            reassembled_at_once(blocks["fenced_code_block"])  # transcript pages hold thousands of fences
        read_as_written(self.md)  # math, for pymdownx.arithmatex
        return lines[1:]


class _Sections(Preprocessor):
    """On a guarded page, each ``SECTION`` line becomes that comment in the HTML.

    Only the plugin writes it: what a transcript says is escaped, or indented in a
    block: never such a line of its own."""

    def run(self, lines: list[str]) -> list[str]:
        if not getattr(self.md, "ct_guard", False):
            return lines
        stash = self.md.htmlStash
        return [stash.store(SECTION) if line == SECTION else line for line in lines]


def excerpt_lines(lines: list[str], indent: str) -> list[str]:
    """The Markdown ``lines`` of an excerpt, as a page of the site holds them: each
    after ``indent`` (the block's that asked for it), between the excerpt's lines."""
    digest = hashlib.blake2b("\n".join(lines).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    start, end = f"<!-- claude-transcripts:excerpt {digest} -->", _EXCERPT_END.format(digest)
    return [indent + start, *(indent + hidden(line) if line else "" for line in lines), indent + end]


class _ExcerptsAside(Preprocessor):
    """Takes the lines around excerpts out; where pymdownx.critic is on, it sets the
    excerpts aside while critic reads the page (``_ExcerptsBack`` puts them back).
    Critic reads a page's text before anything else, code included, and has no
    escape: an excerpt's "{--" (a prompt), with a "--}" further on (a command in a
    fence), would be a deletion spanning messages. In a transcript, as on its own
    page, they are what was written."""

    def run(self, lines: list[str]) -> list[str]:
        self.md.ct_excerpts = {}  # type: ignore[attr-defined]
        if not any("<!-- claude-transcripts:excerpt " in line for line in lines):
            return lines
        aside = "critic" in self.md.preprocessors
        out: list[str] = []
        i = 0
        while i < len(lines):
            start = _EXCERPT.fullmatch(lines[i])
            end = _EXCERPT_END.format(start[1]) if start else ""
            last = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == end), None) if start else None
            if last is None:
                out.append(lines[i])
                i += 1
                continue
            excerpt = [shown(line) for line in lines[i + 1 : last]]
            if aside:
                place = f"ct-excerpt-{len(self.md.ct_excerpts)}-{start[1]}"  # type: ignore[attr-defined]
                self.md.ct_excerpts[place] = excerpt  # type: ignore[attr-defined]
                out.append(place)
            else:
                out += excerpt
            i = last + 1
        return out


class _ExcerptsBack(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        aside = getattr(self.md, "ct_excerpts", None)
        if not aside:
            return lines
        return [back for line in lines for back in aside.get(line, (line,))]


class _MarkedSections(Preprocessor):
    """MkDocs reads each page's text with Python's HTMLParser, for the ids its raw HTML
    gives, and that parser stops the build with an error at a ``<![`` that opens no
    section it knows (a code span of a transcript, `` `<![i` ``, or of a page of your
    own): it is given the text with each ``<![`` written ``<!_[``, which it reads as
    a comment. The page itself is read as it is."""

    def run(self, lines: list[str]) -> list[str]:
        blocks = self.md.preprocessors
        if "mkdocs_raw_html" in blocks and any("<![" in line for line in lines):
            raw = blocks["mkdocs_raw_html"]
            read = raw.run

            def run(lines: list[str]) -> list[str]:
                read([line.replace("<![", "<!_[") for line in lines])
                return lines

            raw.run = run  # type: ignore[method-assign]
        return lines


class _GuardedHtml(HtmlInlineProcessor):
    """Raw inline HTML is kept only when it is one of our own anchors."""

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Any, int, int]:  # type: ignore[override]
        if _ANCHOR.match(m.group(1)):
            return super().handleMatch(m, data)
        return m.group(0), m.start(0), m.end(0)


class _LinkGuard(Treeprocessor):
    """Links and images that are not ours, or not to the web, become their text;
    attributes that run code or restyle the page are dropped (attr_list could add them)."""

    def run(self, root: etree.Element) -> None:
        if not getattr(self.md, "ct_guard", False):
            return
        for parent in root.iter():
            for name in [n for n in parent.attrib if _UNSAFE_ATTRIBUTE.match(n)]:
                del parent.attrib[name]
            for index, child in enumerate(list(parent)):
                if (child.tag == "a" and not _linkable(child.get("href", "#"))) or (
                    child.tag == "img" and not _SRC.match(child.get("src", ""))
                ):
                    _replace_with_text(parent, index, child)


def _linkable(href: str) -> bool:
    """Whether a link may stay: one of ours, or to the web, and one MkDocs can read
    (``https://[x``, a host that is not an address, stops its build), its escapes
    read back as MkDocs will read it (``https://\\[x``)."""
    if not _HREF.match(href):
        return False
    try:
        urlsplit(_ESCAPED.sub(lambda match: chr(int(match.group(1))), href))
    except ValueError:
        return False
    return True


def _replace_with_text(parent: etree.Element, index: int, child: etree.Element) -> None:
    text = "".join(child.itertext()) if child.tag == "a" else child.get("alt", "")
    # An emoji that pymdownx.emoji would fetch as an image (":smile:") is its character.
    emoji = child.tag == "img" and "emoji" in child.get("class", "")
    label = text if emoji else f"{text} ({child.get('href') or child.get('src') or ''})"
    span = etree.Element("span")
    span.text = label
    span.tail = child.tail
    parent.remove(child)
    parent.insert(index, span)


class GuardExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.ct_guard = False  # type: ignore[attr-defined]
        md.preprocessors.register(_Hidden(md), "ct_hidden", 1000)  # markdown-include's is 101
        md.preprocessors.register(_Marker(md), "ct_guard", 35)
        md.preprocessors.register(_Sections(md), "ct_sections", 29)  # once whitespace is normalised
        md.preprocessors.register(_ExcerptsAside(md), "ct_excerpts_aside", 31.2)  # pymdownx.critic's is 31.1
        md.preprocessors.register(_ExcerptsBack(md), "ct_excerpts_back", 31.0)
        md.preprocessors.register(_MarkedSections(md), "ct_marked_sections", 21.5)  # MkDocs' mkdocs_raw_html is 21
        md.treeprocessors.register(_LinkGuard(md), "ct_link_guard", 5)
        md.treeprocessors.register(PlainText(md), "ct_plain_text", PRIORITY)


def makeExtension(**kwargs: Any) -> GuardExtension:
    return GuardExtension(**kwargs)

"""Text no inline pattern can match is passed over by the inline processor on
transcript pages (render/plaintext.py): the HTML is the one Python-Markdown makes
without that, and other extensions' patterns still apply."""

from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Iterator
from contextlib import contextmanager

import markdown
import pytest
from hypothesis import example, given
from markdown.extensions import Extension
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString
from mkdocs.utils.meta import get_data

from mkdocs_claude_transcripts.pipeline import RenderOptions, convert_session, discover
from mkdocs_claude_transcripts.render import plaintext
from mkdocs_claude_transcripts.render.fences import FENCES
from mkdocs_claude_transcripts.render.guard import MARKER
from mkdocs_claude_transcripts.render.markdown import block, inline, prose, table

from .test_golden import CASES, case_files
from .test_markdown_properties import SETTINGS, TEXT

# The extensions of a Material site, with those the plugin adds.
MATERIAL = [
    "toc", "tables", "admonition", "attr_list", "pymdownx.details", "pymdownx.superfences", "pymdownx.highlight",
    "pymdownx.betterem", "mkdocs_claude_transcripts.render.guard",
]  # fmt: skip
# Those Material's documentation suggests, all together.
SUGGESTED = [
    "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "toc", "tables", "pymdownx.arithmatex",
    "pymdownx.betterem", "pymdownx.caret", "pymdownx.details", "pymdownx.emoji", "pymdownx.highlight",
    "pymdownx.inlinehilite", "pymdownx.keys", "pymdownx.mark", "pymdownx.smartsymbols", "pymdownx.superfences",
    "pymdownx.tabbed", "pymdownx.tasklist", "pymdownx.tilde", "mkdocs_claude_transcripts.render.guard",
]  # fmt: skip
CONFIGS = {
    "pymdownx.superfences": {"custom_fences": FENCES},
    "toc": {"permalink": True},
    "pymdownx.arithmatex": {"generic": True},
}


@contextmanager
def _skipping(on: bool) -> Iterator[None]:
    run = plaintext.PlainText.run
    if not on:
        plaintext.PlainText.run = lambda self, root: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        plaintext.PlainText.run = run  # type: ignore[method-assign]


def _html(text: str, extensions: list, skip: bool = True) -> str:
    with _skipping(skip):
        return markdown.markdown(text, extensions=extensions, extension_configs=CONFIGS)


@contextmanager
def _watching(seen: list[tuple[str, bool]]) -> Iterator[None]:
    """Notes the texts the inline processor is then given, and whether each is marked."""
    run = plaintext.PlainText.run

    def watched(self: plaintext.PlainText, root: etree.Element) -> None:
        run(self, root)
        seen.extend(
            (text, isinstance(text, AtomicString))
            for e in root.iter()
            for text in (e.text, e.tail)
            if text and text.strip()
        )

    plaintext.PlainText.run = watched  # type: ignore[method-assign]
    try:
        yield
    finally:
        plaintext.PlainText.run = run  # type: ignore[method-assign]


def _page(*lines: str) -> str:
    return "\n".join([MARKER, *lines])


PAGE = _page(
    *prose("Plain words of a prompt, and then `code`, **strong**, a [link](https://example.com) & <b>markup</b>."),
    "",
    *block("ct-user", "User · 09:02", prose("Nothing special here.\nA second line.")),
    "",
    *table(["tool", "calls"], [["Read", "3"], ["Bash", "a_b"]]),
)


def test_a_transcript_page_has_its_plain_text_marked_and_the_rest_left_to_the_patterns() -> None:
    seen: list[tuple[str, bool]] = []
    with _watching(seen):
        _html(PAGE, MATERIAL)
    marked = {text.strip() for text, atomic in seen if atomic}
    assert {"Nothing special here.\nA second line.", "Read", "3", "Bash", "tool", "calls"} <= marked
    assert not any(atomic for text, atomic in seen if "`" in text or "a_b" in text)
    # A page of the site that is not a transcript's is left as it is.
    seen.clear()
    with _watching(seen):
        _html(PAGE.replace(MARKER, ""), MATERIAL)
    assert seen and not any(atomic for _, atomic in seen)


@pytest.mark.parametrize("extensions", [MATERIAL, SUGGESTED], ids=["material", "suggested"])
@pytest.mark.parametrize("case", CASES)
def test_each_golden_page_renders_the_same_with_plain_text_passed_over(case: str, extensions: list[str]) -> None:
    pages = convert_session(discover(case_files(case)).sessions[0], RenderOptions()).pages
    for page in pages:
        text, _ = get_data(page.markdown)  # (its front matter, as MkDocs takes it)
        assert text.startswith(MARKER)
        assert _html(text, extensions) == _html(text, extensions, skip=False)


@SETTINGS
@given(TEXT, TEXT)
def test_any_text_renders_the_same_with_plain_text_passed_over(first: str, second: str) -> None:
    page = _page(
        *prose(first),
        "",
        *block("note", inline(second), prose(second)),
        "",
        *table([inline(first)], [[inline(second)]]),
    )
    assert _html(page, MATERIAL) == _html(page, MATERIAL, skip=False)


@SETTINGS
@given(TEXT, TEXT)
@example("an _emphasis_ and a __strong__ one", "a *star* and **two**")
@example("a line that breaks  \nhere", "an entity &amp; alone")
@example("<b>bold</b>", "<https://example.com> <a@b.c>")
@example("a [link](https://example.com) and ![an image](images/0123456789abcdef.png)", "`code` and \\*not emphasis\\*")
@example("the 21st (c) 1/2 --> c/o", "$x$ ==m== ^^i^^ ~~d~~ :smile: ++ctrl++ [^1]")
def test_any_markdown_renders_the_same_with_plain_text_passed_over(first: str, second: str) -> None:
    """Written as it comes, not escaped as transcript text is: each character a
    pattern starts from must be known."""
    page = _page(first, "", "!!! note", "", "    " + second, "", f"| a | b |\n|---|---|\n| {first} | {second} |")
    for extensions in (MATERIAL, SUGGESTED):
        assert _html(page, extensions) == _html(page, extensions, skip=False)


@pytest.mark.parametrize(
    ("extensions", "text", "made"),
    [
        # They share betterem's pattern, given their characters.
        (
            ["pymdownx.tilde", "pymdownx.caret", "pymdownx.mark"],
            "A ~~struck~~, ^^inserted^^ and ==marked== word",
            ["<del>", "<ins>", "<mark>"],
        ),
        (["pymdownx.emoji"], "A :smile: word", ["<span>\U0001f604</span> word"]),  # (the guard keeps the image's character alone)
        (["pymdownx.keys"], "Press ++ctrl+c++ now", ['<span class="keys">']),
        (["pymdownx.inlinehilite"], "A `#!python print(1)` call", ['class="highlight"']),
        (["footnotes"], "A note[^1]\n\n[^1]: Its text", ['<sup id="fnref:1">']),
        (["pymdownx.arithmatex"], "Where $x = 1$ holds", ['class="arithmatex"']),
        # A second pass of inline patterns, after the first.
        (
            ["pymdownx.smartsymbols"],
            "The 21st (c) 1/2 --> c/o",
            ["21<sup>st</sup>", "&copy;", "&frac12;", "&rarr;", "&#8453;"],
        ),
        (["pymdownx.smartsymbols"], "The 21st and the 12th", ["21<sup>st</sup>", "12<sup>th</sup>"]),
        (["pymdownx.smartsymbols"], "Then -- and --> ", ["&rarr;"]),
        # A processor that passes marked text over: known when there is nothing for it to do.
        (SUGGESTED, "A ==marked== :smile: on the 2nd", ["<mark>", "\U0001f604", "2<sup>nd</sup>"]),
    ],
)
def test_the_patterns_of_known_extensions_still_apply(extensions: list[str], text: str, made: list[str]) -> None:
    page = _page(text, "", "A plain one")
    seen: list[tuple[str, bool]] = []
    with _watching(seen):
        html = _html(page, [*MATERIAL, *extensions])
    assert all(mark in html for mark in made), html
    assert ("A plain one", True) in seen and (text.split("\n")[0], False) in seen
    assert html == _html(page, [*MATERIAL, *extensions], skip=False)


class _Ostrich(Extension):
    """A pattern of another extension, matching a plain word."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        class Bird(InlineProcessor):
            def handleMatch(self, m, data):  # type: ignore[no-untyped-def]
                element = etree.Element("em")
                element.text = "OSTRICH"
                return element, m.start(0), m.end(0)

        md.inlinePatterns.register(Bird(r"ostrich", md), "ostrich", 75)


@pytest.mark.parametrize(
    ("extension", "made"),
    [
        (_Ostrich(), "<em>OSTRICH</em>"),
        ("smarty", "&ndash;"),
        ("abbr", '<abbr title="Hypertext Markup Language">HTML</abbr>'),
        ("pymdownx.magiclink", '<a href="http://www.example.com">www.example.com</a>'),
    ],
)
def test_with_a_pattern_or_processor_of_another_extension_nothing_is_marked(extension: object, made: str) -> None:
    text = _page("An ostrich -- says HTML at www.example.com", "", "*[HTML]: Hypertext Markup Language")
    seen: list[tuple[str, bool]] = []
    with _watching(seen):
        html = _html(text, [*MATERIAL, extension])
    assert made in html
    assert seen and not any(atomic for _, atomic in seen)

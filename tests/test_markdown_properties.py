"""Property tests of the safe Markdown primitives: any string placed in inline text,
a block or a fence comes out in the HTML as that string, inside its container.

These run without the page guard (render/guard.py), so they test the escaping of
render/markdown.py on its own, with the extensions a Material site uses.
"""

from __future__ import annotations

import re

import markdown
import pytest
import yaml
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from mkdocs_claude_transcripts.render import brackets
from mkdocs_claude_transcripts.render import markdown as md
from mkdocs_claude_transcripts.render.fences import FENCES
from mkdocs_claude_transcripts.render.guard import MARKER
from mkdocs_claude_transcripts.render.markdown import block, clean, fence, front_matter, inline, prose

EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.betterem",
    "pymdownx.details",
    "pymdownx.superfences",
    "pymdownx.tabbed",
]

FRAGMENTS = st.sampled_from(
    [
        "<script>", "</script>", "<img src=x onerror=alert(1)>", "</div>", "</details>", "<details>", "<!--", "-->",
        "<a href='javascript:x'>", "```", "````", "~~~", "!!! note", "??? note", "???+", "/// details", "{:",
        "{: onclick=x }", "}", "{{", "{%", "[x]: ", "](", "![", "[", "]", "(", ")", "\n", "\n\n", "    ", "\t",
        "&lt;", "&", "&#60;", "#", "# ", "---", "===", "|", "*", "**", "_", "`", "``", "\\", "\x02", "\x03",
        "--8<--", "javascript:", "=== \"t\"", "> ", "- ", "1. ", "2. ", "1) ", "* ", "  ", ":", "~", "^", "$", "<", ">", '"', "'", "\r",
        "\x00", "\u2028", "x", "word", " ",
        # Whitespace to Python, not to Python-Markdown (which takes only spaces and tabs for blank).
        "\xa0", "\u3000", "\x0c", "\x0b", "\x85", "\u2029",
    ]
)  # fmt: skip
TEXT = st.lists(st.one_of(FRAGMENTS, st.text(max_size=4)), max_size=40).map("".join)
ALLOWED = {
    "p", "em", "strong", "code", "pre", "div", "span", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr",
    "th", "td", "blockquote", "hr", "br", "details", "summary", "dl", "dt", "dd", "sup", "abbr", "h1",
}  # fmt: skip
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def render(lines: list[str], guard: bool = False, more: list[str] | None = None) -> BeautifulSoup:
    extensions = EXTENSIONS + (more or []) + (["mkdocs_claude_transcripts.render.guard"] if guard else [])
    text = "\n".join(([MARKER] if guard else []) + lines)
    configs = {"pymdownx.superfences": {"custom_fences": FENCES}}  # as the plugin registers them
    return BeautifulSoup(markdown.markdown(text, extensions=extensions, extension_configs=configs), "html.parser")


def only_child(soup: BeautifulSoup):
    children = [c for c in soup.children if getattr(c, "name", None) or str(c).strip()]
    assert len(children) == 1, f"the block does not hold everything: {[str(c)[:80] for c in children]}"
    return children[0]


@SETTINGS
@given(TEXT)
def test_a_fence_shows_its_text_verbatim_inside_its_block(text: str) -> None:
    soup = render(block("ct-test", "Output", fence(text), collapsible="closed"))
    details = only_child(soup)
    assert details.name == "details"
    code = details.find("code")
    assert code.get_text().rstrip("\n") == as_shown(text)


def as_shown(text: str) -> str:
    """The text a fence shows: the same, but with tabs expanded and lines of spaces
    emptied (Python-Markdown does both everywhere), and no blank lines at its end."""
    lines = [line.expandtabs(4) for line in clean(text).split("\n")]
    lines = ["" if not line.strip(" ") else line for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


@SETTINGS
@given(TEXT)
@example("/p/\u202eexe.txt \u2067a\u202eb\u202cc")  # changes of direction left open go, the others stay
def test_inline_text_is_shown_literally_as_a_title(text: str) -> None:
    assume(md._bidi_balanced(" ".join(clean(text).split())))  # an empty title is no title at all
    soup = render(block("ct-test", inline(text), ["body"]))
    admonition = only_child(soup)
    title = admonition.find(class_="admonition-title")
    assert title.get_text() == md._bidi_balanced(" ".join(clean(text).split()))
    assert not title.find_all(True)


@pytest.mark.parametrize(
    "text",
    ["/srv/1/2/file.txt", "reports/1/4/2025", "docs/c/o/x.md", "a (c) b (TM) (r)", "+/- and =/=", "a --> b <-- c <--> d",
     "the 1st, 22nd, 3rd and 11th", "1/2 of https://x.y/1/2"],
)  # fmt: skip
def test_a_title_is_literal_with_smartsymbols(text: str) -> None:
    """pymdownx.smartsymbols (one of the extensions Material's documentation sets up)
    reads marks in any text: a file's path in a block's title or a table's cell,
    "/srv/1/2/file.txt", showed "/srv/½/file.txt", "a --> b" showed "a → b", "1st" a
    raised "st". A literal text is what was written."""
    extensions = ["pymdownx.smartsymbols", "pymdownx.magiclink"]
    soup = render(block("ct-test", inline(text), ["body"]) + [""] + md.table(["a"], [[text]]), more=extensions)
    shown = soup.select(".admonition-title, td")
    assert [element.get_text() for element in shown] == [text, text]
    assert not any(element.find_all(["sup", "sub"]) for element in shown)


ADDRESSED = st.lists(
    st.sampled_from(["https://x.y/", "www.x.y/", "http://a_b.c.d/", "_", "__", "*", "**", "(", ")", "[", "]", " ", "a",
                     ".", "?", "!", ";", "&", "&amp;", "#", "\\", "`", ":", "'", '"', "/", "=", "==", "<", "{", "}",
                     "~", "~~", "^", "|", "$"]),
    max_size=30,
).map("".join)  # fmt: skip


@SETTINGS
@given(ADDRESSED)
@example("see https://example.com/a_b_c/d?x_y=1 now")
@example("https://x.org/_a_/b_c_ and _x_ https://x.org/*a*")
@example("https://x.y/~ and https://x.y/a~~b~~ https://x.y/^ https://x.y/$")
def test_a_title_with_web_addresses_is_shown_literally_with_magiclink(text: str) -> None:
    """Each web address pymdownx.magiclink links in a title is linked to itself, and
    no mark in one, or out of one, is read as Markdown (a line may break right after
    one, where a character reference follows it)."""
    assume(" ".join(clean(text).split()))
    extensions = ([], ["pymdownx.magiclink"], ["pymdownx.magiclink", "pymdownx.betterem", "pymdownx.tilde", "pymdownx.caret"])
    for more in extensions:
        title = only_child(render(block("ct-test", inline(text), ["body"]), more=more)).find(class_="admonition-title")
        assert title.get_text() == " ".join(clean(text).split())
        for element in title.find_all(lambda element: element.name != "wbr"):
            assert element.name == "a" and more, element
            assert element["href"] in (element.get_text(), "http://" + element.get_text())


@pytest.mark.parametrize("heading", [False, True])
@pytest.mark.parametrize(
    ("text", "linked"),
    [
        ("see https://example.com/a_b_c/d?x_y=1 now", "https://example.com/a_b_c/d?x_y=1"),
        ("Fetch https://x.org/__init__.py_", "https://x.org/__init__.py"),  # a mark at its end is not its own
        ("(https://en.wikipedia.org/wiki/Snake_case)", "https://en.wikipedia.org/wiki/Snake_case"),
        ("https://x.org/*a*/b_{c}[d]/e!", "https://x.org/*a*/b_{c}[d]/e"),
        ("www.example.com/read_me", "www.example.com/read_me"),
        ("Fetch https://example.com/a_b~ now", "https://example.com/a_b"),  # a mark written as a reference after it
        ("https://x.org/p^", "https://x.org/p"),
        ("cost https://x.org/p$ and", "https://x.org/p"),
        ("[note]https://x.org/a_b", "https://x.org/a_b"),  # after a mark escaped with a backslash
    ],
)
def test_a_web_address_in_a_title_is_linked_whole_by_magiclink(text: str, linked: str, heading: bool) -> None:
    lines = [md.heading(text)] if heading else block("ct-test", md.breakable(inline(text)), ["body"])
    page = render(lines, guard=True, more=["pymdownx.magiclink", "pymdownx.betterem"])
    links = page.find_all("a")
    assert [link.get_text() for link in links] == [linked]
    assert links[0]["href"] == ("http://" if linked.startswith("www.") else "") + linked
    assert " ".join(page.find(["h1", "p"]).get_text().split()) == text


@pytest.mark.parametrize(
    ("text", "linked"),
    [
        ("see https://example.com/a_b_c/d?x_y=1 now", "https://example.com/a_b_c/d?x_y=1"),
        ("Fetch http://localhost/__devtools__/ first", "http://localhost/__devtools__/"),
        ("(https://en.wikipedia.org/wiki/Snake_case)", "https://en.wikipedia.org/wiki/Snake_case"),
        ("https://x.org/*a*/b_c?d=1&e_f=2.", "https://x.org/*a*/b_c?d=1&e_f=2"),
    ],
)
def test_a_web_address_in_prose_is_linked_whole_by_magiclink(text: str, linked: str) -> None:
    """A web address in a message is linked whole by pymdownx.magiclink, where a site
    has it (a backslash before its "_" ended the link there), and shown as written
    with or without it."""
    for more in ([], ["pymdownx.magiclink", "pymdownx.betterem"]):
        page = render(block("ct-test", "Answer", prose(text)), guard=True, more=more)
        body = only_child(page).select_one("p:not(.admonition-title)")
        assert body.get_text() == text
        links = body.find_all("a")
        assert [(link.get_text(), link["href"]) for link in links] == ([(linked, linked)] if more else [])


def test_an_underscore_out_of_a_web_address_is_still_escaped_in_a_title() -> None:
    assert inline("snake_case _x_ https://x.org/a_b") == "snake\\_case \\_x\\_ https://x.org/a&#95;b"


@SETTINGS
@given(TEXT)
@example("```<script>````<script>`")  # backticks Python-Markdown pairs its own way
@example("a `b\n`<script>`")  # a code span across lines
@example("](x[a](javascript:alert(1))")  # a link inside the target of another "]("
@example("](![]()")
@example("\u2028\n- ")  # a line blank to Python but not to Python-Markdown: no heading of it
@example("- >[x]:javascript:alert(1)\n>[x]")  # a link definition in a quote in a list's item
@example("1. - > [x]: ://[]\n[x]")
def test_prose_stays_inside_its_block_and_carries_no_markup(text: str) -> None:
    soup = render(block("ct-test", "Answer", prose(text)))
    admonition = only_child(soup)
    assert "ct-test" in admonition["class"]
    for element in admonition.find_all(True):
        assert element.name in ALLOWED, element.name
        for name, value in element.attrs.items():
            assert not name.startswith("on"), name
            if name == "href":
                assert value.startswith(("http://", "https://", "mailto:", "#")), value


BRACKETED = st.lists(
    st.sampled_from(["[", "]", "[", "]", "(", ")", "`", "``", "\\", "!", "\n", "\n\n", "- ", "| ", " | ", "\t",
                     "[a](https://x.y)", "[b][c]", "  ", "1. ", "[TOC]", "x", " ", "```\n", "    ", "*", "**", "_", "~~", "==",
                     "^^", "++", "$", ":", "'", '"', "https://x.y/", "www.x.y", "a@b.c", "\x1b", "--", "\\("]),
    max_size=40,
).map("".join)  # fmt: skip
# Extensions that could tell an escaped bracket from a bracket: emphasis, web
# addresses, math, smart quotes and symbols.
NEIGHBOURS = [
    "pymdownx.magiclink", "pymdownx.tilde", "pymdownx.mark", "pymdownx.caret", "pymdownx.keys",
    "pymdownx.arithmatex", "pymdownx.smartsymbols", "pymdownx.emoji", "smarty",
]  # fmt: skip


@SETTINGS
@given(BRACKETED)
@example("[a\nb](https://x.y)")  # a link's text over two lines
@example("[`]`](https://x.y) [")  # a "]" in a code span closes nothing
@example("\\\\[a](https://x.y) \\[")  # an escaped backslash, then a link; an escaped bracket
@example("[" * 20 + "a" + "]" * 20 + "(https://x.y)")  # nested deeper than is kept
@example("![\t[\t")  # tabs after an escape: expanded as before it
@example("x>**[*")  # emphasis tells a bracket from an escape
@example("see https://x.y/a[b")  # a web address may hold a bracket
@example("$[0, 1)$")  # and so may math
@example("$```\n[\n[$")  # math over several lines of a paragraph
@example("- x\n    a [ b\n  c [")  # text of a list's item, indented as code would be
@example("- x\n  - y\n      a [\n\n          [ code\n\n      [ text")  # code in an item, text after it
def test_escaping_brackets_that_open_nothing_leaves_the_page_as_it_was(text: str) -> None:
    # Brackets that no "]" closes (and brackets nested very deep) are escaped, so that
    # Python-Markdown does not search the paragraph for their end: the page is the same
    # (but where a paragraph holds so many that they are escaped whatever the extensions).
    original, budget = brackets.escape_unclosed, brackets.SEEN_AT_MOST
    brackets.SEEN_AT_MOST = len(text)
    try:
        escaped = prose(text)
        brackets.escape_unclosed = lambda out, fenced, texts=(): None
        plain = prose(text)
    finally:
        brackets.escape_unclosed, brackets.SEEN_AT_MOST = original, budget
    assert str(render(escaped, more=NEIGHBOURS)) == str(render(plain, more=NEIGHBOURS))


@SETTINGS
@given(TEXT)
def test_the_guard_lets_no_html_through_even_unescaped(text: str) -> None:
    # Raw transcript text, with no escaping at all, in a guarded page.
    soup = render(["!!! ct-test \"T\"", "", *("    " + line for line in clean(text).split("\n"))], guard=True)
    # Markdown structure may come out of unescaped text (that is what prose() prevents);
    # HTML may not, nor images, nor links that leave the web.
    structure = ALLOWED | {"h2", "h3", "h4", "h5", "h6", "input", "label"}
    for element in soup.find_all(True):
        assert element.name in structure, element.name
        assert not any(name.startswith("on") for name in element.attrs)
        if element.name == "a":
            assert element["href"].startswith(("http://", "https://", "mailto:", "#")), element["href"]


def test_a_front_matter_is_yaml_whatever_characters_its_title_holds() -> None:
    """MkDocs reads a front matter YAML refuses as the page's text, and the page then
    goes without its settings (the guard, ``render_macros: false``): every character
    a title can hold, a control character, a noncharacter or half of an emoji among
    them, leaves it YAML, whose title shows the rest."""
    for start in range(0, 0x110000, 0x1000):
        title = "it" + "".join(map(chr, range(start, start + 0x1000))) + "s"
        lines = front_matter(title, tags=[title])
        data = yaml.safe_load("\n".join(lines[1 : lines.index("---", 1)]))
        assert data["render_macros"] is False and data["title"].startswith("it") and data["title"].endswith("s"), hex(start)
        assert data["tags"] == [data["title"]]


BLANKS = st.lists(
    st.sampled_from(["\n", "\n\n\n", " \n", "\t\n", "\n  \n", "\u2028\n", "x", "word ", "- ", "  - ", "1. ", "1) ", "> ", ">\n",
                     "    ", "```\n", "~~~\n", "| a | b |\n", "|---|---|\n", "# ", "---\n", "[", "](x)", "*", "`", "\\"]),
    max_size=40,
).map("".join)  # fmt: skip


@SETTINGS
@given(BLANKS)
@example("a\n\n\n\n    code\n\n\n\n    more\n\n\nb")  # in code, blank lines are kept
@example("- a\n\n\n\n    b\n\n\n- c")  # an item's paragraphs
@example("> a\n\n\n> b")
@example("```\na\n\n\n\nb\n```\n\n\nc")
@example("- ---\nx\n\n\n    x")  # a rule, not an item: x is text, and the code after it code
def test_a_run_of_blank_lines_in_prose_is_written_as_one_and_shows_the_same(text: str) -> None:
    squeezed = prose(text)
    original = md._goes_on_blanks
    md._goes_on_blanks = lambda line, blank: False
    try:
        every = prose(text)
    finally:
        md._goes_on_blanks = original
    assert len(squeezed) <= len(every)
    assert str(render(squeezed)) == str(render(every))


def test_a_prompt_of_a_million_blank_lines_is_two_paragraphs() -> None:
    lines = prose("Before." + "\n \n" * 500_000 + "After.")
    assert lines == ["Before.", "", "After."]


def _without_breaks(page: BeautifulSoup) -> str:
    for br in page.find_all("br"):
        br.replace_with(" ")
    return re.sub(r" ?(<[^>]*>) ?", r"\1", " ".join(str(page).split()))


@SETTINGS
@given(BLANKS)
@example("a\nb\n- c\n  d\n> e\n> f\n\n| g | h |\n|---|---|\n| i | j |")
@example("a `b\nc` d\\\ne")  # a code span across lines, a backslash at a line's end
@example("x\n*[\t\n*")  # a tab that ends a line after a mark of emphasis: a line break
def test_keeping_line_breaks_changes_nothing_but_the_breaks(text: str) -> None:
    kept, run = render(prose(text, line_breaks=True)), render(prose(text))
    assert _without_breaks(kept) == _without_breaks(run)


@pytest.mark.parametrize("line_breaks", [False, True])
@pytest.mark.parametrize(
    ("text", "codes", "shown"),
    [
        ("see `foo\nbar` here\nnext", ["foo bar"], "see foo bar here next"),
        ("> see `foo\n> bar` x", ["foo bar"], "see foo bar x"),
        ("> see `foo\nbar` x", ["foo bar"], "see foo bar x"),  # a line that goes on the quote lazily
        ("- a `b\n  c` d\n- e", ["b c"], "a b c d e"),
        ("a `b\nc\nd` e `f` g", ["b c d", "f"], "a b c d e f g"),
        ("a `b\n- c`", [], "a `b c`"),  # an item is no text of the span
        ("a `b\n\nc`", [], "a `b c`"),  # nor is another paragraph
    ],
)
def test_a_code_span_across_lines_of_a_paragraph_is_one_span(
    text: str, codes: list[str], shown: str, line_breaks: bool
) -> None:
    page = render(prose(text, line_breaks=line_breaks))
    assert [code.get_text() for code in page.find_all("code")] == codes
    assert " ".join(page.get_text().split()) == shown


def test_lines_after_a_code_span_across_lines_keep_their_breaks() -> None:
    page = render(prose("see `foo\nbar` here\nnext\nlast", line_breaks=True))
    assert str(page.p).count("<br/>") == 2
    assert page.p.code.get_text() == "foo bar"


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("fix this:\nthe build fails\n*twice*", [["fix this:", "the build fails", "twice"]]),
        ("- a\n  b\n- c", [["a", "b"], ["c"]]),
        ("> a\n> b\n\nc\nd", [["a", "b"], ["c", "d"]]),
    ],
)
def test_kept_line_breaks_are_lines_on_the_page(text: str, lines: list[list[str]]) -> None:
    page = render(prose(text, line_breaks=True))
    shown = [[part.strip() for part in "".join(map(str, p.contents)).split("<br/>")] for p in page.find_all(["p", "li"]) if not p.find("p")]
    assert [[BeautifulSoup(part, "html.parser").get_text() for part in p] for p in shown] == lines


@pytest.mark.parametrize(
    "text",
    [
        "The table dp[i][j] holds the best cost.",
        "See [the docs][j] and [i] [j], or [i][].",
        "> a quote's [i]\n> [j]",
        "- an item's [i]\n  [j]",
        "[i]\n[j]",
        "At https://example.com/q?a=dp[i][j] too.",
    ],
)
def test_brackets_one_after_the_other_are_no_reference(text: str) -> None:
    """``dp[i][j]`` is a reference link's shape (``[text][label]``, ``[label][]``, on
    the next line too). No transcript defines a reference, but the page holding it may
    (an excerpt in a page of the site), and mkdocs-autorefs (mkdocstrings) reads every
    such pair as a reference to the site's pages: ``dp[i][j]`` was a link to the page
    "j" names, shown as "dpi", and in an excerpt a label the site did not know stopped
    a strict build. Here the page defines the label: the text is still as written.
    (A label alone, ``[j]``, is a link to what the page defines, as on any page.)"""
    soup = render([*prose(text), "", "[j]: https://example.com/j"])
    assert not soup.find_all("a"), soup
    shown = soup.get_text()
    for line in text.split("\n"):
        assert line.lstrip("-> ") in shown, (line, shown)

"""Markdown as Claude writes it (CommonMark, with GitHub's tables) shows on a page as
CommonMark shows it: the blocks of each message, their nesting and their text.

Each text is rendered as a message is (``prose``, in a block, on a guarded page)
and its blocks are read back as an outline, whether a list is tight or loose left
aside. The outlines expected are CommonMark's.
"""

from __future__ import annotations

import pytest
from bs4 import Comment, Tag

from mkdocs_claude_transcripts.render.markdown import block, prose

from .test_markdown_properties import render

_BLOCKS = {"ol", "ul", "li", "p", "blockquote", "table", "tr", "pre", "hr"}


def outline(text: str) -> str:
    """The blocks of ``text`` as a message shows them: "OL LI P:text /LI /OL"..."""
    page = render(block("ct-answer", "Answer", prose(text)), guard=True)
    body = page.find("div", class_="ct-answer")
    assert isinstance(body, Tag)
    body.find("p", class_="admonition-title").decompose()  # type: ignore[union-attr]
    return " ".join(_tokens(body))


def _tokens(element: Tag) -> list[str]:
    out: list[str] = []
    loose: list[str] = []  # text of a block, outside its nested blocks
    for child in element.children:
        if isinstance(child, Tag) and (child.name in _BLOCKS or child.find(list(_BLOCKS))):
            if " ".join(loose).split():
                out.append("P:" + " ".join(" ".join(loose).split()))
            loose = []
            if child.name == "p":
                out.append("P:" + " ".join(child.get_text().split()))
            elif child.name == "pre":
                out.append("CODE:" + " ".join(child.get_text().split()))
            elif child.name == "tr":
                out.append("TR:" + "|".join(" ".join(cell.get_text().split()) for cell in child.find_all(["th", "td"])))
            elif child.name == "hr":
                out.append("HR")
            elif child.name in _BLOCKS:
                start = f"({child['start']})" if child.name == "ol" and child.get("start") else ""
                out += [child.name.upper() + start, *_tokens(child), "/" + child.name.upper()]
            else:
                out += _tokens(child)  # a table's head and body, a highlighted block's div
        elif not isinstance(child, Comment):  # (a comment is not shown)
            loose.append(child.get_text() if isinstance(child, Tag) else str(child))
    if " ".join(loose).split():
        out.append("P:" + " ".join(" ".join(loose).split()))
    return out


CASES = {
    "a fence in a nested item, then the next items": (
        "1. **Phase 1**\n   - task a\n     ```bash\n     make\n     ```\n   - task b\n2. **Phase 2**",
        "OL LI P:Phase 1 UL LI P:task a CODE:make /LI LI P:task b /LI /UL /LI LI P:Phase 2 /LI /OL",
    ),
    "a nested item after a blank line": (
        "1. Setup:\n   - a\n\n   - b",
        "OL LI P:Setup: UL LI P:a /LI LI P:b /LI /UL /LI /OL",
    ),
    "a nested item's paragraph, then the next nested item": (
        "- Parent:\n  - a\n\n    more a\n  - b",
        "UL LI P:Parent: UL LI P:a P:more a /LI LI P:b /LI /UL /LI /UL",
    ),
    "a nested item, a blank line, then the next item of the list above": (
        "- a\n\n  - b\n- c",
        "UL LI P:a UL LI P:b /LI /UL /LI LI P:c /LI /UL",
    ),
    "numbered steps with code between them": (
        "1. Install:\n```bash\npip install x\n```\n2. Run:\n```bash\nx run\n```\n3. Done",
        "OL LI P:Install: /LI /OL CODE:pip install x OL(2) LI P:Run: /LI /OL CODE:x run OL(3) LI P:Done /LI /OL",
    ),
    "a numbered list that does not start at 1": (
        "Next:\n\n3. Third\n4. Fourth",
        "P:Next: OL(3) LI P:Third /LI LI P:Fourth /LI /OL",
    ),
    "a table right under an item's text": (
        "- Results:\n  | name | value |\n  |---|---|\n  | a | 1 |\n- next",
        "UL LI P:Results: TABLE TR:name|value TR:a|1 /TABLE /LI LI P:next /LI /UL",
    ),
    "a table right under a quote's text": (
        "> Results:\n> | name | value |\n> |---|---|\n> | a | 1 |",
        "BLOCKQUOTE P:Results: TABLE TR:name|value TR:a|1 /TABLE /BLOCKQUOTE",
    ),
    "a fence in a quote": (
        "> Run:\n> ```bash\n> ls <x> && echo\n> > not a quote\n> ```\n> after",
        "BLOCKQUOTE P:Run: CODE:ls <x> && echo > not a quote P:after /BLOCKQUOTE",
    ),
    "a fence the end of its quote ends": (
        "> ~~~\n> a < b && c\nafter",
        "BLOCKQUOTE CODE:a < b && c /BLOCKQUOTE P:after",
    ),
    "a fence in a quote after a list": (
        "- item\n\n> ~~~\n> a < b\n> ~~~\n- next",
        "UL LI P:item /LI /UL BLOCKQUOTE CODE:a < b /BLOCKQUOTE UL LI P:next /LI /UL",
    ),
    "a fence in an item of a quote": (
        "> 1. a\n>    ```bash\n>    make\n>    ```\n> 2. b",
        "BLOCKQUOTE OL LI P:a CODE:make /LI LI P:b /LI /OL /BLOCKQUOTE",
    ),
    "a quote right under an item's text": (
        "- item\n  > quoted\n  > more\n- next",
        "UL LI P:item BLOCKQUOTE P:quoted more /BLOCKQUOTE /LI LI P:next /LI /UL",
    ),
    "a table in a quote in an item": (
        "1. x\n   > | a | b |\n   > |---|---|\n   > | 1 | 2 |",
        "OL LI P:x BLOCKQUOTE TABLE TR:a|b TR:1|2 /TABLE /BLOCKQUOTE /LI /OL",
    ),
    "a lazy line in a nested item, then a fence": (
        "- x:\n  - step\n  goes on\n    ```python\n    x = 1\n    ```\n  - next",
        "UL LI P:x: UL LI P:step goes on CODE:x = 1 /LI LI P:next /LI /UL /LI /UL",
    ),
    "a list nested under an item's paragraph after a blank line": (
        "1. Migrate:\n   ```bash\n   make migrate\n   ```\n\n   Files made:\n   - `a.sql`\n   - `b.sql`\n2. Done",
        "OL LI P:Migrate: CODE:make migrate P:Files made: UL LI P:a.sql /LI LI P:b.sql /LI /UL /LI LI P:Done /LI /OL",
    ),
    "a rule right under a list": (
        "- a\n- b\n---\nafter",
        "UL LI P:a /LI LI P:b /LI /UL HR P:after",
    ),
    "rules one after another": (
        "text\n\n---\n---\n***",
        "P:text HR HR HR",
    ),
    "a pipe in code in a table's cell": (
        "| command | what |\n|---|---|\n| `ps \\| grep x` | a pipe \\| too |",
        "TABLE TR:command|what TR:ps | grep x|a pipe | too /TABLE",
    ),
    "a heading in a quote (in bold, as at the top)": (
        "> ## Documentation Index\n> Fetch the index at: x\n> ### Pages ###\n> - a",
        "BLOCKQUOTE P:Documentation Index P:Fetch the index at: x P:Pages UL LI P:a /LI /UL /BLOCKQUOTE",
    ),
    "a list right under a quote's text": (
        "> Steps:\n> 1. one\n> 2. two",
        "BLOCKQUOTE P:Steps: OL LI P:one /LI LI P:two /LI /OL /BLOCKQUOTE",
    ),
    # A list of the other kind starts a list of its own: Python-Markdown went on with the
    # first, its numbered items shown as bullets (or its bullets numbered).
    "a bulleted list, then a numbered one": (
        "- a\n- b\n\n1. x\n2. y",
        "UL LI P:a /LI LI P:b /LI /UL OL LI P:x /LI LI P:y /LI /OL",
    ),
    "a numbered list, then a bulleted one right under it": (
        "1. x\n2. y\n- a",
        "OL LI P:x /LI LI P:y /LI /OL UL LI P:a /LI /UL",
    ),
    "nested lists of both kinds in an item": (
        "- a\n  - b\n  1. c\n- d",
        "UL LI P:a UL LI P:b /LI /UL OL LI P:c /LI /OL /LI LI P:d /LI /UL",
    ),
    "a bulleted list, a paragraph, a numbered list": (
        "- a\n\ntext\n\n1. x",
        "UL LI P:a /LI /UL P:text OL LI P:x /LI /OL",
    ),
    "a rule written as an item, then text": (
        "- ---\nafter the rule",
        "HR P:after the rule",
    ),
    "a list, a rule written as an item, then text": (
        "- a\n- ---\nafter the rule",
        "UL LI P:a /LI /UL HR P:after the rule",
    ),
    "a rule written as an item in a nested item, then its text": (
        "- a\n  - b\n    - ---\n    after\n- c",
        "UL LI P:a UL LI P:b HR P:after /LI /UL /LI LI P:c /LI /UL",
    ),
    "a rule written as an item under a nested list, in its item": (
        "1. a\n   - b\n     - c\n     - ---\n     text after",
        "OL LI P:a UL LI P:b UL LI P:c /LI /UL HR P:text after /LI /UL /LI /OL",
    ),
    "a rule written as an item in an item, then less indented text": (
        "- a\n    - b\n        - ---\n    text\n\n        x",
        "UL LI P:a UL LI P:b HR /LI /UL P:text CODE:x /LI /UL",
    ),
    "a rule written as an item in an item, then text out of the list": (
        "- a\n    - ---\nafter\n\n    code",
        "UL LI P:a HR /LI /UL P:after CODE:code",
    ),
    "a quote under an item, less indented than its text": (
        "- a\n> quote\n> more\n\ntext",
        "UL LI P:a /LI /UL BLOCKQUOTE P:quote more /BLOCKQUOTE P:text",
    ),
    "a quote under a nested item, in its parent": (
        "1. a\n   - b\n     - c\n   > q\n   text",
        "OL LI P:a UL LI P:b UL LI P:c /LI /UL /LI /UL BLOCKQUOTE P:q text /BLOCKQUOTE /LI /OL",
    ),
    # GitHub makes a web address a link, its underscores and asterisks its own; but the
    # marks that end it (a bold's closing ** after it).
    "web addresses written as they are keep their underscores": (
        "Open http://localhost:8080/__devtools__/ or <https://x.org/*a*>, **also https://x.org/a_b_c**",
        "P:Open http://localhost:8080/__devtools__/ or <https://x.org/*a*>, also https://x.org/a_b_c",
    ),
    "a rule written as an item in an item, then the next item": (
        "- a\n    - ---\n- c\n  more",
        "UL LI P:a HR /LI LI P:c more /LI /UL",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_blocks_show_as_commonmark_shows_them(case: str) -> None:
    text, expected = CASES[case]
    assert outline(text) == expected


def test_the_outline_tells_lists_apart() -> None:
    # The outline itself: nesting, numbers and text are read from the page.
    assert outline("- a\n    - b") != outline("- a\n- b")
    assert outline("2. a") == "OL(2) LI P:a /LI /OL"


@pytest.mark.parametrize(("first", "under"), [("", ""), ("- ", "  "), ("- a\n  - ", "    ")])
def test_a_fence_indented_four_more_under_text_shows_its_code(first: str, under: str) -> None:
    # Not code there (CommonMark shows its backticks as text); written at the
    # indentation of code, the fence of the plugin's making showed its own markup.
    text = f"{first}Text:\n{under}    ```bash\n{under}    make <x>\n{under}    ```\nend"
    page = render(block("ct-answer", "Answer", prose(text)), guard=True)
    assert [pre.get_text().strip() for pre in page.find_all("pre")] == ["make <x>"]
    assert "ct-code" not in page.get_text()


def test_a_fence_under_an_item_python_markdown_does_not_read_shows_its_code() -> None:
    # "1)" is an item to CommonMark only: the fence under it was indented as code in the
    # item Python-Markdown reads, and showed its markup.
    page = render(block("ct-answer", "Answer", prose("3. step\n   1) run this\n        ```\n        make <x>\n        ```")), guard=True)
    assert [pre.get_text().strip() for pre in page.find_all("pre")] == ["make <x>"]
    assert "ct-text" not in page.get_text()


def test_a_heading_in_a_quote_is_bold_as_at_the_top() -> None:
    page = render(block("ct-answer", "Answer", prose("# Top\n\n> ## In a quote\n> text")), guard=True)
    assert [strong.get_text() for strong in page.find_all("strong")] == ["Top", "In a quote"]
    assert "#" not in page.get_text()


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("Steps:\n1) first\n2) second\n   goes on\n3) third", ["1) first", "2) second goes on", "3) third"]),
        ("> 1) a\n> 2) b", ["1) a", "2) b"]),
        ("- item\n\n  4) four\n  5) five", ["4) four", "5) five"]),
    ],
    ids=["after text", "in a quote", "in an item, from 4"],
)
def test_the_items_of_a_list_numbered_with_parentheses_are_lines_of_their_own(text: str, lines: list[str]) -> None:
    """CommonMark's list, text to Python-Markdown, which ran the items into one line:
    each item starts a line, as it does in CommonMark's list."""
    page = render(block("ct-answer", "Answer", prose(text)), guard=True)
    paragraph = next(p for p in page.find_all("p") if ")" in p.get_text())
    shown = [" ".join(part.split()) for part in paragraph.decode_contents().split("<br/>")]
    assert shown == lines


@pytest.mark.parametrize(
    "text",
    ["- a\n- b: x\n  lazy one\n- c", "- a\n- b: x\nlazy one\nand `two`\n- c", "- a\n  - b: x\n  lazy one\n- c"],
    ids=["indented", "lazy", "nested"],
)
def test_a_line_going_on_an_items_text_keeps_its_list_tight(text: str) -> None:
    """As CommonMark shows it: the items' text in no paragraph of its own (a blank line
    put before the next item made the list loose from there)."""
    page = render(block("ct-answer", "Answer", prose(text)), guard=True)
    items = page.find_all("li")
    assert [" ".join(li.find(string=True, recursive=False).split()) for li in items][-1] == "c"
    assert page.select("li p") == []
    assert "lazy one" in items[1].get_text()


@pytest.mark.parametrize(
    ("text", "strong", "emphasis", "shown"),
    [
        ("Run **add-*.sh** now", ["add-*.sh"], [], "Run add-*.sh now"),
        ("**tests/*.py** pass", ["tests/*.py"], [], "tests/*.py pass"),
        ("tests/*.py and src/*.py, src/*/main.rs and *x*", [], ["x"], "tests/*.py and src/*.py, src/*/main.rs and x"),
        ("(*It is.*) and *this*. Then **bold**", ["bold"], ["It is.", "this"], "(It is.) and this. Then bold"),
    ],
)
def test_the_asterisk_of_a_file_pattern_is_shown_and_pairs_with_no_other(text: str, strong: list[str], emphasis: list[str], shown: str) -> None:
    # As GitHub shows them: Python-Markdown paired such an asterisk with the next one.
    page = render(block("ct-answer", "Answer", prose(text)), guard=True)
    assert [tag.get_text() for tag in page.find_all("strong")] == strong
    assert [tag.get_text() for tag in page.find_all("em")] == emphasis
    assert [p.get_text() for p in page.find_all("p")][-1] == shown

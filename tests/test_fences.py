"""Code fences show every line of their code, whatever the language's lexer."""

from __future__ import annotations

import html
import re

import pytest
from pygments.lexers import get_all_lexers

from mkdocs_claude_transcripts.render.fences import code_format

SESSIONS = sorted({aliases[0] for name, aliases, *_ in get_all_lexers() if aliases and re.search("session|console", name, re.I)})


def shown(source: str, lang: str, numbered: bool) -> str:
    attrs = {"data-lang": lang, **({"data-start": "1"} if numbered else {})}
    out = code_format(source, "", "ct-code", {}, None, attrs=attrs)
    return html.unescape(re.sub(r"<[^>]+>", "", out))


@pytest.mark.parametrize("numbered", [False, True])
@pytest.mark.parametrize("lang", ["console", "bash", "python", "json", "diff", "", *SESSIONS])
def test_the_last_line_is_shown_too(lang: str, numbered: bool) -> None:
    # Without a newline at the end, a console session's lexer kept the last line back.
    text = shown("$ ls -la\nREADME.md\ncat: missing.txt: No such file or directory", lang, numbered)
    assert "ls" in text and "README.md" in text and "No such file or directory" in text


def test_sessions_are_found() -> None:
    assert "console" in SESSIONS and len(SESSIONS) > 5


def test_fences_are_put_back_into_a_page_at_once_as_they_were_one_by_one() -> None:
    # pymdownx.superfences put each fence back into a page's lines one at a time, copying
    # them all for each (10,000 fences on a page took 1.4 s for that alone): on a
    # transcript page it does it in one pass, and the page is the same.
    from markdown import Markdown

    from mkdocs_claude_transcripts.render.fences import FENCES
    from mkdocs_claude_transcripts.render.guard import MARKER
    from mkdocs_claude_transcripts.render.markdown import fence, prose

    lines = [MARKER, ""]
    for number in range(300):
        lines += [*fence(f"code {number}\n<b>&", "python" if number % 3 else ""), ""]
        lines += prose(f"> quoted\n> ```\n> in a quote {number}\n> ```\n\n- item\n\n    ```\n    in an item\n    ```\n\n```\nopen")

    def page(extensions: list[str]) -> tuple[str, object]:
        made = Markdown(extensions=["pymdownx.superfences", *extensions], extension_configs={"pymdownx.superfences": {"custom_fences": FENCES}})
        return made.convert("\n".join(lines)), made.preprocessors["fenced_code_block"]

    guarded, preprocessor = page(["mkdocs_claude_transcripts.render.guard"])
    assert getattr(preprocessor, "ct_at_once", False)
    plain, _ = page([])
    assert guarded.count("<pre") > 600 and guarded == plain.replace(MARKER, "").strip("\n")

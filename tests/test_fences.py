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

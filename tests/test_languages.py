"""The language of a file, for highlighting, is the one Pygments gives for its name."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pygments.lexers import find_lexer_class_for_filename
from pygments.lexers._mapping import LEXERS

from mkdocs_claude_transcripts.render.tools import language_of

PATTERNS = sorted({pattern for *_, filenames, _ in LEXERS.values() for pattern in filenames})


def name_for(pattern: str, stem: str = "file") -> str:
    return pattern.replace("*", stem).replace("?", "x").replace("[", "").replace("]", "")


def pygments_language(name: str) -> str:
    try:
        lexer = find_lexer_class_for_filename(name.rsplit("/", 1)[-1] or "x")
    except Exception:
        return ""
    return lexer.aliases[0] if lexer and lexer.aliases else ""


def test_every_file_name_pygments_knows_gets_pygments_language() -> None:
    names = [name_for(p) for p in PATTERNS] + ["dir/" + name_for(p, "a.b") for p in PATTERNS]
    wrong = {name: (language_of(name), pygments_language(name)) for name in names if language_of(name) != pygments_language(name)}
    assert not wrong


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcXYZ._-/", min_size=1, max_size=12))
def test_any_other_name_too(name: str) -> None:
    assert language_of(name) == pygments_language(name)

"""The two code fences of transcript pages, registered with pymdownx.superfences by
the plugin (``custom_fences``):

* ``ct-text``: plain text, written as a bare ``<pre><code>``;
* ``ct-code``: code in a language (``data-lang``), highlighted by Pygments, with the
  file's own line numbers when given (``data-start``), in the markup Material
  styles (``pymdownx-inline`` line numbers).

Both do what superfences with pymdownx.highlight would, for a fraction of the time:
one Pygments formatter for all blocks, no table of line numbers, and no highlighting
at all for text. Transcript pages hold thousands of code blocks.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

from pygments import highlight
from pygments.formatters.html import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

PLAIN = "ct-text"
CODE = "ct-code"

_FORMATTER = HtmlFormatter(nowrap=True)


def plain_format(source: str, language: str, class_name: str, options: dict, md: Any, **kwargs: Any) -> str:
    return f'<pre class="{PLAIN}"{_attributes(kwargs)}><code>{html.escape(source, quote=False)}</code></pre>'


def code_format(source: str, language: str, class_name: str, options: dict, md: Any, **kwargs: Any) -> str:
    attrs = dict(kwargs.get("attrs") or {})
    lang = attrs.pop("data-lang", "")
    start = attrs.pop("data-start", "")
    body = _highlighted(source, lang)
    if start.isdigit():
        first = int(start)
        lines = body.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        width = len(str(first + len(lines) - 1))
        body = "".join(
            f'<span class="linenos" data-linenos="{str(first + n).rjust(width)} "></span>{line}\n' for n, line in enumerate(lines)
        )
    language_class = f" language-{html.escape(lang)}" if lang else ""
    extra = _attributes({"attrs": attrs})
    return f'<div class="highlight{language_class}"{extra}><pre><span></span><code>{body}</code></pre></div>'


def _attributes(kwargs: dict[str, Any]) -> str:
    attrs = kwargs.get("attrs") or {}
    return "".join(f' {name}="{html.escape(str(value))}"' for name, value in attrs.items() if name.startswith("data-"))


def _highlighted(source: str, lang: str) -> str:
    """Highlighted code; remembered when short, since a file is often written, then
    read back, or read twice (at most 64 of them, a few megabytes)."""
    if len(source) > 16384:
        return _highlight(source, lang)
    return _remembered(source, lang)


@lru_cache(maxsize=64)
def _remembered(source: str, lang: str) -> str:
    return _highlight(source, lang)


def _highlight(source: str, lang: str) -> str:
    # Every line ends with a newline: some lexers (a console session's) hold back a
    # last line without one, and it would not be shown.
    return highlight(source if source.endswith("\n") else source + "\n", _lexer(lang), _FORMATTER)


@lru_cache(maxsize=128)
def _lexer(name: str) -> Lexer:
    if not name:
        return TextLexer(stripnl=False, ensurenl=False)
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


FENCES = [
    {"name": PLAIN, "class": PLAIN, "format": plain_format},
    {"name": CODE, "class": CODE, "format": code_format},
]

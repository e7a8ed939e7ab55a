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


def reassembled_at_once(fenced: Any) -> None:
    """Have pymdownx.superfences' preprocessor (``fenced``) put its fences' placeholders
    into a page's lines in one pass. It puts them one at a time, copying every line of
    the page for each, in time growing with the fences times the lines: a page of
    10,000 fences took 1.4 s for that alone. Where its list of fences is not as read
    here (in order, none inside another), it does as it did."""
    if getattr(fenced, "ct_at_once", False):
        return
    one_by_one = fenced.reassemble

    def reassemble(lines: list[str]) -> list[str]:
        stack = getattr(fenced, "stack", None)
        if not isinstance(stack, list) or not _in_order(stack):
            return one_by_one(lines)
        out: list[str] = []
        at = 0
        for placeholder, start, end in stack:
            out += lines[at:start]
            out.append(placeholder)
            at = end
        out += lines[at:]
        stack.clear()
        return out

    fenced.reassemble = reassemble
    fenced.ct_at_once = True


def _in_order(stack: list[Any]) -> bool:
    at = 0
    for item in stack:
        if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str)):
            return False
        start, end = item[1], item[2]
        if not (isinstance(start, int) and isinstance(end, int) and at <= start <= end):
            return False
        at = end
    return True


FENCES = [
    {"name": PLAIN, "class": PLAIN, "format": plain_format},
    {"name": CODE, "class": CODE, "format": code_format},
]

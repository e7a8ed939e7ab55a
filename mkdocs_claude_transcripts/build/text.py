"""Small text helpers shared by the build step."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r"<[^>\n]{1,200}>")


def shorten(text: str, width: int = 80) -> str:
    """The first line of ``text`` worth reading, collapsed and cut to ``width`` characters."""
    for line in text.strip().splitlines():
        line = _SPACE.sub(" ", _TAG.sub(" ", line)).strip()
        if line:
            return line if len(line) <= width else line[: width - 1].rstrip() + "…"
    return ""

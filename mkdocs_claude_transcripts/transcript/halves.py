"""Lone halves of UTF-16 pairs in JSON (``\\ud83d`` with nothing after it): Claude
Code writes text as it is, so such an escape is where a text was cut inside an emoji.
Python reads it into a string that cannot be written as UTF-8; it is made U+FFFD."""

from __future__ import annotations

import re
from typing import Any

from .jsonstrings import mapped

# JSON's escape of half a UTF-16 pair (\ud800 to \udfff).
HALF_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_HALF = re.compile("[\ud800-\udfff]")


def whole_characters(data: Any, found: list[int]) -> Any:
    """``data`` with each lone half of a UTF-16 pair replaced by U+FFFD; ``found[0]``
    counts them."""

    def whole(text: str) -> str:
        if _HALF.search(text):
            text, count = _HALF.subn("\ufffd", text)
            found[0] += count
        return text

    return mapped(data, whole, keys=True)

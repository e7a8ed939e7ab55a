"""Lone halves of UTF-16 pairs in JSON (``\\ud83d`` with nothing after it): Claude
Code writes text as it is, so such an escape is where a text was cut inside an emoji.
Python reads it into a string that cannot be written as UTF-8; it is made U+FFFD."""

from __future__ import annotations

import re
from typing import Any

# JSON's escape of half a UTF-16 pair (\ud800 to \udfff).
HALF_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_HALF = re.compile("[\ud800-\udfff]")


def whole_characters(data: Any, found: list[int]) -> Any:
    """``data`` with each lone half of a UTF-16 pair replaced by U+FFFD; ``found[0]``
    counts them."""
    if isinstance(data, str):
        if _HALF.search(data):
            data, count = _HALF.subn("\ufffd", data)
            found[0] += count
        return data
    if isinstance(data, dict):
        return {whole_characters(key, found): whole_characters(value, found) for key, value in data.items()}
    if isinstance(data, list):
        return [whole_characters(item, found) for item in data]
    return data

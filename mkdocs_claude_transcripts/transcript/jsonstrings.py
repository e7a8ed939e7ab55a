"""A transcript line's JSON as Python's ``json`` reads it (dicts, lists, strings,
numbers), and its strings, each changed, for what is done to every text of a line:
half characters made whole, secrets redacted, files' bytes named by their size."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

# Python turns no more digits than this into a number (``sys.get_int_max_str_digits``).
_MOST_DIGITS = 4300


def _number(digits: str) -> int | str:
    """A whole number of a line; one of more digits than Python reads, which no
    transcript holds, as a text saying so (a field that must be a number then drops
    it, and says so)."""
    if len(digits) <= _MOST_DIGITS:
        return int(digits)
    return f"(a number of {len(digits.lstrip('-')):,} digits)"


# Reads a line, or an object in a line, with ``raw_decode``.
DECODER = json.JSONDecoder(parse_int=_number)


def loads(text: str | bytes) -> Any:
    """``json.loads``, but for numbers too long for Python to read (``_number``)."""
    return DECODER.decode(text.decode("utf-8") if isinstance(text, bytes) else text)


def mapped(
    data: Any,
    change: Callable[[str], str],
    keys: bool = False,
    named: Callable[[str, Any], Any] | None = None,
    diff: Callable[[list[str]], list[str]] | None = None,
) -> Any:
    """``data`` with each string ``change``d (the keys of objects too, with ``keys``);
    a string or a number given to a key of an object (or each item of a list given to
    it), with ``named(key, value)`` where given; the lines of a hunk of a diff
    (Claude Code's ``structuredPatch``), all together, with ``diff`` where given."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, dict):
        lines = data.get("lines") if diff is not None and "oldStart" in data else None
        hunk = isinstance(lines, list) and all(isinstance(line, str) for line in lines)
        return {
            (change(key) if keys else key): diff(value) if hunk and key == "lines" else _given(key, value, change, keys, named, diff)  # type: ignore[misc]
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [mapped(item, change, keys, named, diff) for item in data]
    return data


def _given(
    key: str, value: Any, change: Callable[[str], str], keys: bool, named: Callable[[str, Any], Any] | None, diff: Callable[[list[str]], list[str]] | None
) -> Any:
    if named is None:
        return mapped(value, change, keys, diff=diff)
    if isinstance(value, list):
        return [_given(key, item, change, keys, named, diff) for item in value]
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return named(key, value)
    return mapped(value, change, keys, named, diff)

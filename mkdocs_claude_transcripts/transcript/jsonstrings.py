"""The strings of JSON data (a transcript line as Python's ``json`` reads it: dicts,
lists, strings, numbers), each changed, for what is done to every text of a line:
half characters made whole, secrets redacted, files' bytes named by their size."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def mapped(data: Any, change: Callable[[str], str], keys: bool = False) -> Any:
    """``data`` with each string ``change``d (the keys of objects too, with ``keys``)."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, dict):
        if keys:
            return {change(key): mapped(value, change, keys) for key, value in data.items()}
        return {key: mapped(value, change) for key, value in data.items()}
    if isinstance(data, list):
        return [mapped(item, change, keys) for item in data]
    return data

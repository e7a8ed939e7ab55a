"""A tool's whole output that Claude Code keeps apart from the transcript, in the
session's folder (``tool-results/<id>.txt``; ``<id>.json`` for a result of content
blocks), where its line holds only a preview (``discovery.py`` finds the files)."""

from __future__ import annotations

from typing import Any

from .jsonstrings import loads


def kept_output(path: str) -> Any:
    """The output kept at ``path``: its text; of a ``.json``, the JSON data it holds
    (its text where it is not JSON). An output that cannot be read is empty."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return ""
    if not path.endswith(".json"):
        return text
    try:
        return loads(text)
    except (ValueError, RecursionError):
        return text

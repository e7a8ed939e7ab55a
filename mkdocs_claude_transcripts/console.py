"""What the command line prints: lines that any terminal, pipe or file takes, whatever
the names of the files they name hold."""

from __future__ import annotations

import re
from typing import TextIO

# A byte of a file's name that is not UTF-8, as Python holds it (a lone surrogate).
_NOT_UTF8 = re.compile("[\udc80-\udcff]")


def printable(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can write it, whatever its encoding and its handling of
    errors: a byte of a file's name that is not UTF-8 as ``\\xe9`` (``caf\\xe9.jsonl``),
    any other character the encoding lacks (a lone surrogate of a transcript's JSON, a
    letter a terminal's code page lacks) as Python escapes it (``\\u2019``)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    text = _NOT_UTF8.sub(lambda found: f"\\x{ord(found[0]) - 0xDC00:02x}", text)
    return text.encode(encoding, "backslashreplace").decode(encoding)


def say(text: str, stream: TextIO, end: str = "\n") -> None:
    """Write ``text`` (and ``end``) on ``stream``, as it can write it."""
    stream.write(printable(text + end, stream))


def write_document(text: str, stream: TextIO) -> None:
    """Write a document (``--single-file``'s Markdown) on ``stream`` in UTF-8, the bytes a
    file of it holds, whatever encoding ``stream`` takes text in (a Windows code page
    lacks most of a transcript's characters); as text where it takes nothing else."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()

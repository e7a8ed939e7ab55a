"""Transcript files read as UTF-8 whatever Unicode encoding they were saved in.

Claude Code writes UTF-8. A file saved again by another program may start with a
byte order mark: of UTF-8 (an editor on Windows), read without it; of UTF-16
(Windows PowerShell's `Out-File` and `>`) or UTF-32, decoded, and read as UTF-8.
"""

from __future__ import annotations

import codecs
import io
from typing import BinaryIO

# Longest first: UTF-32's little-endian mark starts with UTF-16's.
_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def open_utf8(path: str) -> tuple[BinaryIO, str | None]:
    """``path`` opened for reading as UTF-8 bytes, and the encoding it was decoded
    from when that was not UTF-8 (None: it was). A file in UTF-16 or UTF-32 is
    decoded whole, in memory (such files are rare)."""
    handle = open(path, "rb")  # noqa: SIM115 (the caller closes it)
    try:
        start = handle.read(4)
        encoding = next((name for mark, name in _MARKS if start.startswith(mark)), None)
        if encoding is None or encoding == "utf-8":
            handle.seek(len(codecs.BOM_UTF8) if encoding else 0)
            return handle, None
        handle.seek(0)
        data = handle.read()
    except BaseException:
        handle.close()
        raise
    handle.close()
    text = data.decode(encoding, errors="replace")  # the codec reads the mark, and drops it
    return io.BytesIO(text.encode("utf-8")), encoding.upper()

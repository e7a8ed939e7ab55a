"""What converting a session found out, for converting it again once it has grown.

A session Claude Code is still writing grows a few lines at a time, and the plugin
converts it whole again each time. Two steps of that, the search for secrets in
every text and the Markdown of every message, give what they gave the last time
for what has not changed; a memo keeps them, from one conversion of a session to
the next (``cache.py`` keeps one for each transcript file):

* the texts in which no secret was found (long ones, known by a hash);
* the Markdown of each message, known by a hash of the message (its class and every
  field, as the content model holds them once redacted) and of what else its
  Markdown depends on (the options, the session's folder and subagents, the page).

A memo keeps what the conversion that made it used, and nothing more.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel


class Memo:
    def __init__(self, clean: list[str] | None = None, blocks: dict[str, list[str]] | None = None) -> None:
        self._clean = set(clean or ())
        self._blocks = blocks or {}
        self.clean: set[str] = set()  # those found, or used, this time
        self.blocks: dict[str, list[str]] = {}

    @staticmethod
    def digest(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    def is_clean(self, digest: str) -> bool:
        """Whether a text (by its ``digest``) was found free of secrets before."""
        if digest in self._clean:
            self.clean.add(digest)
            return True
        return False

    def found_clean(self, digest: str) -> None:
        self.clean.add(digest)

    @staticmethod
    def block_key(message: BaseModel, context: str) -> str:
        """The key of a message's Markdown, in a ``context`` (see ``PageContext.memo_context``)."""
        dump = message.model_dump_json(serialize_as_any=True, warnings=False)
        return Memo.digest(f"{type(message).__qualname__}\0{context}\0{dump}")

    def block(self, key: str) -> list[str] | None:
        lines = self._blocks.get(key)
        if lines is None:
            return None
        self.blocks[key] = lines
        return list(lines)

    def keep_block(self, key: str, lines: list[str]) -> None:
        self.blocks[key] = list(lines)

    def to_json(self) -> str:
        return json.dumps({"clean": sorted(self.clean), "blocks": self.blocks})

    @classmethod
    def from_json(cls, text: str) -> Memo:
        data: Any = json.loads(text)
        return cls(data["clean"], data["blocks"])

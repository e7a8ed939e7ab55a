"""What converting a session found out, for converting it again once it has grown.

A session Claude Code is still writing grows a few lines at a time, and the plugin
converts it whole again each time. Two steps of that, the search for secrets in
every text and the Markdown of every message, give what they gave the last time
for what has not changed; a memo keeps them, from one conversion of a session to
the next (``cache.py`` keeps one for each transcript file):

* the texts in which no secret was found (long ones, known by a hash);
* the Markdown of each message, known by a hash of the message (its class and every
  field, as the content model holds them once redacted) and of what else its
  Markdown depends on (the options, the session's folder and subagents, the page);
* where a long message was cut into pieces (render/cut.py), and what closes and opens
  again its blocks there, known by a hash of its Markdown.

A memo keeps what the conversion that made it used, and nothing more.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel


class Memo:
    def __init__(
        self, clean: list[str] | None = None, blocks: dict[str, list[str]] | None = None, cuts: dict[str, list[list[Any]]] | None = None
    ) -> None:
        self._clean = set(clean or ())
        self._blocks = blocks or {}
        self._cuts = cuts or {}
        self.clean: set[str] = set()  # those found, or used, this time
        self.blocks: dict[str, list[str]] = {}
        self.cuts: dict[str, list[list[Any]]] = {}

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

    @staticmethod
    def cut_key(lines: list[str], limit: int) -> str:
        """The key of where ``lines`` are cut for pieces of at most ``limit``."""
        return Memo.digest(f"{limit}\0{','.join(map(str, map(len, lines)))}\0" + "\n".join(lines))

    def cut(self, key: str) -> list[list[Any]] | None:
        """Where lines were cut: the index of each piece's first line, its weight, and
        the lines that close what is open before it and open it again (render/cut.py)."""
        pieces = self._cuts.get(key)
        if pieces is not None:
            self.cuts[key] = pieces
        return pieces

    def keep_cut(self, key: str, pieces: list[list[Any]]) -> None:
        self.cuts[key] = pieces

    def to_json(self) -> str:
        return json.dumps({"clean": sorted(self.clean), "blocks": self.blocks, "cuts": self.cuts})

    @classmethod
    def from_json(cls, text: str) -> Memo:
        data: Any = json.loads(text)
        return cls(data["clean"], data["blocks"], data.get("cuts"))

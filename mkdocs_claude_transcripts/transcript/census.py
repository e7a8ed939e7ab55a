"""Count what transcripts hold, by kind: entry types, content block types, system
subtypes, attachment types and tool names, as written in the JSONL."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import raw


@dataclass
class Census:
    entries: Counter[str] = field(default_factory=Counter)
    unreadable_entries: Counter[str] = field(default_factory=Counter)  # kept whole, shown generically
    blocks: Counter[str] = field(default_factory=Counter)
    systems: Counter[str] = field(default_factory=Counter)
    attachments: Counter[str] = field(default_factory=Counter)
    tools: Counter[str] = field(default_factory=Counter)
    odd_inputs: Counter[str] = field(default_factory=Counter)  # calls whose input ``fits`` refused
    # Blocks shown generically, by kind: of a kind shown in a tool's result found
    # elsewhere, or of a shape not known (raw.UnknownBlock: a text without its text)
    loose_blocks: Counter[str] = field(default_factory=Counter)
    fits: Callable[[str, Any], bool] = lambda name, value: True
    odd_attachments: Counter[str] = field(default_factory=Counter)  # attachments whose fields ``attachment_fits`` refused
    attachment_fits: Callable[[str, Any], bool] = lambda kind, data: True

    def add(self, entry: raw.AnyEntry) -> None:
        kind = str(getattr(entry, "type", None))
        self.entries[kind] += 1
        if isinstance(entry, raw.UnknownEntry):
            self.unreadable_entries[kind] += 1
        elif isinstance(entry, raw.SystemEntry):
            self.systems[entry.subtype or "(notice)"] += 1
        elif isinstance(entry, raw.AttachmentEntry):
            kind = str(entry.attachment.get("type"))
            self.attachments[kind] += 1
            if not self.attachment_fits(kind, entry.attachment):
                self.odd_attachments[kind] += 1
        elif isinstance(entry, (raw.UserEntry, raw.AssistantEntry)) and isinstance(entry.message.content, list):
            for block in entry.message.content:
                self._block(block)

    def _block(self, block: object, in_result: bool = False) -> None:
        kind = "unknown" if isinstance(block, raw.UnknownBlock) else str(getattr(block, "type", None))
        if isinstance(block, raw.UnknownBlock):
            kind = str(block.type)
        self.blocks[kind] += 1
        if isinstance(block, _RESULT_ONLY) and not in_result or isinstance(block, raw.UnknownBlock):
            self.loose_blocks[kind] += 1
        if isinstance(block, raw.ToolUseBlock):
            self.tools[block.name] += 1
            if not self.fits(block.name, block.input):
                self.odd_inputs[block.name] += 1
        elif isinstance(block, raw.ToolResultBlock) and isinstance(block.content, list):
            for inner in block.content:
                self._block(inner, in_result=True)


# Shown as part of a tool's result (the tools it made available), and only there.
_RESULT_ONLY = (raw.ToolReferenceBlock,)

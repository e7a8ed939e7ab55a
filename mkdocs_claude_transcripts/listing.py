"""What the site lists of a session: its entry in the nav and its row in the
transcripts index. Plain classes: a build whose sessions all come from the cache
reads them without loading the content model."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class NavEntry:
    """A page and the pages nested under it in the nav: a session and its subagents."""

    title: str
    page: str
    children: list[NavEntry] = field(default_factory=list)


@dataclass
class Row:
    """A session in the transcripts index: its own figures and its subagents' together."""

    page: str
    title: str
    started: datetime | None = None
    duration_seconds: float | None = None
    messages: int = 0
    tool_calls: int = 0
    errors: int = 0
    subagents: int = 0
    tokens: int = 0
    tags: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "started": self.started.isoformat() if self.started else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        started = data.get("started")
        return cls(**{**data, "started": datetime.fromisoformat(started) if started else None})

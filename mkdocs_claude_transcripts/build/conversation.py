"""Turn the raw entries of one conversation (a session or an agent) into messages.

Here live the rules that need the whole conversation in view: replayed lines are
shown once, the streamed parts of one response are merged, each tool call gets
its result, and every line's outcome is recorded in the file's report.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from .. import model as m
from ..report import FileReport, Outcome
from ..transcript import raw

_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")


class Conversation:
    """Collects the messages of one conversation, in file order."""

    def __init__(self, report: FileReport, hidden: frozenset[str] = frozenset()) -> None:
        self.report = report
        self.hidden = hidden  # kinds of message left out by the configuration
        self.messages: list[m.AnyMessage] = []
        self.calls: dict[str, m.ToolCall] = {}
        self.results: dict[str, raw.UserEntry] = {}  # tool_use_id -> entry that carried the result
        self.uuids: set[str] = set()  # of every entry seen, shown or not
        self._anchors: set[str] = set()
        self.first: datetime | None = None
        self.last: datetime | None = None
        self.versions: list[str] = []
        self.models: list[str] = []
        self.cwd: str | None = None
        self.branch: str | None = None

    # ------------------------------------------------------------ entry points

    def add(self, line: int, entry: raw.AnyEntry) -> None:
        uuid = getattr(entry, "uuid", None)
        if uuid:
            if uuid in self.uuids:
                # A resumed session replays earlier lines with the same uuid.
                self.report.mark(line, Outcome.MERGED)
                return
            self.uuids.add(uuid)
        if isinstance(entry, raw.Envelope):
            self._note_context(entry)
        match entry:
            case raw.UserEntry():
                self._user(line, entry)
            case raw.AssistantEntry():
                self._assistant(line, entry)
            case raw.SystemEntry():
                self._system(line, entry)
            case raw.AttachmentEntry():
                self._attachment(line, entry)
            case raw.UnknownEntry():
                data = entry.model_dump(mode="json")
                self._emit(line, m.Unknown(type=str(data.get("type")), data=data), entry)
            case _:
                # Titles, summaries, queue bookkeeping, progress, snapshots, modes:
                # they describe the session; the session builder reads what it needs.
                self.report.mark(line, Outcome.METADATA)

    # ------------------------------------------------------------ kinds of entry

    def _user(self, line: int, entry: raw.UserEntry) -> None:
        content = entry.message.content
        if isinstance(content, str) or content is None:
            self._user_text(line, entry, content or "", [])
            return
        texts: list[str] = []
        images: list[m.Image] = []
        for block in content:
            match block:
                case raw.ToolResultBlock():
                    self._tool_result(line, entry, block)
                case raw.TextBlock():
                    texts.append(block.text)
                case raw.ImageBlock():
                    images.append(_image(block))
                case _:
                    self._block(line, entry, block)
        if texts or images:
            self._user_text(line, entry, "\n\n".join(t for t in texts if t), images)
        else:
            self.report.mark(line, Outcome.MERGED)

    def _user_text(self, line: int, entry: raw.UserEntry, text: str, images: list[m.Image]) -> None:
        if entry.isCompactSummary:
            note = m.SystemNote(subtype="compact_summary", title="Summary of the earlier conversation", text=text)
            self._emit(line, note, entry)
        elif entry.isMeta:
            self._emit(line, m.SystemNote(subtype="meta", title="Instructions added by Claude Code", text=text), entry)
        elif text.strip() or images:
            self._emit(line, m.Prompt(text=text, images=images), entry)
        else:
            self.report.mark(line, Outcome.MERGED)

    def _assistant(self, line: int, entry: raw.AssistantEntry) -> None:
        body = entry.message
        if body.model and body.model != "<synthetic>" and body.model not in self.models:
            self.models.append(body.model)
        content = body.content
        if isinstance(content, str) or content is None:
            content = [raw.TextBlock(text=content or "")]
        if entry.isApiErrorMessage:
            text = "\n\n".join(b.text for b in content if isinstance(b, raw.TextBlock))
            self._emit(line, m.SystemNote(level="error", subtype="api_error", title="API error", text=text), entry)
            return
        shown = False
        for block in content:
            match block:
                case raw.TextBlock():
                    if block.text.strip():
                        shown |= self._emit(line, m.AssistantText(text=block.text, model=body.model), entry)
                case raw.ThinkingBlock():
                    shown |= self._emit(line, m.Thinking(text=block.thinking), entry)
                case raw.RedactedThinkingBlock():
                    shown |= self._emit(line, m.Thinking(redacted=True), entry)
                case raw.ToolUseBlock():
                    shown |= self._tool_call(line, entry, block)
                case _:
                    shown |= self._block(line, entry, block)
        if not shown:
            # Only empty text, or a tool call already seen: part of a response shown elsewhere.
            self.report.mark(line, Outcome.MERGED)

    def _system(self, line: int, entry: raw.SystemEntry) -> None:
        subtype = entry.subtype
        text = _as_text(entry.content)
        title = (subtype or "system").replace("_", " ").capitalize()
        if subtype == "compact_boundary" and entry.compactMetadata:
            meta = entry.compactMetadata
            title = "Conversation compacted"
            text = text or f"Trigger: {meta.trigger or 'unknown'}, tokens before: {meta.preTokens or 'unknown'}"
        elif subtype == "api_error" and entry.error is not None:
            text = text or _as_text(entry.error)
        elif subtype == "turn_duration" and entry.durationMs is not None:
            text = text or f"Turn took {entry.durationMs / 1000:.1f} s"
        level = entry.level if entry.level in ("info", "warning", "error") else ("error" if subtype == "api_error" else "info")
        self._emit(line, m.SystemNote(level=level, subtype=subtype, title=title, text=text), entry)

    def _attachment(self, line: int, entry: raw.AttachmentEntry) -> None:
        data = entry.attachment
        kind = str(data.get("type") or "attachment")
        parts = [_as_text(data.get(key)) for key in ("content", "prompt", "stdout", "stderr")]
        text = "\n\n".join(p for p in parts if p and p.strip())
        title = f"{kind.replace('_', ' ').capitalize()}" + (f" · {data['hookName']}" if data.get("hookName") else "")
        self._emit(line, m.SystemNote(subtype=kind, title=title, text=text), entry)

    # ------------------------------------------------------------ blocks

    def _tool_call(self, line: int, entry: raw.AssistantEntry, block: raw.ToolUseBlock) -> bool:
        if block.id and block.id in self.calls:
            return False
        call_input = block.input if isinstance(block.input, dict) else {"input": block.input}
        call = m.ToolCall(id=block.id, name=block.name or "unnamed tool", input=call_input)
        call.anchor = self._anchor("t-" + (block.id[-12:] if block.id else f"l{line}"))
        if block.id:
            self.calls[block.id] = call
        return self._emit(line, call, entry, anchored=True)

    def _tool_result(self, line: int, entry: raw.UserEntry, block: raw.ToolResultBlock) -> None:
        text, images, extra = _result_content(block.content)
        result = m.ToolResult(
            tool_use_id=block.tool_use_id,
            text=text,
            images=images,
            is_error=bool(block.is_error),
            data=entry.toolUseResult,
        )
        self._stamp(result, line, entry)
        call = self.calls.get(block.tool_use_id)
        if call is not None and call.result is None:
            result.anchor = call.anchor + "-result"
            call.result = result
            self.results[block.tool_use_id] = entry
            self.report.mark(line, Outcome.RENDERED)
        else:
            # A result whose call is not in this file (or a second result): shown on its own.
            result.anchor = self._anchor(f"r-{(block.tool_use_id or str(line))[-12:]}")
            self.messages.append(result)
            self.report.mark(line, Outcome.RENDERED)
        for item in extra:
            self._block(line, entry, item)

    def _block(self, line: int, entry: raw.Envelope, block: Any) -> bool:
        data = block.model_dump(mode="json") if hasattr(block, "model_dump") else {"value": block}
        return self._emit(line, m.Unknown(type=f"{data.get('type')} block", data=data), entry)

    # ------------------------------------------------------------ helpers

    def _emit(self, line: int, message: m.Message, entry: Any, anchored: bool = False) -> bool:
        if getattr(message, "kind", None) in self.hidden:
            self.report.mark(line, Outcome.HIDDEN)
            return True
        self._stamp(message, line, entry)
        if not anchored:
            uuid = message.uuid
            message.anchor = self._anchor(f"m-{uuid[:8]}" if uuid else f"l-{line}")
        self.messages.append(message)  # type: ignore[arg-type]
        self.report.mark(line, Outcome.RENDERED)
        return True

    def _stamp(self, message: m.Message, line: int, entry: Any) -> None:
        message.line = line
        message.uuid = getattr(entry, "uuid", None)
        message.timestamp = parse_time(getattr(entry, "timestamp", None))

    def _anchor(self, wanted: str) -> str:
        anchor = _SAFE_ID.sub("-", wanted)
        candidate, n = anchor, 1
        while candidate in self._anchors:
            n += 1
            candidate = f"{anchor}-{n}"
        self._anchors.add(candidate)
        return candidate

    def _note_context(self, entry: raw.Envelope) -> None:
        when = parse_time(entry.timestamp)
        if when is not None:
            self.first = when if self.first is None or when < self.first else self.first
            self.last = when if self.last is None or when > self.last else self.last
        if entry.version and entry.version not in self.versions:
            self.versions.append(entry.version)
        self.cwd = self.cwd or entry.cwd
        self.branch = self.branch or entry.gitBranch or None


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None


def _image(block: raw.ImageBlock) -> m.Image:
    source = block.source
    return m.Image(media_type=source.media_type or "image/png", data=source.data or "", url=source.url)


def _result_content(content: Any) -> tuple[str, list[m.Image], list[Any]]:
    """Split a tool result's content into its text, its images, and blocks of other kinds."""
    if content is None:
        return "", [], []
    if isinstance(content, str):
        return content, [], []
    texts: list[str] = []
    images: list[m.Image] = []
    extra: list[Any] = []
    for block in content:
        if isinstance(block, raw.TextBlock):
            texts.append(block.text)
        elif isinstance(block, raw.ImageBlock):
            images.append(_image(block))
        else:
            extra.append(block)
    return "\n".join(texts), images, extra


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n\n".join(value)
    return json.dumps(value, ensure_ascii=False, indent=2)

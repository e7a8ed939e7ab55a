"""Pydantic models of Claude Code's JSONL entries, as written on disk.

The models are deliberately lenient: every field has a default, unknown fields
are kept (``extra="allow"``), and an entry or block whose ``type`` is unknown
becomes ``UnknownEntry`` / ``UnknownBlock`` with all its fields, so that new
versions of Claude Code never break a build. See docs/format.md for what each
type means.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, TypeAdapter, model_validator

from .types import ENTRY_TYPES, METADATA_TYPES


class Raw(BaseModel):
    # NaN and Infinity, which Python's JSON reads, are not numbers of a transcript.
    model_config = ConfigDict(extra="allow", frozen=False, allow_inf_nan=False)

    def extra(self, key: str, default: Any = None) -> Any:
        """A field this model does not declare (kept because of ``extra="allow"``)."""
        return (self.model_extra or {}).get(key, default)


# ---------------------------------------------------------------- content blocks


class TextBlock(Raw):
    type: Literal["text"] = "text"
    text: str = ""


class ThinkingBlock(Raw):
    type: Literal["thinking"] = "thinking"
    thinking: str = ""
    signature: str | None = None


class RedactedThinkingBlock(Raw):
    type: Literal["redacted_thinking"] = "redacted_thinking"
    data: str = ""


class ToolUseBlock(Raw):
    type: Literal["tool_use", "server_tool_use"] = "tool_use"
    id: str = ""
    name: str = ""
    input: Any = None


class ImageSource(Raw):
    type: str = "base64"
    media_type: str | None = None
    data: str | None = None
    url: str | None = None


class ImageBlock(Raw):
    type: Literal["image"] = "image"
    source: ImageSource = Field(default_factory=ImageSource)


class DocumentSource(Raw):
    type: str = "base64"
    media_type: str | None = None
    data: Any = None  # base64 (a PDF), or the text itself (a text document)
    url: str | None = None


class DocumentBlock(Raw):
    """In a tool's result: a document it read (a PDF, by Read)."""

    type: Literal["document"] = "document"
    source: DocumentSource = Field(default_factory=DocumentSource)
    title: str | None = None


class ToolReferenceBlock(Raw):
    """In a tool's result: a tool it made available (ToolSearch, 2.1)."""

    type: Literal["tool_reference"] = "tool_reference"
    tool_name: str = ""


class UnknownBlock(Raw):
    """A block type this version does not know; all its fields are kept."""

    type: Any = None

    @model_validator(mode="before")
    @classmethod
    def _value(cls, data: Any) -> Any:
        """A list of blocks may hold what is not a block (a text, a list): kept as its
        ``value``. (Nothing, null, says nothing, and is dropped as a field of the wrong
        type is.)"""
        return data if isinstance(data, dict) or data is None else {"value": data}


def _as_blocks(value: Any) -> Any:
    """Content that is one block (an object) rather than a list of them: the list of it."""
    return [value] if isinstance(value, dict) else value


class ToolResultBlock(Raw):
    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str = ""
    content: Annotated[str | list[Block] | None, BeforeValidator(_as_blocks)] = None
    is_error: bool | None = None


_BLOCK_TAGS = {
    "text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "server_tool_use",
    "tool_result",
    "image",
    "document",
    "tool_reference",
}


def _kind(value: Any) -> str | None:
    """The ``type`` of an entry or a block, when it is a string (any other value, a
    list or an object, names no kind)."""
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return kind if isinstance(kind, str) else None


# The field that holds what a block of a known kind says, and the types it is read
# from. One without it that holds fields its model does not name (a text with its
# words under another name), or with it of another type (a text whose text is a list,
# a result whose content is a number), is of a shape not known: kept whole, with all
# its fields, as a block of a kind not known is (what it says would be left out).
# Without it and without them (a thinking block with its signature alone), or with it
# null, it is what it is, empty.
_SAYS: dict[str, tuple[type[Raw], str, tuple[type, ...]]] = {
    "text": (TextBlock, "text", (str, type(None))),
    "thinking": (ThinkingBlock, "thinking", (str, type(None))),
    "document": (DocumentBlock, "source", (dict, type(None))),
    "tool_result": (ToolResultBlock, "content", (str, list, dict, type(None))),
}


# The kinds of source the bytes of an image or a document are given by. One of another
# kind (a file of the Files API, given by its id) is a shape not known: kept whole,
# with all its fields, rather than shown as an image that could not be decoded.
_SOURCES: dict[str, tuple[str, ...]] = {"image": ("base64", "url"), "document": ("base64", "text", "url")}


def _block_tag(value: Any) -> str:
    kind = _kind(value)
    if kind == "server_tool_use":
        return "tool_use"
    source = value.get("source") if kind in _SOURCES and isinstance(value, dict) else None
    if isinstance(source, dict) and source.get("type", "base64") not in _SOURCES[str(kind)]:
        return "unknown"
    if kind in _SAYS and isinstance(value, dict):
        model, says, takes = _SAYS[kind]
        if says in value and not isinstance(value[says], takes):
            return "unknown"
        if says not in value and not value.keys() <= model.model_fields.keys():
            return "unknown"
    return kind if kind in _BLOCK_TAGS else "unknown"


Block = Annotated[
    Union[
        Annotated[TextBlock, Tag("text")],
        Annotated[ThinkingBlock, Tag("thinking")],
        Annotated[RedactedThinkingBlock, Tag("redacted_thinking")],
        Annotated[ToolUseBlock, Tag("tool_use")],
        Annotated[ToolResultBlock, Tag("tool_result")],
        Annotated[ImageBlock, Tag("image")],
        Annotated[DocumentBlock, Tag("document")],
        Annotated[ToolReferenceBlock, Tag("tool_reference")],
        Annotated[UnknownBlock, Tag("unknown")],
    ],
    Discriminator(_block_tag),
]


ToolResultBlock.model_rebuild()


# ---------------------------------------------------------------- entries


class OutputTokens(Raw):
    """Of a response's output tokens (Claude Code 2.1.2xx), those spent thinking."""

    thinking_tokens: int | None = None


class Usage(Raw):
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    output_tokens_details: OutputTokens | None = None


class MessageBody(Raw):
    id: str | None = None
    role: str | None = None
    model: str | None = None
    content: Annotated[str | list[Block] | None, BeforeValidator(_as_blocks)] = None
    usage: Usage | None = None
    stop_reason: str | None = None


class Placed(Raw):
    """Where an entry of any kind stands in its session: the fields the conversation
    is put in order by, typed for every kind of entry (an entry whose kind is not
    known included), so that a value of another type is dropped and reported rather
    than taken for an id."""

    uuid: str | None = None
    parentUuid: str | None = None
    logicalParentUuid: str | None = None
    sessionId: str | None = None
    timestamp: str | None = None
    isSidechain: bool = False
    agentId: str | None = None


class Envelope(Placed):
    """Fields shared by the entries that take part in the conversation."""

    version: str | None = None
    cwd: str | None = None
    gitBranch: str | None = None
    userType: str | None = None
    isMeta: bool = False
    requestId: str | None = None


class UserEntry(Envelope):
    type: Literal["user"] = "user"
    message: MessageBody = Field(default_factory=MessageBody)
    toolUseResult: Any = None
    isCompactSummary: bool = False
    isVisibleInTranscriptOnly: bool = False
    imagePasteIds: Any = None  # untyped on purpose: a malformed value is reported, not fatal
    sourceToolUseID: str | None = None


class AssistantEntry(Envelope):
    type: Literal["assistant"] = "assistant"
    message: MessageBody = Field(default_factory=MessageBody)
    isApiErrorMessage: bool = False
    error: Any = None


class CompactMetadata(Raw):
    trigger: str | None = None
    preTokens: int | None = None
    postTokens: int | None = None


class SystemEntry(Envelope):
    type: Literal["system"] = "system"
    subtype: str | None = None
    level: str | None = None
    content: Any = None
    compactMetadata: CompactMetadata | None = None
    durationMs: int | float | None = None
    error: Any = None
    toolUseID: str | None = None


class SummaryEntry(Placed):
    type: Literal["summary"] = "summary"
    summary: str = ""
    leafUuid: str | None = None


class AiTitleEntry(Placed):
    type: Literal["ai-title"] = "ai-title"
    aiTitle: str = ""


class CustomTitleEntry(Placed):
    type: Literal["custom-title"] = "custom-title"
    customTitle: str = ""


class AttachmentEntry(Envelope):
    type: Literal["attachment"] = "attachment"
    attachment: dict[str, Any] = Field(default_factory=dict)


class QueueOperationEntry(Placed):
    type: Literal["queue-operation"] = "queue-operation"
    operation: str | None = None
    content: Any = None


class ProgressEntry(Envelope):
    type: Literal["progress"] = "progress"
    data: Any = None
    toolUseID: str | None = None
    parentToolUseID: str | None = None


class MetadataEntry(Placed):
    """Entries that describe the session rather than take part in it:
    file-history snapshots, last prompt, modes, PR links, agent name and colour."""

    type: str


class UnknownEntry(Placed):
    """An entry whose type is unknown, or that did not match its type's shape.
    All of its fields are kept and shown in a generic form."""

    type: Any = None


def _entry_tag(value: Any) -> str:
    kind = _kind(value)
    if kind in ENTRY_TYPES:
        return kind
    return "metadata" if kind in METADATA_TYPES else "unknown"


Entry = Annotated[
    Union[
        Annotated[UserEntry, Tag("user")],
        Annotated[AssistantEntry, Tag("assistant")],
        Annotated[SystemEntry, Tag("system")],
        Annotated[SummaryEntry, Tag("summary")],
        Annotated[AiTitleEntry, Tag("ai-title")],
        Annotated[CustomTitleEntry, Tag("custom-title")],
        Annotated[AttachmentEntry, Tag("attachment")],
        Annotated[QueueOperationEntry, Tag("queue-operation")],
        Annotated[ProgressEntry, Tag("progress")],
        Annotated[MetadataEntry, Tag("metadata")],
        Annotated[UnknownEntry, Tag("unknown")],
    ],
    Discriminator(_entry_tag),
]

ENTRY = TypeAdapter(Entry)
UNKNOWN = TypeAdapter(UnknownEntry)

AnyEntry = Union[
    UserEntry,
    AssistantEntry,
    SystemEntry,
    SummaryEntry,
    AiTitleEntry,
    CustomTitleEntry,
    AttachmentEntry,
    QueueOperationEntry,
    ProgressEntry,
    MetadataEntry,
    UnknownEntry,
]

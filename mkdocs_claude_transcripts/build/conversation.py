"""Turn the raw entries of one conversation (a session or an agent) into messages.

Here live the rules that need the whole conversation in view: replayed lines are
shown once, the parts of one response share its usage, each tool call gets its
result, bash-mode and slash-command output joins its command, steering is shown
once, branches left by a rewind are set apart, and every line's outcome is
recorded in the file's report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .. import model as m
from ..report import FileReport, Level, Outcome
from ..transcript import raw
from ..transcript.jsonstrings import mapped
from ..transcript.kept import kept_output
from . import branches, replays, steering
from .extras import as_text, citations, first_text, server_result_text, skills_text, tasks_of
from .results import error_text, output_of, whole
from .user import classify

_SAFE_ID = re.compile(r"[^A-Za-z0-9_-]")
_PLACEHOLDER = re.compile(r"\[Image #(\d+)\]")
_RECAP_HINT = " (disable recaps in /config)"

# How each system subtype and attachment type is read; the coverage report lists
# these as the forms the build gives. Other subtypes and types get the generic form.
NOTICE = "(notice)"  # a system entry with no subtype: a notice by level
SYSTEM_SUBTYPES = {
    NOTICE: "_note",
    "compact_boundary": "_compaction",
    "microcompact_boundary": "_compaction",
    "api_error": "_api_error",
    "local_command": "_local_command",
    "turn_duration": "_turn_duration",
    "stop_hook_summary": "_stop_hooks",
    "away_summary": "_recap",
    "informational": "_note",
    "scheduled_task_fire": "_scheduled_task",
    "model_refusal_no_fallback": "_refusal",
}
# Attachments that carry a file, lines of one, or a path (model.Attached): where each
# keeps its text (None: it has none, a path alone).
ATTACHED: dict[str, tuple[str, ...] | None] = {
    "file": ("content",),
    "edited_text_file": ("snippet",),
    "selected_lines_in_ide": ("content",),
    "nested_memory": ("content",),
    "plan_file_reference": ("planContent",),
    "directory": ("content",),
    "opened_file_in_ide": None,
    "compact_file_reference": None,
    "already_read_file": None,
    "diagnostics": ("files",),  # made into lines of text (_diagnostics)
    "plan_mode": None,
    "plan_mode_exit": None,
    "plan_mode_reentry": None,
}
CONTEXT_KINDS = (
    "total_tokens_reminder", "output_style", "date_change", "deferred_tools_delta", "mcp_instructions_delta",
    "invoked_skills", "token_usage", "budget_usd", "credential_org",
    # (2.1.2xx: the model's name, a reminder's text; the environment, the date, the
    # agents available, the attribution of commits and the system prompt, which say
    # nothing of their own; the user's email and the repository's state)
    "model", "batching_reminder_sent", "environment", "date", "agent_listing_delta", "remote_session_change",
    "prompt_snapshot", "session_context",
    # (2.1.235 and later: a reminder to answer, the instructions files such as
    # CLAUDE.md, the tools deferred, a background task's state; thinking stripped or
    # dropped from what was sent, a note on who reads a command's output)
    "silent_turn_reminder", "instructions", "deferred_tools_record", "task_status", "thinking_stripped",
    "thinking_drop", "bash_output_audience_note",
)  # fmt: skip
ATTACHMENT_TYPES = {
    "queued_command": "_queued",
    "hook_success": "_hook",
    "hook_system_message": "_hook",
    "hook_additional_context": "_hook",
    "hook_error": "_hook",
    "hook_non_blocking_error": "_hook",
    "task_reminder": "_context",
    "todo_reminder": "_context",
    "skill_listing": "_context",
    "critical_system_reminder": "_context",
    # What Claude Code tells the model of its own state (2.1): shown as a reminder when
    # it says something, else counted.
    **dict.fromkeys(CONTEXT_KINDS, "_context"),
    **dict.fromkeys(ATTACHED, "_attached"),
}


class Conversation:
    """Collects the messages of one conversation, in file order."""

    def __init__(
        self,
        report: FileReport,
        hidden: frozenset[str] = frozenset(),
        tool_results: dict[str, str] | None = None,
    ) -> None:
        self.report = report
        self.hidden = hidden  # kinds of message left out by the configuration
        self.tool_results = tool_results or {}  # tool_use_id -> file with the full output
        self.messages: list[m.AnyMessage] = []
        self.calls: dict[str, m.ToolCall] = {}
        self.responses: dict[str, m.Response] = {}
        self.uuids: dict[str, raw.AnyEntry] = {}  # every entry seen, shown or not, by its uuid
        self.first: datetime | None = None
        self.last: datetime | None = None
        self.versions: list[str] = []
        self.models: list[str] = []
        self.cwd: str | None = None
        self.branch: str | None = None
        self.pr_links: list[str] = []
        self.agent_name: str | None = None
        self._anchors: set[str] = set()
        self._numbered: dict[str, int] = {}  # by anchor, the last number it was given
        self._target: list[m.AnyMessage] = self.messages
        self._steering: dict[int, tuple[str, bool]] = {}
        self._again: set[int] = set()  # lines that write again what earlier lines wrote (replays.py)

    # ------------------------------------------------------------ entry points

    def run(self, entries: list[tuple[int, raw.AnyEntry]]) -> None:
        entries = branches.in_chain_order(entries)
        self._steering = steering.plan(entries)
        doubtful: set[int] = set()
        self._again = replays.written_again(entries, doubtful)
        for line in sorted(doubtful):
            self.report.problem(line, "the same response as an earlier line (its id, its words), after another prompt: "
                                      "shown once, as a resumed session writes it again", Level.INFO)  # fmt: skip
        apart = branches.abandoned(entries, self._again)
        open_branch: tuple[int, m.Branch] | None = None
        for line, entry in entries:
            # (a line written again opens no branch: it is shown where it was first written)
            start = None if line in self._again else apart.get(line)
            if start is None:
                self._target = self.messages
            elif open_branch is None or open_branch[0] != start:
                branch = m.Branch(line=line, anchor=self._anchor(f"branch-{line}"))
                branch.timestamp = parse_time(getattr(entry, "timestamp", None))
                self.messages.append(branch)
                open_branch = (start, branch)
                self._target = branch.messages
            else:
                self._target = open_branch[1].messages
            self.add(line, entry)
        self._target = self.messages

    def add(self, line: int, entry: raw.AnyEntry) -> None:
        uuid = getattr(entry, "uuid", None)
        if uuid:
            first = self.uuids.setdefault(uuid, entry)
            if first is not entry:
                if _says(first) == _says(entry):
                    # A resumed session replays earlier lines with the same uuid.
                    self.report.mark(line, Outcome.MERGED)
                    return
                self.report.problem(line, "an earlier entry has this uuid and says something else: both are shown", Level.INFO)
        if isinstance(entry, raw.Envelope):
            self._note_context(line, entry)
        if line in self._again:  # a resumed session writing the conversation again, with new uuids
            self.report.mark(line, Outcome.MERGED)
            return
        match entry:
            case raw.UserEntry():
                self._user(line, entry)
            case raw.AssistantEntry():
                self._assistant(line, entry)
            case raw.SystemEntry():
                self._system(line, entry)
            case raw.AttachmentEntry():
                self._attachment(line, entry)
            case raw.QueueOperationEntry():
                self._queue(line, entry)
            case raw.MetadataEntry():
                self._metadata(line, entry)
            case raw.UnknownEntry():
                data = _payloads_out(entry.model_dump(mode="json", exclude_unset=True))  # as the file holds it
                self._emit(line, m.Unknown(type=_kind_named(data.get("type")), data=data), entry)
            case _:
                # Titles, summaries, progress: they describe the session; the
                # session builder reads what it needs.
                self.report.mark(line, Outcome.METADATA)

    # ------------------------------------------------------------ the user's side

    def _user(self, line: int, entry: raw.UserEntry) -> None:
        content = entry.message.content
        if isinstance(content, str) or content is None:
            self._user_text(line, entry, content or "", [])
            return
        texts: list[str] = []
        images: list[m.Image] = []
        others: list[Any] = []  # shown after what the user wrote, which they go with
        for block in content:
            match block:
                case raw.ToolResultBlock():
                    self._tool_result(line, entry, block)
                case raw.TextBlock():
                    texts.append(block.text)
                case raw.ImageBlock():
                    images.append(_image(block))
                case _:
                    others.append(block)
        text = "\n\n".join(t for t in texts if t)
        if images:
            self._check_images(line, images)
            self._label_images(line, entry, text, images)
        if text.strip() or images:
            self._user_text(line, entry, text, images)
        elif line not in self.report.outcomes and not others:
            self.report.mark(line, Outcome.MERGED)
        for block in others:
            if isinstance(block, raw.DocumentBlock):  # a document given with the prompt
                self._emit(line, m.Attached(what="document", document=_document(block)), entry)
            else:
                self._block(line, entry, block)

    def _user_text(self, line: int, entry: raw.UserEntry, text: str, images: list[m.Image]) -> None:
        if not text.strip() and not images:
            self.report.mark(line, Outcome.MERGED)
            return
        for message in classify(text, images, meta=entry.isMeta, compact_summary=entry.isCompactSummary):
            if not self._join_output(line, message):
                self._emit(line, message, entry)

    def _join_output(self, line: int, message: m.Message) -> bool:
        """Bash-mode output joins its command, a local command's output its slash
        command: one block for what was typed and what it printed."""
        previous = self._target[-1] if self._target else None
        if isinstance(message, m.ShellCommand) and not message.command:
            if isinstance(previous, m.ShellCommand) and not (previous.stdout or previous.stderr):
                previous.stdout, previous.stderr = message.stdout, message.stderr
                self.report.mark(line, Outcome.MERGED)
                return True
        if isinstance(message, m.CommandOutput) and isinstance(previous, m.SlashCommand):
            if not (previous.stdout or previous.stderr):
                previous.stdout, previous.stderr = message.stdout, message.stderr
                self.report.mark(line, Outcome.MERGED)
                return True
        return False

    def _label_images(self, line: int, entry: raw.UserEntry, text: str, images: list[m.Image]) -> None:
        """Name each pasted image after the ``[Image #N]`` that stands for it in the text.

        ``imagePasteIds`` lists the paste number of each image block, in order.
        Without it (older versions), numbers are read as positions only when the
        text uses 1..k with no gap and no more numbers than images; otherwise the
        images are shown after the text, unnamed.
        """
        ids = entry.imagePasteIds
        used = sorted({int(n) for n in _PLACEHOLDER.findall(text)})
        if ids is not None:
            valid = isinstance(ids, list) and all(isinstance(i, int) and i > 0 for i in ids) and len(set(ids)) == len(ids)
            if valid and len(ids) == len(images):
                for image, paste_id in zip(images, ids):
                    image.label = f"Image #{paste_id}"
                return
            self.report.problem(line, "imagePasteIds does not match the images; they are shown after the text", Level.INFO)
            return
        if used and used == list(range(1, len(used) + 1)) and len(used) <= len(images):
            for number in used:
                images[number - 1].label = f"Image #{number}"

    def _queue(self, line: int, entry: raw.QueueOperationEntry) -> None:
        planned = self._steering.get(line)
        if planned is not None:
            images = _prompt_images(entry.content)
            self._check_images(line, images)
            self._steer(line, entry, planned[0], images, sent=planned[1])
        elif entry.operation not in steering.OPERATIONS and entry.content not in (None, "", [], {}):
            # An operation not known, on a prompt: shown with its fields, as an entry of a kind not known.
            data = _payloads_out(entry.model_dump(mode="json", exclude_unset=True))
            self._emit(line, m.Unknown(type=f"queue-operation {entry.operation}", data=data), entry)
        else:
            self.report.mark(line, Outcome.METADATA)

    def _steer(self, line: int, entry: Any, text: str, images: list[m.Image], sent: bool = True) -> None:
        # A steering prompt is read like any prompt; only a plain one is shown as steering.
        for message in classify(text, images, meta=False, compact_summary=False):
            if isinstance(message, m.Prompt):
                message = m.Steering(text=message.text, images=message.images, sent=sent)
            self._emit(line, message, entry)

    # ------------------------------------------------------------ Claude's side

    def _assistant(self, line: int, entry: raw.AssistantEntry) -> None:
        body = entry.message
        if body.model and body.model != "<synthetic>" and body.model not in self.models:
            self.models.append(body.model)
        response_id = body.id or entry.requestId or f"line-{line}"
        self._count(response_id, body)
        content = body.content
        if isinstance(content, str) or content is None:
            content = [raw.TextBlock(text=content or "")]
        if entry.isApiErrorMessage:
            text = "\n\n".join(b.text for b in content if isinstance(b, raw.TextBlock))
            self._emit(line, m.ApiError(text=text), entry)
            return
        shown = False
        for block in content:
            match block:
                case raw.TextBlock():
                    sources = citations(block.extra("citations"))
                    if block.text.strip() or sources:
                        shown |= self._text(line, entry, block.text, response_id, sources)
                case raw.ThinkingBlock():
                    shown |= self._emit(line, m.Thinking(text=block.thinking, response_id=response_id), entry)
                case raw.RedactedThinkingBlock():
                    shown |= self._emit(line, m.Thinking(redacted=True, response_id=response_id), entry)
                case raw.ToolUseBlock():
                    shown |= self._tool_call(line, entry, block, response_id)
                case _:
                    shown |= self._server_result(line, entry, block) or self._block(line, entry, block)
        if not shown:
            # Only empty text, or a tool call already seen: part of a response shown elsewhere.
            self.report.mark(line, Outcome.MERGED)

    def _text(self, line: int, entry: raw.AssistantEntry, text: str, response_id: str, sources: list[m.Source]) -> bool:
        """Text streamed in several parts of one response is shown as one message, citing
        each source its parts cite once."""
        previous = self._target[-1] if self._target else None
        merged = isinstance(previous, m.AssistantText) and previous.response_id == response_id
        message = previous if merged else m.AssistantText(text=text, response_id=response_id)
        assert isinstance(message, m.AssistantText)
        for source in sources:
            if source not in message.sources:
                message.sources.append(source)
        if not merged:
            return self._emit(line, message, entry)
        if text.strip():
            message.text += "\n\n" + text
        self.report.mark(line, Outcome.MERGED)
        return True

    def _count(self, response_id: str, body: raw.MessageBody) -> None:
        """Usage repeats on each line of a response, growing as it streams: keep the largest."""
        response = self.responses.setdefault(response_id, m.Response(model=body.model))
        usage = body.usage
        if usage is None:
            return
        current = response.usage
        current.input = max(current.input, usage.input_tokens or 0)
        current.output = max(current.output, usage.output_tokens or 0)
        current.cache_creation = max(current.cache_creation, usage.cache_creation_input_tokens or 0)
        current.cache_read = max(current.cache_read, usage.cache_read_input_tokens or 0)
        if usage.output_tokens_details is not None:
            current.thinking = max(current.thinking, usage.output_tokens_details.thinking_tokens or 0)

    # ------------------------------------------------------------ system and attachments

    def _system(self, line: int, entry: raw.SystemEntry) -> None:
        handler = SYSTEM_SUBTYPES.get(entry.subtype or NOTICE, "_note")
        getattr(self, handler)(line, entry)

    def _compaction(self, line: int, entry: raw.SystemEntry) -> None:
        micro = entry.extra("microcompactMetadata")
        meta = entry.compactMetadata.model_dump() if entry.compactMetadata else micro if isinstance(micro, dict) else {}
        compaction = m.Compaction(
            trigger=str(meta.get("trigger") or ""),
            tokens_before=whole(meta.get("preTokens")),
            tokens_after=whole(meta.get("postTokens")),
            micro=entry.subtype == "microcompact_boundary",
        )
        self._emit(line, compaction, entry)

    def _api_error(self, line: int, entry: raw.SystemEntry) -> None:
        error = entry.error if isinstance(entry.error, dict) else {}
        attempt, most = whole(entry.extra("retryAttempt")), whole(entry.extra("maxRetries"))
        message = m.ApiError(
            text=str(error.get("formatted") or error.get("message") or as_text(entry.content) or as_text(entry.error)),
            status=whole(error.get("status")),
            retry=f"attempt {attempt} of {most}" if attempt and most else "",
        )
        self._emit(line, message, entry)

    def _local_command(self, line: int, entry: raw.SystemEntry) -> None:
        text = as_text(entry.content)
        if not isinstance(entry.content, str) or "<" not in text:  # (content of a shape not known: as it is, not read for tags)
            self._note(line, entry)
            return
        for message in classify(text, [], meta=False, compact_summary=False):
            if not self._join_output(line, message):
                self._emit(line, message, entry)

    def _turn_duration(self, line: int, entry: raw.SystemEntry) -> None:
        ms = whole(entry.durationMs)
        title = f"Turn took {_duration(ms)}" if ms is not None and ms >= 0 else "Turn duration"
        self._emit(line, m.SystemNote(subtype=entry.subtype, title=title, text=as_text(entry.content)), entry)

    def _stop_hooks(self, line: int, entry: raw.SystemEntry) -> None:
        infos, errors = _list(entry.extra("hookInfos")), _list(entry.extra("hookErrors"))
        note = m.SystemNote(subtype=entry.subtype, title="Stop hooks", level="warning" if errors else "info")
        # What the hooks said: their errors, then the entry's text and what they added
        # to Claude's context (hookAdditionalContext, 2.1).
        said = _joined([as_text(entry.content), *(as_text(c) for c in _list(entry.extra("hookAdditionalContext")))])
        note.text = "\n\n".join([*(str(e) for e in errors), *([said] if said else [])])
        note.details = {
            f"hook {i + 1}": str(h.get("command", h)) if isinstance(h, dict) else str(h) for i, h in enumerate(infos)
        }
        if entry.extra("preventedContinuation"):
            note.details["stopped the turn"] = str(entry.extra("stopReason") or "yes")
        self._emit(line, note, entry)

    def _scheduled_task(self, line: int, entry: raw.SystemEntry) -> None:
        """A task scheduled with a cron expression that started a turn (2.1.2xx)."""
        details = {name: as_text(entry.extra(key)) for name, key in (("schedule", "cron"), ("prompt", "prompt"), ("task", "taskId"))}
        note = m.SystemNote(subtype=entry.subtype, title="Scheduled task", text=as_text(entry.content))
        note.details = {name: value for name, value in details.items() if value}
        self._emit(line, note, entry)

    def _refusal(self, line: int, entry: raw.SystemEntry) -> None:
        """The model declined a request, and no other model answered it (2.1.2xx)."""
        category, model = as_text(entry.extra("apiRefusalCategory")), as_text(entry.extra("originalModel"))
        text = _joined([as_text(entry.extra("apiRefusalExplanation")), as_text(entry.content)])
        note = m.SystemNote(subtype=entry.subtype, level="error", title="Refused", text=text)
        note.details = {name: value for name, value in (("category", category), ("model", model)) if value}
        self._emit(line, note, entry)

    def _recap(self, line: int, entry: raw.SystemEntry) -> None:
        text = as_text(entry.content)
        if not text.strip():  # its words under another name: shown with its fields
            self._note(line, entry)
            return
        text = text.removesuffix(_RECAP_HINT)
        self._emit(line, m.SystemNote(subtype=entry.subtype, title="Recap", text=text), entry)

    def _note(self, line: int, entry: raw.SystemEntry) -> None:
        """A notice by level, or a system entry of a subtype with no form of its own."""
        level = _level(entry.level, entry.subtype)
        title = m.kind_title(entry.subtype or "") or {"warning": "Warning", "error": "Error"}.get(level, "Note")
        note = m.SystemNote(subtype=entry.subtype, level=level, title=title, text=as_text(entry.content))
        # A kind not known, or one known whose content says nothing (its words under
        # another name): its other fields too, but those that place every entry.
        known = not entry.subtype or entry.subtype in SYSTEM_SUBTYPES
        if not known or not note.text.strip():
            fields = entry.model_dump(mode="json", exclude_unset=True)
            placing = _KNOWN_NOTE_FIELDS if known else _NOTE_FIELDS
            note.details = {k: as_text(v) for k, v in fields.items() if k not in placing and v not in (None, "", [], {})}
        self._emit(line, note, entry)

    def _attachment(self, line: int, entry: raw.AttachmentEntry) -> None:
        kind = str(entry.attachment.get("type") or "attachment")
        handler = ATTACHMENT_TYPES.get(kind) or ("_hook" if kind.startswith("hook_") else "_other_attachment")
        getattr(self, handler)(line, entry)

    def _queued(self, line: int, entry: raw.AttachmentEntry) -> None:
        prompt = entry.attachment.get("prompt")
        text, images = steering.prompt_text(prompt), _prompt_images(prompt)
        self._check_images(line, images)
        if not text and not images and prompt not in (None, "", [], {}):
            text = as_text(prompt)  # a prompt of a shape not known: its data, as it is
        self._steer(line, entry, text, images)

    def _hook(self, line: int, entry: raw.AttachmentEntry) -> None:
        data = _payloads_out(entry.attachment)
        blocking = data.get("blockingError")  # why a hook stopped a tool, or Claude (a text, or {blockingError, command})
        said = [*(as_text(data.get(k)) for k in _TEXT_KEYS), as_text(data.get("message"))]
        said.append(as_text(blocking.get("blockingError") if isinstance(blocking, dict) else blocking))
        text = _joined(said)
        details = {k: as_text(v) for k, v in data.items() if k not in _HOOK_FIELDS and v not in (None, "", [], {})}
        if isinstance(blocking, dict):
            details.update({f"blockingError.{k}": as_text(v) for k, v in blocking.items() if k != "blockingError" and v not in (None, "", [], {})})
        if not text.strip() and not details:
            self.report.mark(line, Outcome.METADATA)  # a hook that ran and said nothing
            return
        name = data.get("hookName") or data.get("hookEvent") or ""
        failed = str(data.get("type", "")).endswith("error") or data.get("exitCode") not in (None, 0) or blocking not in (None, "", {})
        title = f"Hook · {name}" if name else "Hook"
        note = m.SystemNote(subtype="hook", level="warning" if failed else "info", title=title, text=text, details=details)
        self._emit(line, note, entry)

    def _context(self, line: int, entry: raw.AttachmentEntry) -> None:
        """Context Claude Code gave the model (todo and skill lists, reminders)."""
        data = entry.attachment
        # (a background task's state, task_status, is a task of its own: its description and status)
        tasks = tasks_of(data.get("content")) or (tasks_of([data]) if data.get("type") == "task_status" else [])
        said = "" if tasks else _attachment_text(data) or _files_text(data.get("files"))
        text = "\n\n".join(p for p in (said, skills_text(data.get("skills"))) if p.strip())
        if not text.strip() and not tasks:
            if odd_reminder(data):
                self._other_attachment(line, entry)  # its words under another name: its fields, as they are
                return
            self.report.mark(line, Outcome.METADATA)
            return
        self._emit(line, m.Reminder(text=text, tasks=tasks), entry)

    def _attached(self, line: int, entry: raw.AttachmentEntry) -> None:
        """A file or text Claude Code attached; one not of the shape known is shown
        with its fields, as any other attachment."""
        found = attached_of(entry.attachment)
        if found is None:
            self._other_attachment(line, entry)
        else:
            self._emit(line, found, entry)

    def _other_attachment(self, line: int, entry: raw.AttachmentEntry) -> None:
        data = _payloads_out(entry.attachment)
        kind = str(data.get("type") or "attachment")
        skip = ("type", *_TEXT_KEYS)
        details = {k: as_text(v) for k, v in data.items() if k not in skip and v not in (None, "", [], {})}
        note = m.SystemNote(subtype=kind, title=m.kind_title(kind), text=_attachment_text(data), details=details)
        self._emit(line, note, entry)

    def _metadata(self, line: int, entry: raw.MetadataEntry) -> None:
        if entry.type == "pr-link":
            url = entry.extra("prUrl")
            if isinstance(url, str) and url not in self.pr_links:
                self.pr_links.append(url)
        elif entry.type == "agent-name":
            name = entry.extra("agentName") or entry.extra("name")
            self.agent_name = name if isinstance(name, str) else self.agent_name
        elif entry.type == "marble-origami-commit":
            self._collapse(line, entry)
            return
        self.report.mark(line, Outcome.METADATA)

    def _collapse(self, line: int, entry: raw.MetadataEntry) -> None:
        """A context collapse: a span of the conversation the model then saw as a
        summary (the span itself stays on the page, where it was)."""
        summary = entry.extra("summary")
        if summary not in (None, "", [], {}) and not isinstance(summary, str):
            summary = as_text(summary)  # of a shape not known: its data, as it is
        if not isinstance(summary, str) or not summary.strip():
            content = entry.extra("summaryContent")
            summary = _COLLAPSED.sub("", content) if isinstance(content, str) else ""
        self._emit(line, m.SystemNote(subtype="context_collapse", title="Context collapsed", text=summary), entry)

    # ------------------------------------------------------------ blocks

    def _tool_call(self, line: int, entry: raw.AssistantEntry, block: raw.ToolUseBlock, response_id: str) -> bool:
        call_input = block.input if isinstance(block.input, dict) else {"input": block.input}
        call = m.ToolCall(id=block.id, name=block.name or "unnamed tool", input=call_input, response_id=response_id)
        first = self.calls.setdefault(block.id, call) if block.id else call
        if first is not call:
            if (first.name, first.input) == (call.name, call.input):
                return False  # the call written again (a resumed session, a response streamed again)
            # Another call under an id already used: shown, its results paired with the first.
            self.report.problem(line, f"tool call {block.id} was made before with another input: both are shown", Level.INFO)
        call.anchor = self._anchor("t-" + (block.id[-12:] if block.id else f"l{line}"))
        return self._emit(line, call, entry, anchored=True)

    def _tool_result(self, line: int, entry: raw.UserEntry, block: raw.ToolResultBlock) -> None:
        content = _result_content(block.content)
        self._check_images(line, content.images)
        text = content.text
        call = self.calls.get(block.tool_use_id)
        full = self.tool_results.get(block.tool_use_id)
        if full is not None:
            text = _full_text(full) or text
        is_error = bool(block.is_error)
        result = m.ToolResult(
            tool_use_id=block.tool_use_id,
            text=error_text(text) if is_error else text,
            images=content.images,
            documents=content.documents,
            tools=content.tools,
            is_error=is_error,
            output=output_of(call.name, entry.toolUseResult, text, is_error) if call else None,
            full=full is not None,
        )
        self._stamp(result, line, entry)
        if call is not None and call.result is None:
            result.anchor = call.anchor + "-result"
            call.result = result
            self.report.mark(line, Outcome.RENDERED)
        elif call is not None and not content.extra and _same_result(call.result, result):
            # The call's result written again, as a resumed session writes the
            # conversation it goes on from (its calls are merged in _tool_call).
            self.report.mark(line, Outcome.MERGED)
        else:
            # A result whose call is not in this file (or a second result): shown on its own.
            result.again = call is not None
            result.anchor = self._anchor(f"r-{(block.tool_use_id or str(line))[-12:]}")
            self._target.append(result)
            self.report.mark(line, Outcome.RENDERED)
        for item in content.extra:
            self._block(line, entry, item)

    def _server_result(self, line: int, entry: raw.AssistantEntry, block: Any) -> bool:
        """The result of a tool the API ran itself (``server_tool_use``), which the
        response holds beside the call: ``web_search_tool_result``, ``web_fetch_tool_result``,
        ``code_execution_tool_result``... It goes with its call, as any other result does."""
        kind = getattr(block, "type", None)
        tool_use_id = block.extra("tool_use_id") if isinstance(block, raw.UnknownBlock) else None
        if not (isinstance(kind, str) and kind.endswith("_tool_result") and isinstance(tool_use_id, str)):
            return False
        call = self.calls.get(tool_use_id)
        if call is None or call.result is not None:
            return False
        text, is_error = server_result_text(_payloads_out(block.extra("content")))
        result = m.ToolResult(tool_use_id=tool_use_id, text=text, is_error=is_error)
        self._stamp(result, line, entry)
        result.anchor = call.anchor + "-result"
        call.result = result
        self.report.mark(line, Outcome.RENDERED)
        return True

    def _block(self, line: int, entry: Any, block: Any) -> bool:
        data = _payloads_out(block.model_dump(mode="json") if hasattr(block, "model_dump") else {"value": block})
        return self._emit(line, m.Unknown(type=" ".join(filter(None, (_kind_named(data.get("type")), "block"))), data=data), entry)

    # ------------------------------------------------------------ helpers

    def _emit(self, line: int, message: m.Message, entry: Any, anchored: bool = False) -> bool:
        if self._is_hidden(message):
            self.report.mark(line, Outcome.HIDDEN)
            return True
        self._stamp(message, line, entry)
        if not anchored:
            uuid = message.uuid
            message.anchor = self._anchor(f"m-{uuid[:8]}" if uuid else f"l-{line}")
        self._target.append(message)  # type: ignore[arg-type]
        self.report.mark(line, Outcome.RENDERED)
        return True

    def _is_hidden(self, message: m.Message) -> bool:
        if getattr(message, "kind", None) in self.hidden:
            return True
        empty = isinstance(message, m.Thinking) and not message.redacted and not message.text.strip()
        return empty and "empty_thinking" in self.hidden

    def _stamp(self, message: m.Message, line: int, entry: Any) -> None:
        message.line = line
        message.uuid = getattr(entry, "uuid", None)
        message.parent_uuid = getattr(entry, "parentUuid", None)
        message.timestamp = parse_time(getattr(entry, "timestamp", None))

    def _anchor(self, wanted: str) -> str:
        """``wanted`` made safe, or with the first number (2, 3, ...) that makes it unique."""
        anchor = _SAFE_ID.sub("-", wanted)
        candidate, n = anchor, self._numbered.get(anchor, 1)  # numbers below are taken already
        while candidate in self._anchors:
            n += 1
            candidate = f"{anchor}-{n}"
        self._anchors.add(candidate)
        self._numbered[anchor] = n
        return candidate

    def _check_images(self, line: int, images: list[m.Image]) -> None:
        """Name the images of a line that cannot be shown (their page says so too)."""
        for image in images:
            if not image.url and image.decoded() is None:
                self.report.problem(line, f"an image ({image.media_type[:40]}) is not valid base64: it cannot be shown")

    def _note_context(self, line: int, entry: raw.Envelope) -> None:
        when = parse_time(entry.timestamp)
        if when is None and entry.timestamp:
            self.report.problem(line, f"timestamp {entry.timestamp[:40]!r} is not a date and time: ignored")
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
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    if not 1 < moment.year < 9999:  # a calendar's end (Go's zero time), which no time zone can be added to
        return None
    # Timestamps without a zone are read as UTC, so that all of them compare.
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _image(block: raw.ImageBlock) -> m.Image:
    source = block.source
    return m.Image(media_type=source.media_type or "image/png", data=source.data or "", url=source.url)


def _prompt_images(prompt: Any) -> list[m.Image]:
    """Images pasted with a queued prompt (a list of content blocks)."""
    if not isinstance(prompt, list):
        return []
    blocks = [b for b in prompt if isinstance(b, dict) and b.get("type") == "image"]
    return [_image(raw.ImageBlock.model_validate(b)) for b in blocks]


@dataclass
class _ResultContent:
    """A tool result's content: its text, images, documents, the tools it made
    available, and blocks of other kinds."""

    text: str = ""
    images: list[m.Image] = field(default_factory=list)
    documents: list[m.Document] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    extra: list[Any] = field(default_factory=list)


def _result_content(content: Any) -> _ResultContent:
    if content is None:
        return _ResultContent()
    if isinstance(content, str):
        return _ResultContent(content)
    found = _ResultContent()
    texts: list[str] = []
    for block in content:
        if isinstance(block, raw.TextBlock):
            texts.append(block.text)
        elif isinstance(block, raw.ImageBlock):
            found.images.append(_image(block))
        elif isinstance(block, raw.DocumentBlock):
            found.documents.append(_document(block))
        elif isinstance(block, raw.ToolReferenceBlock) and block.tool_name:
            found.tools.append(block.tool_name)
        else:
            found.extra.append(block)
    found.text = "\n".join(texts)
    return found




def _document(block: raw.DocumentBlock) -> m.Document:
    """A document's kind and size; the text of a text document (a PDF's bytes, base64
    in the transcript, are left out)."""
    source = block.source
    data = source.data if isinstance(source.data, str) else ""
    if source.type == "text":
        return m.Document(media_type=source.media_type or "text/plain", title=block.title or "", size=len(data.encode()), text=data)
    size = len(data) * 3 // 4 - data[-2:].count("=") if source.type == "base64" else 0
    return m.Document(media_type=source.media_type or "", title=block.title or source.url or "", size=max(size, 0))


_COLLAPSED = re.compile(r"</?collapsed[^>]*>")

# A long string of base64's characters alone, in a shape not known (a PDF pasted into
# a prompt, an image in a new kind of entry), is a file's bytes: named by its size
# rather than shown, on the page and in session.json, where it took megabytes.
_PAYLOAD = re.compile(r"(?:data:[\w.+-]+/[\w.+-]+;base64,)?[A-Za-z0-9+/=\n]+")
_PAYLOAD_FROM = 2000


def _payloads_out(value: Any) -> Any:
    """``value`` (JSON data) with each file's bytes in base64 replaced by a note of its size."""
    return mapped(value, _payload_out)


def _payload_out(text: str) -> str:
    if len(text) >= _PAYLOAD_FROM and _PAYLOAD.fullmatch(text):
        return f"({len(text):,} characters of base64 data, not shown)"
    return text


def odd_reminder(data: dict[str, Any]) -> bool:
    """Whether a reminder Claude Code gave the model (``_REMINDERS``) has no words where
    it writes them (``_TEXT_KEYS``, its content's tasks) and fields of its own: its
    words under another name, a shape not known."""
    if data.get("type") not in _REMINDERS or data.keys() <= _REMINDER_FIELDS:
        return False
    return not _attachment_text(data).strip() and not tasks_of(data.get("content"))


def attached_of(data: dict[str, Any]) -> m.Attached | None:
    """An attachment that carries a file, or lines of one, as the content model has
    it; None when its fields are not of the shapes Claude Code writes."""
    what = str(data.get("type"))
    path = first_text(data, "displayPath", "filename", "path", "planFilePath")
    found = m.Attached(what=what, path=path)
    keys = ATTACHED.get(what)
    value = next((data[k] for k in keys or () if k in data), None)
    if keys and not any(k in data for k in keys) and not data.keys() <= _ATTACHED_FIELDS:
        return None  # its text under another name: its fields, as they are
    if what == "diagnostics":
        value, one = _diagnostics(value)
        found.path = found.path or one
    if isinstance(value, dict):  # {"type": "text", "file": {"content", "startLine"}} or {"content": ...}
        file = value.get("file") if isinstance(value.get("file"), dict) else value
        if value.get("type") == "image" and isinstance(file.get("base64"), str):
            found.images = [m.Image(media_type=str(file.get("type") or "image/png"), data=file["base64"])]
            return found
        if value.get("type") == "pdf":
            return found if found.path else None  # named by its path (its bytes are not shown)
        if value.get("type") not in (None, "text") and "file" in value:
            return None  # a notebook mentioned: its fields, as they are
        if "content" not in file:
            return None  # a text of a shape not known: its fields, as they are
        value = file.get("content")
        found.start_line = whole(file.get("startLine"))
        found.path = found.path or first_text(file, "filePath", "path")
    if value is not None and not isinstance(value, str):
        return None
    found.text = value or ""
    if what == "selected_lines_in_ide":
        found.start_line = whole(data.get("lineStart"))
    if not found.path and not found.text and keys is not None:
        return None  # a text of a shape not known: its fields, as they are
    return found


# The fields of an attachment that carries a file, but for its text (ATTACHED): what
# it is, where the file is, and which of its lines.
_ATTACHED_FIELDS = frozenset({"type", "displayPath", "filename", "path", "planFilePath", "lineStart", "lineEnd", "ideName", "truncated"})
# Where an attachment keeps what it says.
_TEXT_KEYS = ("content", "text", "prompt", "stdout", "stderr", "addedBlocks")
# A hook's fields that say which hook ran and how, not what it said; what it said is
# in _TEXT_KEYS, "message" or "blockingError"; any other field is shown by its name.
_HOOK_FIELDS = frozenset({"type", "hookName", "hookEvent", "toolUseID", "command", "durationMs", "exitCode", "message", "blockingError", *_TEXT_KEYS})
# The reminders Claude Code gives the model, which are their words (in _TEXT_KEYS, or
# the todos or tasks of their content), and their fields that count them, or name
# the model, rather than say anything. One of these with other fields and no words is
# of a shape not known.
_REMINDERS = frozenset({"skill_listing", "critical_system_reminder", "todo_reminder", "task_reminder", "silent_turn_reminder", "batching_reminder_sent"})
_REMINDER_FIELDS = frozenset({"type", "itemCount", "skillCount", "isInitial", "model", *_TEXT_KEYS})


def _diagnostics(files: Any) -> tuple[Any, str]:
    """What the IDE reported of files (an LSP's diagnostics), a line each:
    ``src/a.ts:11:2: Error typescript 2304: Cannot find name 'x'.`` (lines and columns
    counted from 1; the IDE counts from 0), and the file when there is one (its lines
    then start at the line number). None when not of that shape."""
    if not isinstance(files, list) or not all(isinstance(f, dict) and isinstance(f.get("diagnostics"), list) for f in files):
        return None, ""
    paths = [first_text(f, "filePath", "uri", "path").removeprefix("file://") for f in files]
    one = paths[0] if len(paths) == 1 else ""
    lines = []
    for file, path in zip(files, paths):
        for found in file["diagnostics"]:
            if not isinstance(found, dict):
                return None, ""
            place = [] if one else [path]
            start = _dict(_dict(found.get("range")).get("start"))
            line, column = whole(start.get("line")), whole(start.get("character"))
            if line is not None:
                place.append(str(line + 1) + (f":{column + 1}" if column is not None else ""))
            code = found.get("code")
            code = code.get("value") if isinstance(code, dict) else code
            kind = " ".join(str(part) for part in (found.get("severity"), found.get("source"), code) if part not in (None, ""))
            lines.append(": ".join(part for part in (":".join(p for p in place if p), kind, str(found.get("message") or "")) if part))
    return "\n".join(lines), one










def _files_text(files: Any) -> str:
    """Files given to the model whole (the instructions files, ``CLAUDE.md``), each its
    path, then its text."""
    if not isinstance(files, list):
        return ""
    texts = [f"{as_text(f.get('path'))}\n\n{as_text(f.get('content'))}".strip() for f in files if isinstance(f, dict)]
    return "\n\n".join(text for text in texts if text)


def _attachment_text(data: dict[str, Any]) -> str:
    return _joined(as_text(data.get(k)) for k in _TEXT_KEYS)


def _joined(texts: Iterable[str]) -> str:
    """Texts one after another, each once: a hook's output is often both its
    ``content`` and its ``stdout``."""
    kept: dict[str, str] = {}
    for text in texts:
        key = text.strip()
        if key and key != "{}" and key not in kept:
            kept[key] = text
    return "\n\n".join(kept.values())


_PLACE = frozenset({"uuid", "parent_uuid", "timestamp", "line", "anchor", "output"})


# Where, when and in what setting an entry was written, not what it says.
_PLACE_FIELDS = frozenset(raw.Envelope.model_fields)


def _says(entry: raw.AnyEntry) -> Any:
    """What an entry says: a message's content (its kind and text, its blocks), or
    the whole entry but for where and when it was written."""
    message = getattr(entry, "message", None)
    if isinstance(message, raw.MessageBody):
        return (type(entry), message.content)
    return (type(entry), entry.model_dump(exclude=_PLACE_FIELDS))


def _same_result(first: m.ToolResult | None, again: m.ToolResult) -> bool:
    """Whether ``again`` says what ``first`` said, wherever and whenever it was written
    (written again, a result may lack Claude Code's record of it, ``output``)."""
    if first is None or again.output not in (None, first.output):
        return False
    return first.model_dump(exclude=_PLACE) == again.model_dump(exclude=_PLACE)


def _kind_named(kind: Any) -> str:
    """The type an entry or a block gives itself, as its title names it: none for one
    that gives none (not "None")."""
    return "" if kind in (None, "") else str(kind)


def _full_text(path: str) -> str:
    """A tool's whole output, as Claude Code kept it apart: a text, or a result's
    content blocks, their texts (any other JSON as it is, but for the bytes of a
    file)."""
    data = kept_output(path)
    if isinstance(data, str):
        return data
    if isinstance(data, list) and all(isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in data):
        return "\n".join(b["text"] for b in data)  # (as the texts of a result's blocks are joined)
    return json.dumps(_payloads_out(data), ensure_ascii=False, indent=2)


# The fields of a system entry shown as its note's title and text, or that place it.
_NOTE_FIELDS = frozenset({"type", "subtype", "level", "content", *raw.Envelope.model_fields})
# And those a note of a known kind carries, which say nothing of it (the session's name,
# how Claude Code was started).
_KNOWN_NOTE_FIELDS = _NOTE_FIELDS | {"slug", "entrypoint"}




def _list(value: Any) -> list[Any]:
    """A list from the file, or none (where the file holds something else)."""
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    """An object from the file, or an empty one (where the file holds something else)."""
    return value if isinstance(value, dict) else {}




def _level(level: str | None, subtype: str | None) -> str:
    if level in ("info", "warning", "error"):
        return level
    return "error" if subtype == "api_error" else "info"


def _duration(ms: float) -> str:
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, seconds = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"

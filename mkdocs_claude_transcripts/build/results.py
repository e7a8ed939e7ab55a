"""Read what Claude Code records beside a tool result (``toolUseResult``) into a
typed output of the content model, per tool. Unknown shapes give ``None``: the
result's text is always there to show."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from .. import model as m

_EXIT_CODE = re.compile(r"^(?:Error: )?Exit code (\d+)\b")
_TOOL_ERROR = re.compile(r"^\s*<tool_use_error>(.*)</tool_use_error>\s*$", re.DOTALL)

Reader = Callable[[dict[str, Any], str, bool], "m.AnyOutput | None"]


def output_of(tool: str, data: Any, text: str, is_error: bool) -> m.AnyOutput | None:
    reader = READERS.get(tool)
    if reader is None:
        return None
    try:
        return reader(data if isinstance(data, dict) else {}, text, is_error)
    except (TypeError, ValueError, AttributeError, KeyError):
        return None  # an unexpected shape: the text alone is shown


def error_text(text: str) -> str:
    """The message inside a ``<tool_use_error>`` wrapper, or the text as it is."""
    match = _TOOL_ERROR.match(text)
    return match.group(1).strip() if match else text


# Larger than any count, size or time a transcript gives (a number of hundreds of
# digits cannot even be made a float).
_LARGEST = 2**63


def whole(value: Any) -> int | None:
    """A number of the transcript as a whole number, or None: not a number, JSON's NaN
    or Infinity (which Python reads), or a number larger than any count (``_LARGEST``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return int(value) if -_LARGEST < value < _LARGEST else None


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _shell(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    code = _EXIT_CODE.match(text)
    if not data and not code:
        return None
    interrupted = bool(data.get("interrupted"))
    background = data.get("backgroundTaskId")
    exit_code = int(code.group(1)) if code else (None if (is_error or interrupted or background or not data) else 0)
    return m.ShellOutput(
        stdout=_str(data.get("stdout")),
        stderr=_str(data.get("stderr")),
        exit_code=exit_code,
        interrupted=interrupted,
        background_id=_str(data.get("backgroundTaskId")) or None,
        interpretation=_str(data.get("returnCodeInterpretation")),
    )


def _file(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    file = data.get("file")
    if not isinstance(file, dict):
        return None
    return m.FileOutput(
        path=_str(file.get("filePath")),
        start_line=whole(file.get("startLine")) or 1,
        num_lines=whole(file.get("numLines")),
        total_lines=whole(file.get("totalLines")),
    )


def _patch(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    hunks = data.get("structuredPatch")
    if not isinstance(hunks, list):
        return None
    return m.PatchOutput(
        path=_str(data.get("filePath")),
        created=data.get("type") == "create",
        hunks=[
            m.Hunk(
                old_start=whole(h.get("oldStart")) or 0,
                old_lines=whole(h.get("oldLines")) or 0,
                new_start=whole(h.get("newStart")) or 0,
                new_lines=whole(h.get("newLines")) or 0,
                lines=[line for line in h.get("lines", []) if isinstance(line, str)],
            )
            for h in hunks
            if isinstance(h, dict)
        ],
    )


def _matches(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    files = data.get("filenames")
    if not isinstance(files, list):
        return None
    count = whole(data.get("numFiles"))
    if data.get("mode") == "content":
        count = whole(data.get("numLines"))
    return m.MatchOutput(files=[f for f in files if isinstance(f, str)], count=count, truncated=bool(data.get("truncated")))


def _agent(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    if not data:
        return None
    return m.AgentOutput(
        agent_id=_str(data.get("agentId")) or None,
        status=_str(data.get("status")),
        tokens=whole(data.get("totalTokens")),
        tool_uses=whole(data.get("totalToolUseCount")),
        duration_ms=whole(data.get("totalDurationMs")),
    )


def _todos(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    todos = data.get("newTodos")
    if not isinstance(todos, list):
        return None
    return m.TodoOutput(
        todos=[
            m.Todo(
                content=_str(t.get("content")),
                status=_str(t.get("status")) or "pending",
                active_form=_str(t.get("activeForm")),
                priority=_str(t.get("priority")) or None,
            )
            for t in todos
            if isinstance(t, dict)
        ]
    )


def _answers(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    answers = data.get("answers")
    if isinstance(answers, dict):
        return m.AnswerOutput(answers={str(k): str(v) for k, v in answers.items()})
    found = dict(re.findall(r'"([^"]+)"="([^"]*)"', text))
    return m.AnswerOutput(answers=found) if found else None


def _plan(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    lowered = text.lower()
    if "approved" in lowered and not is_error:
        approved: bool | None = True
    elif is_error or "doesn't want to proceed" in lowered or "rejected" in lowered:
        approved = False
    else:
        approved = None
    return m.PlanOutput(approved=approved, path=_str(data.get("filePath")))


def _web(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    if not data:
        return None
    return m.WebOutput(
        url=_str(data.get("url")),
        status_code=whole(data.get("code")),
        status_text=_str(data.get("codeText")),
        size=whole(data.get("bytes")),
        duration_ms=whole(data.get("durationMs")),
    )


def _background(data: dict[str, Any], text: str, is_error: bool) -> m.AnyOutput | None:
    if not data:
        return None
    task = data.get("task") if isinstance(data.get("task"), dict) else {}
    return m.BackgroundOutput(
        task_id=_str(data.get("shellId") or data.get("shell_id") or data.get("task_id") or data.get("taskId") or task.get("task_id")),
        status=_str(data.get("status") or task.get("status") or data.get("retrieval_status")),
        exit_code=whole(data.get("exitCode") if "exitCode" in data else task.get("exitCode")),
        command=_str(data.get("command") or data.get("summary") or task.get("description")),
        message=_str(data.get("message")),
        run_id=_str(data.get("runId")),
    )


READERS: dict[str, Reader] = {
    "Bash": _shell,
    "PowerShell": _shell,
    "Read": _file,
    "Write": _patch,
    "Edit": _patch,
    "MultiEdit": _patch,
    "Glob": _matches,
    "Grep": _matches,
    "Task": _agent,
    "Agent": _agent,
    "TodoWrite": _todos,
    "AskUserQuestion": _answers,
    "ExitPlanMode": _plan,
    "WebFetch": _web,
    "BashOutput": _background,
    "TaskOutput": _background,
    "KillShell": _background,
    "KillBash": _background,
    "TaskStop": _background,
    "Workflow": _background,
}

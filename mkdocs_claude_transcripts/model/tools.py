"""Typed views of tool calls: the input each known tool takes, and what Claude Code
records about a result beside its text (exit codes, line numbers, patches, answers).

Inputs stay dicts on ``ToolCall`` (the shape the model sent); ``typed_input`` reads
one as its tool's class, leniently: a field of an unexpected type makes it ``None``
and the call is shown in the generic form. Outputs are filled by the build step.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- outputs


class ShellOutput(_Model):
    kind: Literal["shell"] = "shell"
    stdout: str = ""
    stderr: str = ""
    exit_code: int | None = None
    interrupted: bool = False
    background_id: str | None = None
    interpretation: str = ""  # Claude Code's reading of the exit code ("No matches found")


class FileOutput(_Model):
    kind: Literal["file"] = "file"
    path: str = ""
    start_line: int = 1
    num_lines: int | None = None
    total_lines: int | None = None


class Hunk(_Model):
    old_start: int = 0
    old_lines: int = 0
    new_start: int = 0
    new_lines: int = 0
    lines: list[str] = Field(default_factory=list)  # each starting with " ", "-" or "+"


class PatchOutput(_Model):
    kind: Literal["patch"] = "patch"
    path: str = ""
    hunks: list[Hunk] = Field(default_factory=list)
    created: bool = False


class MatchOutput(_Model):
    kind: Literal["matches"] = "matches"
    files: list[str] = Field(default_factory=list)
    count: int | None = None
    truncated: bool = False


class AgentOutput(_Model):
    kind: Literal["agent"] = "agent"
    agent_id: str | None = None
    status: str = ""
    tokens: int | None = None
    tool_uses: int | None = None
    duration_ms: int | None = None


class Todo(_Model):
    content: str = ""
    status: str = "pending"
    active_form: str = ""
    priority: str | None = None


class TodoOutput(_Model):
    kind: Literal["todos"] = "todos"
    todos: list[Todo] = Field(default_factory=list)


class AnswerOutput(_Model):
    kind: Literal["answers"] = "answers"
    answers: dict[str, str] = Field(default_factory=dict)


class PlanOutput(_Model):
    kind: Literal["plan"] = "plan"
    approved: bool | None = None
    path: str = ""


class WebOutput(_Model):
    kind: Literal["web"] = "web"
    url: str = ""
    status_code: int | None = None
    status_text: str = ""
    size: int | None = None
    duration_ms: int | None = None


class BackgroundOutput(_Model):
    """A background task polled, stopped or launched (BashOutput, TaskOutput, KillShell,
    TaskStop, Workflow)."""

    kind: Literal["background"] = "background"
    task_id: str = ""
    status: str = ""
    exit_code: int | None = None
    command: str = ""
    message: str = ""
    run_id: str = ""


AnyOutput = Annotated[
    Union[
        ShellOutput,
        FileOutput,
        PatchOutput,
        MatchOutput,
        AgentOutput,
        TodoOutput,
        AnswerOutput,
        PlanOutput,
        WebOutput,
        BackgroundOutput,
    ],
    Field(discriminator="kind"),
]


# ---------------------------------------------------------------- inputs


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="allow")


class BashInput(ToolInput):
    command: str = ""
    description: str = ""
    timeout: int | float | None = None
    run_in_background: bool = False


class ReadInput(ToolInput):
    file_path: str = ""
    offset: int | None = None
    limit: int | None = None
    pages: str | None = None


class WriteInput(ToolInput):
    file_path: str = ""
    content: str = ""


class EditInput(ToolInput):
    file_path: str = ""
    old_string: str = ""
    new_string: str = ""
    replace_all: bool = False


class EditItem(ToolInput):
    old_string: str = ""
    new_string: str = ""
    replace_all: bool = False


class MultiEditInput(ToolInput):
    file_path: str = ""
    edits: list[EditItem] = Field(default_factory=list)


class GlobInput(ToolInput):
    pattern: str = ""
    path: str = ""


class GrepInput(ToolInput):
    pattern: str = ""
    path: str = ""
    glob: str = ""
    type: str = ""
    output_mode: str = ""


class LSInput(ToolInput):
    path: str = ""
    ignore: list[str] = Field(default_factory=list)


class TaskInput(ToolInput):
    description: str = ""
    prompt: str = ""
    subagent_type: str = ""
    model: str = ""
    run_in_background: bool = False


class TodoItem(ToolInput):
    content: str = ""
    status: str = "pending"
    activeForm: str = ""
    priority: str | None = None
    id: str | int | None = None


class TodoWriteInput(ToolInput):
    todos: list[TodoItem] = Field(default_factory=list)


class TaskCreateInput(ToolInput):
    """A task of the task list (2.1, where TodoWrite was)."""

    subject: str = ""
    description: str = ""
    activeForm: str = ""


class TaskUpdateInput(ToolInput):
    taskId: str | int = ""
    status: str = ""
    subject: str = ""
    description: str = ""
    activeForm: str = ""


class WebFetchInput(ToolInput):
    url: str = ""
    prompt: str = ""


class WebSearchInput(ToolInput):
    query: str = ""
    allowed_domains: list[str] = Field(default_factory=list)
    blocked_domains: list[str] = Field(default_factory=list)


class QuestionOption(ToolInput):
    label: str = ""
    description: str = ""


class Question(ToolInput):
    question: str = ""
    header: str = ""
    options: list[QuestionOption] = Field(default_factory=list)
    multiSelect: bool = False


class AskUserQuestionInput(ToolInput):
    questions: list[Question] = Field(default_factory=list)


class PlanInput(ToolInput):
    plan: str = ""


class NotebookReadInput(ToolInput):
    notebook_path: str = ""
    cell_id: str = ""


class NotebookEditInput(NotebookReadInput):
    new_source: str = ""
    cell_type: str = ""
    edit_mode: str = ""


class SkillInput(ToolInput):
    skill: str = ""
    command: str = ""
    args: str = ""


class SlashCommandInput(ToolInput):
    command: str = ""


class ShellIdInput(ToolInput):
    bash_id: str = ""
    shell_id: str = ""
    task_id: str = ""
    filter: str = ""


class WorkflowInput(ToolInput):
    description: str = ""
    name: str = ""
    script: str = ""
    scriptPath: str = ""


class ArtifactInput(ToolInput):
    title: str = ""
    content: str = ""
    type: str = ""
    path: str = ""


INPUTS: dict[str, type[ToolInput]] = {
    "Bash": BashInput,
    "PowerShell": BashInput,
    "Read": ReadInput,
    "NotebookRead": NotebookReadInput,
    "Write": WriteInput,
    "Edit": EditInput,
    "MultiEdit": MultiEditInput,
    "Glob": GlobInput,
    "Grep": GrepInput,
    "LS": LSInput,
    "Task": TaskInput,
    "Agent": TaskInput,
    "TodoWrite": TodoWriteInput,
    "TaskCreate": TaskCreateInput,
    "TaskUpdate": TaskUpdateInput,
    "WebFetch": WebFetchInput,
    "WebSearch": WebSearchInput,
    "AskUserQuestion": AskUserQuestionInput,
    "ExitPlanMode": PlanInput,
    "NotebookEdit": NotebookEditInput,
    "Skill": SkillInput,
    "SlashCommand": SlashCommandInput,
    "BashOutput": ShellIdInput,
    "KillShell": ShellIdInput,
    "KillBash": ShellIdInput,
    "TaskOutput": ShellIdInput,
    "TaskStop": ShellIdInput,
    "Workflow": WorkflowInput,
    "Artifact": ArtifactInput,
}


def unknown_fields(args: ToolInput) -> dict[str, Any]:
    """The inputs ``args`` holds that its classes do not know of (an option newer than
    them), by their dotted path: its own (``newflag``), and those of the items it holds
    (``edits.0.newflag``, an edit of MultiEdit's; a todo's, a question's, an option's)."""
    found: dict[str, Any] = dict(args.model_extra or {})
    for name in type(args).model_fields:
        value = getattr(args, name)
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for index, item in items:
            if isinstance(item, ToolInput):
                path = name if index is None else f"{name}.{index}"
                found.update({f"{path}.{key}": inner for key, inner in unknown_fields(item).items()})
    return found


def typed_input(name: str, data: dict[str, Any]) -> ToolInput | None:
    """The input of a call to ``name`` as its tool's class, or None if it does not fit."""
    kind = INPUTS.get(name)
    if kind is None:
        return None
    try:
        return kind.model_validate(data)
    except ValidationError:
        return None

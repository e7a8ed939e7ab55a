"""A conversation written again under new uuids (a resumed session) is found, and
nothing else is (tests/golden/replayed_lines.* shows one on a page)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mkdocs_claude_transcripts import model as m
from mkdocs_claude_transcripts.build.replays import written_again
from mkdocs_claude_transcripts.pipeline import SourceFile, discover, session_of
from mkdocs_claude_transcripts.render.context import RenderOptions
from mkdocs_claude_transcripts.transcript.raw import ENTRY

from .conftest import CORPUS, ROOT


def user(line: int, content: Any) -> tuple[int, Any]:
    return line, ENTRY.validate_python({"type": "user", "uuid": f"u{line}", "message": {"role": "user", "content": content}})


def assistant(line: int, response: str, content: list[dict]) -> tuple[int, Any]:
    data = {"type": "assistant", "uuid": f"u{line}", "message": {"role": "assistant", "id": response, "content": content}}
    return line, ENTRY.validate_python(data)


def text(value: str) -> dict:
    return {"type": "text", "text": value}


NOTE = text("<ide_selection>lines 3-4 of app.py</ide_selection>")
CALL = {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "app.py"}}
RESULT = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "print('hi')"}


def test_a_conversation_written_again_is_found_line_by_line() -> None:
    entries = [
        user(1, [NOTE, text("Explain this.")]),
        assistant(2, "msg_1", [text("Let me read it.")]),
        assistant(3, "msg_1", [CALL]),
        user(4, [RESULT]),
        assistant(5, "msg_2", [text("It prints hi.")]),
        # Written again on resuming: the prompt and its note as two entries, a text as a plain string.
        user(6, [NOTE]),
        user(7, "Explain this."),
        assistant(8, "msg_1", [text("Let me read it.")]),
        assistant(9, "msg_1", [CALL]),
        user(10, [RESULT]),
        assistant(11, "msg_2", [text("It prints hi.")]),
        # Then the conversation goes on.
        user(12, "Explain this."),
        assistant(13, "msg_3", [text("Once more: it prints hi.")]),
    ]
    doubtful: set[int] = set()
    assert written_again(entries, doubtful) == {6, 7, 8, 9, 10, 11}
    assert doubtful == set()


def test_what_is_said_again_with_an_answer_of_its_own_is_not_found() -> None:
    entries = [
        user(1, "yes"),
        assistant(2, "msg_1", [text("Done.")]),
        user(3, "yes"),
        assistant(4, "msg_2", [text("Done.")]),  # the same words, another response
        user(5, [RESULT]),
        assistant(6, "msg_2", [text("And more.")]),  # the same response, other content (streamed in parts)
    ]
    assert written_again(entries) == set()


def test_an_answer_found_again_after_another_prompt_is_named() -> None:
    """A backend that gives every response one id, answering two prompts in the same
    words: shown once, as a resumed session's is, and named (an info message)."""
    entries = [
        user(1, "Is the build green?"),
        assistant(2, "msg_proxy", [text("Yes.")]),
        user(3, "And after my last push?"),
        assistant(4, "msg_proxy", [text("Yes.")]),
    ]
    doubtful: set[int] = set()
    assert written_again(entries, doubtful) == {4}
    assert doubtful == {4}


def test_a_prompt_typed_again_answered_in_the_same_words_under_one_id_by_another_request_is_not_found() -> None:
    """A backend that gives every response one id: "continue", typed again and answered
    "Done." again, was taken for the conversation written again, prompt and answer
    left out unsaid. Each request has an id of its own, which a response written again
    keeps."""

    def answer(line: int, request: str) -> tuple[int, Any]:
        data = {"type": "assistant", "uuid": f"u{line}", "requestId": request,
                "message": {"role": "assistant", "id": "msg_proxy", "content": [text("Done.")]}}  # fmt: skip
        return line, ENTRY.validate_python(data)

    entries = [user(1, "continue"), answer(2, "req_1"), user(3, "continue"), answer(4, "req_2")]
    assert written_again(entries) == set()
    entries = [user(1, "continue"), answer(2, "req_1"), user(3, "continue"), answer(4, "req_1")]  # written again
    assert written_again(entries) == {3, 4}


def test_a_user_entry_is_found_only_with_the_answer_that_followed_it() -> None:
    entries = [
        user(1, "First."),
        assistant(2, "msg_1", [text("One.")]),
        user(3, "Second."),
        assistant(4, "msg_2", [text("Two.")]),
        user(5, "Second."),  # written again before the answer to the first prompt, not to its own
        assistant(6, "msg_1", [text("One.")]),
    ]
    assert written_again(entries) == {6}


def test_blocks_of_kinds_not_known_holding_anything_are_compared() -> None:
    odd = {"type": "mystery", "id": {"an": "object"}, "text": ["a", "list"], "tool_use_id": [1]}
    entries = [
        user(1, [odd]),
        assistant(2, "msg_1", [odd]),
        user(3, [odd, {**odd, "type": "other"}]),  # holds a block the first did not
        user(4, [odd]),
        assistant(5, "msg_1", [odd]),
    ]
    assert written_again(entries) == {4, 5}


def test_an_entry_of_thousands_of_blocks_written_again_is_found_whole() -> None:
    notes = [text(f"note {n} of the pasted list") for n in range(3000)]
    again = [user(1, notes), assistant(2, "msg_1", [text("Done.")]), user(3, notes[::-1]), assistant(4, "msg_1", [text("Done.")])]
    assert written_again(again) == {3, 4}
    more = [*again[:2], user(3, [*notes, text("One more.")]), again[3]]  # holds a block the first did not
    assert written_again(more) == {4}


def _sessions() -> Iterator[Path]:
    """The golden sessions, and the corpus's sessions under 400 KB where it is here."""
    golden = [p for p in sorted((ROOT / "tests" / "golden").glob("*.jsonl")) if p.stem != "replayed_lines"]  # holds copies already
    corpus = sorted(p for p in CORPUS.rglob("*.jsonl") if p.stat().st_size < 400_000) if CORPUS.is_dir() else []
    return iter(golden + [p for p in corpus if "subagents" not in p.parts and not p.name.startswith("agent-")])


def _messages(path: Path) -> list[tuple[str, str]]:
    found = discover([SourceFile(path.name, str(path))])
    if not found.sessions:
        return []
    session = session_of(found.sessions[0], RenderOptions())
    place = {"uuid", "parent_uuid", "timestamp", "line", "anchor", "result"}
    return [(type(message).__name__, message.model_dump_json(exclude=place)) for message in m.walk(session.messages)]


def _resumed(lines: list[str], half: bool = False) -> list[str]:
    """``lines``, then their user and assistant entries written again as a resumed
    session writes them: new uuids (parents following), the time of the resume, no
    ``toolUseResult``; up to the last answer. With ``half``, from the first prompt of
    the second half on, the copy going on from that prompt's parent, as the first
    did (what makes it look like a rewind to that point)."""
    entries = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("type") in ("user", "assistant") and isinstance(entry.get("uuid"), str):
            entries.append(entry)
    if half:
        entries = entries[next((n for n, e in enumerate(entries) if n >= len(entries) // 2 and e["type"] == "user"), len(entries)) :]
    fresh = {entry["uuid"]: f"copy-{number}" for number, entry in enumerate(entries)}
    copies = []
    for entry in entries:
        parent = entry.get("parentUuid")
        copy = {**entry, "uuid": fresh[entry["uuid"]], "parentUuid": fresh.get(parent, parent if half else None), "timestamp": "2031-01-01T00:00:00.000Z"}
        copy.pop("toolUseResult", None)
        copies.append(copy)
    while copies and copies[-1]["type"] != "assistant":
        copies.pop()
    return lines + [json.dumps(copy) for copy in copies]


@pytest.mark.parametrize("half", [False, True], ids=["whole", "from-a-prompt"])
@pytest.mark.parametrize("path", list(_sessions()), ids=lambda path: path.name)
def test_a_session_written_again_after_itself_shows_the_same_messages(path: Path, tmp_path: Path, half: bool) -> None:
    """Written again from a prompt on, the copy starts at that prompt's parent: its
    prompt is not a rewind, and the first writing is not a branch left behind."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    resumed = tmp_path / path.name
    resumed.write_text("\n".join(_resumed(lines, half)) + "\n", encoding="utf-8")
    assert _messages(resumed) == _messages(path)

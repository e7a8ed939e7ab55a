"""Bad input never stops the build, each problem is named with its file (and line),
and every line of every file is accounted for."""

from __future__ import annotations

import base64
import codecs
import itertools
import json
import logging
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from bs4 import BeautifulSoup
from hypothesis import given, settings
from hypothesis import strategies as st

from mkdocs_claude_transcripts import model as m
from mkdocs_claude_transcripts.build.user import _tags, split_tags
from mkdocs_claude_transcripts.pipeline import SourceFile, convert_session, discover, session_of
from mkdocs_claude_transcripts.render import brackets
from mkdocs_claude_transcripts.render.context import RenderOptions
from mkdocs_claude_transcripts.render.markdown import _TEXT_ITEM, _neutralise_links, prose
from mkdocs_claude_transcripts.render.text import split_reminders

from .conftest import ROOT, build, built_pages, copy_tree, make_site
from .test_markdown_properties import render

SESSION = "5e551011-0000-4000-8000-0000000000{:02d}"


def entry(n: int, kind: str = "user", **fields: object) -> dict:
    base = {"type": kind, "uuid": f"{n:08x}-aaaa-4000-8000-000000000000", "sessionId": SESSION.format(0),
            "timestamp": f"2025-01-01T00:00:{n:02d}.000Z", "parentUuid": None}  # fmt: skip
    if kind == "user":
        base["message"] = {"role": "user", "content": f"prompt number {n}"}
    base.update(fields)
    return base


def call(n: int, command: str, tool_id: str = "toolu_1") -> dict:
    """An assistant entry calling Bash."""
    content = [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": command}}]
    return entry(n, "assistant", message={"id": f"response-{n}", "role": "assistant", "content": content})


def lines(*items: object) -> bytes:
    return b"".join((item if isinstance(item, bytes) else json.dumps(item).encode()) + b"\n" for item in items)


# name -> (file content, text the log must hold, text its page must still show)
CASES: dict[str, tuple[bytes, str, str]] = {
    "empty": (b"", "is empty", ""),
    "truncated": (lines(entry(1))[:-1] + b"\n" + b'{"type": "user", "message": {"content": "cut', ":2: last line is cut off", "prompt number 1"),
    "malformed": (lines(entry(1), b"{not json", entry(2)), ":2: not valid JSON", "prompt number 2"),
    "bad_utf8": (lines(entry(1)).replace(b"number", b"num\xff\xfeber"), ":1: invalid UTF-8", "prompt"),
    # A NUL (a damaged disk) or a tab written raw inside a string, which JSON does not
    # allow: the line is whole, and its prompt was lost with it.
    "control_character": (lines(entry(1), entry(2)).replace(b"number 2", b"number\x002\tand a tab"), ":2: control characters inside a string", "prompt number\ufffd2"),
    # An entry that lost its type is read as its message's role says; one with no
    # message, or no type and no role, is shown with its fields. They were shown as
    # "Unknown None" or left out, with nothing in the log.
    "no_type": (lines(entry(1), {k: v for k, v in entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [
        {"type": "text", "text": "an answer that lost its type"}]}).items() if k != "type"}), ":2: entry with no type: read as 'assistant'",
        "an answer that lost its type"),
    "no_message": (lines(entry(1), entry(2, "assistant"), {k: v for k, v in entry(3, toolUseResult="the output of a lost message").items() if k != "message"}),
                   ":2: assistant entry has no message: shown with all its fields", "the output of a lost message"),
    # An attachment whose attachment is not an object (a text, a list): its words were
    # dropped, an empty note shown.
    "attachment_not_object": (lines(entry(1), {"type": "attachment", "uuid": "a2", "sessionId": SESSION.format(0), "attachment": "what the attachment said"}),
                               ":2: attachment entry has an attachment that is not an object: shown with all its fields", "what the attachment said"),
    # A line cut inside a string, in the middle of the file: named for what it is, not
    # for the line end inside the string ("Invalid control character").
    "cut_in_a_string": (lines(entry(1))[:-1] + b"\n" + json.dumps(entry(2)).encode()[:60] + b"\n" + lines(entry(3)),
                        ":2: not valid JSON: Unterminated string", "prompt number 3"),
    "not_objects": (lines(entry(1), b"[1, 2]", b'"text"', b"42", b"null"), ":2: is a JSON list", "prompt number 1"),
    "wrong_types": (lines(entry(1, timestamp=12, isSidechain="maybe"), entry(2, message="not a message")), ":1: user entry: ignored", "prompt number 1"),
    # A block's field of the wrong type: that field goes, not the message's other blocks
    # (the content is not a text either, which pydantic names at the content itself).
    "block_wrong_type": (lines(entry(1), entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [
        {"type": "text", "text": "I will run the tests first."}, {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "pytest -q"}},
        {"type": "text", "text": None}]})), ":2: assistant entry: ignored field(s) of an unexpected type: message.content.2.text", "pytest -q"),
    # A thinking block's signature, whose tag ("thinking") is also the name of its text.
    "signature_wrong_type": (lines(entry(1), entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [
        {"type": "thinking", "thinking": "Weighing the options.", "signature": {"v": 1}}, {"type": "text", "text": "Done."}]})),
        ":2: assistant entry: ignored field(s) of an unexpected type: message.content.0.signature", "Weighing the options."),
    # JSON's NaN and Infinity, which Python reads: in typed fields, dropped and named;
    # in free-form ones (an error's status, a compaction's tokens), no number. They
    # stopped the conversion.
    "not_finite": (lines(
        entry(1),
        entry(2, "system", subtype="turn_duration", durationMs=float("nan")),
        entry(3, "system", subtype="api_error", retryAttempt=float("nan"), maxRetries=2, error={"status": float("inf")}, content="overloaded"),
        entry(4, "system", subtype="compact_boundary", compactMetadata={"trigger": "auto", "preTokens": float("-inf")}),
        entry(5, "assistant", message={"id": "m", "role": "assistant", "content": [{"type": "text", "text": "answer five"}],
                                       "usage": {"input_tokens": float("inf"), "output_tokens": 3}}),
    ), ":2: system entry: ignored field(s) of an unexpected type: durationMs", "answer five"),
    # Half of an emoji, where Claude Code cut a text (a lone UTF-16 surrogate, escaped):
    # Python reads it into a string UTF-8 cannot hold, which stopped the build.
    "half_characters": (lines(
        entry(1, message={"role": "user", "content": "cut here \ud83d"}),
        entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "echo \udc80"}}]}),
        entry(3, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "out \ude00 and a whole \U0001f600"}]}),
    ), ":1: 1 half character(s) of UTF-16 (a text cut inside an emoji) shown as \ufffd", "a whole \U0001f600"),
    # A byte order mark before the first line (a file saved by an editor that marks
    # UTF-8), and Windows' line ends: the first prompt was lost as "not valid JSON".
    "byte_order_mark": (b"\xef\xbb\xbf" + lines(entry(1), entry(2)).replace(b"\n", b"\r\n"), "", "prompt number 1"),
    # A file saved again in UTF-16 (as Windows PowerShell's Out-File and > write) or
    # UTF-32, with its byte order mark: it was "named like a transcript but holds no
    # Claude Code entries", and none of its messages was shown.
    "utf_16": ("\ufeff".encode("utf-16-le") + lines(entry(1), entry(2, message={"role": "user", "content": "prompt number 2 \u00e9t\u00e9 \U0001f600"})).decode().replace("\n", "\r\n").encode("utf-16-le"),
               "is saved in UTF-16 (Claude Code writes UTF-8): read as UTF-16", "prompt number 2 \u00e9t\u00e9 \U0001f600"),
    # Line ends of a carriage return alone (classic Mac OS, or a tool writing "\\r"): the
    # whole file was one line "cut off", and every message was lost.
    "carriage_returns": (lines(entry(1), entry(2), entry(3, message={"role": "user", "content": "a line ended by a carriage return"})).replace(b"\n", b"\r"),
                         "", "a line ended by a carriage return"),
    "carriage_returns_mixed": (lines(entry(1, message={"role": "user", "content": "a line ended by CR alone"})).replace(b"\n", b"\r")
                               + lines(entry(2)).replace(b"\n", b"\r\n") + lines(entry(3)), "", "a line ended by CR alone"),
    # A time that is not one: named, the message shown without it.
    "bad_timestamp": (lines(entry(1), entry(2, timestamp="yesterday at noon", message={"role": "user", "content": "a prompt of no time"})),
                      ':2: timestamp \'yesterday at noon\' is not a date and time: ignored', "a prompt of no time"),
    # A time at the calendar's end (Go's zero time): the time zone could not be added to it,
    # and the command line stopped with a traceback (see test_cli.py).
    "calendar_end": (lines(entry(1), entry(2, timestamp="0001-01-01T00:00:00.000Z", message={"role": "user", "content": "a prompt of year one"})),
                     ":2: timestamp '0001-01-01T00:00:00.000Z' is not a date and time: ignored", "a prompt of year one"),
    # An image whose data is not base64 (pasted, or in a tool's result): named, its page says so.
    "bad_image": (lines(entry(1), entry(2, message={"role": "user", "content": [{"type": "text", "text": "look at this picture"},
                  {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "not base64 at all!"}}]})),
                  ":2: an image (image/png) is not valid base64: it cannot be shown", "could not be decoded"),
    # An image of a kind no page shows (an SVG, which may hold scripts): its page says so,
    # where it said the image could not be decoded.
    "svg_image": (lines(entry(1), entry(2, message={"role": "user", "content": [{"type": "text", "text": "look at this drawing"},
                  {"type": "image", "source": {"type": "base64", "media_type": "image/svg+xml", "data": "PHN2Zy8+"}}]})),
                  "", "(image/svg+xml) is not shown: a page shows PNG, JPEG, GIF and WebP images."),
    # An operation on the queue of prompts not known (one Claude Code may add): shown
    # with its fields, as an entry of a kind not known; its text was lost.
    "queue_operation_unknown": (lines(entry(1), {"type": "queue-operation", "operation": "edit", "sessionId": SESSION.format(0),
                                                 "timestamp": "2025-01-01T00:00:02.000Z", "content": "also fix the lint errors"}, entry(3)),
                                "", "also fix the lint errors"),
    # A prompt queued with an image, never sent: its image is shown with it.
    "queued_image": (lines(entry(1), {"type": "queue-operation", "operation": "enqueue", "sessionId": SESSION.format(0), "timestamp": "2025-01-01T00:00:02.000Z",
                                      "content": [{"type": "text", "text": "and this screenshot"},
                                                  {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "aGVsbG8="}}]}),
                     "", "images/aaf4c61ddcc5e8a2.png"),
    "utf_32": (lines(entry(1), entry(2)).decode().encode("utf-32"), "is saved in UTF-32", "prompt number 2"),
    # NUL bytes where a machine stopped while the file was written, then the lines
    # written after it: the first of those was lost with them.
    "nul_bytes": (lines(entry(1)) + b"\x00" * 4096 + lines(entry(2)) + b"\x00" * 10 + b"\n",
                  ":2: 4,096 NUL bytes (a write cut short) skipped", "prompt number 2"),
    # Entries run together: a line end lost, or a write cut short and the session gone on
    # in the same file; each whole entry is read (the whole line was lost).
    "run_together": (lines(entry(1)).rstrip(b"\n") + lines(entry(2), entry(3)),
                     ":1: 2 entries on one line (a line end lost between them); each is read", "prompt number 2"),
    "cut_then_continued": (lines(entry(1)) + lines(entry(2))[:40] + lines(entry(3), entry(4)),
                           ":2: 40 characters are not JSON (a write cut short); the entry beside them is read", "prompt number 3"),
    "whole_then_cut": (lines(entry(1)).rstrip(b"\n") + lines(entry(2))[:40] + b"\n" + lines(entry(3)),
                       ":1: 40 characters are not JSON (a write cut short); the entry beside them is read", "prompt number 1"),
    "missing_fields": (lines({"type": "user"}, {"type": "assistant"}, entry(3)), "", "prompt number 3"),
    "unknown_types": (lines(entry(1), {"type": "future-thing", "sessionId": SESSION.format(0), "x": 1}), "", "future-thing"),
    "duplicates": (lines(entry(1), entry(1), entry(2)), "", "prompt number 2"),
    # An entry, or a tool call, under an id used before that says something else: shown too.
    "uuid_reused": (lines(entry(1), entry(1, message={"role": "user", "content": "the same uuid, another prompt"}), entry(1), entry(2)),
                    ":2: an earlier entry has this uuid and says something else", "the same uuid, another prompt"),
    "tool_id_reused": (lines(entry(1), *(call(n, command) for n, command in ((2, "ls"), (3, "rm -r build"), (4, "ls"))), entry(5)),
                       ":3: tool call toolu_1 was made before with another input", "rm -r build"),
    "kinds_not_strings": (lines(
        entry(1, type={"not": "a string"}),
        entry(2, type=["user"]),
        entry(3, "assistant", message={"id": "m", "role": "assistant", "content": [{"type": {"text": 1}, "text": "a"}, {"type": ["x"]}, {"type": "text", "text": "answer number 3"}]}),
        entry(4),
    ), "", "answer number 3"),
    # Ids, times and lists of another type, in entries of every kind.
    "places_not_strings": (lines(
        entry(1),
        {"type": "future-thing", "uuid": {"a": 1}, "parentUuid": ["x"], "sessionId": SESSION.format(0), "timestamp": 5},
        {"type": "summary", "summary": "a summary", "uuid": [1], "parentUuid": 2.5},
        {"type": "last-prompt", "uuid": 3.5, "parentUuid": {"b": 2}, "sessionId": SESSION.format(0), "isSidechain": "maybe"},
        entry(5, "system", subtype="stop_hook_summary", hookInfos=2.5, hookErrors={"x": 1}, content="the hooks ran"),
        entry(6),
    ), ":2: future-thing entry: ignored field(s) of an unexpected type: parentUuid, timestamp, uuid", "prompt number 6"),
    # Numbers no transcript holds: one of more digits than Python reads (it stopped the
    # build), and ones too large for a float where a count or a time is read.
    "huge_numbers": (lines(
        entry(1),
        b'{"type": "user", "message": {"role": "user", "content": "prompt number 2"}, "n": 1' + b"0" * 5000 + b"}",
        entry(3, "system", subtype="turn_duration", durationMs=10**400),
        entry(4, "system", subtype="api_error", retryAttempt=10**400, maxRetries=-(10**400), error={"status": 10**400}, content="overloaded"),
        entry(5, "system", subtype="compact_boundary", compactMetadata={"trigger": "auto", "preTokens": 10**400, "postTokens": 10**400}),
        entry(6),
    ), "", "prompt number 6"),
    # Links that MkDocs cannot read (a host that is not an address) stopped the build.
    "unreadable_links": (lines(entry(1, message={"role": "user", "content": "see [a](https://[x) and [b](https://]x) and prompt number 1"})), "", "prompt number 1"),
    # The same, the bracket escaped: the guard read the target before Python-Markdown
    # read its escape back, and MkDocs stopped the build on it ("Invalid IPv6 URL").
    # Brackets no `]` closes are escaped by the plugin, in the target too: `[[[[[$[[](http://[)[[` did the same.
    "escaped_unreadable_links": (lines(entry(1, message={"role": "user", "content": "see [a](https://\\[x) and [[[[[$[[](http://[)[[ prompt number 1"})), "",
                                 "prompt number 1"),
    # A system entry of a kind not known is shown with its fields.
    "unknown_subtype": (lines(entry(1), entry(2, "system", subtype="future_error", error={"message": "the error it reported"})), "", "the error it reported"),
    # Lines that tell nothing before the first entry: a kind of entry not known, with a
    # field longer than what is sniffed; what a machine that stopped left (NUL bytes).
    "late_first_entry": (lines({"type": "future-snapshot", "sessionId": SESSION.format(0), "blob": "x" * 70_000}, entry(2)), "", "prompt number 2"),
    "nul_bytes_first": (b"\x00" * 70_000 + lines(entry(1), entry(2)), ":1: 70,000 NUL bytes (a write cut short) skipped", "prompt number 2"),
    "names_missing_agent": (lines(
        entry(1),
        entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "d", "prompt": "p"}}]}),
        entry(3, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "done\nagentId: a404 (for resuming)"}]}),
    ), "names agent a404, whose transcript is not here", "prompt number 1"),  # fmt: skip
}


def write_cases(docs: Path) -> dict[str, Path]:
    paths = {}
    for number, (name, (content, _, _)) in enumerate(CASES.items(), 1):
        path = docs / "bad" / name / f"{SESSION.format(number)}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        paths[name] = path
    garbage = docs / "bad" / "garbage" / f"{SESSION.format(99)}.jsonl"
    garbage.parent.mkdir(parents=True, exist_ok=True)
    garbage.write_bytes(bytes(range(256)) * 64)
    orphan = docs / "bad" / "orphan" / "agent-a1b2c3.jsonl"
    orphan.parent.mkdir(parents=True, exist_ok=True)
    orphan.write_bytes(lines(entry(1, isSidechain=True, agentId="a1b2c3", sessionId="not-in-the-site")))
    (docs / "data.jsonl").write_bytes(lines({"x": 1}, {"x": 2}))
    return paths


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path], str]:
    root = make_site(tmp_path_factory.mktemp("bad"))
    paths = write_cases(root / "docs")
    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        site = build(root, strict=False)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return site, paths, "\n".join(handler.messages)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.mark.parametrize("name", [name for name, case in CASES.items() if case[1]])
def test_each_problem_is_named_with_its_file(built: tuple[Path, dict[str, Path], str], name: str) -> None:
    _, paths, log = built
    expected = CASES[name][1]
    file = f"bad/{name}/{paths[name].name}"
    assert any(file in line and expected in line for line in log.splitlines()), f"{file}: {expected}"


@pytest.mark.parametrize("name", [name for name, case in CASES.items() if case[2]])
def test_the_rest_of_each_file_still_renders(built: tuple[Path, dict[str, Path], str], name: str) -> None:
    site, paths, _ = built
    page = site / "bad" / name / paths[name].stem / "index.html"
    assert CASES[name][2] in page.read_text(encoding="utf-8")


def test_files_that_are_not_sessions(built: tuple[Path, dict[str, Path], str]) -> None:
    site, _, log = built
    assert "holds no Claude Code entries" in log and f"{SESSION.format(99)}.jsonl" in log
    assert (site / "bad" / "garbage" / f"{SESSION.format(99)}.jsonl").is_file()  # published as it is
    assert (site / "data.jsonl").is_file()  # not a transcript: left alone
    assert "the session of this subagent is not in the site" in log
    assert (site / "bad" / "orphan" / "agent-a1b2c3" / "index.html").is_file()


@pytest.mark.parametrize("name", list(CASES))
def test_every_line_is_accounted_for(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{SESSION.format(1)}.jsonl"
    path.write_bytes(CASES[name][0])
    found = discover([SourceFile(path.name, str(path))])
    if not found.sessions:
        assert name == "empty" and found.empty
        return
    report = convert_session(found.sessions[0], RenderOptions()).reports[0]
    content = CASES[name][0]
    for mark, codec in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if content.startswith(mark):  # its lines are those of its text
            content = content.decode(codec).encode()
            break
    assert report.lines == len(content.splitlines())
    assert report.unaccounted() == []


def test_what_is_written_again_under_its_id_is_shown_once_and_what_says_else_is_shown_too(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION.format(1)}.jsonl"
    path.write_bytes(lines(
        entry(1), entry(1, message={"role": "user", "content": "another prompt"}), entry(1, timestamp="2031-01-01T00:00:00.000Z"),
        call(2, "ls"), call(3, "rm -r build"), call(4, "ls"),
        entry(5, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}]}),
    ))  # fmt: skip
    session = session_of(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    prompts = [message.text for message in session.messages if isinstance(message, m.Prompt)]
    calls = [message for message in session.messages if isinstance(message, m.ToolCall)]
    assert prompts == ["prompt number 1", "another prompt"]
    assert [call.input["command"] for call in calls] == ["ls", "rm -r build"]
    assert calls[0].result is not None and calls[0].result.text == "a.txt" and calls[1].result is None
    assert len({call.anchor for call in calls}) == 2


def test_a_line_of_fifty_megabytes(tmp_path: Path) -> None:
    root = make_site(tmp_path)
    image = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(37 * 1024 * 1024)).decode()
    big = entry(1, message={"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": image}},
        {"type": "text", "text": "what is in this screenshot?"}]})  # fmt: skip
    path = root / "docs" / f"{SESSION.format(50)}.jsonl"
    path.write_bytes(lines(big, entry(2)))
    assert path.stat().st_size > 50_000_000
    site = build(root)
    page = (site / path.stem / "index.html").read_text(encoding="utf-8")
    assert "what is in this screenshot?" in page and "prompt number 2" in page
    assert len(page) < 100_000  # the image is a file of its own, not inline data
    assert list((site / path.stem / "images").glob("*.png"))


@pytest.mark.parametrize("first", [None, {"type": "summary", "summary": "Earlier work", "leafUuid": "0000"}], ids=["first", "after a summary"])
def test_a_line_longer_than_what_is_sniffed_names_its_session_at_its_end(tmp_path: Path, first: dict | None) -> None:
    """A transcript is told by its first lines; one longer than what is read of them,
    whose session id comes after a long message, is read whole."""
    long = {"type": "user", "message": {"role": "user", "content": "x" * 200_000}, "uuid": "u1", "sessionId": "s-late", "agentId": "a9"}
    path = tmp_path / f"{SESSION.format(60)}.jsonl"
    path.write_bytes(lines(*([first] if first else []), long, entry(2)))
    found = discover([SourceFile(path.name, str(path))])
    assert not found.strangers
    assert [session.session_id for session in found.sessions] == ["s-late"]


def test_markdown_nested_hundreds_deep_is_shown_as_text(tmp_path: Path) -> None:
    """Python-Markdown parses each level of a list or quote deeper in its own stack:
    hundreds of levels stopped the build. Past sixteen, the markers are text."""
    one_line = "- " * 600 + "the deepest item"
    nested = "\n".join(" " * (2 * level) + f"- level {level}" for level in range(300))
    quoted = "> " * 600 + "the deepest quote"
    session = "deadbeef-1111-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": one_line}},
        {"type": "assistant", "message": {"id": "a", "role": "assistant", "model": "m", "content": [{"type": "text", "text": nested}]}},
        {"type": "user", "message": {"role": "user", "content": quoted}},
    ]
    [page] = built_pages(tmp_path, session, entries)
    html = page.read_text(encoding="utf-8")
    assert "the deepest item" in html and "level 299" in html and "the deepest quote" in html
    assert 16 <= html.count("<ul>") < 60  # nested as written, as deep as kept
    assert prose("- " * 40) == ["- " * 40]  # a rule, however long, is left alone


def test_brackets_that_open_nothing_are_escaped() -> None:
    """Python-Markdown searches the rest of a paragraph for the end of every "[", so
    a paragraph of colour codes that lost their escape ("[33m", as a copy from a terminal
    leaves them; whole codes are left out) took minutes; such brackets are escaped, and
    links are not."""
    colours = "[33mwarning[0m " * 50 + "[a link](https://example.com) [a] [b"
    [line] = prose(colours)
    assert line.count("\\[") == 101 and "[a link](https://example.com) [a] \\[b" in line
    # Beside a mark an extension reads (emphasis, a web address), a few are left as they
    # are, for that extension; many are escaped all the same.
    assert prose("*[a* https://example.com/[x " * 4) == ["*[a* https://example.com/[x " * 4]
    assert prose("*[a* https://example.com/[x " * 5)[0].count("\\[") == 10
    assert prose("![an image without its end") == ["\\!\\[an image without its end"]
    # Brackets nested deeper than sixteen are text (the outer ones would each be searched through them).
    [nested] = prose("[" * 20 + "a" + "]" * 20)
    assert nested == "[" * 16 + "\\[" * 4 + "a" + "\\]" * 4 + "]" * 16
    # A link to the web whose target is not closed on its line is text too.
    assert prose("[a](https://example.com and on") == ["\\[a\\](https://example.com and on"]


def test_emphasis_nested_a_thousand_deep_is_shown_as_text(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Python-Markdown follows nested emphasis one level deeper in Python's stack, and
    runs out of it a thousand deep. Such a line holds thousands of marks, more than a
    paragraph may (render/markdown.py): it is shown as text, as it is; the rest of the
    page as usual. (Were it not, the build would show as text the message where it
    runs out, with a warning: rendering.py.)"""
    deep = "*a " * 1500 + "the middle" + " b*" * 1500
    session = "deadbeef-2222-4222-8333-444444444444"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "A **bold** start."}},
        {"type": "user", "message": {"role": "user", "content": deep}},
        {"type": "assistant", "message": {"id": "a", "role": "assistant", "model": "m", "content": [{"type": "text", "text": "An *emphatic* end."}]}},
    ]
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:00:0{number}.000Z")
    root = make_site(tmp_path)
    (root / "docs" / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        site = build(root, strict=False)
    assert not [r for r in caplog.records if session in r.getMessage()]
    html = (site / session / "index.html").read_text(encoding="utf-8")
    assert "<strong>bold</strong>" in html and "<em>emphatic</em>" in html
    assert html.count("the middle") >= 1 and "<em>a" not in html  # the deep one, as text
    assert "*a *a *a" in html


def test_marks_of_another_extension_nested_a_thousand_deep_are_shown_as_text(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Marks this plugin leaves to the site's extensions (``~~`` for pymdownx.tilde)
    nested a thousand deep: the message where Python-Markdown runs out of stack is
    shown as text, with a warning naming the page; the rest of the page as usual."""
    session = "deadbeef-2222-4222-8333-555555555555"
    entries = [
        {"type": "user", "message": {"role": "user", "content": "A ~~struck~~ start."}},
        {"type": "user", "message": {"role": "user", "content": "~~a " * 1500 + "the middle" + " b~~" * 1500}},
    ]
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:00:0{number}.000Z")
    root = make_site(tmp_path, config="markdown_extensions:\n  - pymdownx.tilde\n")
    (root / "docs" / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        site = build(root, strict=False)
    assert any(f"{session}/index.md: Markdown nested deeper" in r.getMessage() for r in caplog.records)
    html = (site / session / "index.html").read_text(encoding="utf-8")
    assert "<del>struck</del>" in html and html.count("the middle") >= 1


def test_a_transcript_saved_in_utf_16_is_published_in_utf_8(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="copy_jsonl: true")
    content = CASES["utf_16"][0]
    path = root / "docs" / f"{SESSION.format(71)}.jsonl"
    path.write_bytes(content)
    site = build(root, strict=False)
    copy = (site / path.name).read_bytes().decode("utf-8").splitlines()
    assert copy == [json.dumps(json.loads(line), ensure_ascii=False) for line in content.decode("utf-16").splitlines()]


@pytest.mark.parametrize("depth", [150, 5000])
def test_json_nested_hundreds_deep(tmp_path: Path, depth: int, caplog: pytest.LogCaptureFixture) -> None:
    """A line nesting lists or objects deeper than anything Claude Code writes is
    read up to a hundred levels (or, too deep to be read at all, reported), and the
    build goes on: it ran out of stack. Published as JSONL, it is cut the same way."""
    root = make_site(tmp_path, plugin_options="copy_jsonl: true")
    nested = "[" * depth + "1" + "]" * depth
    call = json.dumps(entry(2, "assistant", message={"role": "assistant", "id": "m", "content": [
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls", "x": "NESTED"}}]}))  # fmt: skip
    path = root / "docs" / f"{SESSION.format(70)}.jsonl"
    path.write_bytes(lines(entry(1)) + call.replace('"NESTED"', nested).encode() + b"\n" + lines(entry(3)))
    with caplog.at_level(logging.WARNING):
        site = build(root, strict=False)
    problems = [r.getMessage() for r in caplog.records if f"{path.name}:2:" in r.getMessage()]
    assert problems == [f"claude-transcripts: {path.name}:2: " + ("nested more than 100 levels deep; what is deeper is left out" if depth < 1000 else "nested too deep to be read (a thousand levels or more)")]
    page = (site / path.stem / "index.html").read_text(encoding="utf-8")
    assert "prompt number 1" in page and "prompt number 3" in page
    copy = (site / path.name).read_text(encoding="utf-8").splitlines()
    assert len(copy) == 3
    if depth < 1000:  # the call is shown, and copied, without what is nested too deep
        assert "<summary>Bash · ls" in page
        assert 90 < copy[1].count("[") <= 100 and "left out" in copy[1]
    else:  # a line that cannot be read is copied as the text it is
        assert copy[1].count("[") == depth + 1


def test_a_first_line_too_deep_to_read_is_passed_over_when_sniffing(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION.format(71)}.jsonl"
    path.write_bytes(b"[" * 5000 + b"]" * 5000 + b"\n" + lines(entry(1)))
    found = discover([SourceFile(path.name, str(path))])
    assert [source.session_id for source in found.sessions] == [SESSION.format(0)]


def test_an_edit_of_tens_of_thousands_of_lines_is_shown_replaced_whole() -> None:
    """difflib's time grows with the product of the two texts' lengths (seconds for
    20,000 lines that share many): past 4,000 by 4,000 lines, an edit is shown as
    every old line taken out and every new one put in."""
    from mkdocs_claude_transcripts.render.tools import diff

    old = "\n".join(f"k{i % 97}" for i in range(20_000))
    new = "\n".join(f"k{i % 89}" for i in range(20_000))
    shown = diff(old, new).split("\n")
    assert shown[:3] == ["@@ -1,20000 +1,20000 @@", "-k0", "-k1"] and shown[20_001] == "+k0" and len(shown) == 40_001
    assert diff("a\nb\nc", "a\nx\nc") == "@@ -1,3 +1,3 @@\n a\n-b\n+x\n c"  # shorter ones, line by line


def test_an_edit_counts_lines_between_newlines_as_an_editor_does() -> None:
    """A form feed, U+2028 or a carriage return alone is a character of its line: the
    diff counts the file's lines, and shows each whole."""
    from mkdocs_claude_transcripts.render.tools import diff

    assert diff("a\fb\nc\u2028d\n", "a\fb\nc\u2028x\n") == "@@ -1,2 +1,2 @@\n a\fb\n-c\u2028d\n+c\u2028x"
    assert diff("a\r\nb\r\n", "a\r\nc\r\n") == "@@ -1,2 +1,2 @@\n a\n-b\n+c"


def test_fields_are_dropped_where_a_location_holds_a_key_and_another_an_index() -> None:
    from mkdocs_claude_transcripts.transcript.reader import _dropped

    data = {"a": {"b": 1, 0: 2, "c": 3}}
    assert sorted(_dropped(data, [{"loc": ("a", 0)}, {"loc": ("a", "b")}])) == ["a.0", "a.b"]  # type: ignore[list-item]
    assert data == {"a": {"c": 3}}


def test_agents_of_one_id_are_told_apart_each_by_the_next_free_number() -> None:
    from mkdocs_claude_transcripts import model as m
    from mkdocs_claude_transcripts.build.agents import Spawned, settle_ids

    ids = ["a", "a-2", "a", "a", "b/c", "b-c", "", "a-3"] + ["x"] * 3000
    spawned = [Spawned(m.Agent(id=agent_id), conversation=None) for agent_id in ids]  # type: ignore[arg-type]
    settle_ids(spawned)
    settled = [item.agent.id for item in spawned]
    assert settled[:8] == ["a", "a-2", "a-3", "a-4", "b-c", "b-c-2", "agent", "a-3-2"]
    assert settled[8:] == ["x"] + [f"x-{n}" for n in range(2, 3001)]
    assert [item.raw_id for item in spawned[:3]] == ["a", "a-2", "a"]


@pytest.mark.parametrize("rejected", [True, False])
def test_an_agent_whose_call_names_no_agent_is_found_by_its_prompt(tmp_path: Path, rejected: bool) -> None:
    """A call the user rejected names no agent (its result says so in words), and its
    agent, which ran all the same, has no meta.json naming the call: the agent is tied
    to the call whose prompt it was given. A call that names another agent is not
    taken for it."""
    example = ROOT / "example_site" / "docs" / "transcripts"
    session = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"
    copy_tree(example / session, tmp_path / session)
    (tmp_path / session / "subagents" / "agent-a41c7e2.meta.json").unlink()
    lines = (example / f"{session}.jsonl").read_text(encoding="utf-8").splitlines()
    result = json.loads(lines[4])
    if rejected:
        result["message"]["content"] = [{"type": "tool_result", "tool_use_id": "toolu_01Explore", "content": "User rejected tool use", "is_error": True}]
        result["toolUseResult"] = "User rejected tool use"
    else:
        result["toolUseResult"]["agentId"] = "b0b0b0b"
        result["message"]["content"][0]["content"][1]["text"] = "agentId: b0b0b0b"
    lines[4] = json.dumps(result)
    (tmp_path / f"{session}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = [SourceFile(p.relative_to(tmp_path).as_posix(), str(p)) for p in tmp_path.rglob("*") if p.is_file()]
    (agent,) = session_of(discover(files).sessions[0], RenderOptions()).agents
    if rejected:
        assert (agent.tool_use_id, agent.agent_type, agent.description) == ("toolu_01Explore", "Explore", "Trace the units option")
    else:
        assert (agent.tool_use_id, agent.agent_type) == (None, None)
        assert agent.description.startswith("Find where the --units option")  # the start of its prompt, its words


_TAG = re.compile(r"<(?P<name>[a-z][a-z0-9_-]*)(?P<attrs>\s[^<>]*)?>(?P<body>.*?)</(?P=name)\s*>", re.DOTALL)
_PIECES = ["<a>", "</a>", '<b x="1">', "</b >", "<system-reminder>", "</system-reminder>", "<a", ">", "x", "\n", "</a\n>", "<ab>", "</ab>", "<", "</"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=16))
def test_the_tags_of_a_user_text_are_read_as_a_pattern_of_them_would(pieces: list[str]) -> None:
    # What Claude Code writes in the user's name is marked with tags; each closing tag
    # is looked for once, not from every opening tag to the end of the text (a prompt
    # of pasted HTML, thousands of tags that nothing closes, took seconds per 80 KB).
    text = "".join(pieces)
    expected = [(m.start(), m.end(), m["name"], m["attrs"] or "", m["body"]) for m in _TAG.finditer(text)]
    assert [tuple(tag) for tag in _tags(text)] == expected


def test_a_prompt_of_tags_that_nothing_closes_keeps_the_tags_claude_code_wrote() -> None:
    text = "<b>" * 5000 + "<system-reminder>Be brief.</system-reminder><div>pasted</div>" + "<i>" * 5000
    tagged = split_tags(text)
    assert tagged.tags == {"system-reminder": ["Be brief."]}
    assert tagged.rest == "<b>" * 5000 + "<div>pasted</div>" + "<i>" * 5000


def test_the_attributes_of_a_tag_are_read_past_a_long_word() -> None:
    # A name is looked for where a word starts, not from each letter of a long word.
    text = '<teammate-message teammate_id="lead" ' + "x" * 20000 + ' color="blue" 9size="1">Hi.</teammate-message>'
    assert split_tags(text).attrs == {"teammate-message": {"teammate_id": "lead", "color": "blue"}}


_REMINDER = re.compile(r"\n*<system-reminder>(.*?)</system-reminder>\s*", re.DOTALL)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(["<system-reminder>", "</system-reminder>", "\n", " ", "x", "\t"]), max_size=12))
def test_reminders_are_taken_out_of_an_output_as_a_pattern_of_them_would(pieces: list[str]) -> None:
    # Found by what opens them: the pattern, starting with the line breaks before them,
    # read a long run of line breaks to its end from each of them.
    text = "".join(pieces)
    expected = (_REMINDER.sub("\n", text).rstrip(), [r.strip() for r in _REMINDER.findall(text)]) if "<system-reminder>" in text else (text, [])
    assert split_reminders(text) == expected


def _links_as_before(text: str) -> str:
    """What ``_neutralise_links`` did, reading the rest of the text from each ``](``."""
    chars = list(text)

    def escape(index: int) -> None:
        if not brackets.escaped(text, index) and not chars[index].startswith("\\"):
            chars[index] = "\\" + chars[index]

    for match in re.finditer(r"\](?=\(\s*(<?)([^\s)>]*))", text):
        if re.match(r"(?i)^(?:https?://|mailto:)[^\s<>\"']*$", match.group(2)) and not match.group(1) and _host_read(text[match.end(1) :]):
            depth, at = 1, match.end() + 1
            for paren in re.finditer(r"[()]", text[at:]):
                depth += 1 if paren.group() == "(" else -1
                if depth == 0:
                    break
            if depth == 0:
                continue
        escape(match.start())
    for match in re.finditer(r"!\[", text):
        escape(match.start())
    return "".join(chars)


def _host_read(target: str) -> bool:
    """Whether MkDocs can read the host of a web link's target (``https://[x`` it cannot):
    up to a ``/``, ``?``, ``#``, a space or the ``)`` that closes the link, escapes read back."""
    if not re.match(r"(?i)https?://", target):
        return True
    host, depth = "", 0
    # (An escaped character is one of the host's, read back: an escaped ")" ends nothing.)
    for escaped, char in re.findall(r"(\\?)(.)", re.split(r"[/?#\s]", target.split("//", 1)[1], maxsplit=1)[0], re.DOTALL):
        if char == ")" and not depth and not escaped:
            break
        if not escaped:
            depth += {"(": 1, ")": -1}.get(char, 0)
        host += char
    try:
        urlsplit("//" + host)
    except ValueError:
        return False
    return True


_LINK_PIECES = ["](", "[", "]", "(", ")", "https://x", "mailto:", "<", ">", '"', "'", " ", "\n", "a", "![", "\\", "HTTP://"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_LINK_PIECES), max_size=14))
def test_links_are_kept_or_shown_as_text_as_before_in_one_reading(pieces: list[str]) -> None:
    # Where targets end and where parentheses close is found once for the whole text:
    # a text of thousands of "](" read the rest of the text from each (3.7 s for 40 KB).
    text = "".join(pieces)
    assert _neutralise_links(text) == _links_as_before(text)


def test_a_long_list_numbered_with_parentheses_goes_on_in_paragraphs() -> None:
    # Each item of a "1)" list (text to Python-Markdown) gets a line break, which
    # Python-Markdown reads as a mark: past a paragraph's weight, an item starts a
    # paragraph of its own instead, every item still on a line of its own.
    items = [f"{n}) step {n} of the plan" for n in range(1, 20_001)]
    out = prose("\n".join(items))
    assert 5 < out.count("") < 200
    assert [line.removesuffix("  ") for line in out if line] == items
    assert all(line.endswith("  ") or not later for line, later in itertools.pairwise(out) if line)  # a break, or a blank line
    assert "" not in prose("\n".join(items[:300]))  # a list of hundreds stays one paragraph


_OLD_TEXT_ITEM = re.compile(r"^(?:[ \t]*>[ ]?)*[ \t]*(?P<marker>[-+*]|\d{1,9}[.)])(?:[ \t]|$)")


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from([">", " ", "\t", "-", "1.", "2)", "*", "x", "  "]), max_size=12).map("".join))
def test_an_item_in_a_quote_is_found_as_before_in_one_reading(text: str) -> None:
    # The spaces after a quote's mark could be read by two parts of the pattern, which
    # made a line of sixteen marks and no item try 2^16 ways.
    old, new = _OLD_TEXT_ITEM.match(text), _TEXT_ITEM.match(text)
    assert (old and (old.span(), old.span("marker"))) == (new and (new.span(), new.span("marker")))


def test_a_long_paragraph_full_of_marks_is_cut_where_a_line_begins() -> None:
    # Python-Markdown copies the rest of a paragraph at each mark it reads: a pasted
    # log of lines full of "<" and "&", one paragraph, took time growing with its
    # square; it is cut into paragraphs, every line kept whole.
    log = ["main.cpp:12: error: no match for 'std::vector<std::pair<int, Foo&>>::at<T>(Bar&&)'"] * 2000
    out = prose("\n".join(log))
    paragraphs = "\n".join(out).split("\n\n")
    assert 10 < len(paragraphs) < 200
    assert [line for line in out if line] == prose(log[0]) * 2000
    assert all(len(p) * sum(map(p.count, "\\&`*_[<")) < 2 * (1 << 22) for p in paragraphs)
    # A paragraph of prose (two hundred lines), a list and a table are not cut.
    for text in (
        "A sentence of words, and *one* mark.\n" * 200,
        "- item <x> & <y> & <z>\n" * 3000,
        "| a | b |\n|---|---|\n" + "| a <b> | c & d |\n" * 3000,
        "| a | b |\n|||\n" + "| a <b> | c & d |\n" * 3000,  # (to Python-Markdown, "|||" is under a header too)
        "Some text.\n\n| a | b |\n|---|---|\n" + "| a <b> | c & d |\n" * 3000,
    ):
        assert "" not in prose(text.rstrip("\n"))[2:], text[:20]
    # Rows of no table (a query's result pasted) are lines of text, and cut as they are,
    # but not before a line that would start a table then.
    rows = ["| a <b> | c & d |"] * 3000
    cut = prose("\n".join(rows))
    assert 5 < cut.count("") < 200 and [line for line in cut if line] == prose(rows[0]) * 3000
    headed = prose("\n".join(line for n in range(3000) for line in ["| a <b> | c & d |", *(["|---|---|"] if n % 5 == 4 else [])]))
    assert 5 < headed.count("") < 200 and all(headed[at + 2] != "|---|---|" for at, line in enumerate(headed[:-2]) if not line)
    # Lines indented less than code, and lines ending in a line break (two spaces), are
    # cut as others are.
    for line in ("  File \"app.py\", line 4, in <module> a&b", "a line of log text  "):
        assert 5 < prose("\n".join([line] * 4000)).count("") < 400, line


@pytest.mark.parametrize(
    "first", ["> quoted <x> & <y> & <z>", "> > quoted <x> & <y> & <z>", "> a quote that goes on lazily", "> - an item that goes on lazily"]
)
def test_a_long_paragraph_in_a_quote_is_cut_within_it(first: str) -> None:
    # Cut with a line of the quote's marks, and a line the quote took lazily gets them:
    # every line stays in the one quote it was in.
    lines = [first] + ["log <x> & <y> & <z>" if "lazily" in first else first] * 3000
    out = prose("\n".join(lines))
    assert "" not in out and sum(1 for line in out if line.strip() in (">", "> >")) > 10
    page = render(out)
    assert [child.name for child in page.children if child.name] == ["blockquote"]
    assert page.get_text().count("<y> & <z>") == 3000 + ("lazily" not in first)


@pytest.mark.parametrize("lazy", [False, True])
def test_a_long_paragraph_in_a_quote_in_a_list_item_is_cut_within_it(lazy: bool) -> None:
    # Cut with a line of the quote's indentation and marks: every line stays in the quote.
    line = "log <x> & <y> & <z> [ id" if lazy else "    > log <x> & <y> & <z> [ id"
    out = prose("- an item\n\n    > quoted <x> & <y> & <z>\n" + (line + "\n") * 3000)
    assert sum(1 for text in out if text.strip() == ">") > 10 or lazy
    quote = render(out).select("ul > li > blockquote")
    assert len(quote) == 1 and quote[0].get_text().count("<y> & <z>") == 3001


def test_a_long_paragraph_of_plain_words_in_a_nested_item_is_cut_within_it() -> None:
    # Python-Markdown copies an item's text so far at each of its lines (and again at
    # each level of nesting): a long paragraph of plain words in an item is cut too.
    out = prose("- a\n  - b\n" + "    a line of plain words\n" * 6000)
    assert out.count("") > 2
    inner = render(out).select("ul > li > ul > li")
    assert len(inner) == 1 and inner[0].get_text().count("a line of plain words") == 6000


@pytest.mark.parametrize(
    ("text", "containers"),
    [("Here:\n\n    if a < b && c:\n        print(\"<x> &amp;\")\n\n    done", []),
     ("\tif a < b && c:\n\t    print(\"<x> &amp;\")\n\n\tdone", []),
     ("- an item\n\n      if a < b && c:\n          print(\"<x> &amp;\")\n\n      done", ["ul", "li"]),
     ("> a quote\n>\n>     if a < b && c:\n>         print(\"<x> &amp;\")\n>\n>     done", ["blockquote"])],
)  # fmt: skip
def test_code_indented_four_spaces_is_shown_as_it_is(text: str, containers: list[str]) -> None:
    # Python-Markdown shows such code as it is, escapes included: "&lt;" showed as such.
    code = render(prose(text)).find("pre")
    assert code is not None
    assert code.get_text().rstrip("\n") == 'if a < b && c:\n    print("<x> &amp;")\n\ndone'
    assert [parent.name for parent in reversed(list(code.parents)) if parent.name != "[document]"] == containers


@pytest.mark.parametrize("rule", ["- ---", "***", "> ***", "- a\n\n    > ***"])
def test_lines_of_rules_are_each_a_rule(rule: str) -> None:
    # A rule ends the block it is in, which Python-Markdown reads again from there: a
    # block of 2,500 rules took 1.5 s, 10,000 took 56 s. Each is a block of its own.
    last = rule.split("\n")[-1]
    out = prose("\n".join([rule] + [last] * 2499))
    assert len(render(out).find_all("hr")) == 2500
    assert sum(1 for line in out if line.strip(" >") == "") >= 2499


@pytest.mark.parametrize("blank", ["\xa0", "\u2028", "\t\u2028"])
@pytest.mark.parametrize("before", ["a\n\n    ", "", "- a\n\n        ", "> a\n>\n>     "])
def test_a_line_of_other_whitespace_indented_as_code_is_blank(before: str, blank: str) -> None:
    # Indented as code, but blank to Python: it was copied as code forever.
    assert render(prose(before + blank + "\nafter")).get_text().split()[-1] == "after"


@pytest.mark.parametrize(("text", "code"), [(">\t\tcode <b>", "  code <b>"), ("> > \t  code <b>", "  code <b>"), ("> \tx", None)])
def test_tabs_after_a_quotes_marks_count_as_python_markdown_counts_them(text: str, code: str | None) -> None:
    shown = render(prose(text)).find("pre")
    assert (shown.get_text().strip("\n") if shown else None) == code


def test_a_long_list_in_a_quote_keeps_every_item() -> None:
    out = prose("\n".join(f"> - item {i}: `a_{i}` & <b>" for i in range(400)))
    assert len(render(out).select("blockquote li")) == 400


@pytest.mark.parametrize(
    "text", ["> 1. First step\n>\n>     Details\n>\n> 2. Second", "> - a\n>\n>     more text of a", "> - a\n>\n>     - b"]
)
def test_an_item_going_on_in_a_quote_is_not_code(text: str) -> None:
    page = render(prose(text))
    assert not page.find("pre") and page.select("blockquote li")


def test_a_heading_ends_the_list_before_it() -> None:
    # So code indented four spaces after it is code, shown as it is.
    code = render(prose("- item\n## Heading\n\n    code <x>")).find("pre")
    assert code is not None and code.get_text().strip() == "code <x>" and not code.find_parent("li")


def test_a_list_after_a_line_shown_in_a_box_is_a_list() -> None:
    out = prose("Output:\n" + " ".join(f"key_{i}=<v>" for i in range(1500)) + "\n- first item\n- second item\n\nEnd")
    assert [li.get_text() for li in render(out).find_all("li")] == ["first item", "second item"]


def test_a_list_of_items_python_markdown_does_not_read_as_items_is_not_made_code() -> None:
    # "1)" is an item to CommonMark, not to Python-Markdown: its text is not cut as an item's.
    out = prose("1) Log output:\n" + "\n".join(f"  line {i} value & more" for i in range(1500)) + "\n2) next")
    page = render(out)
    assert not page.find("pre") and page.get_text().count("value & more") == 1500


@pytest.mark.parametrize(("text", "rule"), [("Some text\n> ---", True), ("> a\n> ---", False), ("> a\n>\n> ---", True)])
def test_a_line_of_dashes_in_a_quote_is_a_rule_unless_under_its_text(text: str, rule: bool) -> None:
    assert bool(render(prose(text)).find("hr")) is rule


@pytest.mark.parametrize("before", ["", "> "])
@pytest.mark.parametrize("mark", ["* ", "- "])
def test_a_long_paragraph_of_lines_that_look_like_items_stays_text_where_it_is_cut(before: str, mark: str) -> None:
    # Lines going on a paragraph are text ("* " under text is not an item); cut where a
    # block starts, each would start one: they stay text (and a paragraph of them is cut).
    out = prose(f"{before}Some <text> & more\n" + f"{before}{mark}\n" * 6000)
    assert sum(1 for line in out[:-1] if line.strip() in ("", ">")) > 2
    page = render(out)
    assert len(page.find_all("li")) == 0 and page.get_text().split().count(mark.strip()) == 6000


@pytest.mark.parametrize("before", ["", "> ", "- "])
@pytest.mark.parametrize("rule", ["===", "==", "= ", "---", "- ", "-- x"])
def test_a_line_of_equals_or_dashes_under_text_is_shown_as_it_is(before: str, rule: str) -> None:
    # Under a line of text, it would make a heading of it, in a quote or a list's item
    # as anywhere (one after the other in a quote took time growing with their square).
    under = "> " if before == "> " else "  " if before else ""
    page = render(prose(f"{before}Some text\n{under}{rule}\n{under}{rule}"))
    assert not page.find(["h1", "h2"])
    assert page.get_text().split() == ["Some", "text", *rule.split(), *rule.split()]


@pytest.mark.parametrize(
    ("first", "under"), [("", ""), ("> ", "> "), ("- ", "  "), ("1. ", "   "), ("- a\n  - ", "    "), ("- a\n\n  > ", "  > ")]
)
def test_a_table_right_under_a_line_of_text_is_a_table(first: str, under: str) -> None:
    # CommonMark lets a table's header follow a paragraph's line; Python-Markdown reads
    # a table only as a block of its own. In a list's item or a quote, its rows were
    # shown as text (in an item, each a paragraph), and an item after it taken for a row.
    text = f"{first}Results:\n{under}| name | value |\n{under}|---|---|\n{under}| a | 1 |\n{under}| b | 2 |"
    page = render(prose(text + ("\n- next" if "-" in first else "\n2. next" if "1." in first else "")))
    tables = page.find_all("table")
    assert len(tables) == 1
    assert [[cell.get_text() for cell in row.find_all(["th", "td"])] for row in tables[0].find_all("tr")] == [
        ["name", "value"], ["a", "1"], ["b", "2"]
    ]  # fmt: skip
    assert "Results:" in page.get_text() and "|" not in page.get_text()
    if first.strip():
        assert tables[0].find_parent("li" if "-" in first or "1." in first else "blockquote")
    if "-" in first or "1." in first:
        assert page.find_all("li")[-1].get_text().strip() == "next"


@pytest.mark.parametrize("text", ["Results:\n| name |\nmore", "- Results:\n  | name | value |\n  | a | 1 |", "> a\n> | x |\n> | y |"])
def test_a_line_of_bars_under_text_without_a_header_line_stays_in_its_paragraph(text: str) -> None:
    # (CommonMark too: a table needs the line under its header.)
    page = render(prose(text))
    first = text.lstrip("-> ").split()[0]
    assert not page.find("table")
    assert any(string.startswith(first) and "|" in string for string in page.strings)


@pytest.mark.parametrize(("first", "under"), [("> ", "> "), ("> > ", "> > "), ("- a\n\n  > ", "  > ")])
@pytest.mark.parametrize("marker", ["-", "1."])
def test_a_list_right_under_a_quotes_text_is_a_list(first: str, under: str, marker: str) -> None:
    # CommonMark lets a list interrupt a paragraph; Python-Markdown does not, and showed
    # its markers as text (at the top, a blank line was put before it already).
    text = f"{first}Steps:\n{under}{marker} one\n{under}{marker} two\n{under}   more of two\n{under}{marker} three"
    page = render(prose(text))
    items = page.select("blockquote li")
    assert [" ".join(item.get_text().split()) for item in items] == ["one", "two more of two", "three"]
    assert "Steps:" in items[0].find_parent("blockquote").get_text()


@pytest.mark.parametrize("indent", ["", "  "])
def test_a_long_paragraph_in_a_list_item_is_cut_within_it(indent: str) -> None:
    # A log that goes on an item's text, lazily or indented under it: cut as others are,
    # the lines after a cut indented into the item, which keeps every one of them; and
    # its brackets that nothing closes escaped, though indented as code would be (a
    # "[" a line took 5 s for 100 KB, searched for its end through the whole item).
    lines = ["- run the build", *[indent + "log <x> & <y> & <z> [ id"] * 3000, "- the next item"]
    out = prose("\n".join(lines))
    assert out.count("") > 10
    assert all(line.endswith("\\[ id") for line in out[1:-2] if line)
    page = render(out)
    assert [child.name for child in page.children if child.name] == ["ul"]
    items = page.find_all("li")
    assert len(items) == 2 and items[1].get_text().strip() == "the next item"
    assert items[0].get_text().count("<y> & <z> [ id") == 3000


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="a: /w.@\t[", max_size=30), st.data())
def test_the_address_a_bracket_is_in_is_found_as_its_word_would_tell(line: str, data: st.DataObject) -> None:
    # Found once for the line, for all its brackets: a line of thousands read whole
    # for each took 1.2 s for 40 KB.
    column = data.draw(st.integers(0, len(line)))
    word = line[:column].split()[-1] if line[:column].split() and not line[:column][-1:].isspace() else ""
    assert brackets._Addresses(line).in_word_before(column) == ("://" in word or "www." in word or "@" in word)


@pytest.mark.parametrize(
    ("before", "containers"),
    [("- item\n", ["ul", "li"]), ("- ", ["ul", "li"]), ("> ", ["blockquote", "p"]), ("> - ", ["blockquote", "ul", "li"]),
     ("1. a\n    ", ["ol", "li"]), ("> a quote\ngoing on lazily ", ["blockquote", "p"]), ("- a\n  - b\n    ", ["ul", "li", "ul", "li"])],
)  # fmt: skip
def test_a_line_holding_more_marks_than_a_paragraph_may_stays_in_its_quote_or_item(before: str, containers: list[str]) -> None:
    # Such a line in a quote or a list took 4 s for 40 KB (time growing faster than its
    # square): it is shown as it is, as code, where it was.
    heavy = "<b>&amp; ```x` " + "&<" * 20_000
    page = render(prose(before + heavy))
    code = page.find("code")
    assert code is not None and code.get_text().strip().endswith(heavy.strip())
    assert [parent.name for parent in reversed(list(code.parents)) if parent.name != "[document]"] == containers


def test_a_line_holding_more_marks_than_a_paragraph_may_is_shown_as_text() -> None:
    # Minified JSON, a run of marks: each mark would have Python-Markdown copy the rest
    # of the line (80 KB of "&" took 2.7 s). Such a line is shown as it is, in a box.
    data = json.dumps({"key": [{"a": i, "b": "<x> & {y}"} for i in range(600)]}, separators=(",", ":"))
    out = prose(f"Here it is:\n{data}\nThat is all.")
    assert out[0] == "Here it is:" and out[-1] == "That is all."
    assert out[2].startswith("```ct-text") and data in out and out.count("") == 2
    # A long line of prose, with a few marks, stays prose.
    sentence = "A *long* line of prose, with a few marks & words. " * 40
    assert prose(sentence) == [sentence.replace("&", "&amp;")]


def _many_bad_lines(path: Path) -> None:
    """A session of 30 lines that are not JSON (lines 2 to 31) and a last line cut off
    (33), between two prompts."""
    path.write_bytes(lines(entry(1), *[b"{not json %d" % n for n in range(30)], entry(2)) + b'{"type": "user", "cut')


def test_a_file_of_many_bad_lines_is_logged_in_brief(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Hundreds of bad lines in one file buried the rest of the build's log: its first
    ten problems are logged one by one, then one warning names the others' lines; each
    is logged at DEBUG (``mkdocs build --verbose``). The build's count of problems is
    that of warnings: a last line cut off is a note."""
    root = make_site(tmp_path)
    path = root / "docs" / f"{SESSION.format(72)}.jsonl"
    _many_bad_lines(path)
    with caplog.at_level(logging.DEBUG):
        site = build(root, strict=False)
    ours = [(r.levelno, r.getMessage().removeprefix("claude-transcripts: ")) for r in caplog.records if path.name in r.getMessage()]
    shown = [(level, message) for level, message in ours if level >= logging.INFO]
    assert [message.split(": ")[0] for _, message in shown[:10]] == [f"{path.name}:{n}" for n in range(2, 12)]
    assert all(level == logging.WARNING and "not valid JSON" in message for level, message in shown[:10])
    assert shown[10:] == [(logging.WARNING, f"{path.name}: 21 more problems (lines 12-31, 33); mkdocs build --verbose lists each")]
    hidden = [message for level, message in ours if level == logging.DEBUG]
    assert [message.split(": ")[0] for message in hidden] == [f"{path.name}:{n}" for n in [*range(12, 32), 33]]
    assert any("30 problems reported" in r.getMessage() for r in caplog.records)
    assert "prompt number 2" in (site / path.stem / "index.html").read_text(encoding="utf-8")


def test_line_ranges_are_short() -> None:
    from mkdocs_claude_transcripts.report import line_ranges

    assert line_ranges([9, 3, 4, 5, 5, 11]) == "3-5, 9, 11"
    assert line_ranges(list(range(1, 100, 2)), most=3) == "1, 3, 5 and 47 more"


def test_numbers_that_are_not_numbers_are_not_shown(tmp_path: Path) -> None:
    """NaN or Infinity where Claude Code writes a count (a retry, a status, tokens)
    shows no count, rather than "attempt nan of 2"."""
    path = tmp_path / f"{SESSION.format(73)}.jsonl"
    path.write_bytes(CASES["not_finite"][0])
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    page = "\n".join(page.markdown for page in converted.pages)
    assert "API error" in page and "overloaded" in page and "answer five" in page
    assert not re.search(r"\b(?:nan|inf|infinity)\b", page, re.IGNORECASE)


def test_the_bytes_of_a_file_in_a_shape_not_known_are_named_not_shown(tmp_path: Path) -> None:
    """A file uploaded with a prompt, an image in an entry of a new kind: their base64
    (a megabyte here) was shown whole in session.json and line after line on the page."""
    pdf = base64.b64encode(b"%PDF-1.7\n" + bytes(750_000)).decode()
    root = make_site(tmp_path)
    path = root / "docs" / f"{SESSION.format(74)}.jsonl"
    path.write_bytes(lines(
        entry(1, message={"role": "user", "content": [{"type": "text", "text": "read the spec"},
                                                     {"type": "container_upload", "source": {"type": "base64", "data": pdf}}]}),
        entry(2, "future-scan", image={"type": "base64", "data": "data:image/png;base64," + pdf}, note="short text stays"),
    ))  # fmt: skip
    site = build(root, strict=False)
    page = (site / path.stem / "index.html").read_text(encoding="utf-8")
    export = (site / path.stem / "session.json").read_text(encoding="utf-8")
    assert "read the spec" in page and "short text stays" in page
    assert page.count(f"{len(pdf):,} characters of base64 data, not shown") == 1
    assert pdf[1000:1100] not in page and pdf[1000:1100] not in export
    assert len(page) < 100_000 and len(export) < 20_000


def test_half_characters_in_a_published_transcript_and_an_agents_meta(tmp_path: Path) -> None:
    """The JSONL published beside the pages (``copy_jsonl``) and a subagent's meta.json
    hold them too: written as U+FFFD, not a build stopped."""
    root = make_site(tmp_path, plugin_options="copy_jsonl: true")
    session = SESSION.format(75)
    (root / "docs" / f"{session}.jsonl").write_bytes(lines(entry(1, message={"role": "user", "content": "cut \ud83d"})))
    agents = root / "docs" / session / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-a1.jsonl").write_bytes(lines(entry(2, isSidechain=True, agentId="a1")))
    (agents / "agent-a1.meta.json").write_text(json.dumps({"agentType": "general-purpose", "description": "look \udc80 here"}))
    site = build(root, strict=False)
    assert json.loads((site / f"{session}.jsonl").read_text(encoding="utf-8"))["message"]["content"] == "cut \ufffd"
    pages = "".join(p.read_text(encoding="utf-8") for p in (site / session).rglob("index.html"))
    assert "look \ufffd here" in pages


def test_half_characters_in_a_session_id(tmp_path: Path) -> None:
    """The session id is read as a file is told for a transcript, before its entries are."""
    path = tmp_path / f"{SESSION.format(76)}.jsonl"
    path.write_bytes(lines(entry(1, sessionId="abc\ud83d"), entry(2, sessionId="abc\ud83d")))
    source = discover([SourceFile(path.name, str(path))]).sessions[0]
    converted = convert_session(source, RenderOptions())
    assert source.session_id == "abc\ufffd"
    assert json.loads(converted.assets[-1].content)["id"] == "abc\ufffd"


def test_a_byte_order_mark_loses_nothing(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="copy_jsonl: true")
    path = root / "docs" / f"{SESSION.format(77)}.jsonl"
    path.write_bytes(CASES["byte_order_mark"][0])
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    assert converted.reports[0].problems == []
    assert "prompt number 1" in converted.pages[0].markdown
    copy = (build(root) / path.name).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["uuid"][:8] for line in copy] == ["00000001", "00000002"]


@pytest.mark.parametrize("case, shown, lost", [("run_together", [1, 2, 3], []), ("cut_then_continued", [1, 3, 4], [2]), ("whole_then_cut", [1, 3], [2])])
def test_entries_run_together_are_each_read(tmp_path: Path, case: str, shown: list[int], lost: list[int]) -> None:
    path = tmp_path / f"{SESSION.format(78)}.jsonl"
    path.write_bytes(CASES[case][0])
    markdown = "\n".join(page.markdown for page in convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages)
    assert all(f"prompt number {n}\n" in markdown for n in shown)
    assert not any(f"prompt number {n}\n" in markdown for n in lost)


def test_a_block_of_a_kind_not_known_comes_after_the_prompt_it_was_given_with(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION.format(79)}.jsonl"
    path.write_bytes(lines(entry(1, message={"role": "user", "content": [{"type": "text", "text": "look at this"}, {"type": "hologram", "depth": 3}]})))
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert 0 < markdown.index('!!! ct-user "User') < markdown.index("Unknown hologram block")  # the page's title is the prompt's text


def test_a_json_value_that_is_not_an_object_is_named_in_jsons_words(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION.format(87)}.jsonl"
    path.write_bytes(lines(entry(1), b"[1, 2]", b'"text"', b"42", b"null", b"true", b"2.5"))
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    said = [problem.message for problem in converted.reports[0].problems]
    assert said == [f"is a JSON {kind}, not an object" for kind in ("list", "string", "number", "null", "true", "number")]


def test_an_entry_with_no_type_is_named_so_in_each_of_its_problems(tmp_path: Path) -> None:
    path = tmp_path / f"{SESSION.format(88)}.jsonl"
    path.write_bytes(lines(entry(1), {"type": None, "sessionId": SESSION.format(88), "uuid": 7, "note": "kept"}))
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    said = [problem.message for problem in converted.reports[0].problems]
    assert said == ["entry with no type: shown with all its fields", "entry with no type: ignored field(s) of an unexpected type: uuid"]


def test_a_block_without_the_field_that_holds_what_it_says_is_shown_with_all_its_fields(tmp_path: Path) -> None:
    """A text whose words are under another name, a thinking block or a document
    likewise: their other fields were left out, unseen and unreported."""
    path = tmp_path / f"{SESSION.format(86)}.jsonl"
    path.write_bytes(lines(
        entry(1, message={"role": "user", "content": [{"type": "text", "content": "the words of the prompt"},
                                                      {"type": "document", "data": "the words of the document"}]}),
        entry(2, "assistant", message={"id": "r2", "role": "assistant", "content": [{"type": "thinking", "summary": "the words of the thinking"},
                                                                                    {"type": "text", "value": "the words of the answer"}]}),
    ))  # fmt: skip
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    markdown = converted.pages[0].markdown
    for said in ("the words of the prompt", "the words of the document", "the words of the thinking", "the words of the answer"):
        assert said in markdown, said
    assert all(outcome.value == "rendered" for outcome in converted.reports[0].outcomes.values())
    # A tool's result likewise, where its call shows none.
    path.write_bytes(lines(
        entry(3, "assistant", message={"id": "r3", "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}]}),
        entry(4, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "output": "the words of the result"}]}),
    ))  # fmt: skip
    assert "the words of the result" in convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    # A thinking block with its signature alone is one whose text was not recorded.
    path.write_bytes(lines(entry(3, "assistant", message={"id": "r3", "role": "assistant", "content": [{"type": "thinking", "signature": "EpoC"}]})))
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert "Thinking (not recorded)" in markdown and "Unknown" not in markdown


def test_a_block_whose_words_are_of_another_type_is_shown_with_all_its_fields(tmp_path: Path) -> None:
    """What a block says, of a type a newer version may write it in (a text as a list of
    texts, a result's content as one block or a number, a message's content as one
    block, a text in a list of blocks): it was dropped, the page showing nothing of it."""
    path = tmp_path / f"{SESSION.format(87)}.jsonl"
    path.write_bytes(lines(
        entry(1, message={"role": "user", "content": {"type": "text", "text": "a prompt as one block"}}),
        entry(2, "assistant", message={"id": "r2", "role": "assistant", "content": [
            {"type": "text", "text": ["an answer in a list"]}, {"type": "thinking", "thinking": {"summary": "a thinking as an object"}},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
            {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "pwd"}}]}),
        entry(3, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": {"type": "text", "text": "a result as one block"}},
            {"type": "tool_result", "tool_use_id": "t2", "content": 404}]}),
        entry(4, "assistant", message={"id": "r4", "role": "assistant", "content": {"type": "text", "text": "an answer as one block"}}),
        entry(5, message={"role": "user", "content": ["a text among blocks"]}),
    ))  # fmt: skip
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    markdown = converted.pages[0].markdown
    for said in ("a prompt as one block", "an answer in a list", "a thinking as an object", "a result as one block", '"content": 404',
                 "an answer as one block", "a text among blocks"):  # fmt: skip
        assert said in markdown, said
    assert "Unknown block" in markdown and "None" not in markdown  # (a block that gives no type is not titled "None block")
    assert converted.reports[0].unaccounted() == []


def test_a_field_a_tools_form_does_not_know_in_an_item_of_its_input_is_shown(tmp_path: Path) -> None:
    """A field newer than the tool's form, in one of the items its input holds (an edit
    of MultiEdit's, a todo, a question or its option): it was left out, unseen, where
    one of the input itself was shown."""
    calls = [
        ("t1", "MultiEdit", {"file_path": "/a.py", "edits": [{"old_string": "a", "new_string": "b", "expected_replacements": "the edit's own option"}]}),
        ("t2", "TodoWrite", {"todos": [{"content": "test", "status": "pending", "activeForm": "Testing", "notes": "the todo's own note"}]}),
        ("t3", "AskUserQuestion", {"questions": [{"question": "Which?", "header": "Pick", "multiSelect": False, "hint": "the question's own hint",
                                                  "options": [{"label": "A", "description": "the first", "preview": "the option's own preview"}]}]}),
    ]  # fmt: skip
    markdown = _calls_markdown(tmp_path / f"{SESSION.format(88)}.jsonl", calls)
    for said in ("the edit's own option", "the todo's own note", "the question's own hint", "the option's own preview"):
        assert said in markdown, said
    assert "| edits.0.expected\\_replacements |" in markdown and "| questions.0.options.0.preview |" in markdown


def test_the_pages_of_a_pdf_read_and_the_name_of_a_workflow_are_shown(tmp_path: Path) -> None:
    """Inputs a tool's form knows and its view left out: the pages Read read of a PDF,
    a Workflow's name and its script's path beside its description."""
    calls = [
        ("t1", "Read", {"file_path": "/home/kim/spec.pdf", "pages": "3-5"}),
        ("t2", "Workflow", {"description": "Review the pull request", "name": "pr-review", "scriptPath": "/home/kim/review.js"}),
    ]
    markdown = _calls_markdown(tmp_path / f"{SESSION.format(89)}.jsonl", calls)
    assert "spec.pdf (pages 3-5)" in markdown
    assert "Workflow · Review the pull request" in markdown
    assert "| name | pr-review |" in markdown and "/home/kim/review.js" in markdown


def test_a_local_commands_output_of_a_shape_not_known_is_shown_as_it_is_and_makes_no_prompt(tmp_path: Path) -> None:
    """A local command's content as a list of blocks rather than a text: read for
    Claude Code's tags as a text, the JSON around them made a prompt the user never
    typed (counted among the prompts)."""
    path = tmp_path / f"{SESSION.format(90)}.jsonl"
    path.write_bytes(lines(entry(1), entry(2, "system", subtype="local_command",
                                         content=[{"type": "text", "text": "<local-command-stdout>the command's output</local-command-stdout>"}])))
    session = session_of(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    assert [type(message).__name__ for message in session.messages] == ["Prompt", "SystemNote"]
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert "the command's output" in markdown


def test_the_whole_output_kept_apart_as_json_is_shown_rather_than_its_preview(tmp_path: Path) -> None:
    """A result of content blocks too large for its line (an MCP tool's), which Claude
    Code keeps in ``tool-results/<id>.json``, its line holding a preview of 2 KB: the
    page showed the preview, and the rest of the output was in no page."""
    session = SESSION.format(91)
    preview = "<persisted-output>\nOutput too large (61.8KB). Full output saved to: tool-results/toolu_j1.json\n\nPreview (first 2KB):\n[{\"type\": \"text\"\n...\n</persisted-output>"
    path = tmp_path / f"{session}.jsonl"
    path.write_bytes(lines(entry(1), call(2, "ls", "toolu_j1"), call(3, "pwd", "toolu_t1"), entry(4, message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_j1", "content": preview}, {"type": "tool_result", "tool_use_id": "toolu_t1", "content": "a preview"}]})))
    (tmp_path / session / "tool-results").mkdir(parents=True)
    kept = tmp_path / session / "tool-results" / "toolu_j1.json"
    kept.write_text(json.dumps([{"type": "text", "text": "the first part of the output"}, {"type": "text", "text": "and its last line"}]))
    (tmp_path / session / "tool-results" / "toolu_t1.json").write_text(json.dumps({"the output": "as data"}))
    (tmp_path / session / "tool-results" / "toolu_t1.txt").write_text("the output as a text")  # of the two, the text
    files = [SourceFile(p.relative_to(tmp_path).as_posix(), str(p)) for p in [path, *sorted((tmp_path / session).rglob("*"))] if p.is_file()]
    markdown = convert_session(discover(files).sessions[0], RenderOptions()).pages[0].markdown
    assert "the first part of the output" in markdown and "and its last line" in markdown and "Preview (first 2KB)" not in markdown
    assert "the output as a text" in markdown and "as data" not in markdown


def test_a_system_note_of_a_known_kind_whose_words_are_under_another_name_is_shown_with_its_fields(tmp_path: Path) -> None:
    """A notice, an informational note or a recap without its content, what it says
    under another name (as a newer version may write it): shown as an empty note."""
    path = tmp_path / f"{SESSION.format(92)}.jsonl"
    path.write_bytes(lines(
        entry(1),
        entry(2, "system", level="warning", message="the words of the notice", slug="a-session-name"),
        entry(3, "system", subtype="informational", text="the words of the note"),
        entry(4, "system", subtype="away_summary", summary="the words of the recap"),
        entry(5, "system", subtype="informational", content="a note that says it", slug="a-session-name"),
    ))  # fmt: skip
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    for said in ("the words of the notice", "the words of the note", "the words of the recap", "a note that says it"):
        assert said in markdown, said
    assert "a-session-name" not in markdown  # where every entry is written, not what it says


def test_an_attached_file_whose_text_is_under_another_name_is_shown_with_its_fields(tmp_path: Path) -> None:
    """Lines selected in the IDE, a file edited outside Claude Code, a folder's listing,
    a plan, their text under another name than Claude Code writes it under: shown as
    a path, the text left out unseen."""
    attachments = [
        {"type": "selected_lines_in_ide", "filename": "/home/kim/a.py", "selection": "the lines selected"},
        {"type": "edited_text_file", "filename": "/home/kim/b.py", "diff": "the lines edited"},
        {"type": "directory", "path": "/home/kim/src", "listing": "the folder's files"},
        {"type": "plan_file_reference", "planFilePath": "/home/kim/plan.md", "plan": "the plan's steps"},
    ]
    path = tmp_path / f"{SESSION.format(93)}.jsonl"
    path.write_bytes(lines(entry(1), *(entry(n, "attachment", attachment=a) for n, a in enumerate(attachments, 2))))
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    for said in ("the lines selected", "the lines edited", "the folder's files", "the plan's steps"):
        assert said in markdown, said


def test_a_reminder_whose_words_are_under_another_name_is_shown_with_its_fields(tmp_path: Path) -> None:
    """The skills listed, a critical reminder, a reminder to answer, their words under
    another name than Claude Code writes them under: counted as saying nothing, and
    left out; one that says nothing indeed (an empty todo list) still is."""
    attachments = [
        {"type": "skill_listing", "listing": "the skills listed", "skillCount": 2},
        {"type": "critical_system_reminder", "message": "the critical reminder"},
        {"type": "silent_turn_reminder", "reminder": "the reminder to answer"},
        {"type": "todo_reminder", "content": [], "itemCount": 0},
    ]
    path = tmp_path / f"{SESSION.format(94)}.jsonl"
    path.write_bytes(lines(entry(1), *(entry(n, "attachment", attachment=a) for n, a in enumerate(attachments, 2))))
    converted = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())
    for said in ("the skills listed", "the critical reminder", "the reminder to answer"):
        assert said in converted.pages[0].markdown, said
    assert converted.reports[0].outcomes[5].value == "metadata"


def test_an_image_or_a_document_given_by_a_source_of_another_kind_is_shown_with_all_its_fields(tmp_path: Path) -> None:
    """A file of the Files API, given by its id rather than its bytes: the image was
    said to be one that could not be decoded, the document one of 0 bytes, the id
    left out."""
    path = tmp_path / f"{SESSION.format(95)}.jsonl"
    path.write_bytes(lines(entry(1, message={"role": "user", "content": [
        {"type": "text", "text": "look at these"}, {"type": "image", "source": {"type": "file", "file_id": "file_the_image"}},
        {"type": "document", "source": {"type": "file", "file_id": "file_the_document"}, "title": "spec"}]})))  # fmt: skip
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert "file_the_image" in markdown and "file_the_document" in markdown
    assert "could not be decoded" not in markdown and "0 bytes" not in markdown


def test_a_subagents_meta_json_that_cannot_be_used_is_named(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Its subagent is shown without what it would have told (its type, its
    description), and the log says why, naming the files."""
    root = make_site(tmp_path)
    folder = root / "docs" / "p"
    agents = folder / SESSION.format(70) / "subagents"
    agents.mkdir(parents=True)
    (folder / f"{SESSION.format(70)}.jsonl").write_bytes(lines(entry(1, sessionId=SESSION.format(70))))
    metas = {"a1": b"{not json", "a2": b"[1, 2]", "a3": json.dumps({"agentType": ["a", "list"], "description": "the second helper", "toolUseId": 12}).encode()}
    for agent, meta in metas.items():
        line = entry(2, isSidechain=True, agentId=agent, sessionId=SESSION.format(70), message={"role": "user", "content": f"work of {agent}"})
        (agents / f"agent-{agent}.jsonl").write_bytes(lines(line))
        (agents / f"agent-{agent}.meta.json").write_bytes(meta)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        site = build(root, strict=False)
    log = "\n".join(r.getMessage() for r in caplog.records)
    base = f"p/{SESSION.format(70)}/subagents"
    assert f"{base}/agent-a1.jsonl: agent-a1.meta.json is not valid JSON" in log
    assert f"{base}/agent-a2.jsonl: agent-a2.meta.json is not a JSON object" in log
    assert f"{base}/agent-a3.jsonl: agent-a3.meta.json: ignored field(s) of an unexpected type: agentType, toolUseId" in log
    text = "".join(p.read_text(encoding="utf-8") for p in (site / "p" / SESSION.format(70)).rglob("index.html"))
    assert all(f"work of {agent}" in text for agent in metas) and "the second helper" in text


def test_what_hooks_and_attachments_of_shapes_not_known_say_is_shown(tmp_path: Path) -> None:
    """A hook that blocked a tool or stopped Claude, a queued prompt, a collapse's
    summary and a plan given as data rather than text: what they say is on the page."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Clean the build"}},
        {"type": "attachment", "attachment": {"type": "hook_blocking_error", "hookName": "PreToolUse:Bash",
            "blockingError": {"blockingError": "Blocked: rm -rf is forbidden", "command": "guard.sh"}}},
        {"type": "attachment", "attachment": {"type": "hook_stopped_continuation", "hookName": "Stop", "message": "tests must pass first"}},
        {"type": "attachment", "attachment": {"type": "hook_future", "hookName": "Stop", "verdict": "looked at twice"}},
        {"type": "attachment", "attachment": {"type": "queued_command", "prompt": {"value": "also lint the docs"}}},
        {"type": "marble-origami-commit", "summary": ["the first half, summed up"]},
        {"type": "attachment", "attachment": {"type": "plan_file_reference", "planFilePath": "/p/plan.md", "planContent": {"steps": "write the plan"}}},
        {"type": "attachment", "attachment": {"type": "hook_success", "hookName": "PostToolUse", "command": "x.sh", "content": "",
            "stdout": "", "stderr": "", "exitCode": 0, "durationMs": 3, "toolUseID": "t"}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, SESSION.format(90), entries)
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article").get_text(" ") for page in pages)
    for said in ("Blocked: rm -rf is forbidden", "guard.sh", "tests must pass first", "looked at twice", "also lint the docs",
                 "the first half, summed up", "write the plan"):  # fmt: skip
        assert said in text, said
    assert "x.sh" not in text  # a hook that ran and said nothing


def test_every_tag_of_a_user_entry_is_shown(tmp_path: Path) -> None:
    """Claude Code writes several things in one user entry: two teammates' messages, a
    slash command with its output, a command and a task notification. The first of a
    kind gave the entry its form, and the others were left out. An IDE note in text
    Claude Code added with a command was left out too."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": '<teammate-message teammate_id="alice">the tests pass</teammate-message>\n\n'
            '<teammate-message teammate_id="bob">the docs are written</teammate-message>'}},
        {"type": "user", "message": {"role": "user", "content": "<command-name>/cost</command-name><command-args></command-args>\n"
            "<local-command-stdout>Total cost: $0.12</local-command-stdout>"}},
        {"type": "user", "message": {"role": "user", "content": "<bash-input>make lint</bash-input><bash-input>make test</bash-input>"}},
        {"type": "user", "message": {"role": "user", "content": "<command-name>/review</command-name>\n"
            "<task-notification><task-id>b1</task-id><status>completed</status><summary>the build finished</summary></task-notification>"}},
        {"type": "user", "isMeta": True, "message": {"role": "user", "content": "<command-name>/x</command-name> "
            "<ide_opened_file>The user opened the file a.py in the IDE.</ide_opened_file> the rest"}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, SESSION.format(84), entries)
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article").get_text(" ") for page in pages)
    for said in ("the tests pass", "bob", "the docs are written", "Total cost: $0.12", "make lint", "make test", "/review", "the build finished",
                 "opened the file a.py", "the rest"):  # fmt: skip
        assert said in text, said


def test_what_stop_hooks_said_is_shown_beside_their_errors(tmp_path: Path) -> None:
    """A stop hooks' summary with errors showed the errors alone: the entry's text and
    what the hooks added to Claude's context (hookAdditionalContext) were left out."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Finish the release"}},
        {"type": "system", "subtype": "stop_hook_summary", "hookInfos": [{"command": "check.sh"}], "hookErrors": ["check.sh: 2 tests fail"],
            "hookAdditionalContext": ["the changelog is not written yet"], "content": "one hook blocked the stop", "level": "warning"},
        {"type": "system", "subtype": "stop_hook_summary", "hookInfos": [{"command": "notes.sh"}], "hookErrors": [],
            "hookAdditionalContext": ["remember to tag the release"], "level": "suggestion"},
    ]  # fmt: skip
    pages = built_pages(tmp_path, SESSION.format(85), entries)
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article").get_text(" ") for page in pages)
    for said in ("check.sh: 2 tests fail", "the changelog is not written yet", "one hook blocked the stop", "remember to tag the release"):
        assert said in text, said


def test_a_hooks_output_given_as_its_content_and_its_stdout_is_shown_once(tmp_path: Path) -> None:
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Format the code"}},
        {"type": "attachment", "attachment": {"type": "hook_success", "hookName": "PostToolUse:Edit", "command": "fmt.sh",
            "content": "formatted 3 files\n", "stdout": "formatted 3 files", "stderr": "", "exitCode": 0}},
    ]  # fmt: skip
    pages = built_pages(tmp_path, SESSION.format(92), entries)
    text = " ".join(BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").find("article").get_text(" ") for page in pages)
    assert text.count("formatted 3 files") == 1


@pytest.mark.parametrize("before", ["long", "many"])
def test_a_transcript_under_another_name_is_found_past_lines_of_kinds_not_known(tmp_path: Path, before: str) -> None:
    """A renamed transcript (not named by its session's id) whose first lines are of a
    kind written since, a long one or many: it is a session, published redacted, not a
    file copied as it is."""
    sid = SESSION.format(91)
    future = [{"type": "future-kind", "sessionId": sid, "uuid": "z", "pad": "x" * 70_000}] if before == "long" else [
        {"type": "future-kind", "sessionId": sid, "uuid": f"z{n}", "pad": "y" * 40} for n in range(2000)]  # fmt: skip
    key = "sk-ant-api03-" + "Ab3" * 30
    root = make_site(tmp_path)
    (root / "docs" / "t").mkdir()
    (root / "docs" / "t" / "my-session.jsonl").write_bytes(lines(*future, entry(1, sessionId=sid), entry(2, message={"role": "user", "content": f"key {key}"}, sessionId=sid)))
    site = build(root, strict=False)
    assert (site / "t" / "my-session" / "index.html").exists()
    assert not [path for path in site.rglob("*") if path.is_file() and key.encode() in path.read_bytes()]


def test_a_link_to_nothing_and_a_pipe_named_as_transcripts_are_left_out_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MkDocs would stop at the first and wait for ever on the second; a file that may
    not be read was "named like a transcript but holds no Claude Code entries"."""
    root = make_site(tmp_path)
    (root / "docs" / "t").mkdir()
    (root / "docs" / "t" / f"{SESSION.format(92)}.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    os.mkfifo(root / "docs" / "t" / f"{SESSION.format(93)}.jsonl")
    (root / "docs" / "t" / f"{SESSION.format(94)}.jsonl").write_bytes(lines(entry(1, sessionId=SESSION.format(94))))
    barred = root / "docs" / "t" / f"{SESSION.format(95)}.jsonl"
    barred.write_bytes(lines(entry(1, sessionId=SESSION.format(95))))
    barred.chmod(0)
    access = os.access  # (whoever runs the tests: root may read it all the same)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: str(path) != str(barred) and access(path, mode, **kw))
    with caplog.at_level(logging.WARNING):
        site = build(root, strict=False)
    barred.chmod(0o644)
    assert (site / "t" / SESSION.format(94) / "index.html").exists()
    for number in (92, 93, 95):
        assert any(f"t/{SESSION.format(number)}.jsonl: cannot be read as a file" in record.getMessage() for record in caplog.records)
        assert not (site / "t" / f"{SESSION.format(number)}.jsonl").exists()


def test_a_pipe_in_a_sessions_folder_is_not_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A pipe as a subagent's meta.json, as the file of a tool's whole output, or as a
    workflow's journal (with ``copy_jsonl``): the build waited for ever on it."""
    import threading

    root = make_site(tmp_path, plugin_options="jobs: 1\ncopy_jsonl: true")
    session = SESSION.format(96)
    folder = root / "docs" / "t" / session
    (folder / "subagents").mkdir(parents=True)
    (folder / "tool-results").mkdir()
    (root / "docs" / "t" / f"{session}.jsonl").write_bytes(lines(
        entry(1, sessionId=session), call(2, "ls -R /", "toolu_1") | {"sessionId": session},
        entry(3, sessionId=session, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "the start of a long output"}]}),
    ))  # fmt: skip
    (folder / "subagents" / "agent-a1.jsonl").write_bytes(lines(entry(4, sessionId=session, isSidechain=True, agentId="a1")))
    os.mkfifo(folder / "subagents" / "agent-a1.meta.json")
    os.mkfifo(folder / "tool-results" / "toolu_1.txt")
    (folder / "subagents" / "workflows" / "wf_1").mkdir(parents=True)
    (folder / "subagents" / "workflows" / "wf_1" / "agent-w1.jsonl").write_bytes(lines(entry(5, sessionId=session, isSidechain=True, agentId="w1")))
    os.mkfifo(folder / "subagents" / "workflows" / "wf_1" / "journal.jsonl")
    sites: list[Path] = []
    with caplog.at_level(logging.WARNING):
        builder = threading.Thread(target=lambda: sites.append(build(root, strict=False)), daemon=True)
        builder.start()
        builder.join(timeout=60)
    assert sites, "the build waits on a pipe"
    page = (sites[0] / "t" / session / "index.html").read_text(encoding="utf-8")
    assert "the start of a long output" in page
    assert (sites[0] / "t" / session / "agent-a1" / "index.html").is_file()
    assert any("agent-a1.meta.json cannot be read as a file" in record.getMessage() for record in caplog.records)


def test_a_subagent_only_the_sessions_progress_lines_hold_is_shown(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A session copied without its ``subagents/`` folder: its subagent's messages are
    in its progress lines (Claude Code 2.x), which were read as metadata alone."""
    progress = {"type": "agent_progress", "agentId": "a77", "prompt": "Look around", "normalizedMessages": [], "message": {
        "type": "assistant", "uuid": "x2", "timestamp": "2025-01-01T00:00:03.000Z",
        "message": {"id": "s", "role": "assistant", "content": [{"type": "text", "text": "The loader is in cfg/load.py"}]}}}  # fmt: skip
    session = lines(
        entry(1, message={"role": "user", "content": "Find the config loader"}),
        entry(2, "assistant", message={"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_T", "name": "Task", "input": {"description": "search", "prompt": "Look around"}}]}),
        entry(3, "progress", data=progress, toolUseID="agent_msg_1", parentToolUseID="toolu_T"),
        entry(4, "progress", data=progress, toolUseID="agent_msg_1", parentToolUseID="toolu_T"),  # the same message again
        entry(5, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_T", "content": "Done.\nagentId: a77 (for resuming)"}]}),
    )  # fmt: skip
    root = make_site(tmp_path)
    (root / "docs" / f"{SESSION.format(0)}.jsonl").write_bytes(session)
    with caplog.at_level(logging.INFO):
        site = build(root)
    page = (site / SESSION.format(0) / "agent-a77" / "index.html").read_text(encoding="utf-8")
    assert page.count("The loader is in cfg/load.py") == 1
    assert ":3: subagent a77: its file is not here; it is shown from the session's progress lines" in caplog.text
    assert "whose transcript is not here" not in caplog.text
    session_page = (site / SESSION.format(0) / "index.html").read_text(encoding="utf-8")
    assert 'href="agent-a77/"' in session_page  # the call links it


def test_terminal_colour_codes_in_a_prompt_are_left_out(tmp_path: Path) -> None:
    """A prompt pasted from a terminal, with its colour codes: they were shown as
    "\ufffd[1;31m" in the prompt, the page's title and its heading, where a tool's
    output had them left out."""
    path = tmp_path / f"{SESSION.format(83)}.jsonl"
    path.write_bytes(lines(entry(1, message={"role": "user", "content": "\x1b[1;31mFAILED\x1b[0m test_login, why?"})))
    page = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert "\ufffd" not in page and "[1;31m" not in page and "[0m" not in page
    assert "# FAILED test\\_login, why?" in page or "# FAILED test_login, why?" in page


def test_a_subagents_file_that_holds_no_entries_is_said_to_be_left_out(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """It goes with its session, which does not publish it: the log said "published as it is"."""
    root = make_site(tmp_path)
    session = SESSION.format(93)
    (root / "docs" / "s" / session / "subagents").mkdir(parents=True)
    (root / "docs" / "s" / f"{session}.jsonl").write_bytes(lines(entry(1, sessionId=session)))
    (root / "docs" / "s" / session / "subagents" / "agent-abroken.jsonl").write_text("garbage {\n")
    with caplog.at_level(logging.WARNING):
        site = build(root, strict=False)
    said = [r.getMessage() for r in caplog.records if "agent-abroken.jsonl" in r.getMessage()]
    assert said and all("holds no Claude Code entries; left out" in message for message in said)
    assert not list(site.rglob("*abroken*"))


def test_small_lines_one_after_the_other_are_each_a_line_of_their_own(tmp_path: Path) -> None:
    """Two turns' durations in a row, thinking not recorded twice, an attached file of no
    text after them: each is a small line of its own. They were one paragraph, the
    marks that style each but the last shown as text ("{ .ct-meta }")."""
    think = {"type": "thinking", "thinking": "", "signature": "c2ln"}
    pages = built_pages(tmp_path, SESSION.format(94), [
        {"type": "user", "message": {"role": "user", "content": "prompt number 1"}},
        {"type": "system", "subtype": "turn_duration", "durationMs": 1000},
        {"type": "system", "subtype": "turn_duration", "durationMs": 2000},
        {"type": "assistant", "message": {"id": "r1", "role": "assistant", "content": [think]}},
        {"type": "assistant", "message": {"id": "r2", "role": "assistant", "content": [think]}},
        {"type": "user", "message": {"role": "user", "content": "prompt number 2"}},
    ])  # fmt: skip
    article = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser").select_one("article")
    assert "ct-meta" not in article.get_text()
    shown = [" ".join(p.get_text().split()) for p in article.select("p.ct-meta")]
    assert "Turn took 1.0 s" in shown and "Turn took 2.0 s" in shown
    assert shown.count("Thinking (not recorded)") == 2


def test_a_commands_output_recorded_beside_a_result_with_no_text_is_shown(tmp_path: Path) -> None:
    """A command's result whose text is empty, its output in what Claude Code records
    beside it (``toolUseResult.stdout``): the page said "No output.", while it showed
    the error output recorded there."""
    path = tmp_path / f"{SESSION.format(97)}.jsonl"
    path.write_bytes(lines(
        entry(1), call(2, "make"),
        entry(3, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": ""}]},
              toolUseResult={"stdout": "built 3 targets", "stderr": "a warning", "interrupted": False}),
    ))  # fmt: skip
    markdown = convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown
    assert "built 3 targets" in markdown and "a warning" in markdown
    assert "No output" not in markdown


def _calls_markdown(path: Path, calls: list[tuple[str, str, dict]]) -> str:
    """The Markdown of a session at ``path`` of a prompt, then an answer for each of
    ``calls`` (its id, tool and input) calling that tool."""
    path.write_bytes(lines(entry(1), *(
        entry(n, "assistant", message={"id": f"r{n}", "role": "assistant", "content": [{"type": "tool_use", "id": i, "name": name, "input": args}]})
        for n, (i, name, args) in enumerate(calls, 2)
    )))  # fmt: skip
    return convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions()).pages[0].markdown

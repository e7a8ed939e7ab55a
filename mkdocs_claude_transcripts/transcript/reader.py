"""Stream a JSONL transcript into raw entries, one line at a time.

Nothing here raises on bad input: each line that cannot become an entry is
recorded in the file's report with its line number, and reading goes on.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..report import FileReport, Level, Outcome
from .encoding import open_utf8
from .halves import HALF_ESCAPE, whole_characters
from .jsonstrings import DECODER, loads
from .raw import ENTRY, UNKNOWN, AnyEntry, AssistantEntry, AttachmentEntry, UnknownEntry, UserEntry
from .types import ENTRY_TYPES

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

# Reads a line whose strings hold control characters JSON does not allow.
_LENIENT = json.JSONDecoder(parse_int=DECODER.parse_int, strict=False)

# How many times a line may be retried after dropping fields of the wrong type.
_MAX_REPAIRS = 5


# Lists and objects nested deeper than this are left out of a line: nothing Claude Code
# writes comes near it, and converting a line nested hundreds deep ran out of stack.
DEEPEST = 100


def read_entries(path: str, report: FileReport) -> Iterator[tuple[int, AnyEntry]]:
    """Yield ``(line_number, entry)`` for each readable line of ``path``.

    Lines that are blank or unreadable are marked in ``report`` and skipped.
    """
    try:
        handle, encoding = open_utf8(path)
    except OSError as error:
        report.problem(None, f"cannot be read: {error.strerror or error}")
        return
    if encoding is not None:
        report.problem(None, f"is saved in {encoding} (Claude Code writes UTF-8): read as {encoding}", Level.INFO)
    with handle:
        number = 0
        for raw in handle:
            cr = raw.find(b"\r")  # none, or Windows' line end (CR LF): one line
            for line in (raw,) if cr < 0 or cr >= len(raw) - 2 else _cr_lines(raw):
                number += 1
                entry = _parse_line(line, number, report)
                if isinstance(entry, list):  # entries found in a line that is not one
                    yield from ((number, one) for one in entry)
                elif entry is not None:
                    yield number, entry
        report.lines = number
    if number == 0:
        report.problem(None, "is empty: no entries to show")


def _cr_lines(raw: bytes) -> list[bytes]:
    """The lines of what a file whose lines end in a carriage return alone (as classic
    Mac OS wrote them, or a tool writing ``\\r``) holds between two newlines: JSON holds
    no carriage return but between values, so each is the end of a line."""
    return [line.rstrip(b"\r\n") + b"\n" if line.endswith((b"\r", b"\n")) else line for line in raw.splitlines(keepends=True)]


def _parse_line(raw: bytes, number: int, report: FileReport) -> AnyEntry | list[AnyEntry] | None:
    if raw[:1] == b"\x00":  # what a file system leaves of a write cut short (a machine stopped)
        line = raw.lstrip(b"\x00")
        report.problem(number, f"{len(raw) - len(line):,} NUL bytes (a write cut short) skipped" + ("" if line.strip() else "; nothing after them"))
        if not line.strip():
            report.mark(number, Outcome.PROBLEM)
            return None
        raw = line
    if not raw.strip():
        report.mark(number, Outcome.BLANK)
        return None
    halves = HALF_ESCAPE.search(raw) is not None
    if not _may_nest_past(raw) and not halves:
        try:
            entry = ENTRY.validate_json(raw)
        except ValidationError as error:
            errors = error.errors()
        else:
            if _whole(entry):
                return entry
            return _entry_of(loads(raw), number, report, halves)
        if errors[0]["type"] != "json_invalid":
            try:
                data = loads(raw)
            except ValueError:  # read as the line that is not JSON below, with a message saying why
                pass
            else:
                return _entry_of(data, number, report, halves)
    # Not valid JSON as it stands, or nested deep: find out, with a message a person can act on.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        report.problem(number, f"invalid UTF-8 at byte {error.start}; the bad bytes are shown as \ufffd")
        text = raw.decode("utf-8", errors="replace")
    try:
        data = loads(text)
    except RecursionError:
        report.problem(number, "nested too deep to be read (a thousand levels or more)")
        report.mark(number, Outcome.PROBLEM)
        return None
    except json.JSONDecodeError as error:
        if error.msg.startswith("Invalid control character"):
            # A control character (a NUL from a damaged disk, a tab written raw) inside
            # a string, which JSON does not allow: the line is whole and read as it is.
            try:
                data = _LENIENT.decode(text.replace("\x00", "\ufffd"))
            except json.JSONDecodeError as other:
                error = other  # what else is wrong with it (a line cut inside a string: its line end)
            except RecursionError:
                pass
            else:
                report.problem(number, f"control characters inside a string (character {error.pos + 1}), which JSON does not allow: read as they are, a NUL as \ufffd")
                return _entry_of(data, number, report, halves)
        # The last line of a session still being written is cut short, not run together
        # (an object inside it may end where it is cut).
        salvaged = _salvaged(text) if raw.endswith(b"\n") else None
        if salvaged:
            left_out, found = salvaged
            read = "the entry beside them is read" if len(found) == 1 else f"the {len(found)} entries beside them are read"
            report.problem(number, f"{left_out:,} characters are not JSON (a write cut short); {read}" if left_out
                           else f"{len(found)} entries on one line (a line end lost between them); each is read")  # fmt: skip
            return [entry for data in found if (entry := _entry_of(data, number, report, halves)) is not None]
        if not raw.endswith(b"\n"):
            # Only the last line of a file lacks a newline: the usual state of a
            # session that is still being written.
            report.problem(number, "last line is cut off (the session may still be in progress)", Level.INFO)
        else:
            report.problem(number, f"not valid JSON: {error.msg} (character {error.pos + 1})")
        report.mark(number, Outcome.PROBLEM)
        return None
    return _entry_of(data, number, report, halves)


def entry_of(data: Any, number: int, report: FileReport) -> AnyEntry | None:
    """The entry of JSON data found inside a line (``number``), read as a line's is."""
    return _entry_of(data, number, report, True)


def _entry_of(data: Any, number: int, report: FileReport, halves: bool) -> AnyEntry | None:
    """The entry of a line's JSON (cut where it nests too deep, its half characters
    made whole, its fields of a wrong type dropped)."""
    if _deeper(data, DEEPEST):
        data = _cut_deep(data, DEEPEST)
        report.problem(number, f"nested more than {DEEPEST} levels deep; what is deeper is left out")
    if halves:
        found = [0]
        data = whole_characters(data, found)
        if found[0]:
            report.problem(number, f"{found[0]} half character(s) of UTF-16 (a text cut inside an emoji) shown as \ufffd", Level.INFO)
    data = _typed(data, number, report)
    holds = _HOLDS.get(data.get("type")) if isinstance(data, dict) and isinstance(data.get("type"), str) else None
    if holds is not None and not isinstance(data.get(holds), dict):
        lack = f"has no {holds}" if data.get(holds) is None else f"has {'an' if holds[0] in 'aeiou' else 'a'} {holds} that is not an object"
        report.problem(number, f"{data['type']} entry {lack}: shown with all its fields")
        dropped: list[str] = []
        entry = _as_unknown(data, dropped)
        if dropped:
            report.problem(number, f"{data['type']} entry: ignored field(s) of an unexpected type: {', '.join(dropped)}")
        return entry
    try:
        return ENTRY.validate_python(data)
    except ValidationError as error:
        errors = error.errors()
    return _repair(data, errors, number, report)


# The field that holds what an entry of a kind says, an object: without it, or with
# it of another type, the entry is shown with all its fields.
_HOLDS = {"user": "message", "assistant": "message", "attachment": "attachment"}


def _whole(entry: AnyEntry) -> bool:
    """Whether an entry names its type, and a prompt, an answer or an attachment has
    the object that holds what it says (see ``_entry_of`` for those that do not)."""
    if isinstance(entry, (UserEntry, AssistantEntry)):
        return "message" in entry.model_fields_set
    if isinstance(entry, AttachmentEntry):
        return "attachment" in entry.model_fields_set
    return not isinstance(entry, UnknownEntry) or isinstance(entry.type, str)


def _typed(data: Any, number: int, report: FileReport) -> Any:
    """An entry that names no type (the field lost, or not a string) is read as its
    message's role says, as the user's or Claude's; else it is shown with its fields."""
    if not isinstance(data, dict) or isinstance(data.get("type"), str):
        return data
    message = data.get("message")
    role = message.get("role") if isinstance(message, dict) else None
    if role in ("user", "assistant"):
        report.problem(number, f"entry with no type: read as '{role}', as its message's role says")
        return {**data, "type": role}
    report.problem(number, "entry with no type: shown with all its fields")
    return data


# How many starts of an object a line that is not JSON is tried at, at most.
_SALVAGE_TRIES = 64


def _salvaged(text: str) -> tuple[int, list[dict[str, Any]]] | None:
    """The entries in a line that is not one: two written one after the other (a line
    end lost), or one cut short before or after a whole one (a write cut short, then
    the session went on in the same file). How many characters of the line are not
    JSON, and the entries; None when the line holds none."""
    found: list[dict[str, Any]] = []
    at = kept = 0
    for _ in range(_SALVAGE_TRIES):
        start = text.find('{"', at)
        if start < 0:
            break
        try:
            value, end = DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            at = start + 1
            continue
        after = text[end:].lstrip()
        if after[:1] not in ("", "{") or not isinstance(value, dict) or not any(k in value for k in ("sessionId", "uuid", "leafUuid")):
            at = start + 1  # an object inside another (the line goes on after it), or not an entry
            continue
        found.append(value)
        kept += end - start
        at = end
    if not found:
        return None
    return len(text.strip()) - kept, found


def _may_nest_past(line: bytes | str) -> bool:
    """Whether a line holds enough brackets to nest past ``DEEPEST`` (most do not, and
    are not looked at more closely)."""
    if isinstance(line, bytes):
        return line.count(b"{") + line.count(b"[") > DEEPEST
    return line.count("{") + line.count("[") > DEEPEST


def _deeper(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and objects more than ``limit`` deep."""
    level: list[tuple[Any, int]] = [(data, 0)]
    while level:
        node, depth = level.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            level.extend((value, depth + 1) for value in node.values() if isinstance(value, (dict, list)))
        elif isinstance(node, list):
            level.extend((value, depth + 1) for value in node if isinstance(value, (dict, list)))
    return False


def _cut_deep(data: Any, limit: int) -> Any:
    """``data`` with what nests deeper than ``limit`` replaced by a note saying so."""
    if not isinstance(data, (dict, list)):
        return data
    if limit <= 0:
        return f"(nested more than {DEEPEST} levels deep: left out)"
    if isinstance(data, dict):
        return {key: _cut_deep(value, limit - 1) for key, value in data.items()}
    return [_cut_deep(value, limit - 1) for value in data]


def _repair(data: Any, errors: list[ErrorDetails], number: int, report: FileReport) -> AnyEntry | None:
    """Keep an entry whose fields do not all have the expected type (``errors``: what
    validating it found).

    Fields of the wrong type are dropped (and reported) so that the rest of the
    entry still renders as what it is; if that fails, it becomes an
    ``UnknownEntry`` holding everything, shown in a generic form. What is kept of a
    validation error is its list of errors, never the error itself: its traceback
    holds the frame that would hold it, a cycle only the garbage collector frees.
    """
    if not isinstance(data, dict):
        report.problem(number, f"is a JSON {_json_kind(data)}, not an object")
        report.mark(number, Outcome.PROBLEM)
        return None
    kind = data.get("type")
    dropped: list[str] = []
    for _ in range(_MAX_REPAIRS):
        dropped += _dropped(data, errors)
        try:
            entry = ENTRY.validate_python(data)
            break
        except ValidationError as again:
            errors = again.errors()
    else:
        entry = _as_unknown(data, dropped)
    what = f"{kind} entry" if isinstance(kind, str) else "entry with no type"  # (not "None entry")
    if dropped:
        report.problem(number, f"{what}: ignored field(s) of an unexpected type: {', '.join(dropped)}")
    elif isinstance(entry, UnknownEntry) and kind in ENTRY_TYPES:
        report.problem(number, f"{what}: not of the shape expected; shown with all its fields")
    return entry


def _json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words (not Python's: ``null``, not ``NoneType``)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return "number" if isinstance(value, (int, float)) else "string" if isinstance(value, str) else "list"


def _as_unknown(data: dict[str, Any], dropped: list[str]) -> UnknownEntry:
    """An entry shown with all its fields; but a field that places it in the session
    and is of another type (added to ``dropped``)."""
    try:
        return UNKNOWN.validate_python(data)
    except ValidationError as error:
        dropped += _dropped(data, error.errors())
    return UNKNOWN.validate_python(data)


def _dropped(data: Any, errors: list[ErrorDetails]) -> list[str]:
    """Remove from ``data`` every value ``errors`` name; their dotted paths. Where one
    value holds another that an error names, only the inner one goes: a list of blocks
    that is not a text (the other type its field may have) keeps its blocks but the
    field of one that is wrong."""
    paths = {tuple(path) for path in (_path(data, tuple(e["loc"])) for e in errors) if path}
    inner = [path for path in paths if not any(len(other) > len(path) and other[: len(path)] == path for other in paths)]
    # Removed from the last, so that the items of a list left to remove keep their
    # indexes (keys and indexes do not compare: each step is sorted with its kind).
    ordered = sorted(inner, key=lambda path: [(0, step, "") if isinstance(step, int) else (1, 0, str(step)) for step in path])
    return [_drop(data, path) for path in reversed(ordered)][::-1]


def _path(data: Any, loc: tuple[Any, ...]) -> list[Any]:
    """The steps of a pydantic error's location ``loc`` that are keys and indexes of
    ``data``: those naming a union's member (a tag, a model's name, "str") are skipped.
    A tag can be a key too (a thinking block's "thinking"): the reading that reaches
    the location's last step wins, then the longest."""
    best: tuple[bool, int, list[Any]] = (False, 0, [])

    def walk(node: Any, index: int, taken: list[Any], last: bool) -> None:
        nonlocal best
        if index == len(loc):
            if (last, len(taken)) > best[:2]:
                best = (last, len(taken), taken)
            return
        step = loc[index]
        if (isinstance(node, dict) and step in node) or (isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)):
            walk(node[step], index + 1, [*taken, step], index == len(loc) - 1)
        walk(node, index + 1, taken, False)

    walk(data, 0, [], False)
    return best[2]


def _drop(data: Any, path: tuple[Any, ...]) -> str:
    """Remove the value at ``path`` (keys and indexes) from ``data``; its dotted path."""
    node = data
    for step in path[:-1]:
        node = node[step]
    del node[path[-1]]
    return ".".join(map(str, path))


def rewritten_lines(path: str, data: Callable[[Any], Any], text: Callable[[str], str]) -> bytes:
    """A transcript file with each line's parsed JSON passed through ``data``, and each
    line that is not JSON through ``text``."""
    out: list[str] = []
    with io.TextIOWrapper(open_utf8(path)[0], encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                parsed = loads(line)
            except (ValueError, RecursionError):
                out.append(text(line.rstrip("\n")))
                continue
            if _may_nest_past(line) and _deeper(parsed, DEEPEST):
                parsed = _cut_deep(parsed, DEEPEST)
            if "\\u" in line and HALF_ESCAPE.search(line.encode("utf-8", "surrogatepass")):
                parsed = whole_characters(parsed, [0])
            out.append(json.dumps(data(parsed), ensure_ascii=False))
    return ("\n".join(out) + "\n").encode("utf-8")

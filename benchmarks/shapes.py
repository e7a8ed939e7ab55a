"""Sessions of extreme shapes, each at two sizes: that converting them grows with their
size and not faster, and that no page of theirs passes about 1 MB.

    python benchmarks/shapes.py [--sizes 1 4] [--sessions 1000] [--no-build] [--only TEXT]

Each shape is one session made up here (no corpus needed): a prompt of megabytes,
a command's output of megabytes, a single line of megabytes, an image, one prompt
followed by thousands of tool calls, an answer holding thousands of code fences, a
file written whole, an edit of every line, a table, hundreds of subagents, a
conversation rewound again and again, a line of the words that begin secrets (every
pattern of redaction tried all along it), a prompt of tags that nothing closes
(pasted HTML), runs of blank lines before a reminder or an agent's footer and private
keys that nothing ends, a paragraph of links that nothing closes, a log under a list's
item and lines of marks in a quote, words that patterns read to their end (a command's
name in a minified file, a tag's attribute, a password's value), what a prompt may hold
pasted (a query's result, a run of blank lines, a list numbered "1)", a table of empty
cells), a session written again as it resumed, a chain of entries written last
first and prompts queued by the thousand, and, to compare, many short turns. Each is
converted in this process (``pipeline.convert_session``, best of two runs) at each
size, and its pages rendered by Python-Markdown with the extensions of the site
below ("render"); "growth" is the time of both at the largest size over their time
at the smallest, divided by the ratio of their sizes: about 1 when the time grows
linearly, more when it grows faster. Then (unless ``--no-build``) a Material site
holding every shape at the largest size is built, and the largest HTML page of each
shape is measured; and a site of 1,000 short sessions in one folder
(``--sessions``), whose nav is what grows.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import markdown
from common import dump, make_site, mkdocs, table
from mkdocs.utils.meta import get_data

from mkdocs_claude_transcripts.pipeline import Redactor, RenderOptions, SourceFile, convert_session, discover
from mkdocs_claude_transcripts.redact import TRIGGERS
from mkdocs_claude_transcripts.render.fences import FENCES

Entry = dict
_WORDS = ["the", "build", "ran", "the", "tests", "and", "two", "failed", "because", "a", "path", "was", "wrong", "so", "I", "fixed", "it"]


def _text(random_: random.Random, size: int) -> str:
    out, length = [], 0
    while length < size:
        sentence = " ".join(random_.choice(_WORDS) for _ in range(12)) + ". "
        out.append(sentence)
        length += len(sentence)
    return "".join(out)


class _Session:
    """Entries chained one after the other, as Claude Code writes them."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.entries: list[Entry] = []
        self.size = 0
        self._parent: str | None = None

    def add(self, kind: str, message: dict, parent: str | None = "last", **extra: object) -> str:
        uuid = f"{len(self.entries):08x}-0000-4000-8000-{self.session_id[-12:]}"
        entry = {
            "type": kind, "uuid": uuid, "parentUuid": self._parent if parent == "last" else parent,
            "sessionId": self.session_id, "timestamp": f"2025-05-05T{len(self.entries) // 3600 % 24:02d}:{len(self.entries) // 60 % 60:02d}:{len(self.entries) % 60:02d}.000Z",
            "version": "2.0.30", "cwd": "/work/project", "message": message, **extra,
        }  # fmt: skip
        self.entries.append(entry)
        self.size += len(json.dumps(entry))
        self._parent = uuid
        return uuid

    def prompt(self, text: str | list, **extra: object) -> str:
        return self.add("user", {"role": "user", "content": text}, **extra)

    def answer(self, blocks: list[dict], **extra: object) -> str:
        return self.add(
            "assistant",
            {"id": f"msg_{len(self.entries)}", "role": "assistant", "model": "claude-sonnet-4-5", "content": blocks},
            **extra,
        )

    def tool(self, number: int, name: str, tool_input: dict, result: str | list, **extra: object) -> None:
        tool_id = f"toolu_{number:08d}"
        self.answer([{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}])
        self.add(
            "user",
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": result}]},
            **extra,
        )

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.session_id}.jsonl"
        path.write_text("".join(json.dumps(entry) + "\n" for entry in self.entries), encoding="utf-8")
        return path


def prompt(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Here is what I have:\n\n" + "\n".join(_text(r, 400) for _ in range(size // 400)))
    s.answer([{"type": "text", "text": "I read it."}])


def output(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Run the build.")
    s.tool(1, "Bash", {"command": "make all"}, "\n".join(f"[{i}] " + _text(r, 80) for i in range(size // 90)))


def one_line(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Read the bundle.")
    s.tool(
        1,
        "Read",
        {"file_path": "/work/project/dist/app.min.js"},
        "var a=[1,2,3];function f(x){return x*2}" * (size // 40),
    )


def tags(s: _Session, size: int, r: random.Random) -> None:
    # Pasted HTML: thousands of tags that nothing closes, then one Claude Code writes.
    s.prompt("<p><b>" * (size // 6) + "<system-reminder>Be brief.</system-reminder>")
    s.answer([{"type": "text", "text": "I read it."}])


def unended(s: _Session, size: int, r: random.Random) -> None:
    # Runs of blank lines before what ends a tool's output (a reminder, an agent's
    # footer), and private keys that nothing ends.
    third = size // 3
    s.prompt("Look at these.")
    s.tool(1, "Read", {"file_path": "/work/project/blank.txt"}, "\n" * third + "<system-reminder>Be brief.</system-reminder>")
    s.tool(2, "Task", {"description": "Look", "prompt": "Look.", "subagent_type": "Explore"}, "Done." + "\n" * third + "agentId: a1b2c3d")
    s.tool(3, "Bash", {"command": "cat keys.txt"}, "-----BEGIN RSA PRIVATE KEY-----\nabc\n" * (third // 36))


def links(s: _Session, size: int, r: random.Random) -> None:
    # Lines of 40,000 characters of links whose targets nothing closes.
    lines = ["](" * 20_000, "[a](https://example.com/x" * 1_600]
    s.prompt("\n\n".join(lines[n % 2] for n in range(size // 40_000 + 1)))
    s.answer([{"type": "text", "text": "I read it."}])


def in_containers(s: _Session, size: int, r: random.Random) -> None:
    # A log pasted under a list's item, going on it lazily, each line full of marks and
    # holding a bracket that nothing closes; then lines of 40,000 marks in a quote.
    half = size // 2
    s.prompt("- the build failed:\n" + "\n".join(f"[{i}] at <module> a & b [ {r.random():.3f}" for i in range(half // 40)))
    s.answer([{"type": "text", "text": "\n>\n".join("> " + "&<" * 20_000 for _ in range(half // 40_000 + 1))}])


def secret_starts(s: _Session, size: int, r: random.Random) -> None:
    # A line of the words that begin secrets (sk-, eyJ, ://, password=...), none of
    # them finished, each followed by a run of letters, dots and dashes as long as the
    # session is large; then a line of them given values, over and over, ended by a
    # parenthesis: every pattern of redact.py is tried all along both.
    words = sorted({word for words in TRIGGERS.values() for word in words})
    run = "a-b." * (size // len(words) // 8)
    given = "".join(f"{word}=a1" for word in words)
    s.prompt("Print the fixture.")
    text = "".join(f"{word}{run}{word}=a:a@" for word in words) + "\n" + given * (size // 2 // len(given)) + "("
    s.tool(1, "Bash", {"command": "cat fixture.txt"}, text)


def long_words(s: _Session, size: int, r: random.Random) -> None:
    # Words as long as the session is large where a pattern looks for a name or a
    # value after one: a minified file naming a command every 2 KB (each name looks
    # for the command's options), a tag's attribute of one word, and a password's
    # value that looks like an object's field ("x.passpass...").
    third = size // 3
    chunk = "var a=require('x');function f(b){return b*2};" * 43
    s.prompt("Read the bundle.")
    s.tool(1, "Read", {"file_path": "/work/project/dist/server.min.js"}, (chunk + '"mysql"') * (third // len(chunk)))
    s.prompt("<command-name x" + "a" * third + ">/review</command-name>")
    s.prompt("password=x." + "pass" * (third // 4) + "!")


def pasted_text(s: _Session, size: int, r: random.Random) -> None:
    # What a prompt may hold pasted: a query's result (rows of "|" under no header),
    # a run of blank lines, a list numbered "1)", and a table of empty cells ("|||"
    # under a header makes one to Python-Markdown).
    quarter = size // 4
    rows = "\n".join(f"| {n} | src/app_{n % 97}/__init__.py | {n * 7} |" for n in range(quarter // 40))
    s.prompt("+----+----+----+\n" + rows)
    s.prompt("Before." + "\n \n" * (quarter // 3) + "After.")
    s.prompt("\n".join(f"{n}) step {n}" for n in range(1, quarter // 12)))
    s.prompt("| a | b | c | d |\n|||||\n" + "\n".join("|||||" for _ in range(quarter // 6)))


def written_again(s: _Session, size: int, r: random.Random) -> None:
    # A session resumed: a prompt of thousands of blocks, written again with its
    # answer; a chain of prompts written last first (each entry before its parent);
    # and prompts queued by the thousand while Claude works, removed newest first.
    half = size // 3
    for n in range(half // 230):
        s.add("queue-operation", None, operation="enqueue", content=f"queued prompt number {n}")
    for n in reversed(range(half // 230)):
        s.add("queue-operation", None, operation="remove", content=f"queued prompt number {n}")
    blocks = [{"type": "text", "text": f"note {n} of the pasted list"} for n in range(half // 40)]
    s.prompt(blocks)
    s.answer([{"type": "text", "text": "Done."}])
    s.prompt(blocks)
    s.add("assistant", {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Done."}]})
    chain = [f"{n:08x}-1111-4000-8000-{s.session_id[-12:]}" for n in range(half // 300)]
    before = s._parent
    for n in reversed(range(len(chain))):
        s.add("user", {"role": "user", "content": f"prompt {n}"}, parent=chain[n - 1] if n else before)
        s.entries[-1]["uuid"] = chain[n]


def image(s: _Session, size: int, r: random.Random) -> None:
    data = base64.b64encode(r.randbytes(size * 3 // 4)).decode()
    s.prompt(
        [
            {"type": "text", "text": "What is on this screenshot?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}},
        ]
    )
    s.answer([{"type": "text", "text": "A login form."}])


def one_turn(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Fix every failing test, and do not stop until they pass.")
    number = 0
    while s.size < size:
        number += 1
        s.answer([{"type": "text", "text": _text(r, 120)}])
        s.tool(
            number,
            "Bash",
            {"command": f"pytest tests/test_{number}.py -x", "description": "Run one test file"},
            _text(r, 500),
        )


def fences(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Show me examples.")
    s.answer(
        [
            {
                "type": "text",
                "text": "\n\n".join(
                    f"Example {i}:\n\n```python\nprint({i}, {_text(r, 30)!r})\n```" for i in range(size // 110)
                ),
            }
        ]
    )


def write(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Write the module.")
    content = "\n".join(f"def step_{i}(value):\n    return value + {i}  # {_text(r, 30)}" for i in range(size // 80))
    s.tool(
        1,
        "Write",
        {"file_path": "/work/project/steps.py", "content": content},
        "File created successfully at: /work/project/steps.py",
    )


def edit(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Rename every variable.")
    lines = size // 40
    old = "\n".join(f"old_name_{i} = compute({i})" for i in range(lines // 2))
    new = "\n".join(f"new_name_{i} = compute({i})" for i in range(lines // 2))
    s.tool(
        1,
        "Edit",
        {"file_path": "/work/project/names.py", "old_string": old, "new_string": new},
        "The file has been updated.",
    )


def table_(s: _Session, size: int, r: random.Random) -> None:
    s.prompt("Compare them all.")
    rows = "\n".join(f"| {i} | {_text(r, 30)} | {r.random():.3f} | `x{i}` |" for i in range(size // 60))
    s.answer([{"type": "text", "text": "| n | what | score | id |\n|---|---|---|---|\n" + rows}])


def turns(s: _Session, size: int, r: random.Random) -> None:
    number = 0
    while s.size < size:
        number += 1
        s.prompt(_text(r, 200))
        s.answer([{"type": "thinking", "thinking": _text(r, 300), "signature": "x"}])
        s.tool(
            number,
            "Read",
            {"file_path": f"/work/project/src/file_{number}.py"},
            "\n".join(f"{i + 1:6}\t{_text(r, 40)}" for i in range(20)),
        )
        s.answer([{"type": "text", "text": _text(r, 400)}])


def rewound(s: _Session, size: int, r: random.Random) -> None:
    # Each prompt is tried again from the same place, twice: a tree of branches.
    root = s.prompt("Start.")
    parent = s.answer([{"type": "text", "text": "Ready."}])
    while s.size < size:
        tips = []
        for _ in range(3):
            s.prompt(_text(r, 200), parent=parent)
            tips.append(s.answer([{"type": "text", "text": _text(r, 600)}]))
        parent = tips[-1]
    del root


def subagents(s: _Session, size: int, r: random.Random, folder: Path) -> None:
    s.prompt("Look at every module, each with an agent of its own.")
    number = 0
    while s.size < size:
        number += 1
        agent_id = f"a{number:06x}"
        s.tool(number, "Task", {"description": f"Module {number}", "prompt": _text(r, 100), "subagent_type": "Explore"},
               f"{_text(r, 200)}\nagentId: {agent_id}")  # fmt: skip
        agent = _Session(s.session_id)
        agent.prompt(_text(r, 100), isSidechain=True, agentId=agent_id)
        agent.tool(
            1,
            "Grep",
            {"pattern": "def ", "path": f"/work/project/m{number}"},
            _text(r, 400),
            isSidechain=True,
            agentId=agent_id,
        )
        agent.answer([{"type": "text", "text": _text(r, 200)}], isSidechain=True, agentId=agent_id)
        path = folder / s.session_id / "subagents" / f"agent-{agent_id}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(entry) + "\n" for entry in agent.entries), encoding="utf-8")
        s.size += agent.size


SHAPES: dict[str, Callable[..., None]] = {
    "many short turns": turns, "one long prompt": prompt, "one long command output": output,
    "one line of megabytes": one_line, "one image": image, "one prompt, thousands of tool calls": one_turn,
    "thousands of code fences": fences, "one file written": write, "an edit of every line": edit,
    "one table": table_, "hundreds of subagents": subagents, "rewound again and again": rewound,
    "the starts of secrets": secret_starts, "a prompt of tags that nothing closes": tags,
    "blank lines and blocks that nothing ends": unended, "links that nothing closes": links,
    "a log in a list's item, marks in a quote": in_containers, "words read to their end": long_words,
    "a query's result, blank lines, 1) items, empty cells": pasted_text, "written again, written backwards, queued": written_again,
}  # fmt: skip


def make(name: str, size: int, folder: Path) -> Path:
    """The session of shape ``name``, of about ``size`` bytes, in ``folder``."""
    index = list(SHAPES).index(name)
    session = _Session(f"5a5a5a5a-0000-4000-8000-{index:012d}")
    extra = (folder,) if SHAPES[name] is subagents else ()
    SHAPES[name](session, size, random.Random(index), *extra)
    session.write(folder)
    return folder


def _files(folder: Path) -> Iterator[SourceFile]:
    for path in sorted(folder.rglob("*.jsonl")):
        yield SourceFile(path.relative_to(folder).as_posix(), str(path))


def convert_seconds(folder: Path) -> tuple[float, float]:
    """The best of two conversions of the session in ``folder``, as a site converts it,
    and the time Python-Markdown takes to render its pages."""
    best, converted = float("inf"), None
    for _ in range(2):
        source = discover(list(_files(folder))).sessions[0]
        started = time.perf_counter()
        converted = convert_session(source, RenderOptions(), Redactor())
        best = min(best, time.perf_counter() - started)
    assert converted is not None
    started = time.perf_counter()
    for page in converted.pages:
        _MARKDOWN.reset().convert(get_data(page.markdown)[0])  # without its front matter, as MkDocs renders it
    return best, time.perf_counter() - started


# Python-Markdown as the site below renders pages (the plugin registers its fences and its guard).
_EXTENSIONS = ["admonition", "attr_list", "pymdownx.details", "pymdownx.superfences", "pymdownx.highlight", "tables"]
_MARKDOWN = markdown.Markdown(
    extensions=[*_EXTENSIONS, "mkdocs_claude_transcripts.render.guard"],
    extension_configs={"pymdownx.superfences": {"custom_fences": FENCES}},
)


def megabytes(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*.jsonl")) / 1024 / 1024


def many_sessions(count: int, scratch: Path) -> dict[str, float]:
    """A Material site of ``count`` short sessions in one folder, built cold: its time,
    largest page and size in all (the nav, which Material writes into every page, is
    what grows with the number of sessions)."""
    root = make_site(scratch / "many")
    for number in range(count):
        session = _Session(f"6b6b6b6b-0000-4000-8000-{number:012d}")
        turns(session, 8_000, random.Random(number))
        session.write(root / "docs" / "project")
    built = mkdocs(root)
    pages = [p.stat().st_size for p in (root / "site").rglob("*.html")]
    return {"sessions": count, "megabytes": megabytes(root / "docs"), "seconds": built.seconds,
            "largest_page_kb": max(pages) / 1024, "html_mb": sum(pages) / 1024 / 1024}  # fmt: skip


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--sizes", type=float, nargs=2, default=[1, 4], metavar=("SMALL", "LARGE"), help="megabytes")
    arguments.add_argument(
        "--sessions", type=int, default=1000, help="sessions in the site of many short ones (0: none)"
    )
    arguments.add_argument("--no-build", action="store_true", help="conversion only: no site is built")
    arguments.add_argument("--only", metavar="TEXT", default="", help="only the shapes whose name holds TEXT")
    args = arguments.parse_args()
    small, large = args.sizes
    scratch = Path(tempfile.mkdtemp(prefix="ct-shapes-"))
    root = make_site(scratch / "site")
    rows = [["shape", f"MB (~{small:g})", "s", "render s", f"MB (~{large:g})", "s", "render s", "growth", "largest page KB"]]
    results = []
    many = None
    try:
        # The content model is loaded, and Pygments' lexers compiled, before anything is timed.
        convert_seconds(make("many short turns", 20_000, scratch / "warm-up"))
        for index, name in enumerate(SHAPES):
            if args.only not in name:
                continue
            measured = []
            for size in (small, large):
                folder = make(name, int(size * 1024 * 1024), scratch / f"{index}-{size:g}")
                measured.append((megabytes(folder), convert_seconds(folder)))
            (mb_small, (s_small, r_small)), (mb_large, (s_large, r_large)) = measured
            growth = ((s_large + r_large) / (s_small + r_small)) / (mb_large / mb_small)
            shutil.copytree(scratch / f"{index}-{large:g}", root / "docs" / f"shape-{index}")
            results.append({"shape": name, "folder": f"shape-{index}", "small_mb": mb_small, "small_seconds": s_small, "small_render": r_small,
                            "large_mb": mb_large, "large_seconds": s_large, "large_render": r_large,
                            "growth": growth})  # fmt: skip
        if not args.no_build:
            mkdocs(root)
            for result in results:
                pages = (root / "site" / result["folder"]).rglob("*.html")
                result["largest_page_kb"] = max((p.stat().st_size for p in pages), default=0) / 1024
            if args.sessions:
                many = many_sessions(args.sessions, scratch)
        for result in results:
            rows.append([
                result["shape"], f"{result['small_mb']:.1f}", f"{result['small_seconds']:.2f}", f"{result['small_render']:.2f}",
                f"{result['large_mb']:.1f}", f"{result['large_seconds']:.2f}", f"{result['large_render']:.2f}",
                f"{result['growth']:.2f}", f"{result.get('largest_page_kb', 0):.0f}",
            ])  # fmt: skip
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(table(rows))
    if many:
        print(
            f"\nA site of {many['sessions']:,} short sessions in one folder ({many['megabytes']:.1f} MB): built in "
            f"{many['seconds']:.1f} s, largest page {many['largest_page_kb']:.0f} KB, {many['html_mb']:.0f} MB of HTML"
        )
    dump("shapes", {"results": results, "many_sessions": many})


if __name__ == "__main__":
    main()

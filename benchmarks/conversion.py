"""Conversion alone, JSONL to Markdown files, on a corpus: this project against
claude-code-log's Markdown export (in a virtualenv of its own) and against the
floor, ``json.loads`` of the same bytes.

    python benchmarks/conversion.py [--corpus PATH] [--repeat N]

Each tool runs as a process of its own, start-up included, on a fresh copy of the
corpus; the best of N runs is kept. Both run as their users run them (one worker
process per core), and with one process (``--jobs 1``); claude-code-log converts all
the projects in one run (``--all-projects``), and, as a user converting one project
at a time would, once per project folder. This project runs as its
command line, ``mkdocs-claude-transcripts convert``, which writes everything a site
gets: pages, images, ``session.json`` files, an index; and with ``--no-json``, which
writes Markdown alone, as claude-code-log's ``-f md`` does. Each tool also converts the
corpus's smallest session alone, which is what it takes to start: what is left of
each run beyond it is the work that grows with the transcripts. claude-code-log is
installed on first use in benchmarks/.venv-ccl (never a dependency of the project).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from common import ROOT, copy_project, corpus_bytes, dump, parser, run, session_files, table, transcript_dirs

from mkdocs_claude_transcripts.workers import cores

CCL_VENV = ROOT / "benchmarks" / ".venv-ccl"
# The release measured in docs/performance.md, or a later one with the same command line.
CCL = "claude-code-log>=1.7,<2"

FLOOR = """
import json, sys
from pathlib import Path
for path in Path(sys.argv[1]).rglob("*.jsonl"):
    with open(path, "rb") as handle:
        for line in handle:
            try:
                json.loads(line)
            except ValueError:
                pass
"""


def claude_code_log() -> Path:
    """The claude-code-log command, installed in its own virtualenv on first use."""
    command = CCL_VENV / "bin" / "claude-code-log"
    if not command.exists():
        venv.create(CCL_VENV, with_pip=True)
        subprocess.run([str(CCL_VENV / "bin" / "pip"), "install", "-q", CCL], check=True)
    return command


def smallest_session(corpus: Path, scratch: Path) -> Path:
    """A corpus of the corpus's smallest session alone, in its project's folder."""
    path = min(session_files(corpus), key=lambda p: (p.stat().st_size, str(p)))
    folder = scratch / "smallest"
    (folder / path.parent.name).mkdir(parents=True)
    shutil.copyfile(path, folder / path.parent.name / path.name)
    return folder


def time_ours(corpus: Path, repeat: int, jobs: int = 0, *extra: str) -> float:
    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            command = [sys.executable, "-m", "mkdocs_claude_transcripts", "convert", str(corpus), "-o", out, "--jobs", str(jobs), *extra]
            best = min(best, run(command).seconds)
    return best


def time_floor(corpus: Path, repeat: int) -> float:
    return min(run([sys.executable, "-c", FLOOR, str(corpus)]).seconds for _ in range(repeat))


def time_ccl(corpus: Path, repeat: int, jobs: int = 0) -> float:
    """claude-code-log writes beside the transcripts: each run gets a fresh copy of the
    corpus, laid out as one projects folder so that a single process converts it all
    (``--all-projects``), its cache cleared first."""
    command = str(claude_code_log())
    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as scratch:
            projects = Path(scratch) / "projects"
            folders = transcript_dirs(corpus)
            for number, folder in enumerate(folders):
                copy_project(folder, projects / f"{number:02d}{folder.name}", folders)
            base = [command, "convert", "--all-projects", "--projects-dir", str(projects), "-f", "md"]
            subprocess.run([*base, "--clear-cache"], capture_output=True, check=True)
            best = min(best, run([*base, "--combined", "no", *(["--jobs", str(jobs)] if jobs else [])]).seconds)
    return best


def time_ccl_per_project(corpus: Path, repeat: int) -> float:
    """claude-code-log run on each project folder in turn, as its README shows it for
    one project (``claude-code-log <folder>``): the sum of the runs."""
    command = str(claude_code_log())
    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as scratch:
            found = transcript_dirs(corpus)
            folders = [copy_project(folder, Path(scratch) / f"{n:02d}{folder.name}", found) for n, folder in enumerate(found)]
            best = min(best, sum(run([command, "convert", str(folder), "-f", "md"]).seconds for folder in folders))
    return best


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--repeat", type=int, default=3)
    args = arguments.parse_args()
    size = corpus_bytes(args.corpus) / 1024 / 1024
    floor = time_floor(args.corpus, args.repeat)
    ours, ours_one = time_ours(args.corpus, args.repeat), time_ours(args.corpus, args.repeat, jobs=1)
    markdown_only = time_ours(args.corpus, args.repeat, 0, "--no-json")
    ccl, ccl_one = time_ccl(args.corpus, args.repeat), time_ccl(args.corpus, args.repeat, jobs=1)
    ccl_each = time_ccl_per_project(args.corpus, args.repeat)
    with tempfile.TemporaryDirectory() as scratch:
        smallest = smallest_session(args.corpus, Path(scratch))
        kb = corpus_bytes(smallest) / 1024
        ours_start, ccl_start = time_ours(smallest, args.repeat), time_ccl(smallest, args.repeat)
    version = subprocess.run([str(claude_code_log()), "--version"], capture_output=True, text=True).stdout.strip()
    rows = [["what", "seconds", "MB/s", "vs json.loads"], ["json.loads (floor)", f"{floor:.2f}", f"{size / floor:.1f}", "1.0x"]]
    for name, seconds in (
        ("mkdocs-claude-transcripts", ours), ("mkdocs-claude-transcripts --jobs 1", ours_one),
        ("mkdocs-claude-transcripts --no-json (Markdown alone)", markdown_only),
        (f"{version} --all-projects", ccl), (f"{version} --all-projects --jobs 1", ccl_one),
        (f"{version}, one run per project folder", ccl_each),
    ):  # fmt: skip
        rows.append([name, f"{seconds:.2f}", f"{size / seconds:.1f}", f"{seconds / floor:.1f}x"])
    alone = f"the smallest session alone, {kb:.0f} KB (its start-up)"
    rows += [[f"mkdocs-claude-transcripts, {alone}", f"{ours_start:.2f}", "", ""], [f"{version}, {alone}", f"{ccl_start:.2f}", "", ""]]
    print(f"Conversion of {size:.1f} MB of transcripts ({args.corpus}), best of {args.repeat}, start-up included, {cores()} cores\n")
    print(table(rows))
    print(f"\nclaude-code-log takes {ccl / ours:.1f} times as long as mkdocs-claude-transcripts (goal: 5 or more); "
          f"in one process each, {ccl_one / ours_one:.1f} times; run once per project, {ccl_each / ours:.1f} times; "
          f"against Markdown alone (--no-json), {ccl / markdown_only:.1f} times")  # fmt: skip
    print(f"Beyond what each takes to convert the smallest session alone: {ours - ours_start:.2f} s against "
          f"{ccl - ccl_start:.2f} s, {(ccl - ccl_start) / (ours - ours_start):.1f} times. Five times faster than "
          f"claude-code-log is {ccl / 5:.2f} s; this project's start-up alone takes {ours_start:.2f} s")  # fmt: skip
    dump("conversion", {"megabytes": size, "cores": cores(), "floor": floor, "ours": ours, "ours_one_process": ours_one, "ours_markdown_only": markdown_only,
                        "claude_code_log": ccl, "claude_code_log_one_process": ccl_one,
                        "claude_code_log_per_project": ccl_each, "ccl_version": version,
                        "ours_smallest_session": ours_start, "claude_code_log_smallest_session": ccl_start})  # fmt: skip


if __name__ == "__main__":
    main()

"""Conversion alone, JSONL to Markdown files, on a corpus: this project against
claude-code-log's Markdown export (in a virtualenv of its own) and against the
floor, ``json.loads`` of the same bytes.

    python benchmarks/conversion.py [--corpus PATH] [--repeat N]

Each tool runs as a process of its own, start-up included, on a fresh copy of the
corpus; the best of N runs is kept. claude-code-log is installed on first use in
benchmarks/.venv-ccl (never a dependency of the project).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from common import CORPUS, ROOT, corpus_bytes, dump, run, table, transcript_dirs

CCL_VENV = ROOT / "benchmarks" / ".venv-ccl"

OURS = """
import sys
from pathlib import Path
from mkdocs_claude_transcripts.pipeline import Redactor, SourceFile, convert, discover
from mkdocs_claude_transcripts.render.context import RenderOptions
corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
files = [SourceFile(p.relative_to(corpus).as_posix(), str(p)) for p in corpus.rglob("*") if p.is_file()]
for converted in convert(discover(files), RenderOptions(), Redactor()):
    for page in converted.pages:
        target = out / page.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.markdown, encoding="utf-8")
"""

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
        subprocess.run([str(CCL_VENV / "bin" / "pip"), "install", "-q", "claude-code-log"], check=True)
    return command


def time_ours(corpus: Path, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            best = min(best, run([sys.executable, "-c", OURS, str(corpus), out]).seconds)
    return best


def time_floor(corpus: Path, repeat: int) -> float:
    return min(run([sys.executable, "-c", FLOOR, str(corpus)]).seconds for _ in range(repeat))


def time_ccl(corpus: Path, repeat: int) -> float:
    """claude-code-log writes beside the transcripts: each run gets a fresh copy of the
    corpus, laid out as one projects folder so that a single process converts it all
    (``--all-projects``), its cache cleared first."""
    command = str(claude_code_log())
    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as scratch:
            projects = Path(scratch) / "projects"
            for number, folder in enumerate(transcript_dirs(corpus)):
                shutil.copytree(folder, projects / f"{number:02d}{folder.name}")
            base = [command, "convert", "--all-projects", "--projects-dir", str(projects), "-f", "md"]
            subprocess.run([*base, "--clear-cache"], capture_output=True, check=True)
            best = min(best, run([*base, "--combined", "no", "--jobs", "1"]).seconds)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    size = corpus_bytes(args.corpus) / 1024 / 1024
    floor, ours, ccl = (time_floor(args.corpus, args.repeat), time_ours(args.corpus, args.repeat), time_ccl(args.corpus, args.repeat))
    version = subprocess.run([str(claude_code_log()), "--version"], capture_output=True, text=True).stdout.strip()
    rows = [
        ["what", "seconds", "MB/s", "vs json.loads"],
        ["json.loads (floor)", f"{floor:.2f}", f"{size / floor:.1f}", "1.0x"],
        ["mkdocs-claude-transcripts", f"{ours:.2f}", f"{size / ours:.1f}", f"{ours / floor:.1f}x"],
        [version, f"{ccl:.2f}", f"{size / ccl:.1f}", f"{ccl / floor:.1f}x"],
    ]
    print(f"Conversion of {size:.1f} MB of transcripts ({args.corpus}), best of {args.repeat}, start-up included\n")
    print(table(rows))
    print(f"\nclaude-code-log takes {ccl / ours:.1f} times as long as mkdocs-claude-transcripts (goal: 5 or more)")
    dump("conversion", {"megabytes": size, "floor": floor, "ours": ours, "claude_code_log": ccl, "ccl_version": version})


if __name__ == "__main__":
    main()

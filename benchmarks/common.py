"""Shared helpers of the benchmarks: sites made from a corpus, timed runs, memory."""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("CLAUDE_TRANSCRIPTS_CORPUS", ROOT.parent / "shared" / "corpus"))

# The project is measured as installed: pip compiles a package's bytecode when it
# installs it, an editable install (or PYTHONDONTWRITEBYTECODE) may never have. The
# other tools and libraries measured here were installed by pip.
compileall.compile_dir(ROOT / "mkdocs_claude_transcripts", quiet=1)
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

MKDOCS_YML = """site_name: Benchmark
theme:
  name: material
plugins:
  - search
{plugins}
markdown_extensions:
  - admonition
  - attr_list
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.highlight
  - tables
"""


def parser(doc: str) -> argparse.ArgumentParser:
    """The command line of a benchmark script: its corpus (``--corpus``), and what it adds."""
    made = argparse.ArgumentParser(description=doc.splitlines()[0])
    made.add_argument("--corpus", type=Path, default=CORPUS)
    return made


@dataclass
class Run:
    seconds: float
    peak_mb: float  # largest resident set of the child process
    output: str


def run(command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> Run:
    """Run a command; return its wall time and the peak memory of that process alone.

    The files written or deleted before it (a corpus copied into a site, the folders of
    the run before) are first put on disk: otherwise the file system does that work
    while the command runs, which made the same cold build take from 5.0 to 6.5 s."""
    os.sync()
    wrapper = [sys.executable, "-c", _MEASURE, *command]
    done = subprocess.run(wrapper, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    seconds, peak = map(float, done.stderr.strip().splitlines()[-1].split())
    return Run(seconds, peak, done.stdout + done.stderr)


# Runs the command as a grandchild, so that its peak memory is the only one counted,
# and times it there, from its start to its end (the wrapper's own start-up left out).
_MEASURE = """
import resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.call(sys.argv[1:])
seconds = time.perf_counter() - started
sys.stderr.write("\\n%f %f\\n" % (seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024))
sys.exit(code)
"""


def session_files(folder: Path) -> list[Path]:
    """The session transcripts under ``folder`` (not subagents' files)."""
    return [p for p in folder.rglob("*.jsonl") if "subagents" not in p.parts and not p.name.startswith("agent-") and p.name != "journal.jsonl"]


def transcript_dirs(corpus: Path) -> list[Path]:
    """Folders that hold session files directly (Claude Code's project folders)."""
    return sorted({path.parent for path in session_files(corpus)})


def project_files(folder: Path, projects: list[Path]) -> list[Path]:
    """The files of a project folder (one of ``projects``, see ``transcript_dirs``): its
    sessions and what belongs to them, not the project folders nested in it, which
    are copied on their own. Copied whole, a corpus with sessions at its top, or in a
    folder and its subfolders, would give the other pipeline some files twice."""
    nested = {p for p in projects if p != folder and folder in p.parents}
    found = []
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(f for f in folders if Path(top, f) not in nested)
        found += [Path(top, name) for name in sorted(names)]
    return found


def copy_project(folder: Path, target: Path, projects: list[Path]) -> Path:
    """Copy a project folder's files (``project_files``) into ``target``."""
    for path in project_files(folder, projects):
        out = target / path.relative_to(folder)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, out)
    return target


def corpus_bytes(corpus: Path) -> int:
    return sum(p.stat().st_size for p in corpus.rglob("*.jsonl"))


def copy_corpus(corpus: Path, target: Path, megabytes: float) -> int:
    """Fill ``target`` with copies of the corpus's project folders, each copy with fresh
    session ids, until it holds about ``megabytes`` of transcripts. Returns the bytes."""
    total, round_ = 0, 0
    limit = megabytes * 1024 * 1024
    projects = transcript_dirs(corpus)
    while total < limit:
        for folder in projects:
            if total >= limit:
                break
            destination = target / f"copy{round_}" / folder.relative_to(corpus)
            total += _copy_with_fresh_ids(folder, destination, projects)
        round_ += 1
    return total


def _copy_with_fresh_ids(folder: Path, destination: Path, projects: list[Path]) -> int:
    mapping: dict[str, str] = {}  # the same id by the same fresh one, in names and in files
    copied = 0
    for path in project_files(folder, projects):
        relative = _fresh_ids(str(path.relative_to(folder)), mapping)
        out = destination / relative
        out.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in (".jsonl", ".json"):
            text = _fresh_ids(path.read_text(encoding="utf-8", errors="replace"), mapping)
            out.write_text(text, encoding="utf-8")
            copied += len(text.encode()) if path.suffix == ".jsonl" else 0
        else:
            shutil.copyfile(path, out)
    return copied


def cut_corpus(corpus: Path, target: Path, copies: int = 1, copied_under: int = 100 * 1024) -> int:
    """Fill ``target`` with the corpus's sessions cut at their prompts, each piece a
    session of its own (a site of many short sessions, as a user's own folder of them
    is); pieces under ``copied_under`` bytes are there ``copies`` times, each copy
    with fresh ids. Subagents' files are left out. Returns the number of sessions."""
    count = 0
    for path in session_files(corpus):
        pieces: list[list[str]] = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True):
            if not pieces or (_is_prompt(line) and pieces[-1]):
                pieces.append([])
            pieces[-1].append(line)
        folder = target / path.parent.relative_to(corpus)
        folder.mkdir(parents=True, exist_ok=True)
        for piece in pieces:
            text = "".join(piece)
            for _ in range(copies if len(text.encode()) < copied_under else 1):
                session = str(uuid.uuid4())
                fresh = re.sub(r'"sessionId":\s*"[^"]*"', f'"sessionId": "{session}"', _fresh_ids(text, {}))
                (folder / f"{session}.jsonl").write_text(fresh, encoding="utf-8")
                count += 1
    return count


def _fresh_ids(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each id replaced by a fresh one, the one ``mapping`` gives it when
    it has one (and keeps for it)."""
    return _UUID.sub(lambda match: mapping.setdefault(match.group(), str(uuid.uuid4())), text)


def _is_prompt(line: str) -> bool:
    """Whether a line of a transcript is a prompt the user typed."""
    try:
        entry = json.loads(line)
    except ValueError:
        return False
    if not isinstance(entry, dict) or entry.get("type") != "user" or entry.get("isMeta"):
        return False
    message = entry.get("message")
    return isinstance(message, dict) and isinstance(message.get("content"), str)


def make_site(root: Path, plugins: str = "  - claude-transcripts") -> Path:
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text("# Transcripts\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(plugins=plugins), encoding="utf-8")
    return root


def mkdocs(root: Path) -> Run:
    return run([str(Path(sys.executable).with_name("mkdocs")), "build", "-q", "-f", str(root / "mkdocs.yml")])


def largest_page_kb(site: Path) -> float:
    return max((p.stat().st_size for p in site.rglob("*.html")), default=0) / 1024


def search_index_mb(site: Path) -> float:
    index = site / "search" / "search_index.json"
    return index.stat().st_size / 1024 / 1024 if index.exists() else 0.0


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "-|-".join("-" * w for w in widths))
    return "\n".join(lines)


def dump(name: str, data: dict) -> None:
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


def append_line(docs: Path) -> Path:
    """Append one prompt to the largest session, as Claude Code would while it runs."""
    target = max(session_files(docs), key=lambda p: p.stat().st_size)
    line = {"type": "user", "uuid": str(uuid.uuid4()), "sessionId": target.stem,
            "timestamp": "2030-01-01T00:00:00.000Z", "message": {"role": "user", "content": "One more line."}}  # fmt: skip
    with target.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    return target

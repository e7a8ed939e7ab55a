"""A whole ``mkdocs build`` of a Material site holding a corpus, cold, against the
pipeline a user would otherwise run: claude-code-log's Markdown export of the same
files, then ``mkdocs build`` of its output. Also the size of the search index
against the transcript bytes, and the plugin's rebuild once one line is appended to
the largest transcript, against its cold build, and the floor under every build: a
Material site of one page, with the same mkdocs.yml but no plugin.

    python benchmarks/site_build.py [--corpus PATH] [--repeat N] [--cut [COPIES]]

Both sites use the same mkdocs.yml (Material, search, the same extensions); only
the plugin differs. Builds run as processes of their own; the best of N is kept.
With ``--cut``, the corpus's sessions are first cut at their prompts into sessions
of their own (a site of many short sessions); with COPIES, the pieces under 100 KB
are there that many times, each copy with fresh ids.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import (
    append_line,
    copy_project,
    corpus_bytes,
    cut_corpus,
    dump,
    largest_page_kb,
    make_site,
    mkdocs,
    parser,
    run,
    search_index_mb,
    table,
    transcript_dirs,
)
from conversion import claude_code_log

from mkdocs_claude_transcripts.workers import cores


def ours(corpus: Path, scratch: Path, jobs: int = 0) -> tuple[float, Path]:
    """The plugin's build; ``jobs`` as its option (0: one process per core)."""
    root = make_site(scratch / f"ours-{jobs}", plugins=f"  - claude-transcripts:\n      jobs: {jobs}")
    shutil.copytree(corpus, root / "docs", dirs_exist_ok=True)
    shutil.rmtree(root / ".cache", ignore_errors=True)  # a cold build
    return mkdocs(root).seconds, root / "site"


def rebuilds(root: Path) -> tuple[float, float]:
    """Of a site built once: a rebuild with no change, then one after a line is
    appended to its largest transcript."""
    unchanged = mkdocs(root).seconds
    append_line(root / "docs")
    return unchanged, mkdocs(root).seconds


def one_page(scratch: Path) -> float:
    """A build of a Material site of one page, without the plugin: MkDocs' and
    Material's own start-up and writing, which every build pays."""
    return mkdocs(make_site(scratch / "one-page", plugins="")).seconds


def theirs(corpus: Path, scratch: Path) -> tuple[float, float, Path]:
    """claude-code-log's export (all projects, its default workers), then a site of its pages."""
    projects = scratch / "projects"
    folders = transcript_dirs(corpus)
    for number, folder in enumerate(folders):
        copy_project(folder, projects / f"{number:02d}{folder.name}", folders)
    command = [str(claude_code_log()), "convert", "--all-projects", "--projects-dir", str(projects), "-f", "md"]
    subprocess.run([*command, "--clear-cache"], capture_output=True, check=True)
    export = run([*command, "--combined", "no"]).seconds
    root = make_site(scratch / "theirs", plugins="")
    for path in projects.rglob("*"):
        if path.is_file() and (path.suffix == ".md" or "images" in path.parts):
            target = root / "docs" / path.relative_to(projects)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return export, mkdocs(root).seconds, root / "site"


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--repeat", type=int, default=3)
    arguments.add_argument("--cut", type=int, nargs="?", const=1, default=0, metavar="COPIES")
    args = arguments.parse_args()
    with tempfile.TemporaryDirectory() as cut:
        if args.cut:
            sessions = cut_corpus(args.corpus, Path(cut), copies=args.cut)
            print(f"The corpus cut at its prompts into {sessions} sessions")
            args.corpus = Path(cut)
        compare(args)


def compare(args: argparse.Namespace) -> None:
    size = corpus_bytes(args.corpus) / 1024 / 1024
    best_ours = best_single = best_export = best_build = best_unchanged = best_changed = best_floor = float("inf")
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as scratch:
            seconds, site = ours(args.corpus, Path(scratch))
            best_ours = min(best_ours, seconds)
            unchanged, changed = rebuilds(site.parent)
            best_unchanged, best_changed = min(best_unchanged, unchanged), min(best_changed, changed)
            best_single = min(best_single, ours(args.corpus, Path(scratch), jobs=1)[0])
            our_index, our_page = search_index_mb(site), largest_page_kb(site)
            export, build, their_site = theirs(args.corpus, Path(scratch))
            best_export, best_build = min(best_export, export), min(best_build, build)
            their_index, their_page = search_index_mb(their_site), largest_page_kb(their_site)
            best_floor = min(best_floor, one_page(Path(scratch)))
    pipeline = best_export + best_build
    rows = [
        ["site", "seconds", "largest page KB", "search index MB", "index / transcripts"],
        [f"mkdocs build with mkdocs-claude-transcripts ({cores()} processes)", f"{best_ours:.1f}", f"{our_page:.0f}", f"{our_index:.1f}",
         f"{our_index / size:.0%}"],
        ["the same with `jobs: 1` (one process)", f"{best_single:.1f}", f"{our_page:.0f}", f"{our_index:.1f}", f"{our_index / size:.0%}"],
        [f"claude-code-log -f md ({best_export:.1f} s) + mkdocs build ({best_build:.1f} s)", f"{pipeline:.1f}",
         f"{their_page:.0f}", f"{their_index:.1f}", f"{their_index / size:.0%}"],
    ]  # fmt: skip
    print(f"Cold builds of a Material site holding {size:.1f} MB of transcripts ({args.corpus}), best of {args.repeat}\n")
    print(table(rows))
    print(f"\nThe plugin's build takes {best_ours / pipeline:.0%} of the other pipeline's time (goal: 50% or less); "
          f"{best_single / pipeline:.0%} in one process")
    print(f"Rebuild after one line is appended to the largest transcript: {best_changed:.1f} s, {best_changed / best_ours:.0%} "
          f"of the cold build (goal: under 30%); with no change: {best_unchanged:.1f} s; "
          f"a Material site of one page, without the plugin: {best_floor:.2f} s")
    dump("site_build-cut" if args.cut else "site_build", {"megabytes": size, "cores": cores(), "ours": best_ours, "ours_one_process": best_single, "export": best_export,
                        "rebuild_unchanged": best_unchanged, "rebuild_one_line": best_changed, "their_build": best_build,
                        "our_index_mb": our_index, "their_index_mb": their_index,
                        "our_largest_page_kb": our_page, "their_largest_page_kb": their_page, "one_page_site": best_floor})  # fmt: skip


if __name__ == "__main__":
    main()

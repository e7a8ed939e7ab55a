"""Whole ``mkdocs build`` of Material sites of about 10, 40 and 160 MB of transcripts
(copies of the corpus's sessions, each with fresh ids): time, seconds per MB, peak
memory, largest page, search index; then, on the 40 MB site, a rebuild after one
line is appended to one transcript, against the cold build.

    python benchmarks/scale.py [--corpus PATH] [--sizes 10 40 160] [--keep DIR]

Each build is a process of its own; its peak memory is that of its largest process
(the build, or one of the workers it forks, see the `jobs` option).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from common import append_line, copy_corpus, dump, largest_page_kb, make_site, mkdocs, parser, search_index_mb, session_files, table


def largest_session_mb(docs: Path) -> float:
    return max(p.stat().st_size for p in session_files(docs)) / 1024 / 1024


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--sizes", type=float, nargs="+", default=[10, 40, 160])
    arguments.add_argument("--rebuild-size", type=float, default=40)
    arguments.add_argument("--keep", type=Path, help="build the sites in this folder and keep them")
    args = arguments.parse_args()
    scratch = Path(args.keep or tempfile.mkdtemp(prefix="ct-scale-"))
    rows = [["site", "transcripts MB", "largest session MB", "build s", "s per MB", "peak MB, largest process", "largest page KB", "search index MB"]]
    results = []
    for size in args.sizes:
        root = make_site(scratch / f"site-{size:g}")
        megabytes = copy_corpus(args.corpus, root / "docs", size) / 1024 / 1024
        cold = mkdocs(root)
        site = root / "site"
        result = {
            "target_mb": size, "megabytes": megabytes, "largest_session_mb": largest_session_mb(root / "docs"),
            "seconds": cold.seconds, "peak_mb": cold.peak_mb, "largest_page_kb": largest_page_kb(site),
            "search_index_mb": search_index_mb(site),
        }  # fmt: skip
        if size == args.rebuild_size:
            warm = mkdocs(root)
            append_line(root / "docs")
            changed = mkdocs(root)
            result |= {"rebuild_unchanged_seconds": warm.seconds, "rebuild_one_line_seconds": changed.seconds}
        results.append(result)
        rows.append([
            f"~{size:g} MB", f"{megabytes:.1f}", f"{result['largest_session_mb']:.1f}", f"{cold.seconds:.1f}",
            f"{cold.seconds / megabytes:.2f}", f"{cold.peak_mb:.0f}", f"{result['largest_page_kb']:.0f}",
            f"{result['search_index_mb']:.1f}",
        ])  # fmt: skip
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print(table(rows))
    for result in results:
        if "rebuild_one_line_seconds" in result:
            ratio = result["rebuild_one_line_seconds"] / result["seconds"]
            print(
                f"\nRebuild of the ~{result['target_mb']:g} MB site after one line was appended to its largest session: "
                f"{result['rebuild_one_line_seconds']:.1f} s, {ratio:.0%} of the cold build (goal: under 30%); "
                f"with no change: {result['rebuild_unchanged_seconds']:.1f} s"
            )
    dump("scale", {"results": results})


if __name__ == "__main__":
    main()

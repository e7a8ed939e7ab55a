"""Helpers for the browser tests and the screenshots: the example site, built and
served on localhost, and how Chromium is started."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .conftest import ROOT, build, copy_tree

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def serve(site: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def built_example(root: Path, extra_options: str = "", strict: bool = True) -> Path:
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):  # what a build of the example site may have left there
        shutil.rmtree(root / made, ignore_errors=True)
    if extra_options:
        config = (root / "mkdocs.yml").read_text(encoding="utf-8")
        config = config.replace("  - claude-transcripts:\n", "  - claude-transcripts:\n" + extra_options)
        (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return build(root, strict=strict)

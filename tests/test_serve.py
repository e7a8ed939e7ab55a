"""``mkdocs serve``: one rebuild per change of a transcript, no rebuild loop, and a
session still being written (its last line cut short) is shown as far as it goes."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ROOT, copy_tree, make_site

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"
# MkDocs logs "Documentation built in N seconds" only when N differs from the last
# time (it drops repeated messages); the server says when each build is over.
SERVING, REBUILT = "Serving on", "Reloading browsers"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, root: Path) -> None:
        self.port = free_port()
        self.log = root / "serve.log"
        self._out = self.log.open("w")
        command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(root / "mkdocs.yml"), "-a", f"127.0.0.1:{self.port}"]
        self.process = subprocess.Popen(command, stdout=self._out, stderr=subprocess.STDOUT, cwd=root)

    def builds(self) -> int:
        """Builds done: the first, then each rebuild."""
        log = self.log.read_text()
        return (SERVING in log) + log.count(REBUILT)

    def wait_for_builds(self, count: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while self.builds() < count:
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, f"no build {count}:\n{self.log.read_text()}"
            time.sleep(0.2)

    def settle(self, seconds: float = 4) -> None:
        """Wait long enough for a rebuild loop, if there were one, to show."""
        time.sleep(seconds)

    def page(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=10) as response:
            return response.read().decode("utf-8")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._out.close()


@pytest.fixture
def server(tmp_path: Path):
    root = make_site(tmp_path)
    copy_tree(ROOT / "example_site" / "docs" / "transcripts", root / "docs" / "t")
    running = Server(root)
    yield running, root / "docs" / "t" / f"{S1}.jsonl"
    running.stop()


def prompt(uuid_end: str, text: str) -> str:
    entry = {"type": "user", "uuid": f"99999999-0000-4000-8000-{uuid_end}", "sessionId": S1, "parentUuid": None,
             "timestamp": "2025-11-04T10:30:00.000Z", "message": {"role": "user", "content": text}}  # fmt: skip
    return json.dumps(entry)


def test_serve_rebuilds_once_per_change_and_shows_a_session_being_written(server) -> None:
    running, transcript = server
    running.wait_for_builds(1)
    running.settle()
    assert running.builds() == 1  # building wrote nothing that it watches

    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(prompt("000000000001", "An appended question about wind speed.") + "\n")
    running.wait_for_builds(2)
    running.settle()
    assert running.builds() == 2
    assert "An appended question about wind speed." in running.page(f"t/{S1}/")

    # Claude Code is halfway through writing a line.
    line = prompt("000000000002", "A question still being typed.")
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(line[: len(line) // 2])
    running.wait_for_builds(3)
    running.settle()
    assert running.builds() == 3
    page = running.page(f"t/{S1}/")
    assert "An appended question about wind speed." in page
    assert "A question still being typed." not in page

    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(line[len(line) // 2 :] + "\n")
    running.wait_for_builds(4)
    assert "A question still being typed." in running.page(f"t/{S1}/")
    log = running.log.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log


def test_once_serving_the_content_model_is_loaded_before_a_change_comes(tmp_path: Path) -> None:
    """The first build converts in a process of its own; the next ones run in the
    server's process, which loads the content model as soon as it serves."""
    root = make_site(tmp_path)
    script = (
        "import sys, threading\n"
        "from mkdocs.config import load_config\n"
        "config = load_config(sys.argv[1])\n"
        "plugin = config.plugins['claude-transcripts']\n"
        "before = 'mkdocs_claude_transcripts.pipeline' in sys.modules\n"
        "assert plugin.on_serve('server', config=config, builder=None) == 'server'\n"
        "for thread in threading.enumerate():\n"
        "    if thread.name.startswith('claude-transcripts'):\n"
        "        thread.join(30)\n"
        "print(before, 'mkdocs_claude_transcripts.pipeline' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(root / "mkdocs.yml")], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]

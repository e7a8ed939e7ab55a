"""The README and CI say what the code does."""

from __future__ import annotations

import re

from mkdocs_claude_transcripts.config import TranscriptsConfig

from .conftest import ROOT


def test_readme_documents_every_option() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", readme, re.MULTILINE))
    options = {name for name, _ in TranscriptsConfig._schema}
    assert rows == options


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```sh\n(python3 -m venv .*)\n```", readme)
    assert len(commands) == 2, "the README gives exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()

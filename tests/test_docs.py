"""The README, the documentation site and CI say what the code does."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.config import TranscriptsConfig
from mkdocs_claude_transcripts.reference import markdown_table, options

from .conftest import ROOT, build, copy_tree


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


def test_the_configuration_page_is_the_table_made_from_the_code() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    table = page.split("<!-- config-reference -->\n", 1)[1].split("\n<!-- /config-reference -->", 1)[0]
    assert table == markdown_table(within_docs=True), "run: python -m mkdocs_claude_transcripts config-reference --docs"


def test_the_gallery_shows_golden_cases_unchanged() -> None:
    gallery = sorted((ROOT / "docs" / "gallery").glob("*.jsonl"))
    assert len(gallery) >= 20
    for path in gallery:
        assert path.read_bytes() == (ROOT / "tests" / "golden" / path.name).read_bytes(), path.name


def test_the_documentation_site_builds_strictly(tmp_path: Path) -> None:
    copy_tree(ROOT / "docs", tmp_path / "docs")
    shutil.copyfile(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    site = build(tmp_path)  # strict
    gallery = sorted(p.parent.name for p in (site / "gallery").glob("*/index.html"))
    assert len(gallery) == len(list((ROOT / "docs" / "gallery").glob("*.jsonl")))
    embed = BeautifulSoup((site / "embed" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert embed.select("article .ct-user") and embed.select("article details.ct-tool")
    configuration = (site / "configuration" / "index.html").read_text(encoding="utf-8")
    assert all(f"<code>{option.name}</code>" in configuration for option in options())
    assert (site / "session.schema.json").exists()


def test_the_architecture_names_every_module_and_room() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    package = ROOT / "mkdocs_claude_transcripts"
    modules = {p.name for p in package.glob("*.py") if not p.name.startswith("__")}
    rooms = {f"{p.name}/" for p in package.iterdir() if (p / "__init__.py").is_file()}
    assert not {name for name in modules | rooms if name not in page}, "docs/architecture.md says what each is"

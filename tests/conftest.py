"""Shared test helpers: the golden-file option, the corpus, and real MkDocs builds."""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("CLAUDE_TRANSCRIPTS_CORPUS", ROOT.parent / "shared" / "corpus"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/*.md from the current output")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    return CORPUS


def make_site(root: Path, config: str = "", plugin_options: str = "") -> Path:
    """Write a minimal Material site in ``root`` (whose ``docs/`` the caller fills)."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    if not (root / "docs" / "index.md").exists():
        (root / "docs" / "index.md").write_text("# Home\n")
    plugin = "  - claude-transcripts" + (":\n" + textwrap.indent(plugin_options.strip(), "      ") if plugin_options else "")
    (root / "mkdocs.yml").write_text(f"site_name: Test\ntheme:\n  name: material\nplugins:\n  - search\n{plugin}\n{config}")
    return root


def build(root: Path, strict: bool = True) -> Path:
    """Run a real ``mkdocs build`` of the site in ``root``; return its site folder."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(root / "mkdocs.yml"), strict=strict, site_dir=str(root / "site"))
    mkdocs_build(config)
    return root / "site"


def built_pages(tmp_path: Path, session: str, entries: list[dict]) -> list[Path]:
    """The pages of a site holding one session of ``entries`` (given their ids and
    times here, after their other fields), built with the defaults."""
    for number, entry in enumerate(entries):
        entry.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, timestamp=f"2025-05-05T10:00:0{number}.000Z",
                     parentUuid=f"{number - 1:08x}-0000-4000-8000-000000000000" if number else None)  # fmt: skip
    root = make_site(tmp_path)
    (root / "docs" / "s").mkdir(parents=True)
    (root / "docs" / "s" / f"{session}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries), encoding="utf-8")
    return list((build(root, strict=True) / "s" / session).rglob("index.html"))


def copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, dirs_exist_ok=True, copy_function=shutil.copyfile)


def copy_images_transcript(target: Path) -> None:
    """The golden transcript of pasted images, but its image that is not base64 (which
    warns, and a strict build stops on)."""
    lines = (ROOT / "tests" / "golden" / "images.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    target.write_text("".join(line for line in lines if "not base64!" not in line), encoding="utf-8")

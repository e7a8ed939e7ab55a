"""Every kind of block the pages use is styled."""

from __future__ import annotations

import re

from .conftest import ROOT


def test_every_block_kind_has_a_style() -> None:
    css = (ROOT / "mkdocs_claude_transcripts" / "assets" / "claude-transcripts.css").read_text(encoding="utf-8")
    styled = set(re.findall(r"\.admonition\.(ct-[a-z-]+)", css))
    used = set()
    for golden in (ROOT / "tests" / "golden").glob("*.md"):
        used |= set(re.findall(r"^\s*(?:!!!|\?\?\?\+?) (ct-[a-z-]+)", golden.read_text(encoding="utf-8"), re.MULTILINE))
    assert used, "the golden pages use blocks"
    assert used <= styled, f"not styled: {sorted(used - styled)}"

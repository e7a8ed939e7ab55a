"""Long conversations are shown in parts: pages cut before a prompt, linked to each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.pipeline import SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render.context import RenderOptions

from .conftest import build, make_site

SESSION = "7a7a7a7a-1111-4222-8333-444444444444"


def write_long_session(folder: Path, turns: int = 12) -> Path:
    """A session of ``turns`` prompts, each answered with a Task call, the last of
    which starts a subagent (in its own file)."""
    lines, parent = [], None
    for turn in range(turns):
        for kind, extra in (
            ("user", {"message": {"role": "user", "content": f"Prompt {turn}: " + "please look at this. " * 30}}),
            ("assistant", {"message": {"id": f"msg_{turn}", "role": "assistant", "model": "m", "content": [
                {"type": "text", "text": f"Answer {turn}: " + "here is what I found. " * 40},
                {"type": "tool_use", "id": f"toolu_{turn}", "name": "Task", "input": {"description": f"Task {turn}", "prompt": "go"}}]}}),
            ("user", {"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{turn}", "content": f"done {turn}\\nagentId: a{turn:03d}"}]}}),
        ):  # fmt: skip
            uuid = f"{len(lines):08x}-0000-4000-8000-000000000000"
            lines.append({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
                          "timestamp": f"2025-05-05T10:{len(lines) // 60:02d}:{len(lines) % 60:02d}.000Z", **extra})  # fmt: skip
            parent = uuid
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    agent = folder / SESSION / "subagents" / f"agent-a{turns - 1:03d}.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_text(json.dumps({"type": "user", "isSidechain": True, "agentId": f"a{turns - 1:03d}", "sessionId": SESSION,
                                 "uuid": "ffffffff-0000-4000-8000-000000000000", "message": {"role": "user", "content": "go"}}) + "\n")  # fmt: skip
    return path


def convert(folder: Path, page_size: int):
    files = [SourceFile(p.relative_to(folder).as_posix(), str(p)) for p in folder.rglob("*") if p.is_file()]
    return convert_session(discover(files).sessions[0], RenderOptions(page_size=page_size))


def test_a_long_session_is_cut_into_parts_before_prompts(tmp_path: Path) -> None:
    converted = convert(write_long_session(tmp_path).parent, page_size=6000)
    parts = [page for page in converted.pages if page.agent_id is None]
    assert len(parts) > 2
    assert [page.part for page in parts] == list(range(1, len(parts) + 1))
    for page in parts[1:]:
        first_block = re.search(r"^(!!!|\?\?\?) (ct-[a-z-]+)", page.markdown, re.MULTILINE)
        assert first_block.group(2) == "ct-user"  # each part starts with a prompt
    bodies = [page.markdown.split("\n---\n", 1)[1] for page in parts]
    assert all(len(body) < 6000 * 2 for body in bodies)
    anchors = [a for body in bodies for a in re.findall(r"id='(m-[0-9a-f]+)'", body)]
    assert len(anchors) == len(set(anchors)) == 12 * 2  # each prompt and answer once, in some part


def test_nothing_is_cut_when_the_session_is_short_or_splitting_is_off(tmp_path: Path) -> None:
    folder = write_long_session(tmp_path).parent
    assert len([p for p in convert(folder, page_size=10_000_000).pages if p.agent_id is None]) == 1
    assert len([p for p in convert(folder, page_size=0).pages if p.agent_id is None]) == 1


def test_parts_link_to_each_other_and_the_subagent_back_to_its_part(tmp_path: Path) -> None:
    root = make_site(tmp_path, plugin_options="page_size: 6000")
    write_long_session(root / "docs" / "s")
    site = build(root, strict=True)
    folder = site / "s" / SESSION
    parts = [folder / "index.html", *sorted(folder.glob("part-*/index.html"), key=lambda p: int(p.parent.name[5:]))]
    assert len(parts) > 2
    first = BeautifulSoup(parts[0].read_text(encoding="utf-8"), "html.parser")
    listed = [a["href"] for a in first.select("article a[href]") if a["href"].startswith("part-")]
    assert listed[: len(parts) - 1] == [f"part-{n}/" for n in range(2, len(parts) + 1)]  # the list of parts
    assert listed[-1] == "part-2/"  # and the next part, at the bottom
    second = BeautifulSoup(parts[1].read_text(encoding="utf-8"), "html.parser")
    hrefs = [a["href"] for a in second.select("article a[href]")]
    assert "../" in hrefs and "../part-3/" in hrefs  # previous and next
    # the agent's page links back to the part that holds the call that started it
    agent = BeautifulSoup((folder / "agent-a011" / "index.html").read_text(encoding="utf-8"), "html.parser")
    back = next(a["href"] for a in agent.select("article a[href]") if "#t-" in a["href"])
    page, anchor = back.split("#")
    target = (folder / "agent-a011" / page / "index.html").resolve()
    assert target == parts[-1].resolve()
    assert BeautifulSoup(target.read_text(encoding="utf-8"), "html.parser").find(id=anchor)
    # parts are not in the nav; the session and its subagent are
    nav = " ".join(BeautifulSoup((site / "index.html").read_text(encoding="utf-8"), "html.parser").select_one("nav.md-nav--primary").get_text(" ").split())
    assert "part 2" not in nav and "Task 11" in nav

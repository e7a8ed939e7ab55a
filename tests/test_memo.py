"""A session converted again with the memo of its last conversion gives what a
conversion without it gives (memo.py)."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

from mkdocs_claude_transcripts.memo import Memo
from mkdocs_claude_transcripts.pipeline import Converted, Redactor, SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render import page as page_module
from mkdocs_claude_transcripts.render.context import RenderOptions

from .test_parts import SESSION, write_big_messages, write_long_session

OPTIONS = RenderOptions(page_size=10000)  # long sessions in parts, long messages in pieces


def converted(folder: Path, memo: Memo | None = None) -> Converted:
    files = [SourceFile(p.relative_to(folder).as_posix(), str(p)) for p in folder.rglob("*") if p.is_file()]
    return convert_session(discover(files).sessions[0], OPTIONS, Redactor(), memo)


def what_it_shows(result: Converted) -> tuple:
    pages = [(page.src_uri, page.title, page.markdown) for page in result.pages]
    return pages, [(asset.src_uri, asset.content) for asset in result.assets], result.row, dict(result.redactions)


def again(memo: Memo) -> Memo:
    """The memo as the next build reads it."""
    return Memo.from_json(memo.to_json())


def test_what_a_message_depends_on_besides_itself_is_in_its_key(tmp_path: Path) -> None:
    """The subagent a Task call started gets a name, which its title shows: the
    call's block shows the new title, though the call itself is the same; then the
    subagent leaves the site, and the block no longer links to its page."""
    folder = tmp_path / "s"
    write_long_session(folder)
    memo = Memo()
    before = converted(folder, memo)
    agent = folder / SESSION / "subagents" / "agent-a011.jsonl"
    with agent.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"type": "agent-name", "agentName": "Scout", "sessionId": SESSION}) + "\n")
    after = converted(folder, again(memo))
    assert what_it_shows(after) == what_it_shows(converted(folder))
    session_pages = lambda result: "".join(page.markdown for page in result.pages if page.agent_id is None)
    assert "Scout" not in session_pages(before) and "Scout" in session_pages(after)
    shutil.rmtree(folder / SESSION)
    gone = converted(folder, again(memo))
    assert what_it_shows(gone) == what_it_shows(converted(folder))
    assert "agent-a011.md" in session_pages(before) and "agent-a011.md" not in session_pages(gone)


def test_secrets_and_images_are_found_again(tmp_path: Path) -> None:
    """A message showing an image writes it again (images are files of the site); a
    text with a secret is redacted again, and counted."""
    folder = tmp_path / "s"
    path = write_long_session(folder)
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 64).decode()
    secret = "token ghp_" + "Q1w2E3r4T5" * 4 + " in a long text. " + "filler " * 100
    lines = path.read_text(encoding="utf-8").splitlines()
    parent = json.loads(lines[-1])["uuid"]
    for number, content in enumerate(([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}}], secret)):
        uuid = f"dddddddd-000{number}-4000-8000-000000000000"
        lines.append(json.dumps({"type": "user", "uuid": uuid, "parentUuid": parent, "sessionId": SESSION,
                                 "timestamp": "2025-05-05T11:00:00.000Z", "message": {"role": "user", "content": content}}))  # fmt: skip
        parent = uuid
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    memo = Memo()
    first = converted(folder, memo)
    assert first.assets and first.redactions["github-token"] == 1
    assert what_it_shows(converted(folder, again(memo))) == what_it_shows(first)


def test_a_memo_keeps_what_the_conversion_used(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    write_long_session(folder)
    memo = Memo()
    converted(folder, memo)
    stale = Memo(sorted(memo.clean) + ["0" * 32], {**memo.blocks, "f" * 32: ["stale"]})
    converted(folder, stale)
    assert stale.blocks == memo.blocks and stale.clean == memo.clean


def test_long_messages_are_cut_where_they_were_before(tmp_path: Path, monkeypatch) -> None:
    """Where a long message was cut into pieces comes from the memo: the pages are
    those cutting it anew gives."""
    folder = tmp_path / "s"
    write_big_messages(folder, lines=1500)
    memo = Memo()
    first = converted(folder, memo)
    assert len(first.pages) > 3 and memo.cuts
    weighed: list[int] = []
    cut = page_module.cut
    monkeypatch.setattr(page_module, "cut", lambda lines, limit: weighed.append(len(lines)) or cut(lines, limit))
    assert what_it_shows(converted(folder, again(memo))) == what_it_shows(first)
    assert max(weighed, default=0) < 100  # long messages were not weighed again
    assert what_it_shows(first) == what_it_shows(converted(folder))  # nor are they cut elsewhere than without a memo

"""A session titled by its first prompt shows the prompt's words: the Markdown that
starts or wraps them left out, what only looks like a tag kept, cut at a word and never
inside a character."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mkdocs_claude_transcripts.build.text import shorten

from .conftest import built_pages


@pytest.mark.parametrize(
    ("prompt", "title"),
    [
        ("# Fix the login bug\n\nDetails", "Fix the login bug"),
        ("* first item\n* second", "first item"),
        ("> quoted text from an email\nplease answer", "quoted text from an email"),
        ("1. Do this first\n2. then that", "Do this first"),
        ("- [ ] write the tests", "write the tests"),
        ("| col a | col b |\n|---|---|\n| 1 | 2 |", "col a · col b"),
        ("```python\nprint('hi')\n```\nwhy does this fail?", "why does this fail?"),
        ("```python\nprint('hi')\n```", "print('hi')"),  # nothing but code
        ("---\n\nafter a rule", "after a rule"),
        ("**Please** refactor `parse_args` in [cli.py](src/cli.py)", "Please refactor parse_args in cli.py"),
        ("what does \\*this\\* mean, 2*3*4?", "what does *this* mean, 2*3*4?"),
        ("rename snake_case_name in __init__.py", "rename snake_case_name in __init__.py"),
        # Words that look like tags stay; tags around words go.
        ("Why does Vec<String> not implement Copy when a < b and c > d?", "Why does Vec<String> not implement Copy when a < b and c > d?"),
        ('<div class="x">Hello <b>bold</b></div> <!-- note -->', "Hello bold"),
        ("#hashtag -5 degrees", "#hashtag -5 degrees"),
    ],
)
def test_a_title_shows_the_words_of_the_prompt(prompt: str, title: str) -> None:
    assert shorten(prompt) == title


def test_a_long_title_is_cut_at_a_word() -> None:
    title = shorten("celebrate the family emoji release now with many many words to make this long enough to be cut here")
    assert title == "celebrate the family emoji release now with many many words to make this long…"
    assert shorten("a" * 200) == "a" * 79 + "…"  # no word to cut at


@pytest.mark.parametrize(
    "cluster",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",  # a family, joined by zero-width joiners
        "e\u0301",  # a letter and its accent
        "\U0001f44d\U0001f3fd",  # a skin tone
        "\u2764\ufe0f",  # a variation selector
    ],
)
def test_a_title_is_not_cut_inside_a_character(cluster: str) -> None:
    for start in range(70, 81):
        title = shorten("x" * start + cluster * 20)
        assert title.endswith("…")
        body = title[:-1].replace(cluster, "")
        assert set(body) <= {"x"}, (start, title)


def test_a_title_of_wide_characters_is_cut_to_the_same_width() -> None:
    title = shorten("请帮我修复登录页面的错误，用户在输入密码后无法跳转到主页，这个问题已经存在很久了，需要尽快解决，谢谢你的帮助")
    assert title.endswith("…") and len(title) <= 40


def test_a_session_of_commands_run_in_bash_mode_is_titled_by_the_first(tmp_path: Path) -> None:
    entries = [
        {"type": "user", "message": {"role": "user", "content": "<bash-input>ls -la</bash-input>"}},
        {"type": "user", "message": {"role": "user", "content": "<bash-stdout>total 0</bash-stdout><bash-stderr></bash-stderr>"}},
    ]
    (page,) = built_pages(tmp_path, "0ba5e000-0000-4000-8000-000000000001", entries)
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    assert soup.h1.get_text() == "! ls -la"


def test_an_agent_claude_code_runs_on_its_own_is_titled_by_what_it_does(tmp_path: Path) -> None:
    """A compaction's or a prompt suggestion's agent file has no meta.json and no call
    that started it: it was titled "Agent", like any agent of unknown type."""
    import json

    from .conftest import build, make_site

    session = "5e55e000-0000-4000-8000-000000000001"
    root = make_site(tmp_path)
    folder = root / "docs" / "p"
    (folder / session / "subagents").mkdir(parents=True)

    def line(number: int, kind: str, text: str, agent: str | None = None) -> str:
        entry = {"type": kind, "uuid": f"{number:08x}-0000-4000-8000-000000000000", "sessionId": session,
                 "timestamp": f"2025-05-05T10:00:0{number}.000Z", "parentUuid": None,
                 "message": {"role": kind, "content": text if kind == "user" else [{"type": "text", "text": text}]}}  # fmt: skip
        if agent is not None:
            entry.update(isSidechain=True, agentId=agent)
        return json.dumps(entry) + "\n"

    (folder / f"{session}.jsonl").write_text(line(0, "user", "Tidy the parser") + line(1, "assistant", "Done."))
    for agent in ("acompact-3f2a1b", "aprompt_suggestion-0e2fb6", "a519f9e"):
        (folder / session / "subagents" / f"agent-{agent}.jsonl").write_text(line(2, "user", f"Work of {agent}", agent) + line(3, "assistant", "Said.", agent))
    (root / "docs" / "q").mkdir()  # an agent file whose session is not in the site
    (root / "docs" / "q" / "agent-acompact-77aa11.jsonl").write_text(line(4, "user", "Summarise", "acompact-77aa11").replace(session, "0ff0e000-0000-4000-8000-000000000002"))
    site = build(root)
    (alone,) = (site / "q").rglob("index.html")
    assert BeautifulSoup(alone.read_text(encoding="utf-8"), "html.parser").h1.get_text() == "Compaction · Summarise"
    titles = {page.parent.name: BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser").h1.get_text() for page in (site / "p" / session).rglob("index.html")}
    assert titles["agent-acompact-3f2a1b"].startswith("Compaction ")
    assert titles["agent-aprompt_suggestion-0e2fb6"].startswith("Prompt suggestion ")
    assert titles["agent-a519f9e"].startswith("Agent ")  # an agent a call started, whose type is not known
    nav = BeautifulSoup((site / "p" / session / "index.html").read_text(encoding="utf-8"), "html.parser").select(".md-nav__link")
    assert any(link.get_text(" ", strip=True).startswith("Compaction") for link in nav)


def test_a_right_to_left_override_a_title_leaves_open_is_left_out(tmp_path: Path) -> None:
    """U+202E turns the text after it right to left: left open in a title, it turned
    the site's name after it in ``<title>`` (``Test`` read ``tseT``). Those a title
    leaves open are left out; one it ends is kept."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": "hello"}},
        {"type": "custom-title", "customTitle": "\u2067gnp.\u202eexe \u202ekept\u202c"},
    ]
    (page,) = built_pages(tmp_path, "0ba5e000-0000-4000-8000-000000000002", entries)
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    assert soup.title.get_text().endswith(" · gnp.exe \u202ekept\u202c - Test")


def test_a_change_of_direction_a_blocks_title_leaves_open_is_left_out(tmp_path: Path) -> None:
    """A right-to-left override in a file's name turned what follows it in a block's
    title, the plugin's own words: a Read's "/p/\u202eexe.txt (lines 10–14)" showed
    "/p/(41–01 senil) txt.exe". As in a page's title, the ones the name leaves open
    are left out, and one it ends is kept."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Read them"}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/p/\u202eexe.txt", "offset": 10, "limit": 5}},
            {"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/p/\u2067a\u202eb\u202cc.txt"}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x"},
                                                                  {"type": "tool_result", "tool_use_id": "t2", "content": "y"}]}},
    ]  # fmt: skip
    (page,) = built_pages(tmp_path, "0ba5e000-0000-4000-8000-000000000004", entries)
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    titles = [summary.get_text().strip() for summary in soup.select("article details.ct-tool > summary")]
    assert titles == ["Read · /p/exe.txt (lines 10–14)", "Read · /p/a\u202eb\u202cc.txt"]


def test_a_long_name_a_transcript_gives_is_cut_where_the_nav_holds_it(tmp_path: Path) -> None:
    """MkDocs' nav holds every page's title on every page of the site: a custom title
    of 400 KB (or a subagent's description of as much) made the home page, and every
    other, 400 KB larger. Such a name is cut at a word to 200 columns, redacted before
    it is cut (a token across the cut is not left as a piece its pattern misses)."""
    token = "ghp_" + "Q1w2E3r4T5" * 4
    custom = "a" * 170 + "-" + token + " word" * 80_000  # cut as it is, 25 of its characters
    entries = [
        {"type": "user", "message": {"role": "user", "content": "Start"}},
        {"type": "assistant", "message": {"id": "m", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Task", "input": {"description": "task " * 80_000, "prompt": "Go", "subagent_type": "x" * 300}}]}},
        {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Done"}]}},
        {"type": "user", "isSidechain": True, "message": {"role": "user", "content": "Go"}},
        {"type": "custom-title", "customTitle": custom},
    ]  # fmt: skip
    pages = built_pages(tmp_path, "0ba5e000-0000-4000-8000-000000000005", entries)
    home = tmp_path / "site" / "index.html"
    for page in [home, *pages]:
        assert page.stat().st_size < 100_000, page
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert "ghp_" not in str(soup), page
        for link in soup.select(".md-nav__link"):
            assert len(link.get_text(" ", strip=True)) < 420, link.get_text()[:100]  # (a subagent: its type · its description)
    soup = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser")
    title = soup.h1.get_text()
    assert title.startswith("a" * 170 + "-[REDACTED:github-token]") and title.endswith(" word…") and len(title) <= 200


@pytest.mark.parametrize("custom", ["Rewrite in C--", "---", "· note ·"])
def test_a_title_keeps_the_marks_it_ends_with(tmp_path: Path, custom: str) -> None:
    """The date and its ``·`` are left out where there is no date; a title's own last
    characters were left out with them (``---`` gave a page titled by its date alone)."""
    entries = [
        {"type": "user", "message": {"role": "user", "content": "hello"}},
        {"type": "custom-title", "customTitle": custom},
    ]
    (page,) = built_pages(tmp_path, "0ba5e000-0000-4000-8000-000000000003", entries)
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    assert soup.title.get_text() == f"2025-05-05 · {custom} - Test"

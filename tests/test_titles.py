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

"""Independent checks of what a built site shows, read from its HTML."""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import Path

from bs4 import BeautifulSoup

# ASCII words whole; every other letter or digit (CJK has no spaces) on its own.
_TOKEN = re.compile(r"[A-Za-z0-9]+|[^\W\x00-\x7f_]")
# Markdown that leaves no words in the HTML: fence lines (their language), list
# numbers, and the targets of links to the web.
_FENCE_LINE = re.compile(r"(?m)^[ \t>]*(`{3,}|~{3,}).*$")
_LIST_NUMBER = re.compile(r"(?m)^([ \t>]*(?:[-*+][ \t]+)?)\d{1,9}[.)][ \t]+")
_WEB_TARGET = re.compile(r"\]\(\s*(?:https?://|mailto:)[^)\s]*(?:\s+\"[^\"]*\")?\s*\)")
# Tags Claude Code puts around parts of a user message; the page shows what they hold.
_TAG_MARK = re.compile(r"</?[a-z][a-z0-9_-]*(?:\s[^<>]*)?>")
# Terminal colour codes are removed for display.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def tagged(text: str) -> bool:
    """Whether the text holds Claude Code's tags: its parts are then shown as fields,
    not in the order they were written."""
    return bool(_TAG_MARK.search(text))


def source_words(markdown_text: str) -> list[str]:
    """The words a reader should find on the page for this transcript text."""
    text = _TAG_MARK.sub(" ", _ANSI.sub("", markdown_text))
    text = _FENCE_LINE.sub(" ", text)
    text = _LIST_NUMBER.sub(r"\1", text)
    text = _WEB_TARGET.sub("] ", text)
    return words(text)


class PageText:
    """The words of a built HTML page's main content, with a fast subsequence test."""

    _cache: dict[Path, PageText] = {}

    def __new__(cls, html_path: Path) -> PageText:
        # Pages are read by several tests; parse each once.
        if html_path not in cls._cache:
            cls._cache[html_path] = super().__new__(cls)
        return cls._cache[html_path]

    def __init__(self, html_path: Path) -> None:
        if getattr(self, "words", None) is not None:
            return
        soup = BeautifulSoup(html_path.read_text(encoding="utf-8"), "html.parser")
        article = soup.find("article") or soup
        for pre in article.find_all("pre"):
            # Highlighting splits code into spans, sometimes inside a word.
            pre.replace_with(" " + pre.get_text("") + " ")
        self._index(words(article.get_text(" ")))

    def _index(self, words_: list[str]) -> None:
        self.words = words_
        self.positions: dict[str, list[int]] = {}
        for index, word in enumerate(self.words):
            self.positions.setdefault(word, []).append(index)

    @classmethod
    def joined(cls, pages: list[PageText]) -> PageText:
        """The words of several pages one after another: the parts of a conversation,
        over which a message cut in pieces goes on."""
        whole = object.__new__(cls)
        whole._index([word for page in pages for word in page.words])
        return whole

    def has_all(self, words_: list[str]) -> bool:
        """True when every word occurs on the page, in any order."""
        return all(word in self.positions for word in words_)

    def contains(self, sequence: list[str]) -> bool:
        """True when ``sequence`` occurs in order (not necessarily contiguously)."""
        if not sequence:
            return True
        # Start from each occurrence of the first word until one fits.
        for start in self.positions.get(sequence[0], []):
            position = start
            for word in sequence[1:]:
                found = self.positions.get(word)
                if not found:
                    return False
                at = bisect_right(found, position)
                if at == len(found):
                    break
                position = found[at]
            else:
                return True
        return False

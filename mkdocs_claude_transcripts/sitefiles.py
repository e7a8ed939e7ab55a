"""The site's files, where a transcript's path stands for its page.

A link in a page of the site to a transcript (``sessions/abc.jsonl``, or a
subagent's file) is resolved by MkDocs as any link is: it looks the path up among
the site's files, checks the anchor against that page, and writes the page's URL.
The transcripts themselves are not among the files (their pages are), so these
files answer for a transcript's path with its page's file. A transcript published
as it is (``copy_jsonl``) is found as itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import PurePath

from mkdocs.structure.files import File, Files


class SiteFiles(Files):
    def __init__(self, files: Iterable[File], pages: Mapping[str, str]) -> None:
        super().__init__(files)
        self.pages = dict(pages)  # a transcript's src_uri -> its page's src_uri

    def get_file_from_path(self, path: str) -> File | None:
        found = super().get_file_from_path(path)
        if found is None:
            page = self.pages.get(PurePath(path).as_posix())
            if page is not None:
                found = super().get_file_from_path(page)
        return found

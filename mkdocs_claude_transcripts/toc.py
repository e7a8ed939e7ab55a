"""A page's table of contents as JSON, to keep it in the cache with the page's HTML."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.toc import AnchorLink, TableOfContents


def toc_to_json(toc: TableOfContents | None) -> list[dict[str, Any]]:
    def item(link: AnchorLink) -> dict[str, Any]:
        return {"title": link.title, "id": link.id, "level": link.level, "children": [item(c) for c in link.children]}

    return [item(link) for link in toc or []]


def toc_from_json(items: list[dict[str, Any]]) -> TableOfContents:
    def link(data: dict[str, Any]) -> AnchorLink:
        anchor = AnchorLink(data["title"], data["id"], data["level"])
        anchor.children = [link(c) for c in data["children"]]
        return anchor

    return TableOfContents([link(data) for data in items])

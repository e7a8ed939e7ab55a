"""A page's table of contents as JSON, to keep it in the cache with the page's HTML."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.toc import AnchorLink, TableOfContents


def toc_to_json(toc: TableOfContents | None) -> list[dict[str, Any]]:
    return [_item(link) for link in toc or []]


def toc_from_json(items: list[dict[str, Any]]) -> TableOfContents:
    return TableOfContents([_link(data) for data in items])


# Functions of their own, not closures: a closure that calls itself is a cycle, left
# for the garbage collector at every call.


def _item(link: AnchorLink) -> dict[str, Any]:
    return {"title": link.title, "id": link.id, "level": link.level, "children": [_item(c) for c in link.children]}


def _link(data: dict[str, Any]) -> AnchorLink:
    anchor = AnchorLink(data["title"], data["id"], data["level"])
    anchor.children = [_link(c) for c in data["children"]]
    return anchor

"""The text of what is not a message's own words, as a conversation shows it: a
value of free form, the sources a text cites, the result of a tool the API ran itself,
the tasks and skills Claude Code gives the model again."""

from __future__ import annotations

import json
import re
from typing import Any

from .. import model as m


def as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n\n".join(value)
    return json.dumps(value, ensure_ascii=False, indent=2)


def first_text(data: dict[str, Any], *keys: str) -> str:
    """The first non-empty string of ``data`` under one of ``keys``, or ""."""
    return next((value for key in keys if isinstance(value := data.get(key), str) and value), "")


def server_result_text(content: Any) -> tuple[str, bool]:
    """What a server tool's result says: the pages a web search found (title, address,
    age), an error's code, or any other content as JSON; and whether it is an error."""
    if isinstance(content, dict) and str(content.get("type", "")).endswith("_error"):
        return f"Error: {content.get('error_code') or as_text(content)}", True
    if isinstance(content, list) and content and all(isinstance(i, dict) and isinstance(i.get("url"), str) for i in content):
        lines = []
        for item in content:
            title = item.get("title") if isinstance(item.get("title"), str) else ""
            age = f" ({item['page_age']})" if isinstance(item.get("page_age"), str) else ""
            lines.append(f"{title}\n  {item['url']}{age}" if title else f"{item['url']}{age}")
        return "\n".join(lines), False
    if isinstance(content, str):
        return content, False
    return ("" if content is None else json.dumps(content, indent=2, ensure_ascii=False)), False


def sources_list(sources: list[str]) -> str:
    return "\n\nSources:\n\n" + "\n".join(sources) if sources else ""


def citations(citations: Any) -> list[str]:
    """The sources a text cites (``citations`` on a text block: a web page, or a part
    of a document given with the prompt), as items of a list: title, address, the
    words cited."""
    if not isinstance(citations, list) or not citations:
        return []
    items = []
    for cited in citations:
        if not isinstance(cited, dict):
            items.append(f"- {as_text(cited)}")
            continue
        title = next((cited[k] for k in ("title", "document_title") if isinstance(cited.get(k), str) and cited[k]), "")
        url = cited.get("url") if isinstance(cited.get("url"), str) else ""
        if url.startswith(("http://", "https://")) and not any(c in url for c in " ()<>"):
            label = re.sub(r"([\\\[\]])", r"\\\1", title or url)
            where = f"[{label}]({url})"
        else:
            where = " ".join(p for p in (title, url) if p)
        words = cited.get("cited_text") if isinstance(cited.get("cited_text"), str) else ""
        items.append("- " + ": ".join(p for p in (where, f"\u201c{words}\u201d" if words else "") if p))
    return items


def checklist(items: Any) -> str:
    """The list of tasks a reminder gives the model (``todo_reminder``: TodoWrite's
    todos; ``task_reminder``: the task list's tasks), as a checklist; "" for other content."""
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) and isinstance(i.get("status", ""), str) for i in items):
        return ""
    lines = []
    for item in items:
        text = first_text(item, "content", "subject", "description")
        if not text:
            return ""
        status = item.get("status") or "pending"
        lines.append(f"- {m.TASK_MARKS.get(status, '☐')} {text}" + ("" if status in m.TASK_MARKS else f" ({status})"))
    return "\n".join(lines)


def skills_text(skills: Any) -> str:
    """The skills an ``invoked_skills`` attachment gives the model again after a
    compaction: each one's name and path, then its text."""
    if not isinstance(skills, list):
        return ""
    parts = []
    for skill in skills:
        if not isinstance(skill, dict):
            parts.append(as_text(skill))
            continue
        name = " · ".join(str(skill[k]) for k in ("name", "path") if isinstance(skill.get(k), str) and skill[k])
        parts.extend(p for p in (f"Skill: {name}" if name else "", as_text(skill.get("content"))) if p.strip())
    return "\n\n".join(parts)

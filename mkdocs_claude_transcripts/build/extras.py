"""The text of what is not a message's own words, as a conversation shows it: a
value of free form, the sources a text cites, the result of a tool the API ran itself,
the tasks and skills Claude Code gives the model again."""

from __future__ import annotations

import json
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


def citations(cited: Any) -> list[m.Source]:
    """The sources a text cites (``citations`` on a text block: a web page, or a part
    of a document given with the prompt): title, address, the words cited."""
    if not isinstance(cited, list):
        return []
    found = []
    for item in cited:
        if not isinstance(item, dict):
            found.append(m.Source(title=as_text(item)))
            continue
        title = first_text(item, "title", "document_title")
        url = item.get("url") if isinstance(item.get("url"), str) else ""
        words = item.get("cited_text") if isinstance(item.get("cited_text"), str) else ""
        found.append(m.Source(title=title, url=url, cited_text=words))
    return found


def tasks_of(items: Any) -> list[m.Todo]:
    """The tasks a reminder of the todo or task list gives the model (``todo_reminder``:
    TodoWrite's todos; ``task_reminder``: the task list's tasks); none for other content."""
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("status", ""), str) for i in items):
        return []
    tasks = [m.Todo(content=first_text(item, "content", "subject", "description"), status=item.get("status") or "pending",
                    active_form=first_text(item, "activeForm")) for item in items]  # fmt: skip
    return tasks if all(task.content for task in tasks) else []


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

"""An independent count of a session file, straight from its JSON lines: tool calls
and errors per tool name, and tokens once per ``message.id``. It shares no code with
the plugin, so that the plugin's statistics can be checked against it."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def count(path: Path) -> dict[str, Any]:
    names: dict[str, str] = {}  # tool-use id -> tool name
    failed: set[str] = set()
    usage: dict[str, dict[str, int]] = {}  # message id -> its last usage
    for line in path.read_bytes().splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("isSidechain") is True:
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if entry.get("type") == "assistant":
            for block in blocks:
                if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                    names.setdefault(block["id"], str(block.get("name")))
            if isinstance(message.get("id"), str) and isinstance(message.get("usage"), dict):
                usage[message["id"]] = message["usage"]
        elif entry.get("type") == "user":
            for block in blocks:
                if block.get("type") == "tool_result" and block.get("is_error") is True:
                    failed.add(str(block.get("tool_use_id")))
    tools: dict[str, dict[str, int]] = defaultdict(lambda: {"calls": 0, "errors": 0})
    for tool_id, name in names.items():
        tools[name]["calls"] += 1
        tools[name]["errors"] += tool_id in failed
    fields = {"input": "input_tokens", "output": "output_tokens", "cache_creation": "cache_creation_input_tokens",
              "cache_read": "cache_read_input_tokens"}  # fmt: skip
    tokens = {ours: sum(int(u.get(theirs) or 0) for u in usage.values()) for ours, theirs in fields.items()}
    tokens["thinking"] = sum(int((u.get("output_tokens_details") or {}).get("thinking_tokens") or 0) for u in usage.values())
    return {"tools": dict(tools), "tokens": tokens}

"""A session written to attack the site: markup, directives and secrets in every
place a transcript's text can reach (prompts, answers, thinking, tool inputs and
outputs, system notes, titles, agent names and ids, file names, links)."""

from __future__ import annotations

import json
from pathlib import Path

SESSION = "0badc0de-1111-4222-8333-444455556666"
AGENT = 'x"><img src=x onerror=alert(1)>'  # an agent id no page name should carry

ATTACKS = [
    '<script data-planted="1">alert(1)</script>',
    '<img src=x onerror="alert(2)" data-planted="1">',
    '<iframe src="javascript:alert(3)" data-planted="1"></iframe>',
    '<svg onload="alert(4)" data-planted="1"><circle r="1"/></svg>',
    '<style data-planted="1">body{display:none}</style>',
    '<details open data-planted="1"><summary>x</summary>y</details>',
    '<!-- a comment --> <a href="javascript:alert(5)" data-planted="1">click</a>',
    "</div></details></div></article></body>",
    '!!! danger "Injected admonition"\n\n    inside it',
    '??? note "Injected details"\n\n    inside it',
    "/// details | Injected block\n    type: warning\n\nbody\n///",
    "# A heading\n\n## Another heading\n\nSetext\n======",
    "---\ntitle: injected front matter\n---",
    "```\nbackticks\n```\n~~~~\ntildes\n~~~~\n````` unclosed",
    '--8<-- "secret.txt"\n;--8<-- "other.txt"',
    '{{ config.site_name }} {% include "x.html" %} {# comment #}',
    "[ref]: javascript:alert(6)\n\n[click me][ref] [^1]\n\n[^1]: a footnote",
    "| a | b |\n|---|---|\n| <b data-planted=\"1\">1</b> | 2 |",
    "x" * 6000,
    '{: onclick="alert(7)" data-planted="1" }',
    '*[HTML]: Hyper <b data-planted="1">text</b>',
    "[link](javascript:alert(8)) ![img](https://evil.example/track.png) [rel](../../missing/page.md) <https://ok.example/>",
    "\x02wzxhzdk:0\x03 and \x02klzzwxh:1\x03",
    "&lt;script&gt; &amp; &#60;b&#62; &#x3C;i&#x3E;",
    '<a href="x" onmouseover="alert(9)" data-planted="1">hover</a>',
    "[TOC]",
    "=== \"Tab\"\n\n    tab content",
    "<!-- claude-transcripts:section -->\n<!-- claude-transcripts:page -->",  # the plugin's own lines
]
ATTACK = "\n\n".join(ATTACKS)

SECRETS = {
    "anthropic-key": "sk-ant-api03-" + "Ab3" * 30,
    "openai-key": "sk-proj-" + "Zy9" * 16,
    "github-token": "ghp_" + "Q1w2E3r4T5" * 4,
    "aws-access-key": "AKIAZ7QJ3XKQW5TUVNLR",
    "slack-token": "xoxb-2048123456-9876543210-aBcDeFgHiJkLmNoP",
    "google-api-key": "AIza" + "SyD8kJ7mN3pQ5rT1vW9xZ2bC4fG6hK8lM0n",
    "stripe-key": "sk_live_" + "51HdT7kP9qR2s",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZHZlcnNhcnkifQ.c2lnbmF0dXJlLXZhbHVlLWhlcmU",
    "url-password": "hunter2-in-a-url",
    "bearer-token": "bearerTok3nValue1234567890",
    "private-key": "MIIEowIBAAKCAQEAplantedPrivateKeyMaterial",
    "assigned-secret": "d3adb33f-planted-env-secret-42",
    "assigned-key": "Zm9vYmFyYmF6cXV4MTIzplantedKey",
    "ai-provider-key": "gsk_" + "Pl4nt3dGr0qK3y" * 4,
    "google-oauth": "ya29." + "a0Pl4nt3dAcc3ss" * 3,
    # Known by the name of the field that holds them alone: a tool's input, JSON text.
    "secret-field": "correct horse battery staple",
    "password-field": "PlantedJsonTokenValue",
    # A secret name's value that is a number, a password starting with a dollar, a
    # token that is the key of an object.
    "secret-number": "84736251",
    "dollar-password": "$k9t9CDphandTQfC",
    "key-token": "ghp_" + "K3yN" * 9,
    # A private key's line, in a diff whose lines are each a text of their own.
    "diff-key": "MIIEpAIBAAKCAQEA0Z3VS5JJcds3xfnplantedDiffKeyLine0123456789abcdef",
}
SECRET_TEXT = (
    f"keys: {SECRETS['anthropic-key']} {SECRETS['openai-key']} {SECRETS['github-token']} "
    f"{SECRETS['aws-access-key']} {SECRETS['slack-token']} {SECRETS['google-api-key']} {SECRETS['stripe-key']} "
    f"{SECRETS['jwt']}\ncurl -H 'Authorization: Bearer {SECRETS['bearer-token']}' "
    f"postgres://admin:{SECRETS['url-password']}@db.example:5432/app\n"
    f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['private-key']}\n-----END RSA PRIVATE KEY-----\n"
    f"SECRET_KEY={SECRETS['assigned-secret']}\nMAPBOX_KEY={SECRETS['assigned-key']}\n"  # an environment file
    f"GROQ_API_KEY={SECRETS['ai-provider-key']} {SECRETS['google-oauth']}"
)


def write(docs: Path) -> list[str]:
    """Write the adversarial project into ``docs``; return the texts the pages must show."""
    folder = docs / "attacks"
    lines: list[dict] = []
    n = 0

    def entry(**fields: object) -> dict:
        nonlocal n
        n += 1
        base = {
            "parentUuid": None if n == 1 else f"{n - 1:08x}-0000-4000-8000-000000000000",
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/mallory/app",
            "sessionId": SESSION,
            "version": "2.1.50",
            "gitBranch": ATTACKS[0],
            "uuid": f"{n:08x}-0000-4000-8000-000000000000",
            "timestamp": f"2025-11-11T10:00:{n % 60:02d}.000Z",
        }
        base.update(fields)
        lines.append(base)
        return base

    def tool(tool_id: str, name: str, value: dict, result: object, error: bool = False) -> None:
        entry(type="assistant", message={"id": f"msg_{tool_id}", "role": "assistant", "model": "m", "content": [
            {"type": "tool_use", "id": tool_id, "name": name, "input": value}]})  # fmt: skip
        entry(type="user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": result, "is_error": error}]})  # fmt: skip

    entry(type="user", message={"role": "user", "content": ATTACK + "\n\n" + SECRET_TEXT})
    entry(type="assistant", message={"id": "msg_a", "role": "assistant", "model": "m", "content": [
        {"type": "thinking", "thinking": ATTACK}, {"type": "text", "text": ATTACK + "\n\n" + SECRET_TEXT}]})  # fmt: skip
    tool("toolu_bash", "Bash", {"command": ATTACK, "description": ATTACKS[1]}, ATTACK + "\n" + SECRET_TEXT)
    tool("toolu_read", "Read", {"file_path": "/home/mallory/" + ATTACKS[0] + ".py"}, ATTACK, error=True)
    tool("toolu_edit", "Edit", {"file_path": ATTACKS[3], "old_string": ATTACK, "new_string": SECRET_TEXT}, ATTACK)
    tool("toolu_mcp", "mcp__evil<b>__tool<script>", {ATTACKS[0]: ATTACK, "n": 1}, [{"type": "text", "text": ATTACK}])
    tool("toolu_fetch", "WebFetch", {"url": "javascript:alert(10)", "prompt": ATTACK}, ATTACK)
    tool("toolu_todo", "TodoWrite", {"todos": [{"content": ATTACK, "status": "in_progress", "activeForm": "x"}]}, "ok")
    tool("toolu_ask", "AskUserQuestion", {"questions": [{"question": ATTACKS[0], "header": ATTACKS[1],
        "options": [{"label": ATTACKS[2], "description": ATTACKS[3]}]}]}, ATTACK)  # fmt: skip
    tool("toolu_task", "Task", {"description": ATTACKS[0], "subagent_type": ATTACKS[1], "prompt": ATTACK}, [
        {"type": "text", "text": ATTACK + f"\nagentId: {AGENT}"}])  # fmt: skip
    tool("toolu_keys", "mcp__db__connect", {"host": "db.example", "password": SECRETS["secret-field"], "GITHUB_TOKEN": SECRETS["secret-field"],
         "pin_password": int(SECRETS["secret-number"]), "secret": [SECRETS["dollar-password"]], "index": {SECRETS["key-token"]: "x"}},
         '{"GITHUB_TOKEN": "' + SECRETS["password-field"] + '"}')  # fmt: skip
    key_lines = ["-----BEGIN RSA PRIVATE KEY-----", SECRETS["diff-key"], "Zm9vYmFy==", "-----END RSA PRIVATE KEY-----"]
    entry(type="assistant", message={"id": "msg_toolu_key", "role": "assistant", "model": "m", "content": [
        {"type": "tool_use", "id": "toolu_key", "name": "Edit", "input": {"file_path": "deploy/id_rsa", "old_string": "x", "new_string": "y"}}]})  # fmt: skip
    entry(type="user", message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_key", "content": "Updated"}]},
          toolUseResult={"filePath": "deploy/id_rsa", "structuredPatch": [{"oldStart": 1, "oldLines": 5, "newStart": 1, "newLines": 1,
                         "lines": [" # the deploy key", *("-" + line for line in key_lines)]}]})  # fmt: skip
    entry(type="system", content=ATTACK, level="warning")
    entry(type="system", subtype="note " + SECRETS["aws-access-key"], content=ATTACK)  # a title made of a kind
    entry(type="system", subtype="stop_hook_summary", hookInfos=[{"command": ATTACK}], hookErrors=[ATTACK])
    entry(type="attachment", attachment={"type": "hook_success", "hookName": ATTACKS[0], "stdout": ATTACK})
    entry(type="attachment", attachment={"type": ATTACKS[0], "content": ATTACK, ATTACKS[1]: ATTACKS[2]})
    entry(type="user", message={"role": "user", "content": f"<command-name>/{ATTACKS[0]}</command-name><command-args>{ATTACK}</command-args>"})
    entry(type="user", message={"role": "user", "content": f"<task-notification><task-id>{ATTACKS[0]}</task-id><summary>{ATTACKS[1]}</summary><result>{ATTACK}</result></task-notification>"})
    entry(type="user", message={"role": "user", "content": ATTACK}, isCompactSummary=True)
    entry(type="brand-new-type", payload=ATTACK)
    lines.append({"type": "ai-title", "aiTitle": ATTACKS[0] + " " + ATTACKS[1] + " </title><script>alert(11)</script>", "sessionId": SESSION})
    lines.append({"type": "pr-link", "prUrl": "javascript:alert(12)", "sessionId": SESSION})
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{SESSION}.jsonl").open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(json.dumps(line) + "\n")

    agents = folder / SESSION / "subagents"
    agents.mkdir(parents=True, exist_ok=True)
    agent_line = {
        "parentUuid": None, "isSidechain": True, "sessionId": SESSION, "agentId": AGENT, "type": "user",
        "uuid": "aaaaaaaa-0000-4000-8000-000000000000", "timestamp": "2025-11-11T10:01:00.000Z",
        "message": {"role": "user", "content": ATTACK},
    }  # fmt: skip
    (agents / "agent-evil.jsonl").write_text(json.dumps(agent_line) + "\n", encoding="utf-8")
    meta = {"agentType": ATTACKS[0], "description": ATTACKS[1] + " " + SECRETS["github-token"], "toolUseId": "toolu_task"}
    (agents / "agent-evil.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return ATTACKS

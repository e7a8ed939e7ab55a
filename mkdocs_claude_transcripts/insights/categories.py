"""What a tool call is about: its category, the files it touches, and whether a shell
command verifies the work (tests, lints, builds, type-checks).

A tool's category comes from a table of names first (lowercased, the ``mcp__server__``
prefix stripped), then from patterns on the name; MCP tools that match neither are
``mcp``, the others ``other``. A shell call whose command verifies is ``verify``.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import Any, Literal, get_args

Category = Literal["read", "edit", "search", "semantic", "shell", "verify", "web", "agent", "plan", "mcp", "other"]
CATEGORIES: tuple[Category, ...] = get_args(Category)

NAMES: dict[str, str] = {
    **dict.fromkeys(["read", "notebookread", "readmcpresourcetool", "listmcpresourcestool", "view"], "read"),
    **dict.fromkeys(["edit", "multiedit", "write", "notebookedit", "str_replace_editor", "str_replace_based_edit_tool"], "edit"),
    **dict.fromkeys(["grep", "glob", "ls", "toolsearch"], "search"),
    **dict.fromkeys(["lsp", "listcodeusages", "documentsymbol", "workspacesymbol", "hover"], "semantic"),
    **dict.fromkeys(
        ["bash", "bashoutput", "killshell", "killbash", "taskoutput", "taskstop", "powershell", "monitor"], "shell"
    ),
    **dict.fromkeys(["webfetch", "websearch"], "web"),
    **dict.fromkeys(["task", "agent", "sendmessage", "teamcreate", "teamdelete", "workflow"], "agent"),
    # Claude running a slash command or a skill: neither a shell's command nor an agent.
    **dict.fromkeys(["slashcommand", "skill"], "other"),
    **dict.fromkeys(
        ["todowrite", "todoread", "taskcreate", "taskupdate", "taskget", "tasklist", "exitplanmode", "enterplanmode"],
        "plan",
    ),
}

# Tried in order on names the table does not know.
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("semantic", re.compile(r"definition|referenc|symbol|hover|lsp|codeusages|diagnostic|implementation")),
    ("edit", re.compile(r"edit|write|replace|patch|insert|create_file|delete_file|rename|move_file")),
    ("read", re.compile(r"read|view|cat$|get_file|open_file|file_contents")),
    ("web", re.compile(r"web|fetch|browse|navigate|url|http|screenshot|page|scrape|crawl|google|internet|tavily")),
    ("search", re.compile(r"search|grep|glob|find|list_dir|list_files|^ls$")),
    ("shell", re.compile(r"bash|shell|exec|terminal|command|run_")),
    ("agent", re.compile(r"agent|subtask|delegate")),
    ("plan", re.compile(r"todo|plan")),
]

SHELL_TOOLS = frozenset({"bash", "powershell"})

_MCP = re.compile(r"^mcp__(?:[^_]|_(?!_))+__")


def plain_name(name: str) -> str:
    """``name`` lowercased, without its MCP prefix (``mcp__github__get_issue`` -> ``get_issue``)."""
    return _MCP.sub("", name).lower()


def category(name: str, command: str | None = None) -> str:
    """The category of a call of tool ``name``; ``command`` is its shell command, if any."""
    plain = plain_name(name)
    found = NAMES.get(plain)
    if found is None:
        found = next((kind for kind, pattern in PATTERNS if pattern.search(plain)), None)
    if found is None:
        found = "mcp" if _MCP.match(name) else "other"
    if found == "shell" and command and verifies(command):
        return "verify"
    return found


def command_of(name: str, data: dict[str, Any]) -> str | None:
    """The shell command a call runs, for shell tools."""
    if plain_name(name) in SHELL_TOOLS:
        command = data.get("command")
        return command if isinstance(command, str) else None
    return None


# ---------------------------------------------------------------- verification

# Words that run what follows them, skipped before the command itself.
_RUNNERS = {
    "npx", "bunx", "pnpx", "time", "sudo", "env", "nice", "nohup", "exec", "command", "xvfb-run", "dotenv",
    "uv", "uvx", "poetry", "pipenv", "hatch", "pdm", "rye", "run", "--",
}  # fmt: skip
_PYTHON = re.compile(r"^python[0-9.]*$")
_PACKAGE_MANAGERS = {"npm", "pnpm", "yarn", "bun"}
_SCRIPTS = re.compile(r"^(test|tests|lint|build|typecheck|type-check|tsc|check|ci|e2e|unit)([:\-_].*)?$")
_TOOLS = {
    "pytest", "py.test", "jest", "vitest", "mocha", "ava", "karma", "playwright", "cypress",
    "tsc", "vue-tsc", "eslint", "biome", "oxlint", "ruff", "mypy", "pyright", "flake8", "pylint",
    "black", "isort", "prettier", "stylelint", "tox", "nox", "phpunit", "rspec", "rubocop",
    "shellcheck", "golangci-lint", "ctest", "swiftlint", "ktlint", "clippy-driver",
}  # fmt: skip
_PYTHON_MODULES = {"pytest", "mypy", "unittest", "ruff", "pyright", "flake8", "pylint", "black", "tox", "nox", "compileall"}
_SUBCOMMANDS = {
    "go": {"test", "vet", "build"},
    "cargo": {"test", "build", "check", "clippy", "nextest"},
    "make": {"test", "tests", "check", "lint", "build", "ci", "typecheck"},
    "dotnet": {"test", "build"},
    "mvn": {"test", "verify", "package", "compile"},
    "mvnw": {"test", "verify", "package", "compile"},
    "gradle": {"test", "build", "check"},
    "gradlew": {"test", "build", "check"},
    "deno": {"test", "lint", "check"},
    "swift": {"test", "build"},
    "mix": {"test"},
    "bundle": {"exec"},
}  # fmt: skip
_VALUED_OPTIONS = {"--filter", "-F", "--prefix", "-C", "--cwd", "--dir", "-w", "--workspace"}
_SEPARATORS = re.compile(r"&&|\|\||;|\||\n")


# A command given to a shell as a string (bash -c "npm test"), and quoted text, which
# the shell does not split at && and ; (echo "done && pytest passes").
_SHELL_STRING = re.compile(r"\b(?:ba|z)?sh\s+-c\s+(?:\"((?:[^\"\\]|\\.)*)\"|'([^']*)')")
_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'")


@lru_cache(maxsize=4096)
def verifies(command: str) -> bool:
    """Whether a shell command runs tests, a linter, a build or a type-checker."""
    if any(verifies(inner) for found in _SHELL_STRING.finditer(command) if (inner := found.group(1) or found.group(2) or "") != command):
        return True
    return any(_verifies(part.split()) for part in _SEPARATORS.split(_QUOTED.sub("''", command)))


def _verifies(words: list[str]) -> bool:
    words = [w.strip("(){}") for w in words]  # (cd web && npm test)
    words = [w for w in words if w and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]  # FOO=1 pytest
    while words:
        if words[0] == "timeout":  # timeout 60 pytest
            words = _after_timeout(words[1:])
        elif words[0] in _RUNNERS or words[0].startswith("-") and words[0] != "-m":
            words = words[1:]
        else:
            break
    if not words:
        return False
    first = posixpath.basename(words[0])
    rest = words[1:]
    if first in _TOOLS:
        return True
    if _PYTHON.match(first):  # python -m pytest; python manage.py test (Django)
        return len(rest) >= 2 and (rest[0] == "-m" and rest[1] in _PYTHON_MODULES or rest[0].endswith("manage.py") and rest[1] == "test")
    if first in _PACKAGE_MANAGERS:
        rest = _without_options(rest)
        if rest[:1] == ["t"] and first in ("npm", "pnpm"):  # npm t: npm test
            return True
        if rest[:1] == ["workspace"]:  # yarn workspace NAME test
            rest = rest[2:]
        if rest and rest[0] in ("run", "run-script"):
            rest = rest[1:]
        return bool(rest) and bool(_SCRIPTS.match(rest[0]))
    if first == "bundle" and rest[:1] == ["exec"]:
        return _verifies(rest[1:])
    subcommands = _SUBCOMMANDS.get(first)
    return subcommands is not None and bool(rest) and rest[0] in subcommands


_DURATION = re.compile(r"^[0-9.]+[smhd]?$")


def _after_timeout(words: list[str]) -> list[str]:
    """The command ``timeout`` runs: after its options (``-s KILL``, ``-k 5``) and its duration."""
    while words and words[0].startswith("-"):
        words = words[2:] if words[0] in ("-s", "--signal", "-k", "--kill-after") else words[1:]
    return words[1:] if words and _DURATION.match(words[0]) else words


def _without_options(words: list[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word in _VALUED_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            kept.append(word)
    return kept


# ---------------------------------------------------------------- targets

_PATH_KEYS = ("path", "file_path", "filePath", "notebook_path")
_LIST_KEYS = ("targets", "files", "paths", "file_paths")


def targets(data: dict[str, Any], cwd: str | None) -> list[str]:
    """The files and folders a call's input names, as POSIX paths, relative to the
    session's working directory when they are inside it."""
    found: list[str] = []
    for key, value in data.items():
        if key in _LIST_KEYS and isinstance(value, list):
            found += [v for v in value if isinstance(v, str)]
            found += [v["path"] for v in value if isinstance(v, dict) and isinstance(v.get("path"), str)]
        elif isinstance(value, str) and (key in _PATH_KEYS or key.lower().endswith("path")):
            found.append(value)
    seen: dict[str, None] = {}
    for path in found:
        if path.strip():
            seen.setdefault(relative(path.strip(), cwd))
    return list(seen)


def relative(path: str, cwd: str | None) -> str:
    path = path.replace("\\", "/")
    if cwd:
        root = cwd.replace("\\", "/").rstrip("/")
        if path == root:
            return "."
        if root and path.startswith(root + "/"):
            return posixpath.normpath(path[len(root) + 1 :])
    return posixpath.normpath(path) if path.startswith("/") else path

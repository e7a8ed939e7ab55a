"""The configuration reference, made from the typed config: each option's name,
default and docstring (config.py), so that the documentation cannot drift from it."""

from __future__ import annotations

import ast
import inspect
import json
from dataclasses import dataclass

from . import config as config_module
from .config import TranscriptsConfig


@dataclass
class Option:
    name: str
    default: str  # as written in mkdocs.yml
    doc: str


def options() -> list[Option]:
    docs = _docstrings()
    found = []
    for name, option in TranscriptsConfig._schema:
        default = option.default
        if isinstance(default, str) and "\n" not in default:
            shown = json.dumps(default, ensure_ascii=False)
        elif isinstance(default, bool):
            shown = "true" if default else "false"
        else:
            shown = json.dumps(default) if not isinstance(default, str) else '""'
        found.append(Option(name, shown, docs.get(name, "")))
    return found


def markdown_table(within_docs: bool = False) -> str:
    """The table of options, for the README (links into ``docs/``) or for a page of
    the documentation site itself (``within_docs``: links relative to it)."""
    rows = ["| option | default | what it does |", "|---|---|---|"]
    rows += [f"| `{o.name}` | `{o.default}` | {o.doc} |" for o in options()]
    table = "\n".join(rows)
    return table.replace("[docs/", "[").replace("](docs/", "](") if within_docs else table


def _docstrings() -> dict[str, str]:
    """The string that follows each option in the class body, on one line."""
    tree = ast.parse(inspect.getsource(config_module))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TranscriptsConfig").body
    found = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            name = node.targets[0].id  # type: ignore[attr-defined]
            found[name] = " ".join(str(after.value.value).split())
    return found

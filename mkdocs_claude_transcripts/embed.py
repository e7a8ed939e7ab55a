"""Excerpts of sessions inside any page of the site, asked for with a fenced block:

    ```claude-transcript
    path: sessions/abc.jsonl      # relative to the page, or to docs_dir
    turns: 2-3                    # or from: / to: (message anchors), or search: text
    tool_calls: hidden            # open, collapsed or hidden; thinking: likewise
    link: true                    # a line linking to the full session
    ```

The block is replaced by the Markdown of the excerpt before the page is rendered,
so it renders as the session's page does. What cannot be shown (a missing file, a
range that holds nothing, an unknown option) is a warning naming the page, and the
block is left as it is.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from .render.guard import excerpt_lines
from .render.markdown import fence_end, fence_open

if TYPE_CHECKING:
    from . import model as m

NAME = "claude-transcript"
# A path written without quotes whose rest, after " #", YAML reads as a comment
# (``path: logs/run #2.jsonl``).
_COMMENT_IN_PATH = re.compile(r"""^[ \t]*path[ \t]*:[ \t]*[^'"\s][^\n]*?[ \t]#[^\n]*\.jsonl[ \t]*$""", re.MULTILINE)
_KEYS = {"path", "from", "to", "turns", "search", "thinking", "tool_calls", "link"}
_BOOLEANS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
_CHOICES = {"thinking": ("shown", "collapsed", "hidden"), "tool_calls": ("open", "collapsed", "hidden")}


@dataclass
class Found:
    session: m.Session
    published: bool
    agent: str | None = None  # the id of the subagent whose file was named; None: the session


Loader = Callable[[list[str]], "Found | None"]  # the src_uris a path may name -> the first session found


def embed(markdown: str, page: str, load: Loader, render: Callable[..., list[str]] | None = None, **options: Any) -> tuple[str, list[str]]:
    """``markdown`` of the page ``page`` with its excerpt blocks replaced (by
    ``render``, ``render/excerpt.py`` unless given); and the problems found, one
    message each."""
    if NAME not in markdown:
        return markdown, []
    lines = markdown.split("\n")
    out: list[str] = []
    problems: list[str] = []
    i = 0
    count = 0
    commented = False  # in an HTML comment (<!-- ... -->), whose blocks are left alone
    while i < len(lines):
        opened = None if commented else fence_open(lines[i])
        if not opened:
            commented = _in_comment(lines[i], commented)
            out.append(lines[i])
            i += 1
            continue
        end = fence_end(lines, i, opened["fence"])
        block = lines[i : end + 1]
        if opened["info"].strip() == NAME:
            from .render.excerpt import ExcerptError, excerpt  # the content model, for pages that show excerpts

            render = render or excerpt
            count += 1
            body = [line[len(opened["indent"]) :] for line in lines[i + 1 : end]]
            try:
                if end == len(lines):  # (the rest of the page would be read as its options)
                    raise ExcerptError(f"is not closed (no {opened['fence']} line ends it)")
                made = _excerpt("\n".join(body), page, load, render, f"x{count}-", options)
            except ExcerptError as problem:
                problems.append(f"{NAME} block at line {i + 1}: {problem}")
                out += block
            else:
                out += excerpt_lines(made, opened["indent"])
        else:
            out += block  # another fence: its text is not looked into
        i = end + 1
    return "\n".join(out), problems


def _in_comment(line: str, commented: bool) -> bool:
    """Whether an HTML comment is still open after ``line``: one that a line begins
    (``<!--``) and does not end (``-->``), up to the line that ends it. An excerpt
    in it would end it early (at the first ``-->`` of its own), its Markdown shown."""
    if commented:
        return "-->" not in line
    stripped = line.lstrip()
    return stripped.startswith("<!--") and "-->" not in stripped[4:]


def _excerpt(text: str, page: str, load: Loader, render: Callable[..., list[str]], prefix: str, options: Any) -> list[str]:
    from .render.excerpt import ExcerptError, Look, Range

    try:
        # Every value as it is written: YAML 1.1 would read 10:30 as 630, 010 as 8, yes as true.
        spec = yaml.load(text, Loader=_Options) if text.strip() else None  # (str, list and dict only)
    except yaml.YAMLError as error:
        raise ExcerptError(f"not YAML: {' '.join(str(error).split())}") from None
    except _GivenTwice as error:
        raise ExcerptError(f"{error} given twice (which one is meant?)") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
        raise ExcerptError("needs 'path:', the transcript to show")
    unknown = sorted(set(map(str, spec)) - _KEYS)
    if unknown:
        raise ExcerptError(f"unknown option {', '.join(unknown)} (known: {', '.join(sorted(_KEYS))})")
    for key, choices in _CHOICES.items():
        if key in spec and spec[key] not in choices:
            raise ExcerptError(f"{key} must be one of {', '.join(choices)}")
    for key in ("from", "to", "turns", "search"):
        if key in spec and not isinstance(spec[key], str):
            raise ExcerptError(f"{key} must be a text, not a list or a mapping")
    if str(spec.get("link", "true")).lower() not in _BOOLEANS:
        raise ExcerptError("link must be true or false")
    candidates = resolve(spec["path"], page)
    found = load(candidates) if candidates else None
    if found is None:
        hint = "; a ' #' starts a comment in YAML: put a path that holds one in quotes" if _COMMENT_IN_PATH.search(text) else ""
        raise ExcerptError(f"no transcript at '{spec['path']}' (relative to the page or to docs_dir){hint}")
    chosen = Range(
        start=_anchor(spec.get("from")), end=_anchor(spec.get("to")), turns=_text(spec.get("turns")), search=_text(spec.get("search"))
    )
    look = Look(thinking=spec.get("thinking"), tool_calls=spec.get("tool_calls"), link=_BOOLEANS[str(spec.get("link", "true")).lower()])
    return render(found.session, chosen, look, page=page, published=found.published, prefix=prefix, agent=found.agent, **options)


class _GivenTwice(Exception):
    """Names given more than once in a mapping (YAML would keep the last)."""


class _Options(yaml.BaseLoader):
    """A block's options, every value as it is written; a name given twice an error."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise _GivenTwice(", ".join(twice))
        return super().construct_mapping(node, deep)


def resolve(path: str, page: str) -> list[str] | None:
    """The src_uris a path may name, relative to the page first, then to docs_dir;
    None when it leaves docs_dir."""
    path = path.strip().replace("\\", "/")
    candidates = []
    for base in (posixpath.dirname(page), ""):
        joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
        if joined.startswith("../") or joined == "..":
            continue
        candidates.append(joined)
    return candidates or None


def _text(value: Any) -> str | None:
    return str(value) if value else None  # (an empty value, "search:", is none)


def _anchor(value: Any) -> str | None:
    """A message anchor, as written or as the permalink's address gives it (``#m-…``,
    ``…/session/#m-…``)."""
    text = _text(value)
    return text.strip().rpartition("#")[2] or None if text else None

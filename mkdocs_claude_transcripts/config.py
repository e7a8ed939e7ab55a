"""The plugin's options, as they are written under ``- claude-transcripts:`` in mkdocs.yml.

Each option's docstring is its documentation; docs/configuration.md is made from them.
"""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


def _patterns(default: str) -> c.PathSpec:
    """Gitignore-style patterns, one per line, as MkDocs' own ``exclude_docs`` takes them."""
    option = c.PathSpec()
    option.default = default
    return option


class _AutoOrBool(c.Choice):
    """``auto``, or yes or no: ``true`` and ``false`` as YAML writes them (booleans)
    or as strings."""

    def __init__(self) -> None:
        super().__init__(("auto", "true", "false"), default="auto")

    def run_validation(self, value: object) -> str:
        return super().run_validation(str(value).lower() if isinstance(value, bool) else value)


class TranscriptsConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn the plugin off without removing it: transcripts are then left as plain files."""

    include = _patterns("*.jsonl")
    """Which transcripts of `docs_dir` are published, as gitignore-style patterns, one
    per line (like MkDocs' own `exclude_docs`); the others are left out of the site, as
    `exclude` leaves them. A session's subagents follow their session. Files that are
    not Claude Code transcripts are left alone whatever this says."""

    exclude = _patterns("")
    """Transcripts to leave out of the site, as gitignore-style patterns, one per line.
    A session's subagents follow their session."""

    thinking = c.Choice(("shown", "collapsed", "hidden"), default="collapsed")
    """How Claude's thinking is shown: `shown` (an open block), `collapsed` (a closed
    block that opens on click) or `hidden` (left out)."""

    empty_thinking = c.Choice(("marker", "hidden"), default="marker")
    """Thinking blocks whose text was not recorded (most of them since Claude Code 2.1):
    a small `marker` line, or `hidden`."""

    tool_calls = c.Choice(("open", "collapsed"), default="collapsed")
    """Whether tool calls, each with its result, start `open` or `collapsed`."""

    fold_lines = c.Type(int, default=40)
    """Tool output longer than this many lines shows its first lines and folds the rest
    into a closed block that says how many lines it holds. `0` never folds."""

    system_reminders = c.Choice(("collapsed", "hidden"), default="collapsed")
    """The `<system-reminder>` notes Claude Code adds to prompts and tool output:
    `collapsed` (closed blocks) or `hidden`."""

    search_tool_output = c.Type(bool, default=False)
    """Put tool output (command output, file contents, diffs) in Material's search index.
    Off by default: prompts, answers, thinking and tool calls are searchable; output
    would flood the index."""

    page_size = c.Type(int, default=400_000)
    """How much a page holds before a long session (or subagent) goes on in parts:
    pages of its own, linked to each other, cut before a prompt (a turn that fits in
    a page is never cut; a longer one is cut where it must). It is counted in
    characters of the HTML the messages make (about: highlighted code counts a tag for
    each word, each `<`, `>` and `&` an entity). A single message longer than half of it (a pasted log, a huge output)
    goes on over several, its blocks marked "(continued)". The default keeps pages
    under about 700 KB. `0` never splits."""

    response_usage = c.Type(bool, default=True)
    """After each of Claude's responses, a small line with its model and token usage."""

    redact = c.Type(bool, default=True)
    """Replace API keys, tokens, private keys and passwords found in transcripts with a
    marker naming their kind, such as `[REDACTED:github-token]`, everywhere they would
    reach the site (pages, titles, nav, search index, copied files).
    [docs/safety.md](docs/safety.md) lists the kinds."""

    redact_patterns = c.DictOfItems(c.Type(str), default={})
    """More things to redact: a name for each kind, and a regular expression. A group
    named `secret` limits the replacement to that part of the match. Applied to the
    text of transcripts, not to the ids that tie messages together or to file names."""

    redact_allow = c.ListOfItems(c.Type(str), default=[])
    """Values never to redact, written out in full (a documented example key, say)."""

    shorten_home = c.Type(bool, default=True)
    """Shorten home folders in transcript text (`/Users/alice/`, `/home/alice/`,
    `C:\\Users\\alice\\`, and `/c/Users/alice/`, `/mnt/c/Users/alice/` or
    `C:/Users/alice/` as Git Bash, WSL and others write it) to `~/`, where a path
    starts (a folder of that name inside another path is left alone)."""

    prune_nav = _AutoOrBool()
    """Material renders the whole nav into every page, which grows with the square of
    the number of pages. `auto` turns on Material's `navigation.prune` (each page
    carries only its own branch of the nav) when the site has more than 100
    transcript pages, unless `navigation.expand` is on; `true` always, `false` never."""

    nav_group_size = c.Type(int, default=50)
    """A folder of more sessions than this, or a session of more subagents, lists them
    in the nav in groups of this many, oldest first: sessions' named by the days they
    span, subagents' by their numbers. Material writes a page's branch of the nav into
    the page, so a list of hundreds would add hundreds of kilobytes to each page under
    it. `0` never groups."""

    cache = c.Type(bool, default=True)
    """Keep converted sessions, rendered pages and the pages as the theme wrote them
    in `cache_dir`, so that a rebuild only redoes what changed. Sessions are known by
    their files' bytes (a file is read again only when its size or time changed), so
    a fresh clone of the site given the cache, as a CI job that restores it, finds
    them there. A file of the cache that is damaged (not what a build wrote) is made
    again; a page's HTML found damaged as the page is written is shown as it can be
    read, with a warning, and rendered again by the next build."""

    cache_dir = c.Type(str, default=".cache/claude-transcripts")
    """Where the cache is kept, relative to `mkdocs.yml` (`~` is your home folder). It
    must be outside `docs_dir` and `site_dir`, a folder the build may write in, and a
    folder of its own: new, or holding nothing but the cache (else the build stops,
    naming it; `cache: false` builds without it). It can be deleted
    whenever no build is running. Where it is on the
    file system of `site_dir`, the site's `session.json` files and images are links
    to its own rather than copies."""

    jobs = c.Type(int, default=0)
    """How many processes convert sessions, render their pages to HTML and put them
    through the theme's template during a build, besides one that loads the content
    model as MkDocs starts and one that compiles the theme's templates meanwhile
    (what the cache already holds is not done again): `0` one per core, `1` none (the
    build does it all in its own process, as MkDocs does any page). Used where
    processes can be forked (Linux, macOS): by `mkdocs build` and the first build of
    `mkdocs serve`, not by the rebuilds of `mkdocs serve`, which run beside its
    server's threads."""

    copy_jsonl = c.Type(bool, default=False)
    """Also publish the transcript `.jsonl` files themselves, redacted as the pages are.
    Off by default: the pages are what is meant to be read, and the raw files hold
    more than they show."""

    title_format = c.Type(str, default="{date} · {title}")
    """The title of a session's page and nav entry. `{title}` is the session's title
    (its custom or AI title, its summary, cut at a word to 200 columns, or else the
    words of its first prompt's first line, without Markdown marks, cut at a word to 80
    columns), `{date}` the day it
    started (YYYY-MM-DD, in the time zone of `timezone`), `{id}` the session id."""

    timezone = c.Type(str, default="UTC")
    """The time zone times are shown in, as an IANA name such as `Europe/Paris` (message
    times, dates of sessions, the summary and the index). Transcripts record UTC."""

    summary = c.Type(bool, default=True)
    """A closed block at the top of each session's page, and of each subagent's, that
    sums it up: time and duration, versions, models, branch, prompts and messages,
    tool calls by category with their errors, checks run (tests, linters, builds) and
    how they went, files read and edited (the first ten of each), subagents (the
    first hundred, linked), tokens, compactions."""

    index = c.Type((bool, str), default=True)
    """A page listing every session (date, title, duration, messages, tool calls,
    errors, subagents, tokens), newest first, with the site's totals. `true` puts it at
    the top of the folder that holds the transcripts (`index.md` there, or
    `transcripts.md`, then `transcripts-2.md`..., when that is taken); a path such as
    `logs/index.md` puts it there (a path outside `docs_dir`, or where a session's page
    goes, stops the build); `false` leaves it out. Past `page_size`, it goes on in parts beside it
    (`transcripts-part-2.md`...), linked to each other, each under the totals."""

    tags = c.ListOfItems(c.Choice(("model", "branch", "version", "project")), default=[])
    """Tag each session's page, for Material's tags plugin: with its `model`s, its git
    `branch`, its Claude Code `version`s, its `project` (the working directory's name)."""

    export_json = c.Type(bool, default=True)
    """Publish `session.json` beside each session's page (`sessions/abc/session.json`
    for `sessions/abc/`): the session's messages with typed content blocks, its
    subagents, its events and its statistics, redacted like the pages.
    [docs/export.md](docs/export.md) describes it, with its JSON Schema."""

"""The MkDocs plugin: publishes each Claude Code session found in ``docs_dir`` as pages.

It only glues MkDocs to the pipeline: it hands the pipeline the files MkDocs
found, adds the pages and images it gets back as generated files (nothing is
written into ``docs_dir``), takes the transcripts out of the site, and places
the sessions in the nav.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing.process
import os
import posixpath
import shutil
import tempfile
import threading
from collections import Counter
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from . import __version__, nav, outputs, parallel, workers
from .cache import Cache, claim, code_fingerprint, fingerprint, sources_unchanged
from .config import TranscriptsConfig
from .embed import NAME as EXCERPT
from .embed import Found, embed
from .linked import LinkedFile
from .listing import NavEntry, Row
from .pages import Pages
from .redact import Redactor, check_pattern
from .render import layout
from .render.context import RenderOptions, zone
from .render.fences import FENCES
from .render.index import index_pages
from .render.layout import STYLESHEET, stylesheet
from .report import Level, condensed
from .search import Spool, material_search
from .sitefiles import SiteFiles
from .transcript.discovery import Discovery, SessionSource, SourceFile, discover

log = get_plugin_logger("claude-transcripts")


PRUNE_ABOVE = 100  # transcript pages in the nav
COMPILE_WAIT = 60  # seconds the build waits for its templates to be compiled, at most
# Plugins that read a page's context and leave it as it is: MkDocs' search and
# Material's (which changes the page's HTML, but the text this plugin hands it in
# its stead, see pages.py).
SEARCH_PLUGINS = frozenset({"search", "material/search"})
# Markdown extensions the pages are written for. pymdownx.betterem replaces
# Python-Markdown's emphasis, which drops characters from text with unbalanced
# asterisks (``**add-*.sh Scripts**: ... addition`` loses "it").
EXTENSIONS = (
    "admonition",
    "pymdownx.details",
    "pymdownx.superfences",
    "attr_list",
    "pymdownx.betterem",
    "mkdocs_claude_transcripts.render.guard",
)


class TranscriptsPlugin(BasePlugin[TranscriptsConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.entries: dict[str, NavEntry] = {}  # session page -> its nav entry
        self.by_source: dict[str, NavEntry] = {}  # session file (or a subagent's) -> its nav entry
        self.started: dict[str, datetime | None] = {}
        self.rows: list[Row] = []  # the published sessions, for the index page
        self._sources: dict[str, SessionSource] = {}  # every session found, by src_uri
        self._excerpted: dict[str, Found] = {}  # sessions built for excerpts in this build
        self._left_out: dict[str, str] = {}  # transcripts left out by exclude_docs or draft_docs: which
        self.options = RenderOptions()
        self.redactor = Redactor()
        self.cache: Cache | None = None
        self._scratch: str | None = None  # the cache of this build alone, when caching is off
        self.pages: Pages | None = None  # the pages this plugin adds, on their way
        self._nav: Navigation | None = None  # the site's, once settled
        self._compiling: multiprocessing.process.BaseProcess | None = None  # the theme's templates, meanwhile
        self._converter: parallel.Converter | None = None  # started with MkDocs, for the first build
        self._code: str | None = None  # outputs.code_digest, of this build
        self._serving = False  # under ``mkdocs serve``, which shows draft_docs
        self._dirty = False  # ``--dirty``: MkDocs renders again only the pages whose file changed

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # The content model loaded in a process of its own while MkDocs starts (see
        # parallel.py), unless the sessions' files are as the last build left them.
        # Under ``mkdocs serve``, for the first build: the next ones run beside the
        # server's threads, where no process is forked.
        self._serving = command == "serve"
        self._dirty = dirty
        if not self.config.enabled or self._workers < 2:
            return
        if not (self.config.cache and sources_unchanged(self._cache_folder(self.config.config_file_path))):
            self._converter = parallel.Converter.start()

    def on_shutdown(self) -> None:
        self._stop_converter()

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        # The next builds run in this process: the content model is loaded now, while
        # the server waits for a change, rather than when a transcript changes (the
        # first build's sessions were converted by the converter, in its own process).
        if self.config.enabled:
            threading.Thread(target=_load_model, name="claude-transcripts: content model", daemon=True).start()
        return server

    def _stop_converter(self) -> None:
        converter, self._converter = self._converter, None
        if converter is not None:
            converter.stop()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # MkDocs keeps this plugin from one build to the next (it has on_startup): what
        # a build holds is made anew, or left out when the plugin is turned off.
        self.cache = self.pages = self._nav = self._code = None
        if not self.config.enabled:
            return config
        for name in EXTENSIONS:
            if name not in config.markdown_extensions:
                config.markdown_extensions.append(name)
                log.debug(f"added the Markdown extension '{name}'")
        # The code fences of transcript pages (render/fences.py).
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        names = {f.get("name") for f in fences}
        fences.extend(fence for fence in FENCES if fence["name"] not in names)
        self.options = RenderOptions(
            thinking=self.config.thinking,
            empty_thinking=self.config.empty_thinking,
            tool_calls=self.config.tool_calls,
            fold_lines=max(0, self.config.fold_lines),
            system_reminders=self.config.system_reminders,
            response_usage=self.config.response_usage,
            search_tool_output=self.config.search_tool_output,
            page_size=max(0, self.config.page_size),
            snippets="pymdownx.snippets" in config.markdown_extensions,
            title_format=self.config.title_format,
            summary=self.config.summary,
            tags=tuple(self.config.tags),
            export=self.config.export_json,
            timezone=self.config.timezone,
        )
        try:
            zone(self.config.timezone)
        except (ValueError, KeyError, OSError):
            raise PluginError(f"claude-transcripts: timezone '{self.config.timezone}' is not a time zone name (try 'UTC' or 'Europe/Paris')") from None
        try:  # (as a session with no title and no date fills it in)
            self.config.title_format.format(title="", date="", id="")
        except (KeyError, IndexError, AttributeError, ValueError) as error:
            raise PluginError(
                f"claude-transcripts: title_format '{self.config.title_format}' cannot be filled in ({type(error).__name__}: {error}); "
                "it may name {title}, {date} and {id}"
            ) from None
        for kind, pattern in self.config.redact_patterns.items():
            problem = check_pattern(pattern)
            if problem:
                raise PluginError(f"claude-transcripts: redact_patterns: '{kind}' is not a valid regular expression: {problem}")
        self.redactor = Redactor(
            enabled=self.config.redact,
            shorten_home=self.config.shorten_home,
            extra=self.config.redact_patterns,
            allow=self.config.redact_allow,
        )
        config.extra_css.append(STYLESHEET)
        self.cache = Cache(self._cache_dir(config), fingerprint(__version__, code_fingerprint(), asdict(self.options), self.redactor.settings()))
        others = bool(self._others(config, "page_content"))
        readers = bool(self._others(config, "page_markdown"))
        self.pages = Pages(self.cache, "", self.config.search_tool_output, html_wanted=others, others_read=readers)  # its settings: on_files
        return config

    def _cache_dir(self, config: MkDocsConfig) -> str:
        if not self.config.cache:
            self._scratch = tempfile.mkdtemp(prefix="claude-transcripts-")
            return self._scratch
        folder = self._cache_folder(config.config_file_path)
        # MkDocs empties site_dir as a build starts, and publishes what is in it.
        for name, other in (("docs_dir", config.docs_dir), ("site_dir", config.site_dir)):
            other = os.path.realpath(other)
            if folder == other or folder.startswith(other + os.sep):
                raise PluginError(f"claude-transcripts: cache_dir '{self.config.cache_dir}' is inside {name}; choose a folder outside it")
        # A folder the build cannot write in (read-only, a file in its way) would stop
        # it halfway, on whichever entry came first.
        try:
            os.makedirs(folder, exist_ok=True)
            handle, probe = tempfile.mkstemp(prefix=".tmp-", dir=folder)
            os.close(handle)
            os.unlink(probe)
            mine = claim(folder)
        except OSError as error:
            raise PluginError(
                f"claude-transcripts: cache_dir '{self.config.cache_dir}' cannot be written in ({error.strerror or error}); "
                "choose a folder you may write in, or set 'cache: false'"
            ) from None
        if not mine:
            raise PluginError(
                f"claude-transcripts: cache_dir '{self.config.cache_dir}' holds files that are not the cache's, which it would "
                "write over or remove; choose a folder of its own (such as .cache/claude-transcripts), or set 'cache: false'"
            )
        return folder

    def _cache_folder(self, config_file_path: str | None) -> str:
        base = os.path.dirname(config_file_path or "") or os.getcwd()
        return os.path.realpath(os.path.join(base, os.path.expanduser(self.config.cache_dir)))

    def _files(self, files: Files, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        # Once every plugin and hook has set the configuration up (some come after this one).
        self._code = outputs.code_digest(config)
        if self.pages is not None:
            self.pages.markdown_settings = outputs.markdown_digest(config, self._code)
        self.entries.clear()
        self.by_source.clear()
        self.started.clear()
        # Transcripts are read wherever they are, hidden folders (.claude/) included,
        # unless the user's own exclude_docs leaves them out, or draft_docs (but under
        # ``mkdocs serve``, which shows drafts).
        excluded = config.exclude_docs
        drafts = None if self._serving else config.draft_docs
        on_disk = []
        left_out = []
        self._left_out.clear()  # (for the excerpts that name them, a warning that says why they are not shown)
        for f in files:
            if not f.abs_src_path or f.generated_by:
                continue
            if excluded and excluded.match_file(f.src_uri):
                why = "exclude_docs"
            elif drafts and drafts.match_file(f.src_uri):
                why = "draft_docs"
            else:
                on_disk.append(SourceFile(f.src_uri, f.abs_src_path))
                continue
            if f.src_uri.endswith(".jsonl"):
                self._left_out[f.src_uri] = why
                left_out.append(SourceFile(f.src_uri, f.abs_src_path))
        found = _without_subagents_of(discover(on_disk), left_out, self._left_out)
        self._sources = {source.src_uri: source for source in found.sessions}
        self._excerpted.clear()
        for empty in found.empty:
            log.info(f"{empty.src_uri}: is empty; there is no session to show")
        for stranger in found.strangers:
            # (one in a session's subagents/ folder goes with the session: it is not published)
            fate = "left out" if stranger.src_uri in found.claimed else "published as it is"
            log.warning(f"{stranger.src_uri}: is named like a transcript but holds no Claude Code entries; {fate}")
        for unreadable in found.unreadable:
            log.warning(f"{unreadable.src_uri}: cannot be read as a file (a link to nothing, a pipe, a device, a file you may not read); left out")
        published = []
        for source in found.sessions:
            if self.config.include.match_file(source.src_uri) and not self.config.exclude.match_file(source.src_uri):
                published.append(source)
            else:
                log.debug(f"{source.src_uri}: left out by the include/exclude options")
        _place(published, files, config)
        keys = self._convert_ahead(published, config)
        if self.config.cache and self.cache is not None:
            self.cache.record_sources(_with_folders([path for source in found.sessions for path in source.paths()], config.docs_dir))
        totals: Counter[str] = Counter()
        self.rows.clear()
        for source, key in zip(published, keys):
            totals += self._publish(source, key, files, config)
        # (with copy_jsonl, the transcripts of the sessions published, and theirs alone)
        copied = {source.src_uri for source in published}
        copied.update(f.src_uri for source in published for f in (*source.agents, *source.companions))
        self._take_out(found.claimed, copied, files, config)
        if self._dirty:
            _with_excerpts_modified(files)
        self._add_index(files, config)
        self._prune_nav(config, totals["sessions"] + totals["subagents"])
        files.append(File.generated(config, STYLESHEET, content=stylesheet()))
        log.info(
            f"{totals['sessions']} sessions and {totals['subagents']} subagents published; "
            f"{totals['problems']} problems reported; {totals['redacted']} values redacted"
        )
        return SiteFiles(files, {src_uri: entry.page for src_uri, entry in self.by_source.items()})

    @event_priority(-110)  # after the plugins that write config.nav as they see files (literate-nav, at -100)
    def _rewrite_nav(self, files: Files, config: MkDocsConfig) -> Files | None:
        """The transcripts listed in an explicit nav, their sessions' pages instead."""
        if self.config.enabled and config.nav is not None:
            config.nav = nav.rewrite_config(config.nav, self.by_source, self.config.nav_group_size)
        return files

    on_files = CombinedEvent(_files, _rewrite_nav)

    def _convert_ahead(self, sources: list[SessionSource], config: MkDocsConfig) -> list[str]:
        """Convert the sessions the cache lacks on every core (see parallel.py); the
        sessions' keys in the cache."""
        assert self.cache is not None
        keys = [self.cache.session_key(source) for source in sources]
        missing = [(source, key) for source, key in zip(sources, keys) if not self.cache.has_session(key)]
        converter, self._converter = self._converter, None  # it serves this build alone
        meanwhile = functools.partial(parallel.warm_up, config)  # its pages are rendered next
        if converter is not None and missing and converter.convert(missing, self.options, self.redactor, self.cache, self._workers, meanwhile):
            return keys
        if converter is not None:
            converter.stop()
        parallel.convert_sessions(missing, self.options, self.redactor, self.cache, self._workers)
        return keys

    def _publish(self, source: SessionSource, key: str, files: Files, config: MkDocsConfig) -> Counter[str]:
        """Add the pages of one session to the site; log its problems and redactions."""
        if source.orphan_agent is not None:
            log.info(f"{source.src_uri}: the session of this subagent is not in the site; it has a page of its own")
        assert self.cache is not None and self.pages is not None
        stored = self.cache.load_session(key)
        if stored is None:
            stored = self.cache.convert(source, key, self.options, self.redactor)
        self.cache.keep_memo(source)
        logged = condensed(stored.problems, "mkdocs build --verbose")
        for problem in logged:
            log.log(logging.INFO if problem.level is Level.INFO else logging.WARNING, str(problem))
        listed = set(logged)
        for problem in stored.problems:
            if problem not in listed:
                log.debug(str(problem))
        if stored.redactions:
            kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(stored.redactions.items()))
            log.info(f"{source.src_uri}: redacted {kinds}")
        # What draft_docs and not_in_nav say of the session's file, or of a subagent's,
        # holds for their pages.
        own = _inclusion(files, source.src_uri)
        agents = {layout.agent_name(agent.agent_id): _inclusion(files, agent.src_uri) for agent in source.agents}
        for page in stored.pages:
            # Later parts of a long conversation are reached from its first part, not the nav.
            levels = [own, agents.get(page.agent_id or "", InclusionLevel.UNDEFINED)]
            if page.part > 1:
                levels.append(InclusionLevel.NOT_IN_NAV)
            inclusion = min(levels, key=_LEVELS.index)
            self._add(files, config, File.generated(config, page.src_uri, abs_src_path=page.path, inclusion=inclusion))
            self.pages.ours.add(page.src_uri)
            if page.digest:
                self.pages.digests[page.src_uri] = page.digest
        for src_uri, path in stored.assets:
            self._add(files, config, LinkedFile.generated(config, src_uri, abs_src_path=path))
        self.rows.append(stored.row)
        self.entries[stored.nav.page] = stored.nav
        self.by_source[source.src_uri] = stored.nav
        for agent in source.agents:  # a subagent's file, listed in nav: its page
            entry = _entry_of(stored.nav, layout.agent_page(source.place or source.src_uri, layout.agent_name(agent.agent_id)))
            if entry is not None:
                self.by_source[agent.src_uri] = entry
        self.started[stored.nav.page] = stored.started
        return Counter(
            sessions=1,
            subagents=sum(1 for page in stored.pages if page.agent_id and page.part == 1),
            problems=sum(1 for problem in stored.problems if problem.level is Level.WARNING),
            redacted=sum(stored.redactions.values()),
        )

    def _add_index(self, files: Files, config: MkDocsConfig) -> None:
        """The page listing every session (option ``index``)."""
        where = self.config.index
        if where is False or not self.rows:
            return
        assert self.cache is not None  # as it is for every session published
        if isinstance(where, str):
            page = posixpath.normpath(where.strip("/"))
            if not page.endswith(".md"):
                page = posixpath.join(page, "index.md")
            if page.startswith("../"):
                raise PluginError(f"claude-transcripts: index '{where}' is outside docs_dir; give a path inside it")
            url = _dest_uri(page, config)
            ours = next((f for f in files if f.generated_by and (f.src_uri == page or f.dest_uri == url)), None)
            if ours is not None:
                raise PluginError(f"claude-transcripts: index '{where}' is where the page {ours.src_uri} goes; give another path")
        else:
            urls = {f.dest_uri for f in files}  # a page at the same path, or the same URL, is in the way
            page = layout.index_place([row.page for row in self.rows], lambda uri: _dest_uri(uri, config) in urls)
        if page is None:
            log.info("the transcripts index has no free place; set the 'index' option to a path for it")
            return
        for number, (src_uri, markdown) in enumerate(index_pages(self.rows, page, self.options), 1):
            inclusion = InclusionLevel.NOT_IN_NAV if number > 1 else InclusionLevel.UNDEFINED
            # Backed by a file, as the sessions' pages are: some plugins read every page's file.
            self._add(files, config, File.generated(config, src_uri, abs_src_path=self.cache.store_source(markdown), inclusion=inclusion))
            if self.pages is not None:
                self.pages.ours.add(src_uri)  # its HTML and its output kept, like a session's

    def _prune_nav(self, config: MkDocsConfig, entries: int) -> None:
        if config.theme.name != "material" or self.config.prune_nav == "false":
            return
        if not isinstance(config.theme["features"] if "features" in config.theme else None, list):
            config.theme["features"] = []
        features = config.theme["features"]
        if "navigation.prune" in features:
            return
        wanted = self.config.prune_nav == "true" or (
            self.config.prune_nav == "auto" and entries > PRUNE_ABOVE and "navigation.expand" not in features
        )
        if wanted:
            features.append("navigation.prune")
            log.info(f"{entries} transcript pages in the nav: turned on Material's navigation.prune (prune_nav: false keeps the whole nav)")

    def _take_out(self, claimed: set[str], copied: set[str], files: Files, config: MkDocsConfig) -> None:
        """Transcripts and the files that belong to them are not published as they are;
        with ``copy_jsonl``, the transcripts of ``copied`` are, redacted."""
        for src_uri in claimed:
            file = files.get_file_from_path(src_uri)
            if file is None:
                continue
            files.remove(file)
            # (a pipe among them would be waited on for ever)
            if self.config.copy_jsonl and src_uri.endswith(".jsonl") and src_uri in copied and os.path.isfile(file.abs_src_path or ""):
                from .pipeline import redacted_jsonl  # the raw models, when transcripts are published

                files.append(File.generated(config, src_uri, content=redacted_jsonl(file.abs_src_path, self.redactor)))

    def _embed(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Excerpts of sessions asked for in a page of the site (see embed.py)."""
        if not self.config.enabled or (self.pages and page.file.src_uri in self.pages.ours):
            return markdown
        markdown, problems = embed(markdown, page.file.src_uri, self._load_excerpted, options=self.options)
        for problem in problems:
            log.warning(f"{page.file.src_uri}: {problem}")
        return markdown

    def _load_excerpted(self, candidates: list[str]) -> Found | None:
        for src_uri in candidates:
            source = self._sources.get(src_uri) or next((s for s in self._sources.values() if any(a.src_uri == src_uri for a in s.agents)), None)
            if source is None:
                continue
            found = self._excerpted.get(source.src_uri)
            if found is None:
                from .pipeline import session_of  # the content model, for pages that show excerpts

                session = session_of(source, self.options, self.redactor)
                found = self._excerpted[source.src_uri] = Found(session, published=source.src_uri in self.by_source)
            if src_uri == source.src_uri:
                return found
            agent = next((a.id for a in found.session.agents if a.source == src_uri), None)
            return Found(found.session, found.published, agent) if agent else None
        for src_uri in candidates:
            if src_uri in self._left_out:
                from .render.excerpt import ExcerptError

                raise ExcerptError(f"'{src_uri}' is left out of the site by MkDocs' {self._left_out[src_uri]}; its sessions cannot be excerpted")
        return None

    @event_priority(-100)
    def on_page_read_source(self, page: Page, config: MkDocsConfig) -> str | None:
        return self.pages.read_source(page) if self.pages else None

    def _hide_directives(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.pages.hide_directives(markdown, page) if self.pages else markdown

    def _cached_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.pages.markdown(markdown, page) if self.pages else markdown

    on_page_markdown = CombinedEvent(
        # First, before the plugins that want to be first (mkdocs-include-markdown-plugin,
        # at 100): no other plugin reads its directives in a transcript's code.
        event_priority(1000)(_hide_directives),
        # After the plugins that render a page's Markdown as a template (mkdocs-macros, at
        # 0), which would run what an excerpt shows of a transcript.
        event_priority(-50)(_embed),
        event_priority(-100)(_cached_markdown),  # last: what is rendered is what the other plugins made of it
    )

    def _cached_content(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.pages.content(html, page) if self.pages else html

    def _put_aside(self, html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        return self.pages.put_aside(html, page) if self.pages else html

    on_page_content = CombinedEvent(event_priority(100)(_cached_content), event_priority(-100)(_put_aside))

    def _bring_back(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        if self.pages:
            self.pages.bring_back(page)
        return context

    def _search_view(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        if self.pages:
            self.pages.search_view(page)
        return context

    def _full_view(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        if self.pages:
            self.pages.full_view(page)
        return context

    def _choose_template(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        if self.pages:
            self.pages.choose_template(context, page)
        return context

    # Material's search plugin reads pages at priority 0.
    on_page_context = CombinedEvent(
        event_priority(100)(_bring_back),
        event_priority(50)(_search_view),
        event_priority(-50)(_full_view),
        event_priority(-100)(_choose_template),  # last: what the template is given is known
    )

    def _keep_output(self, output: str, page: Page, config: MkDocsConfig) -> str:
        if self.pages:
            self.pages.keep_output(output, page)
        return output

    def _written(self, output: str, page: Page, config: MkDocsConfig) -> str:
        if self.pages:
            self.pages.written(page)
        return output

    on_post_page = CombinedEvent(event_priority(100)(_keep_output), _written)  # first: the template's own output

    @event_priority(-100)  # once every other plugin has set the environment up
    def on_env(self, env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment | None:
        compiled = self._compiled(COMPILE_WAIT)
        if not self.config.enabled or self.pages is None or self.cache is None or self._nav is None:
            return env
        # The theme's templates compiled once, not at every build (without the cache,
        # once in this build, while it went on: on_pre_build).
        code = self._code or outputs.code_digest(config)
        if (self.config.cache or compiled) and env.bytecode_cache is None:
            env.bytecode_cache = outputs.Bytecode(str(self._templates_folder()), code)
        # Outputs are kept when this plugin sees a page's context last and its output first.
        last = config.plugins.events["page_context"][-1]
        first = config.plugins.events["post_page"][0]
        if not (_is(last, TranscriptsPlugin._choose_template) and _is(first, TranscriptsPlugin._keep_output)):
            log.debug("another plugin sees pages' context after this one, or their output before: whole pages are not kept")
            return env
        # Pages are put through the template on every core (see parallel.py) where the
        # other plugins that see their context only read it.
        names = {id(plugin): name for name, plugin in config.plugins.items()}
        readers = {names.get(id(owner)) for owner in self._others(config, "page_context")}
        ahead = self._workers > 1 and workers.can_fork() and readers <= SEARCH_PLUGINS
        if self.config.cache or ahead:  # without the cache, outputs are kept for this build alone
            self.pages.keep_outputs(env, config, self._nav, files, code)
        if ahead:
            parallel.write_pages(self.pages.unwritten(files), config, files, self._nav, env, self.pages, self._workers)
        return env

    def on_pre_build(self, config: MkDocsConfig) -> None:
        search = material_search(config)
        if self.pages and self.cache and search is not None:
            self.pages.spool = Spool(search, str(self.cache.root))
        # The theme's templates, compiled while the build goes on (where no build has yet).
        if self.cache is not None and self._workers > 1:
            folder = self._templates_folder()
            if not any(folder.iterdir()):
                self._compiling = parallel.compile_templates(config, str(folder))

    def _remove_scratch(self) -> None:
        if self._scratch:
            shutil.rmtree(self._scratch, ignore_errors=True)
        self._scratch = None

    def _templates_folder(self) -> Path:
        assert self.cache is not None
        folder = self.cache.root / "templates"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _compiled(self, wait: float) -> bool:
        """Whether the theme's templates were being compiled while the build went on;
        once they are, or once ``wait`` seconds have passed (the build compiles the
        rest itself)."""
        process, self._compiling = self._compiling, None
        if process is None:
            return False
        workers.end(process, wait)
        return True

    # Right after the search plugin has written its index (priority 0), before others
    # read it (Material's offline plugin, at -100).
    @event_priority(-1)
    def on_post_build(self, config: MkDocsConfig) -> None:
        if self.pages:
            self.pages.finish(config.site_dir)
        if self.cache is not None:
            self.cache.prune()
        self._remove_scratch()

    def on_build_error(self, error: Exception) -> None:
        self._stop_converter()
        self._compiled(0)
        if self.pages:
            self.pages.abandon()
        self._remove_scratch()

    def on_nav(self, nav_: Navigation, config: MkDocsConfig, files: Files) -> Navigation | None:
        if not self.config.enabled or config.nav is not None:
            return nav_
        return nav.restructure(nav_, self.entries, self.started, self.config.nav_group_size, self.options.local)

    @event_priority(-100)  # once the nav is settled, before MkDocs renders the pages
    def _render_ahead(self, nav_: Navigation, config: MkDocsConfig, files: Files) -> None:
        """Render the pages the cache lacks on every core (see parallel.py)."""
        self._nav = nav_
        if self.cache is None or self.pages is None or not self.config.enabled:
            return
        jobs = []
        for src_uri in sorted(self.pages.ours):
            file = files.get_file_from_path(src_uri)
            if file is None or not file.is_documentation_page():
                continue
            key = self.pages.key_ahead(file)
            if not self.cache.has_html(key):
                jobs.append(parallel.PageJob(file, key))
        parallel.render_pages(jobs, config, files, self.cache, self._workers, self.pages.search_text, self.pages.markdown_settings)

    def _others(self, config: MkDocsConfig, event: str) -> list[object]:
        """The other plugins that handle ``event``."""
        owners = (getattr(method, "__self__", None) for method in config.plugins.events[event])
        return [owner for owner in owners if owner is not self]

    @property
    def _workers(self) -> int:
        return self.config.jobs or workers.cores()

    # After the plugins that make the nav of the folders as MkDocs does (awesome-pages,
    # at 0, which finds a folder by its pages), before Material's blog (-50).
    on_nav = CombinedEvent(event_priority(-10)(on_nav), _render_ahead)

    def _add(self, files: Files, config: MkDocsConfig, file: File) -> None:
        existing = files.get_file_from_path(file.src_uri)
        if existing is not None and not existing.generated_by:
            log.warning(f"{file.src_uri}: a file of docs_dir is already there; the generated one is not added")
            return
        files.append(file)


# The inclusion levels a transcript's pages take from its file, the strongest first.
_LEVELS = [InclusionLevel.DRAFT, InclusionLevel.NOT_IN_NAV, InclusionLevel.UNDEFINED]


def _inclusion(files: Files, src_uri: str) -> InclusionLevel:
    """What MkDocs' ``draft_docs`` and ``not_in_nav`` make of a transcript's file, for
    its pages (``exclude_docs`` keeps the file from being read at all)."""
    file = files.get_file_from_path(src_uri)
    if file is None or file.inclusion not in _LEVELS:
        return InclusionLevel.UNDEFINED
    return file.inclusion


def _with_excerpts_modified(files: Files) -> None:
    """Under ``--dirty``, the pages of the site that hold an excerpt are rendered again
    (as if their file had changed): the transcript it shows may have."""
    for file in files:
        if file.is_documentation_page() and not file.generated_by and file.abs_src_path:
            try:
                with open(file.abs_src_path, encoding="utf-8", errors="replace") as handle:
                    holds = EXCERPT in handle.read()
            except OSError:
                continue
            if holds:
                file.is_modified = lambda: True  # type: ignore[method-assign]


def _without_subagents_of(found: Discovery, left_out: list[SourceFile], why: dict[str, str]) -> Discovery:
    """``found`` without the subagents, each shown alone, whose session MkDocs leaves out
    (``exclude_docs``, ``draft_docs``, as ``why`` says of each file): they go with it,
    not published (their files, which ``found`` claims, not published as they are),
    and named in ``why``."""
    orphans = {source.src_uri: source for source in found.sessions if source.orphan_agent is not None}
    if not orphans or not left_out:
        return found
    whole = discover([SourceFile(source.src_uri, source.path) for source in orphans.values()] + left_out)
    for session in whole.sessions:
        if session.src_uri not in why:
            continue
        for agent in session.agents:
            orphan = orphans.pop(agent.src_uri, None)
            if orphan is not None:
                log.info(f"{agent.src_uri}: its session {session.src_uri} is left out by MkDocs' {why[session.src_uri]}; so is it")
                found.sessions = [source for source in found.sessions if source is not orphan]
                for src_uri in [orphan.src_uri, *(f.src_uri for f in orphan.companions)]:
                    why.setdefault(src_uri, why[session.src_uri])
    return found


def _entry_of(entry: NavEntry, page: str) -> NavEntry | None:
    """The entry of ``page`` in the tree of ``entry``."""
    stack = [entry]
    while stack:
        entry = stack.pop()
        if entry.page == page:
            return entry
        stack += entry.children
    return None


def _place(sources: list[SessionSource], files: Files, config: MkDocsConfig) -> None:
    """A session whose first page would be published where a page of the site is
    (``notes.jsonl`` beside ``notes.md``: both at ``notes/``), or where an earlier
    session's is (``.claude/x.jsonl`` and ``claude/x.jsonl``: both at ``claude/x/``),
    has its pages placed beside, as ``notes-session/``, so that none hides another."""
    theirs = {f.dest_uri for f in files}  # the site's own, and what plugins before this one made
    by_uri = {source.src_uri: source for source in sources}
    moved = layout.places(list(by_uri), theirs.__contains__, functools.partial(_dest_uri, config=config))
    for src_uri, place in moved.items():
        by_uri[src_uri].place = place
        log.info(f"{src_uri}: a page or file of the site, or another session's page, is where its pages would go; they go to {layout.base(place)}/")


def _dest_uri(src_uri: str, config: MkDocsConfig) -> str:
    return File(src_uri, src_dir=None, dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls).dest_uri


def _with_folders(paths: list[str], docs_dir: str) -> set[str]:
    """``paths`` and the folders holding them, up to ``docs_dir``."""
    top = os.path.realpath(docs_dir)
    found = set(paths)
    for path in paths:
        folder = os.path.dirname(os.path.realpath(path))
        while folder not in found and (folder == top or folder.startswith(top + os.sep)):
            found.add(folder)
            folder = os.path.dirname(folder)
    return found


def _is(method: object, function: object) -> bool:
    """Whether ``method`` is ``function`` bound to an object."""
    return getattr(method, "__func__", None) is function


def _load_model() -> None:
    """The content model, imported (what fails is left to the build that needs it)."""
    try:
        from . import pipeline  # noqa: F401
    except Exception:  # noqa: BLE001, S110
        pass

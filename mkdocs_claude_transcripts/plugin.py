"""The MkDocs plugin: publishes each Claude Code session found in ``docs_dir`` as pages.

It only glues MkDocs to the pipeline: it hands the pipeline the files MkDocs
found, adds the pages and images it gets back as generated files (nothing is
written into ``docs_dir``), takes the transcripts out of the site, and places
the sessions in the nav.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from datetime import datetime
from importlib import resources

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from pymdownx.superfences import fence_code_format

from . import nav
from .config import TranscriptsConfig
from .pipeline import NavEntry, SessionSource, SourceFile, convert_session, discover, redacted_jsonl
from .redact import Redactor, check_pattern
from .render.context import RenderOptions
from .render.markdown import OUTPUT_END, OUTPUT_START, PLAIN
from .report import Level

log = get_plugin_logger("claude-transcripts")

_OUTPUT = re.compile(re.escape(OUTPUT_START) + ".*?" + re.escape(OUTPUT_END), re.DOTALL)

STYLESHEET = "assets/claude-transcripts/claude-transcripts.css"
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
        self.by_source: dict[str, NavEntry] = {}  # session file -> its nav entry
        self.started: dict[str, datetime | None] = {}
        self.options = RenderOptions()
        self.redactor = Redactor()
        self._full_content: dict[str, str] = {}

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        for name in EXTENSIONS:
            if name not in config.markdown_extensions:
                config.markdown_extensions.append(name)
                log.debug(f"added the Markdown extension '{name}'")
        # Plain text is fenced as PLAIN, written as a bare <pre><code> (no Pygments).
        fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
        if not any(f.get("name") == PLAIN for f in fences):
            fences.append({"name": PLAIN, "class": PLAIN, "format": fence_code_format})
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
        )
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
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files | None:
        if not self.config.enabled:
            return files
        self.entries.clear()
        self.by_source.clear()
        self.started.clear()
        # Transcripts are read wherever they are, hidden folders (.claude/) included,
        # unless the user's own exclude_docs leaves them out.
        excluded = config.exclude_docs
        on_disk = [
            SourceFile(f.src_uri, f.abs_src_path)
            for f in files
            if f.abs_src_path and not f.generated_by and not (excluded and excluded.match_file(f.src_uri))
        ]
        found = discover(on_disk)
        for empty in found.empty:
            log.info(f"{empty.src_uri}: is empty; there is no session to show")
        for stranger in found.strangers:
            log.warning(f"{stranger.src_uri}: is named like a transcript but holds no Claude Code entries; published as it is")
        totals: Counter[str] = Counter()
        for source in found.sessions:
            if self.config.include.match_file(source.src_uri) and not self.config.exclude.match_file(source.src_uri):
                totals += self._publish(source, files, config)
            else:
                log.debug(f"{source.src_uri}: left out by the include/exclude options")
        self._take_out(found.claimed, files, config)
        files.append(File.generated(config, STYLESHEET, content=_stylesheet()))
        if config.nav is not None:
            config.nav = nav.rewrite_config(config.nav, self.by_source)
        log.info(
            f"{totals['sessions']} sessions and {totals['subagents']} subagents published; "
            f"{totals['problems']} problems reported; {totals['redacted']} values redacted"
        )
        return files

    def _publish(self, source: SessionSource, files: Files, config: MkDocsConfig) -> Counter[str]:
        """Add the pages of one session to the site; log its problems and redactions."""
        if source.orphan_agent is not None:
            log.info(f"{source.src_uri}: the session of this subagent is not in the site; it has a page of its own")
        converted = convert_session(source, self.options, self.redactor)
        problems = [problem for report in converted.reports for problem in report.problems]
        for problem in problems:
            log.log(logging.INFO if problem.level is Level.INFO else logging.WARNING, str(problem))
        if converted.redactions:
            kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(converted.redactions.items()))
            log.info(f"{source.src_uri}: redacted {kinds}")
        for page in converted.pages:
            # Later parts of a long conversation are reached from its first part, not the nav.
            inclusion = InclusionLevel.NOT_IN_NAV if page.part > 1 else InclusionLevel.UNDEFINED
            self._add(files, config, File.generated(config, page.src_uri, content=page.markdown, inclusion=inclusion))
        for asset in converted.assets:
            self._add(files, config, File.generated(config, asset.src_uri, content=asset.content))
        self.entries[converted.nav.page] = converted.nav
        self.by_source[source.src_uri] = converted.nav
        self.started[converted.nav.page] = converted.started
        return Counter(
            sessions=1,
            subagents=len(converted.pages) - 1,
            problems=len(problems),
            redacted=sum(converted.redactions.values()),
        )

    def _take_out(self, claimed: set[str], files: Files, config: MkDocsConfig) -> None:
        """Transcripts and the files that belong to them are not published as they are;
        with ``copy_jsonl``, transcripts are, redacted."""
        for src_uri in claimed:
            file = files.get_file_from_path(src_uri)
            if file is None:
                continue
            files.remove(file)
            if self.config.copy_jsonl and src_uri.endswith(".jsonl") and file.abs_src_path:
                files.append(File.generated(config, src_uri, content=redacted_jsonl(file.abs_src_path, self.redactor)))

    def _hide_output_from_search(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        """Before the search plugin reads a transcript page, take its tool output out:
        output is not indexed (unless ``search_tool_output``), and this way it is not
        even parsed, which is most of the time search indexing takes."""
        if self.config.enabled and not self.config.search_tool_output and page.content and OUTPUT_START in page.content:
            self._full_content[page.file.src_uri] = page.content
            page.content = _OUTPUT.sub("", page.content)
        return context

    def _show_output_again(self, context: dict, page: Page, config: MkDocsConfig, nav: Navigation) -> dict:
        full = self._full_content.pop(page.file.src_uri, None)
        if full is not None:
            page.content = full
        return context

    on_page_context = CombinedEvent(
        event_priority(50)(_hide_output_from_search),
        event_priority(-50)(_show_output_again),
    )

    def on_nav(self, nav_: Navigation, config: MkDocsConfig, files: Files) -> Navigation | None:
        if not self.config.enabled or config.nav is not None:
            return nav_
        return nav.restructure(nav_, self.entries, self.started)

    def _add(self, files: Files, config: MkDocsConfig, file: File) -> None:
        existing = files.get_file_from_path(file.src_uri)
        if existing is not None and not existing.generated_by:
            log.warning(f"{file.src_uri}: a file of docs_dir is already there; the generated one is not added")
            return
        files.append(file)


def _stylesheet() -> bytes:
    return resources.files(__package__).joinpath("assets/claude-transcripts.css").read_bytes()

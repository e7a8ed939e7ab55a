"""Whole pages from the cache: a transcript page whose theme output would be the same
as at an earlier build is not put through the theme's template again.

The theme's template writes the whole nav into every page, which makes writing the
pages the largest part of a rebuild. What it writes for a page is decided by the
page (its HTML, title, table of contents, front matter, neighbours), the site (its
configuration, its nav, the theme's templates, the versions of MkDocs and of the
theme, the build's date if the theme writes it) and what other plugins add to the
template's context. All of it goes into a
key, taken once every plugin has seen the page's context; a page whose key is in
the cache is written from it.

The template is chosen before plugins see the context, so a transcript page is
given a template of its own which extends either the page's own template (the
output is the same as if it were used directly) or one that writes the kept
output.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import types
from collections.abc import Iterable, Mapping
from typing import Any

import jinja2
import jinja2.meta
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import get_build_datetime

from .cache import bytes_digest, file_hash, fingerprint, package_version, text_digest

PROXY = "claude-transcripts/page.html"  # the template of a transcript page
KEPT = "claude-transcripts/kept.html"  # writes an output kept in the cache
CHOICE = "claude_transcripts_template"  # the context variable the proxy extends

TEMPLATES = {
    PROXY: "{% extends " + CHOICE + " %}",
    KEPT: "{{ page.content|safe }}",
}

# What MkDocs itself puts in a page's context; anything else was added by a plugin.
_BASE_CONTEXT = frozenset({"nav", "pages", "base_url", "extra_css", "extra_javascript", "mkdocs_version", "build_date_utc", "config", "page", CHOICE})  # fmt: skip
_SKIPPED_THEME_FOLDERS = {".icons", "assets", "__pycache__"}
# Settings of how MkDocs is run rather than of what it makes (and where the project
# is: the pages' sources are known by their bytes).
_RUN = ("config_file_path", "site_dir", "strict", "docs_dir")
# What a template may write that changes from one build of a site to the next: the
# build's date, and those settings.
_WRITTEN = ("build_date_utc", *_RUN)


def site_digest(config: MkDocsConfig, nav: Navigation, files: Files, env: jinja2.Environment, code: str) -> str:
    """Everything of the site that the theme's template may write into any page;
    ``code``: ``code_digest(config)``."""
    theme = config.theme
    custom, written = _theme_files(theme.dirs)
    # How MkDocs was run (the configuration file named by its whole path or as
    # `mkdocs.yml`, a site folder of its own, --strict) makes the same pages, unless a
    # template writes it.
    settings = {key: value for key, value in config.items() if key != "plugins" and (key not in _RUN or key in written)}
    project = os.path.dirname(config.config_file_path or "")
    return fingerprint(
        settings,
        {name: plugin for name, plugin in config.plugins.items()},
        theme.name, dict(theme), [_where(folder, project) for folder in theme.dirs], custom, code,
        _nav(nav.items), nav.homepage.url if nav.homepage else None,
        sorted(file.url for file in files.documentation_pages()),
        dict(env.globals), _functions(env),  # (their values: a release number a hook sets)
        # A theme that writes the build's date: a build's pages are its own (unless
        # SOURCE_DATE_EPOCH sets the date).
        get_build_datetime().isoformat() if "build_date_utc" in written else None,
    )  # fmt: skip


def _where(folder: str, project: str) -> str:
    """A theme's folder, the same wherever the project and its virtualenv are: an
    installed package's from the packages' folder on, a site's own relative to the
    project's folder (a cache kept for a clone made elsewhere writes its pages)."""
    for packages in ("site-packages", "dist-packages"):
        if packages in folder:
            return folder[folder.index(packages) :]
    return os.path.relpath(folder, project) if project else folder


def page_digest(site: str, page: Page, context: Mapping[str, Any], toc: Any, template: str, content: str | None) -> str:
    """The key of what ``template`` makes of ``page`` with ``context``; ``content``
    names the page's HTML when it is known, else the HTML is hashed."""
    neighbours = [(p.title, p.url) if p is not None else None for p in (page.previous_page, page.next_page)]
    added = {key: value for key, value in context.items() if key not in _BASE_CONTEXT}
    if content is None:
        content = text_digest(page.content or "")
    return fingerprint(
        site, template, page.file.src_uri, page.url, page.title, page.meta, toc, neighbours, page.edit_url,
        page.canonical_url, str(page.file.inclusion), added, content,
    )  # fmt: skip


def code_digest(config: MkDocsConfig) -> str:
    """The code that the theme's templates may run, and that a template's compiling
    may: the versions of MkDocs, Jinja and the packages of the theme and the plugins,
    and the site's hooks files."""
    return fingerprint(_versions(config.theme.name, config.plugins), _hooks(config.plugins))


def markdown_digest(config: MkDocsConfig, code: str) -> str:
    """What a page's HTML depends on besides its Markdown and this package's code: the
    site's Markdown extensions and their settings, the code that may take part in
    rendering (``code``: ``code_digest``; the modules of extensions from other
    packages than Python-Markdown's and pymdown-extensions', which ``cache`` knows by
    their versions), and the files pymdownx.snippets adds to every page (its
    ``auto_append``: a glossary of abbreviations). Taken once every plugin and hook
    has set the configuration up."""
    snippets = config.mdx_configs.get("pymdownx.snippets") or {}
    return fingerprint(
        config.markdown_extensions, config.mdx_configs, config.use_directory_urls, code,
        _extension_modules(config.markdown_extensions), _appended(snippets) if "pymdownx.snippets" in config.markdown_extensions else [],
    )  # fmt: skip


# Python-Markdown's own extensions, named without their package.
_MARKDOWN_OWN = frozenset(
    {"abbr", "admonition", "attr_list", "codehilite", "def_list", "extra", "fenced_code", "footnotes", "legacy_attrs",
     "legacy_em", "md_in_html", "meta", "nl2br", "sane_lists", "smarty", "tables", "toc", "wikilinks"}
)  # fmt: skip
_KNOWN_PACKAGES = frozenset({"markdown", "pymdownx", "mkdocs_claude_transcripts"})


def _extension_modules(extensions: Iterable[Any]) -> list[list[Any]]:
    """The files of the extensions' modules from other packages, by their bytes."""
    found = []
    for extension in extensions:
        name = (extension if isinstance(extension, str) else type(extension).__module__).split(":")[0]
        if name in _MARKDOWN_OWN or name.split(".")[0] in _KNOWN_PACKAGES:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin:
            found.append([name, file_hash(spec.origin)])
    return found


def _appended(snippets: Mapping[str, Any]) -> list[list[Any]]:
    """The files pymdownx.snippets appends to every page, by their bytes, wherever
    it may find them."""
    bases = snippets.get("base_path", ["."])
    bases = [bases] if isinstance(bases, str) else list(bases or [])
    paths = [os.path.join(str(base), str(name)) for name in snippets.get("auto_append") or [] for base in bases]
    return [[path, file_hash(path)] for path in paths]


class Bytecode(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, which knows a template by its name and
    source, here also by the settings of the environment that compiles it (a plugin
    that turns on autoescaping, adds an extension or a filter, has the templates
    compiled anew) and by ``code`` (``code_digest``: Jinja calls a filter given
    constants as it compiles the template, and keeps what it gave)."""

    def __init__(self, directory: str, code: str) -> None:
        super().__init__(directory)
        self.code = code

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> jinja2.bccache.Bucket:
        key = fingerprint(self.get_cache_key(name, filename), _compiling(environment), self.code)
        bucket = jinja2.bccache.Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket


def _compiling(env: jinja2.Environment) -> list[Any]:
    """What of ``env`` its compiled templates depend on. A call of a filter or test is
    compiled by what the function asks for (the context, the environment), and a call
    with constant arguments may be made as the template is compiled: the functions
    count, by name."""
    named = [getattr(value, "__qualname__", value) for value in (env.autoescape, env.finalize)]
    return [sorted(env.extensions), env.block_start_string, env.block_end_string, env.variable_start_string,
            env.variable_end_string, env.comment_start_string, env.comment_end_string, env.line_statement_prefix,
            env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
            env.optimized, *map(str, named), _functions(env), jinja2.__version__]  # fmt: skip


def _functions(env: jinja2.Environment) -> list[list[tuple[str, str]]]:
    """The filters and tests of ``env``, each by its name, its function's module and
    name, and what it asks for (``jinja2.pass_context``...)."""

    def named(function: Any) -> str:
        name = getattr(function, "__qualname__", None) or type(function).__qualname__
        return f"{getattr(function, '__module__', '')}.{name} {getattr(function, 'jinja_pass_arg', '')}"

    return [sorted((name, named(function)) for name, function in table.items()) for table in (env.filters, env.tests)]


def compile_templates(env: jinja2.Environment, names: Iterable[str]) -> int:
    """Compile ``names``, and the templates they name by a constant (``extends``,
    ``include``, ``import``), into ``env``'s bytecode cache; how many were compiled.
    A template that cannot be compiled is left to the build, which reports it."""
    cache = env.bytecode_cache
    if cache is None or env.loader is None:
        return 0
    compiled, seen, todo = 0, set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            source, filename, _ = env.loader.get_source(env, name)
            parsed = env.parse(source, name, filename)
            todo.extend(found for found in jinja2.meta.find_referenced_templates(parsed) if found)
            bucket = cache.get_bucket(env, name, filename, source)
            if bucket.code is None:
                bucket.code = env.compile(parsed, name, filename)
                cache.set_bucket(bucket)
                compiled += 1
        except Exception:  # noqa: BLE001 (the build compiles it again, and says what is wrong)
            continue
    return compiled


def templates(env: jinja2.Environment) -> None:
    """Let ``env`` find the templates of transcript pages."""
    ours = jinja2.DictLoader(TEMPLATES)
    env.loader = jinja2.ChoiceLoader([ours, env.loader]) if env.loader else ours


def _nav(items: Iterable[Any]) -> list[Any]:
    entries = []
    for item in items:
        entry = [type(item).__name__, item.title, getattr(item, "url", None)]
        if isinstance(item, Page):
            entry.append({k: v for k, v in item.meta.items() if k != "template"})
        if getattr(item, "children", None):
            entry.append(_nav(item.children))
        entries.append(entry)
    return entries


def _theme_files(folders: Iterable[str]) -> tuple[list[Any], set[str]]:
    """The theme's files outside installed packages (a site's ``custom_dir``), by
    their bytes (installed themes are known by their version); and which of
    ``_WRITTEN`` the theme's templates name."""
    found: list[Any] = []
    written: set[str] = set()
    for folder in folders:
        installed = "site-packages" in folder or "dist-packages" in folder
        for root, subfolders, names in os.walk(folder):
            # (A site's own icons, which templates write into pages, are looked at.)
            subfolders[:] = sorted(d for d in subfolders if d not in _SKIPPED_THEME_FOLDERS or (d == ".icons" and not installed))
            for name in sorted(names):
                path = os.path.join(root, name)
                reads = name.endswith(".html") and len(written) < len(_WRITTEN)
                if installed and not reads:
                    continue
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                if reads:
                    source = data.decode("utf-8", errors="replace")
                    written.update(word for word in _WRITTEN if word in source)
                if not installed:
                    found.append((os.path.relpath(path, folder), bytes_digest(data)))
    return found, written


def _versions(theme: str | None, plugins: Iterable[str]) -> list[tuple[str, str]]:
    """The versions of MkDocs, Jinja and the packages of the theme and the plugins."""
    versions = [(name, version) for name in ("mkdocs", "jinja2") if (version := package_version(name)) is not None]
    for group, names in (("mkdocs.themes", {theme}), ("mkdocs.plugins", set(plugins))):
        for entry in importlib.metadata.entry_points(group=group):
            if entry.name in names and entry.dist is not None:
                versions.append((entry.dist.name, entry.dist.version))
    return sorted(set(versions))


def _hooks(plugins: Mapping[str, Any]) -> list[list[Any]]:
    """The files of the site's hooks (``hooks:``), by their bytes."""
    files = {name: getattr(plugin, "__file__", None) for name, plugin in plugins.items() if isinstance(plugin, types.ModuleType)}
    return sorted([name, file_hash(path)] for name, path in files.items() if path)

"""The command line: ``mkdocs-claude-transcripts`` or ``python -m mkdocs_claude_transcripts``."""

from __future__ import annotations

import argparse
import sys

from .workers import loading


def program() -> None:
    """The command, in a process of its own: what it loads stays loaded (see
    ``workers.loading``), for its workers to share."""
    with loading():
        from . import convert  # noqa: F401
    sys.exit(main())


def main(argv: list[str] | None = None) -> int:
    from .console import say
    from .convert import Request, UsageError, run
    from .render.context import RenderOptions
    from .render.flavour import FLAVOURS

    parser = argparse.ArgumentParser(prog="mkdocs-claude-transcripts", description="Claude Code transcripts as documentation.")
    commands = parser.add_subparsers(dest="command", required=True)
    convert = commands.add_parser(
        "convert",
        help="write the pages of transcripts to a folder or a single file, without MkDocs",
        description="Write the Markdown pages of Claude Code transcripts (sessions, subagents, an index, images, "
        "session.json) into a folder, or all of them into one file.",
    )
    convert.add_argument("paths", nargs="+", metavar="PATH", help="transcript files, or folders holding them")
    convert.add_argument("-o", "--out", help="the folder to write to; with --single-file, the file ('-' or none: stdout)")
    convert.add_argument("--single-file", action="store_true", help="everything in one file, each conversation in one piece")
    convert.add_argument("--max-chars", type=int, help="with --single-file: cut the output to fit, e.g. 65000 for a GitHub comment")
    convert.add_argument("--flavour", "--flavor", choices=sorted(FLAVOURS), default="material",
                         help="material (the default: Material for MkDocs, Zensical) or github (GitHub's Markdown)")  # fmt: skip
    convert.add_argument("--report", action="store_true", help="write nothing: say what would be redacted and what is wrong")
    convert.add_argument("--no-redact", action="store_true", help="leave secrets as they are (for a look of your own)")
    convert.add_argument("--no-json", action="store_true", help="write no session.json beside each session's pages")
    convert.add_argument("--thinking", choices=["shown", "collapsed", "hidden"], default="collapsed")
    convert.add_argument("--tool-calls", choices=["open", "collapsed"], default="collapsed")
    convert.add_argument("--timezone", default="UTC", type=_zone_name, help="the time zone times are shown in (an IANA name)")
    convert.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: one per core; 1: none)")
    report = commands.add_parser("coverage", help="count the kinds of entry, block and tool in transcripts, and what shows each")
    report.add_argument("paths", nargs="+", help="transcript files or folders holding them")
    reference = commands.add_parser("config-reference", help="print the table of the plugin's options, as in the README")
    reference.add_argument("--docs", action="store_true", help="with links as from docs/configuration.md")
    commands.add_parser("schema", help="print the JSON Schema of session.json, as in docs/session.schema.json")
    args = parser.parse_args(argv)
    if args.command == "convert":
        options = RenderOptions(thinking=args.thinking, tool_calls=args.tool_calls, timezone=args.timezone, export=not args.no_json)
        request = Request(
            paths=args.paths, out=args.out, single_file=args.single_file, max_chars=args.max_chars,
            flavour=args.flavour, report=args.report, options=options, redact=not args.no_redact, jobs=args.jobs,
        )  # fmt: skip
        try:
            return run(request)
        except UsageError as problem:
            say(f"{parser.prog} convert: error: {problem}", sys.stderr)
            return 2
    # Each command imports only what it needs (the plugin's configuration needs MkDocs).
    if args.command == "coverage":
        from .coverage import coverage

        try:
            say(coverage(args.paths).text(), sys.stdout)
        except UsageError as problem:
            say(f"{parser.prog} coverage: error: {problem}", sys.stderr)
            return 2
    elif args.command == "config-reference":
        from .reference import markdown_table

        print(markdown_table(within_docs=args.docs))
    elif args.command == "schema":
        from .insights.export import schema

        sys.stdout.write(schema())
    return 0


def _zone_name(name: str) -> str:
    """``name``, when it names a time zone (argparse says what is wrong otherwise)."""
    from .render.context import zone

    try:
        zone(name)
    except (ValueError, KeyError, OSError):
        raise argparse.ArgumentTypeError(f"'{name}' is not a time zone name (try 'UTC' or 'Europe/Paris')") from None
    return name


if __name__ == "__main__":
    program()

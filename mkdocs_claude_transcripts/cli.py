"""The command line: ``mkdocs-claude-transcripts`` or ``python -m mkdocs_claude_transcripts``."""

from __future__ import annotations

import argparse
import sys

from .coverage import coverage
from .insights.export import schema
from .reference import markdown_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mkdocs-claude-transcripts", description="Claude Code transcripts as documentation.")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("coverage", help="count the kinds of entry, block and tool in transcripts, and what shows each")
    report.add_argument("paths", nargs="+", help="transcript files or folders holding them")
    commands.add_parser("config-reference", help="print the table of the plugin's options, as in the README")
    commands.add_parser("schema", help="print the JSON Schema of session.json, as in docs/session.schema.json")
    args = parser.parse_args(argv)
    if args.command == "coverage":
        print(coverage(args.paths).text())
    elif args.command == "config-reference":
        print(markdown_table())
    elif args.command == "schema":
        sys.stdout.write(schema())
    return 0


if __name__ == "__main__":
    sys.exit(main())

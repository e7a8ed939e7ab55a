"""Publish Claude Code session transcripts as MkDocs pages."""

__version__ = "0.1.0"

"""Read Claude Code's JSONL transcripts: raw entries, the reader, and discovery."""

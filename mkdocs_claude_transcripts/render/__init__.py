"""Render the content model as Markdown pages."""

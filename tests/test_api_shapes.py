"""Shapes the reference documents and the Messages API describe that the corpus does
not hold: each is shown where it belongs, and nothing it carries is lost."""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs_claude_transcripts.pipeline import SourceFile, convert_session, discover
from mkdocs_claude_transcripts.render.context import RenderOptions

from .test_bad_input import SESSION, entry, lines


def converted(tmp_path: Path, n: int, *items: object):
    path = tmp_path / f"{SESSION.format(n)}.jsonl"
    path.write_bytes(lines(*items))
    return convert_session(discover([SourceFile(path.name, str(path))]).sessions[0], RenderOptions())


def answer(n: int, *blocks: dict) -> dict:
    return entry(n, "assistant", message={"id": f"response-{n}", "role": "assistant", "content": list(blocks)})


def test_a_server_tools_result_goes_with_its_call(tmp_path: Path) -> None:
    """A web search the API ran itself: its call (``server_tool_use``) and its result
    (``web_search_tool_result``) are in the same response. The call said "No result was
    recorded" and the result was an unknown block of its own."""
    search = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "mkdocs plugins"}}
    found = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
        {"type": "web_search_result", "url": "https://example.org/plugins", "title": "Writing plugins", "encrypted_content": "x", "page_age": "2 days"}]}  # fmt: skip
    failed = {"type": "server_tool_use", "id": "srvtoolu_2", "name": "web_search", "input": {"query": "again"}}
    error = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_2", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}
    done = converted(tmp_path, 80, entry(1), answer(2, search, found, {"type": "text", "text": "Here is what I found."}), answer(3, failed, error))
    page = done.pages[0].markdown
    assert "Unknown" not in page and "No result was recorded" not in page
    call = page[page.index("web\\_search · mkdocs plugins") : page.index("Here is what I found.")]
    assert "Writing plugins" in call and "https://example.org/plugins (2 days)" in call
    assert "Error: max\\_uses\\_exceeded" in page or "Error: max_uses_exceeded" in page
    stats = json.loads(done.assets[-1].content)["stats"]
    assert (stats["tool_calls"], stats["errors"]) == (2, 1)


def test_the_skills_given_again_after_a_compaction_are_shown(tmp_path: Path) -> None:
    """``invoked_skills`` (2.1) holds its skills in ``skills``, a field no reminder was
    read from: the entry was counted as saying nothing, and the skills' text was lost."""
    skills = {"type": "invoked_skills", "skills": [
        {"name": "release-notes", "path": "userSettings:release-notes", "content": "Write the notes from the merged pull requests."}]}  # fmt: skip
    done = converted(tmp_path, 81, entry(1), entry(2, "attachment", attachment=skills))
    page = done.pages[0].markdown
    assert "release-notes · userSettings:release-notes" in page.replace("\\", "")
    assert "Write the notes from the merged pull requests." in page


def test_the_sources_a_text_cites_are_listed_after_it(tmp_path: Path) -> None:
    """``citations`` on a text block (a web page found by a search, a part of a document)
    were dropped: the answer showed with nothing of where it came from."""
    cited = {"type": "text", "text": "MkDocs 1.6 is the current release.", "citations": [
        {"type": "web_search_result_location", "url": "https://example.org/news", "title": "Release [notes]", "cited_text": "1.6 was released in April."},
        {"type": "char_location", "document_title": "CHANGELOG", "cited_text": "Version 1.6", "document_index": 0, "start_char_index": 0, "end_char_index": 11}]}  # fmt: skip
    done = converted(tmp_path, 82, entry(1), answer(2, cited))
    page = done.pages[0].markdown
    answer_at = page.index("MkDocs 1.6 is the current release.")
    assert answer_at < page.index("- Release \\[notes\\] · <https://example.org/news>: \u201c1\\.6 was released in April.\u201d")
    assert "- CHANGELOG: \u201cVersion 1.6\u201d" in page
    block = json.loads(done.assets[-1].content)["messages"][1]["contentBlocks"][0]  # session.json keeps them with the text
    assert [s["url"] for s in block["sources"]] == ["https://example.org/news", ""] and block["sources"][1]["title"] == "CHANGELOG"


def test_the_sources_of_an_answer_in_parts_follow_the_whole_answer_once(tmp_path: Path) -> None:
    """An answer with a search's results comes as many text blocks, each citing its
    sources: they are listed once, after the answer's last words, not between its
    sentences."""
    source = {"type": "web_search_result_location", "url": "https://example.org/a", "title": "A", "cited_text": "a"}
    other = {"type": "web_search_result_location", "url": "https://example.org/b", "title": "B", "cited_text": "b"}
    parts = [{"type": "text", "text": "First,"}, {"type": "text", "text": "cited once", "citations": [source]},
             {"type": "text", "text": "and then", "citations": [source, other]}, {"type": "text", "text": "the end."}]  # fmt: skip
    done = converted(tmp_path, 83, entry(1), answer(2, *parts))
    page = done.pages[0].markdown
    assert page.count("Sources:") == 1 and page.count("https://example.org/a") == 1
    assert page.index("the end.") < page.index("Sources:") < page.index("A · <https://example.org/a>") < page.index("B · <https://example.org/b>")


def test_an_edit_of_every_occurrence_says_so_with_its_diff_or_with_the_patch_recorded(tmp_path: Path) -> None:
    edit = {"type": "tool_use", "id": "toolu_e", "name": "Edit",
            "input": {"file_path": "/p/app.py", "old_string": "colour", "new_string": "color", "replace_all": True}}  # fmt: skip
    patch = {"filePath": "/p/app.py", "structuredPatch": [{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1, "lines": ["-colour = 1", "+color = 1"]}]}
    result = entry(3, message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_e", "content": "updated"}]}, toolUseResult=patch)
    for n, items in ((84, (entry(1), answer(2, edit))), (85, (entry(1), answer(2, edit), result))):
        page = converted(tmp_path, n, *items).pages[0].markdown
        assert "every occurrence replaced" in page, n


def test_the_task_list_a_reminder_gives_the_model_is_a_checklist(tmp_path: Path) -> None:
    todos = {"type": "todo_reminder", "itemCount": 2, "content": [
        {"content": "Write the parser", "status": "completed", "activeForm": "Writing the parser"},
        {"content": "Test it", "status": "in_progress", "activeForm": "Testing it"}]}  # fmt: skip
    tasks = {"type": "task_reminder", "itemCount": 1, "content": [{"id": "1", "subject": "Ship the release", "status": "blocked"}]}
    page = converted(tmp_path, 86, entry(1), entry(2, "attachment", attachment=todos), entry(3, "attachment", attachment=tasks)).pages[0].markdown
    assert "☑ Write the parser" in page and "◐ **Test it**" in page and "☐ Ship the release (blocked)" in page
    assert "activeForm" not in page

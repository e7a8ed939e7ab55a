"""Links between a session's pages and its subagents' hold in shapes of the format
that are rare: an agent resumed by a second call, ids that look like a page's part,
calls whose anchors another conversation of the session also has."""

from __future__ import annotations

import json
from pathlib import Path

from bs4 import BeautifulSoup

from .conftest import build, make_site

SESSION = "a9e47000-0000-4000-8000-000000000001"


class Writer:
    """The lines of one conversation (the session's, or an agent's file)."""

    def __init__(self, agent: str | None = None) -> None:
        self.agent, self.lines, self.parent = agent, [], None

    def add(self, kind: str, message: dict, **fields: object) -> None:
        uuid = f"{len(self.lines):08x}-{(self.agent or 'main').encode().hex()[:4]:0>4}-4000-8000-000000000000"
        line = {"type": kind, "uuid": uuid, "parentUuid": self.parent, "sessionId": SESSION, "version": "2.1.30",
                "timestamp": f"2025-05-05T10:00:{len(self.lines):02d}.000Z", "message": message, **fields}  # fmt: skip
        if self.agent:
            line.update(isSidechain=True, agentId=self.agent)
        self.lines.append(line)
        self.parent = uuid

    def prompt(self, text: str) -> None:
        self.add("user", {"role": "user", "content": text})

    def answer(self, text: str) -> None:
        self.add("assistant", {"id": f"msg_{len(self.lines)}", "role": "assistant", "model": "m", "content": [{"type": "text", "text": text}]})

    def task(self, call: str, description: str, agent: str, **more: object) -> None:
        tool_use = {"type": "tool_use", "id": call, "name": "Task", "input": {"description": description, "prompt": description, "subagent_type": "Explore", **more}}
        self.add("assistant", {"id": f"msg_{len(self.lines)}", "role": "assistant", "model": "m", "content": [tool_use]})
        result = {"type": "tool_result", "tool_use_id": call, "content": f"Done.\nagentId: {agent}"}
        self.add("user", {"role": "user", "content": [result]}, toolUseResult={"agentId": agent, "status": "completed"})

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")


def site_of(tmp_path: Path, main: Writer, agents: list[Writer], options: str = "") -> Path:
    root = make_site(tmp_path, plugin_options=options)
    main.write(root / "docs" / "s" / f"{SESSION}.jsonl")
    for agent in agents:
        agent.write(root / "docs" / "s" / SESSION / "subagents" / f"agent-{agent.agent}.jsonl")
    return build(root) / "s" / SESSION


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def subagent_links(page: Path) -> list[str]:
    return [a["href"] for a in soup(page).find_all("a") if a.parent and a.parent.get_text().startswith("Subagent:")]


def test_an_agent_resumed_by_a_second_call_is_linked_from_both_calls(tmp_path: Path) -> None:
    """A Task call with ``resume`` goes on with an agent an earlier call started: its
    result names the same agent, whose file holds both runs."""
    main, agent = Writer(), Writer("a0c0ffe")
    main.prompt("Look into it.")
    main.task("toolu_01FirstRunOfTheAgent00", "Look", "a0c0ffe")
    main.prompt("Go on.")
    main.task("toolu_01SecondRunOfTheAgent0", "Look again", "a0c0ffe", resume="a0c0ffe")
    agent.prompt("Look")
    agent.answer("Found it.")
    agent.prompt("Look again")
    agent.answer("Found more.")
    pages = site_of(tmp_path, main, [agent])
    assert subagent_links(pages / "index.html") == ["agent-a0c0ffe/", "agent-a0c0ffe/"]
    back = soup(pages / "agent-a0c0ffe" / "index.html").find("a", string="Look into it.")
    assert back["href"].endswith("#t-OfTheAgent00")  # started by the first call


def test_an_agent_whose_id_ends_as_a_part_does_not_take_another_agents_part(tmp_path: Path) -> None:
    """Agent ``ab``'s second part is ``agent-ab-part-2``: an agent of the id ``ab-part-2``
    gets a page of another name."""
    main, long_one, other = Writer(), Writer("ab"), Writer("ab-part-2")
    main.prompt("Start both.")
    main.task("toolu_01StartTheLongAgent000", "Long", "ab")
    main.task("toolu_01StartTheOtherAgent00", "Other", "ab-part-2")
    long_one.prompt("Long")
    for turn in range(6):
        long_one.prompt(f"Turn {turn}: " + "words to fill a page " * 80)
        long_one.answer(f"Long answer {turn}. " + "more words " * 80)
    other.prompt("Other")
    other.answer("The other agent's answer.")
    pages = site_of(tmp_path, main, [long_one, other], options="page_size: 6000")
    assert "The other agent's answer." not in (pages / "agent-ab-part-2" / "index.html").read_text(encoding="utf-8")
    other_page = pages / subagent_links(pages / "index.html")[1] / "index.html"
    assert "The other agent's answer." in other_page.read_text(encoding="utf-8")
    shown = "".join(path.read_text(encoding="utf-8") for path in pages.glob("agent-ab*/index.html"))
    assert all(f"Long answer {turn}." in shown for turn in range(6))


def test_an_agent_started_by_an_agent_links_back_to_that_agents_call_whatever_the_session_holds(tmp_path: Path) -> None:
    """Anchors are unique within a conversation, not across a session's: the call
    that started an agent is looked for in the conversation that made it (here the
    session and the outer agent each have a call whose anchor is ``t-sameSuffix12``)."""
    main, outer, inner = Writer(), Writer("aouter"), Writer("ainner")
    main.prompt("Start.")
    main.task("toolu_01AAAAsameSuffix12", "Outer", "aouter")
    outer.prompt("Outer")
    outer.task("toolu_01BBBBsameSuffix12", "Inner", "ainner")
    outer.answer("Outer done.")
    inner.prompt("Inner")
    inner.answer("Inner done.")
    pages = site_of(tmp_path, main, [outer, inner])
    back = soup(pages / "agent-ainner" / "index.html").find("p", string=lambda text: bool(text) and text.startswith("Started by"))
    back = back or next(p for p in soup(pages / "agent-ainner" / "index.html").find_all("p") if p.get_text().startswith("Started by"))
    assert back.a["href"] == "../agent-aouter/#t-sameSuffix12"


def test_parallel_calls_of_one_prompt_each_lead_to_the_agent_that_answered_them(tmp_path: Path) -> None:
    """Claude Code 1.0 writes subagents' lines into the session file, tied to their call
    by nothing but the prompt: of two calls sent the same prompt at once, each leads to
    the agent whose answer its result holds, whichever agent's lines come first."""
    main = Writer()
    main.prompt("Ask twice.")
    calls = [{"type": "tool_use", "id": f"toolu_01Parallel{n}", "name": "Task", "input": {"description": "Same", "prompt": "Count the files."}} for n in (1, 2)]
    main.add("assistant", {"id": "msg_1", "role": "assistant", "model": "m", "content": calls})
    asked = main.parent
    for answer in ("Second agent: 7 files.", "First agent: 5 files."):  # the second call's agent writes first
        main.parent = None
        main.add("user", {"role": "user", "content": "Count the files."}, isSidechain=True)
        main.add("assistant", {"id": f"msg_{answer[:5]}", "role": "assistant", "model": "m", "content": [{"type": "text", "text": answer}]}, isSidechain=True)
    main.parent = asked
    for n, answer in ((1, "First agent: 5 files."), (2, "Second agent: 7 files.")):
        main.add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_01Parallel{n}", "content": [{"type": "text", "text": answer}]}]})
    for line in main.lines:
        line["version"] = "1.0.60"
    pages = site_of(tmp_path, main, [])
    first, second = subagent_links(pages / "index.html")
    assert "First agent: 5 files." in (pages / first / "index.html").read_text(encoding="utf-8")
    assert "Second agent: 7 files." in (pages / second / "index.html").read_text(encoding="utf-8")

"""The example site in a real browser: Debian's Chromium, driven by Playwright.

The site is built with the recommended configuration (example_site/mkdocs.yml:
navigation.instant, navigation.indexes, navigation.prune, content.code.copy,
search.highlight, a light and a dark scheme) and served on localhost. Skipped when
Playwright or Chromium is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from .browser import ARGS, built_example, serve
from .conftest import ROOT, build, copy_tree

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"  # a Task call, an Explore subagent, a failing test
BLOCKS = "article :is(.admonition, details)[class*='ct-']"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve(built_example(tmp_path_factory.mktemp("example")))


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """The pages of the example site with every golden case added: every kind of
    block is on one of them."""
    root = tmp_path_factory.mktemp("kinds")
    copy_tree(ROOT / "tests" / "golden", root / "docs" / "cases")
    for stray in (root / "docs" / "cases").glob("*.md"):
        stray.unlink()
    site = built_example(root, strict=False)  # some cases hold bad lines, on purpose
    pages = sorted(p.parent.relative_to(site).as_posix() for p in (site / "cases").rglob("index.html"))
    for url in serve(site):
        yield [f"{url}{page}/" for page in pages]


@pytest.fixture(scope="module")
def split_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example site with small pages, so that sessions are shown in parts."""
    yield from serve(built_example(tmp_path_factory.mktemp("split"), "      page_size: 3000\n"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


LOCAL = "http://127.0.0.1:"
THEME_HOSTS = ("https://fonts.googleapis.com/", "https://fonts.gstatic.com/")  # Material's web font


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A page of the browser; the test fails if it logs an error to the console, or
    asks for anything from elsewhere than the site but the theme's web font (which
    is answered empty: the tests run offline)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    elsewhere: list[str] = []

    def offline(route) -> None:  # type: ignore[no-untyped-def]
        elsewhere.append(route.request.url)
        route.fulfill(status=200, body="", content_type="text/css")

    context.route(lambda address: not address.startswith(LOCAL), offline)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    errors: list[str] = []
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert errors == [], errors
    assert all(address.startswith(THEME_HOSTS) for address in elsewhere), elsewhere


def session_pages(url: str) -> list[str]:
    return [f"{url}transcripts/{S1}/", f"{url}transcripts/9c41d2aa-05e7-4f3b-8c2d-6e1f7a9b3c58/",
            f"{url}transcripts/d07e5b21-4c9a-4b8e-a3f6-71c2e9d04a86/"]  # fmt: skip


def agent_pages(page, url: str) -> list[str]:
    found: list[str] = []
    for address in session_pages(url):
        page.goto(address)
        hrefs = page.eval_on_selector_all("nav.md-nav--primary a[href*='agent-']", "links => links.map(a => a.href)")
        found += [href for href in hrefs if href not in found]
    return found


def test_every_kind_of_block_has_its_own_icon_and_colour(page, kinds: list[str]) -> None:
    css = (ROOT / "mkdocs_claude_transcripts" / "assets" / "claude-transcripts.css").read_text(encoding="utf-8")
    styled = set(re.findall(r"\.admonition\.(ct-[a-z-]+)", css))
    seen: dict[str, tuple[str, str]] = {}
    assert len(kinds) > 30
    for address in kinds:
        page.goto(address)
        styles = page.eval_on_selector_all(
            BLOCKS,
            """blocks => blocks.map(block => {
                const kind = [...block.classList].find(c => c.startsWith('ct-'));
                const title = block.querySelector(':scope > summary, :scope > .admonition-title');
                const icon = getComputedStyle(title, '::before');
                return [kind, icon.maskImage || icon.webkitMaskImage, icon.backgroundColor, getComputedStyle(block).borderLeftColor];
            })""",
        )
        for kind, mask, colour, border in styles:
            seen.setdefault(kind, (mask, colour))
            assert mask.startswith('url("data:image/svg+xml'), (kind, mask)
            assert colour == border, (kind, colour, border)  # icon and border in the kind's colour
    assert set(seen) == styled, styled ^ set(seen)  # every kind styled is seen, and styled
    note = page.evaluate("getComputedStyle(document.body).getPropertyValue('--md-admonition-icon--note')")
    icons = {mask for mask, _ in seen.values()}
    assert len(icons) >= 6 and not any(note.strip() and note.strip() in mask for mask in icons)


# The colours of the faint parts the plugin's stylesheet draws, against what is
# behind them (each colour laid over the one below by its alpha and the opacity of
# its element and of those around it), as WCAG's contrast ratio: the icon of each
# block's title, the permalink mark (as shown, when the pointer is on the title) and
# the small lines of facts.
CONTRASTS = """() => {
    const rgba = colour => { const n = colour.match(/[\\d.]+/g).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; };
    const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    const channel = v => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    const luminance = c => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
    const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const around = e => { const out = []; for (; e; e = e.parentElement) out.unshift(e); return out; };
    const behind = e => around(e).reduce((under, el) => over(rgba(getComputedStyle(el).backgroundColor), under), [255, 255, 255, 1]);
    const opacity = e => around(e).reduce((o, el) => o * parseFloat(getComputedStyle(el).opacity), 1);
    const seen = (colour, e, alpha) => { const c = rgba(colour); c[3] *= alpha; const under = behind(e); return ratio(over(c, under), under); };
    const out = [];
    for (const title of document.querySelectorAll("article :is(.admonition, details)[class*='ct-'] > :is(.admonition-title, summary)")) {
        const kind = [...title.parentElement.classList].find(c => c.startsWith('ct-'));
        const icon = getComputedStyle(title, '::before');
        out.push([`${kind} icon`, seen(icon.backgroundColor, title, parseFloat(icon.opacity) * opacity(title))]);
    }
    for (const mark of document.querySelectorAll("article .ct-anchor")) {  // its own opacity is 1 when shown
        out.push(["permalink", seen(getComputedStyle(mark).color, mark, opacity(mark.parentElement))]);
    }
    for (const meta of document.querySelectorAll("article .ct-meta")) {
        out.push(["small line", seen(getComputedStyle(meta).color, meta, opacity(meta))]);
    }
    return out;
}"""


def test_icons_permalink_marks_and_small_lines_stand_out_from_their_background_in_both_schemes(page, kinds: list[str]) -> None:
    # WCAG 2.2: 3:1 for icons and other graphics (1.4.11), 4.5:1 for text (1.4.3).
    least: dict[tuple[str, str], float] = {}
    for scheme in ("default", "slate"):
        for address in kinds:
            page.goto(address)
            if page.locator("body").get_attribute("data-md-color-scheme") != scheme:
                page.locator("form[data-md-component='palette'] label:visible").first.click()  # kept for the next pages
                page.evaluate("document.getAnimations().forEach(a => a.finish())")
            assert page.locator("body").get_attribute("data-md-color-scheme") == scheme
            for name, ratio in page.evaluate(CONTRASTS):
                least[scheme, name] = min(ratio, least.get((scheme, name), ratio))
    assert {name for _, name in least} >= {"ct-user icon", "ct-memory icon", "permalink", "small line"}, least
    low = {key: round(ratio, 2) for key, ratio in least.items() if ratio < (4.5 if key[1] == "small line" else 3)}
    assert low == {}, low
    title = page.locator("article :is(summary, .admonition-title):has(> .ct-anchor)").first
    title.hover()  # the mark measured above is the one shown on hover
    assert title.locator(".ct-anchor").evaluate("a => getComputedStyle(a).opacity") == "1"


# The colour of a kind of block as seen: its icon's colour laid over its title's
# background, with that colour's hue (degrees) and its place in CIELAB.
SEEN_COLOUR = """kind => {
    const title = document.querySelector(`article .${kind} > :is(.admonition-title, summary)`);
    if (!title) return null;
    const [r, g, b] = getComputedStyle(title, '::before').backgroundColor.match(/[\\d.]+/g).map(Number);
    const [max, min] = [Math.max(r, g, b), Math.min(r, g, b)];
    const hue = max === min ? 0 : (360 + 60 * (max === r ? (g - b) / (max - min) : max === g ? 2 + (b - r) / (max - min) : 4 + (r - g) / (max - min))) % 360;
    const linear = v => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    const [lr, lg, lb] = [r, g, b].map(linear);
    const xyz = [(0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047, 0.2126 * lr + 0.7152 * lg + 0.0722 * lb, (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883];
    const [fx, fy, fz] = xyz.map(t => t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    return [hue, [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)]];
}"""


def test_a_subagent_and_a_teammate_have_colours_told_apart_at_a_glance_in_both_schemes(page, kinds: list[str]) -> None:
    # A subagent's call or result (ct-agent) and a message from another agent of a
    # team (ct-teammate): hues at least 60 degrees apart, and colours far apart in
    # CIELAB (a difference of 2.3 is just noticeable; 40 is plainly another colour).
    for scheme in ("default", "slate"):
        seen: dict[str, list] = {}
        for address in kinds:
            page.goto(address)
            if page.locator("body").get_attribute("data-md-color-scheme") != scheme:
                page.locator("form[data-md-component='palette'] label:visible").first.click()  # kept for the next pages
                page.evaluate("document.getAnimations().forEach(a => a.finish())")
            for kind in ("ct-agent", "ct-teammate"):
                colour = page.evaluate(SEEN_COLOUR, kind)
                if colour and kind not in seen:
                    seen[kind] = colour
            if len(seen) == 2:
                break
        assert set(seen) == {"ct-agent", "ct-teammate"}, (scheme, seen)
        (hue, lab), (other_hue, other_lab) = seen["ct-agent"], seen["ct-teammate"]
        apart = abs(hue - other_hue) % 360
        distance = sum((x - y) ** 2 for x, y in zip(lab, other_lab)) ** 0.5
        assert min(apart, 360 - apart) >= 60 and distance >= 40, (scheme, seen)


def test_a_collapsed_tool_call_opens_on_click(page, url: str) -> None:
    page.goto(session_pages(url)[0])
    calls = page.locator("article details.ct-tool")
    closed = calls.evaluate_all("calls => calls.findIndex(call => !call.open)")
    call = calls.nth(closed)
    body = call.locator(":scope > :not(summary)").first
    assert not body.is_visible()
    call.locator(":scope > summary").click()
    assert call.get_attribute("open") is not None
    body.wait_for(state="visible")


def test_tab_goes_from_control_to_control_past_the_permalinks_which_still_lead_to_their_message(page, url: str) -> None:
    # A page has a permalink per message: Tab does not stop at each, but at the
    # controls (the title of each collapsible block, links, buttons).
    page.goto(session_pages(url)[0])
    stops: list[str] = []
    for _ in range(200):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement;
            return e === document.body ? '' : (e.closest('article') ? e.tagName.toLowerCase() + (e.classList.contains('ct-anchor') ? '.ct-anchor' : '') : '-'); }""")
        if not focused:
            break  # past the end of the page
        stops.append(focused)
    in_article = [stop for stop in stops if stop != "-"]
    summaries = page.locator("article summary:visible").count()
    assert in_article.count("summary") == summaries and summaries > 5, stops
    assert "a.ct-anchor" not in in_article, in_article
    marks = page.locator("article a.ct-anchor")
    assert marks.count() > 5
    # Still a link to its message, that the pointer shows, follows and copies.
    assert marks.evaluate_all("marks => marks.every(a => a.href === location.href.split('#')[0] + '#' + a.id)")
    assert page.get_by_role("link").and_(marks.first).count() == 1  # not hidden from assistive technology
    assert page.get_by_role("link", name="Link to this message", exact=True).count() == marks.count()  # named, not "¶"
    title = page.locator("article .ct-assistant > .admonition-title").first
    title.hover()
    mark = title.locator(".ct-anchor")
    x, y = mark.evaluate("""a => { const box = a.getBoundingClientRect(), y = box.top + box.height / 2;
        for (let x = box.left; x < box.left + 40; x++) if (document.elementFromPoint(x, y) === a) return [x + 2, y]; }""")
    page.mouse.click(x, y)  # on the mark drawn after the title (the link itself has no width)
    ident = mark.get_attribute("id")
    page.wait_for_url(f"**/{S1}/#{ident}")
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement.blur()")
    # The message the address leads to shows its mark.
    page.wait_for_function("id => getComputedStyle(document.getElementById(id)).opacity === '1'", arg=ident)


def test_search_finds_a_word_said_only_in_a_transcript_and_leads_to_its_session(page, url: str) -> None:
    page.goto(url)
    search = page.locator("input.md-search__input")
    # The message that says it, among the results of the whole word (the results of
    # its first letters may show first).
    result = page.locator(".md-search-result__item a[href*='#m-'][href*='h=kelvin']").first
    for _ in range(5):  # the index loads in a worker: a query typed before it is ready finds nothing
        search.click()
        search.fill("")
        page.keyboard.type("Kelvin", delay=20)
        try:
            result.wait_for(timeout=2_000)
            break
        except sync_api.TimeoutError:
            continue
    assert S1 in (result.get_attribute("href") or "")
    result.click()
    page.wait_for_url(f"**/{S1}/**")
    page.locator("article mark", has_text="Kelvin").first.wait_for()  # search.highlight


def test_the_nav_nests_subagents_under_their_session(page, url: str) -> None:
    page.goto(session_pages(url)[0])
    active = page.locator("nav.md-nav--primary li.md-nav__item--active").last
    links = active.locator("a.md-nav__link")
    texts = [" ".join(t.split()) for t in links.all_inner_texts()]
    assert any("Explore" in t for t in texts), texts
    assert any("Fix metric units" in t for t in texts), texts


def test_the_task_call_leads_to_its_subagent_and_back(page, url: str) -> None:
    page.goto(session_pages(url)[0])
    call = page.locator("article details.ct-tool", has_text="Explore").first
    call.locator(":scope > summary").click()
    call.locator("a[href*='agent-']").first.click()
    page.wait_for_url("**/agent-*/")
    assert "Trace the units option" in page.locator("article h1").inner_text()
    page.locator("article a", has_text="Fix metric units").first.click()
    page.wait_for_url(f"**/{S1}/#t-*")
    anchor = page.url.split("#", 1)[1]
    assert page.locator(f"[id='{anchor}']").count() == 1


def test_the_parts_of_a_long_session_link_to_each_other(page, split_url: str) -> None:
    page.goto(f"{split_url}transcripts/{S1}/")
    assert "shown in" in page.locator("article").inner_text()
    page.locator("article a", has_text="Part 2").first.click()
    page.wait_for_url("**/part-2/")
    page.locator("article a", has_text="previous part").first.click()
    page.wait_for_url(f"**/{S1}/")


def test_the_dark_scheme_renders_the_blocks_on_a_dark_background(page, url: str) -> None:
    page.goto(session_pages(url)[0])
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    red, green, blue = (int(c) for c in background[background.index("(") + 1 : background.index(")")].split(",")[:3])
    assert red + green + blue < 200, background
    title = page.locator("article .ct-user > .admonition-title, article .ct-user > summary").first
    assert title.is_visible()


def test_every_page_of_the_site_loads_without_errors(page, url: str) -> None:
    page.goto(url)
    for address in session_pages(url) + [f"{url}transcripts/"]:
        page.goto(address)
        assert page.locator("article h1").count() == 1


def test_a_title_that_fills_its_line_is_not_followed_by_a_line_for_its_link(page, kinds: list[str]) -> None:
    # Each block's title made exactly as wide as its text: the link to the message
    # (shown on hover) must not go to a line of its own below it.
    seen = 0
    for address in kinds:
        page.goto(address)
        alone = page.eval_on_selector_all(
            "article :is(summary, .admonition-title):has(> .ct-anchor)",
            """titles => titles.map(title => {
                const link = title.querySelector(':scope > .ct-anchor');
                link.style.display = 'none';
                title.style.width = 'max-content';
                const width = title.getBoundingClientRect().width;
                link.style.display = '';
                title.style.width = width + 'px';
                const text = document.createRange();
                text.setStart(title, 0);
                text.setEndBefore(link);
                const bottom = Math.max(...[...text.getClientRects()].map(r => r.bottom));
                return link.getBoundingClientRect().top >= bottom - 1 ? title.textContent.trim() : '';
            })""",
        )
        seen += len(alone)
        assert not any(alone), [title for title in alone if title]
    assert seen > 30


def test_small_lines_and_folded_output_are_no_larger_than_the_text_around_them(page, kinds: list[str]) -> None:
    # Material's blocks set their own size (0.64rem): a small line of facts inside a
    # block, a secondary block, or the folded rest of an output must not come out
    # larger than the text it goes with.
    seen = {"meta": 0, "more": 0, "secondary": 0}
    for address in kinds:
        page.goto(address)
        page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
        found = page.evaluate(
            """() => {
                const px = e => parseFloat(getComputedStyle(e).fontSize);
                const block = document.querySelector("article .ct-user, article .ct-assistant");
                const out = {meta: [], more: [], secondary: []};
                for (const meta of document.querySelectorAll("article :is(.admonition, details) .ct-meta")) {
                    const text = meta.closest(".admonition, details");
                    out.meta.push([meta.textContent.slice(0, 40), px(meta), px(text)]);
                }
                for (const more of document.querySelectorAll("article details.ct-more")) {
                    const shown = more.parentElement.querySelector(":scope > pre code, :scope > .highlight code");
                    const folded = more.querySelector("pre code");
                    if (shown && folded) out.more.push([more.textContent.slice(0, 40), px(folded), px(shown)]);
                }
                for (const small of document.querySelectorAll("article :is(.ct-reminder, .ct-ide)")) {
                    if (block) out.secondary.push([small.className, px(small), px(block)]);
                }
                return out;
            }"""
        )
        for name, size, around in found["meta"] + found["secondary"]:
            assert size < around, (address, name, size, around)
        for name, folded, shown in found["more"]:
            assert folded == shown, (address, name, folded, shown)
        for kind in seen:
            seen[kind] += len(found[kind])
    assert all(seen.values()), seen


def test_the_index_fits_a_desktop_page_even_with_a_title_that_is_one_long_address(page, tmp_path: Path) -> None:
    root = tmp_path / "long"
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):
        shutil.rmtree(root / made, ignore_errors=True)
    address = "https://example.com/" + "averyverylongpathsegment" * 6
    session = "5e55e555-0000-4000-8000-000000000001"
    lines = [
        {"type": "user", "message": {"role": "user", "content": f"{address} fails to load"}},
        {"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5",
                                          "content": [{"type": "text", "text": "Let me look."}]}},
    ]  # fmt: skip
    with (root / "docs" / "transcripts" / f"{session}.jsonl").open("w", encoding="utf-8") as out:
        for number, line in enumerate(lines):
            line.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, cwd="/tmp", version="2.1.30",
                        parentUuid=f"{number - 1:08x}-0000-4000-8000-000000000000" if number else None,
                        timestamp=f"2025-05-05T10:00:0{number}.000Z")  # fmt: skip
            out.write(json.dumps(line) + "\n")
    measure = """() => {
        const table = document.querySelector("article .ct-totals ~ .md-typeset__scrollwrap table");
        const wrap = table.closest(".md-typeset__scrollwrap");
        return [wrap.scrollWidth, wrap.clientWidth, table.rows[1].cells[1].getBoundingClientRect().width];
    }"""
    for url in serve(build(root)):
        page.goto(f"{url}transcripts/", wait_until="networkidle")  # every request answered before the site stops
        assert "averyverylong" in page.locator("article table").inner_text()
        wide, shown, _ = page.evaluate(measure)
        assert wide <= shown, (wide, shown)  # every column in sight, none behind a scrollbar
        page.set_viewport_size({"width": 390, "height": 800})
        _, _, title = page.evaluate(measure)
        assert title >= 120, title  # on a phone, its titles still a few words wide


def write_session(folder: Path, session: str, lines: list[dict]) -> None:
    """A session file of ``lines``, each given the fields every entry has."""
    with (folder / f"{session}.jsonl").open("w", encoding="utf-8") as out:
        for number, line in enumerate(lines):
            line.update(uuid=f"{number:08x}-0000-4000-8000-000000000000", sessionId=session, cwd="/home/kim/app", version="2.1.30",
                        parentUuid=f"{number - 1:08x}-0000-4000-8000-000000000000" if number else None,
                        timestamp=f"2025-05-05T10:00:{number:02d}.000Z")  # fmt: skip
            out.write(json.dumps(line) + "\n")


def calls(tools: list[tuple[str, dict]]) -> list[dict]:
    """A prompt, then a call of each tool with its result."""
    lines: list[dict] = [{"type": "user", "message": {"role": "user", "content": "Review the pull request."}}]
    for number, (name, arguments) in enumerate(tools):
        call = {"type": "tool_use", "id": f"toolu_{number}", "name": name, "input": arguments}
        result = {"type": "tool_result", "tool_use_id": f"toolu_{number}", "content": "done"}
        message = {"id": f"msg_{number}", "role": "assistant", "model": "claude-sonnet-4-5", "content": [call]}
        lines.append({"type": "assistant", "message": message})
        lines.append({"type": "user", "message": {"role": "user", "content": [result]}})
    return lines


# Where each block's title goes on to its next line: the characters on either side.
TITLE_BREAKS = """() => [...document.querySelectorAll("article :is(.admonition, details)[class*='ct-'] > :is(.admonition-title, summary)")].map(title => {
    const chars = [];
    const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode()); ) {
        for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getClientRects()[0];
            if (box) chars.push([node.data[i], box.top]);
        }
    }
    const breaks = [];
    for (let i = 1; i < chars.length; i++) if (chars[i][1] > chars[i - 1][1] + 2) breaks.push([chars[i - 1][0], chars[i][0]]);
    return [title.textContent, breaks];
})"""


def test_a_long_tool_name_or_path_in_a_title_breaks_at_its_separators_on_a_narrow_phone(page, tmp_path: Path) -> None:
    # MCP tools' names and a file's path, on a phone 320 px wide: where a title goes
    # on to its next line, it does at a space or after a separator, not inside a word.
    root = tmp_path / "names"
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):
        shutil.rmtree(root / made, ignore_errors=True)
    write_session(root / "docs" / "transcripts", "5e55e555-0000-4000-8000-000000000002", calls([
        ("mcp__github__create_pull_request_review", {"owner": "kim", "repo": "app", "pullNumber": 12}),
        ("mcp__plugin_playwright_playwright__browser_take_screenshot", {"filename": "page.png"}),
        ("mcp__claude-in-chrome__read_console_messages", {"tabId": 3}),
        ("Read", {"file_path": "/home/kim/app/src/components/settings/units_preference_panel.tsx"}),
        ("Read", {"file_path": "/home/kim/app/docs/<wbr>/units.preference-panel_notes.md"}),
    ]))  # fmt: skip
    for url in serve(build(root)):
        page.set_viewport_size({"width": 320, "height": 800})
        # every request answered before the site stops
        page.goto(f"{url}transcripts/5e55e555-0000-4000-8000-000000000002/", wait_until="networkidle")
        titles = page.evaluate(TITLE_BREAKS)
        assert any("<wbr>/units.preference-panel_notes.md" in text for text, _ in titles), titles  # text stays text
        assert sum(len(breaks) for _, breaks in titles) >= 5, titles  # the narrow page does break them
        for text, breaks in titles:
            for before, after in breaks:
                assert before.isspace() or after.isspace() or before in "_-./", (text, before + "|" + after)


def test_the_summary_of_a_session_fits_a_phone_without_scrolling_sideways(page, kinds: list[str], url: str) -> None:
    # Its tables (tool calls, tokens) included, with an MCP tool's long name; every
    # word of them still in sight, none cut.
    page.set_viewport_size({"width": 375, "height": 800})
    seen = 0
    for address in session_pages(url) + kinds:
        page.goto(address)
        if not page.locator("article details.ct-overview").count():
            continue
        page.locator("article details.ct-overview > summary").first.click()
        wide = page.evaluate(
            """() => {
                const summary = document.querySelector("article details.ct-overview");
                const out = [];
                for (const e of [summary, ...summary.querySelectorAll(".md-typeset__scrollwrap, table, td, th")])
                    if (e.scrollWidth > e.clientWidth) out.push([e.tagName, e.textContent.trim().slice(0, 40), e.scrollWidth, e.clientWidth]);
                return [summary.querySelectorAll("table").length, out];
            }"""
        )
        tables, too_wide = wide
        seen += tables
        assert too_wide == [], (address, too_wide)
    assert seen > 10, seen


def test_the_index_fits_a_phone_and_shows_every_column_on_a_desktop(page, kinds: list[str], url: str) -> None:
    # On a phone each session's date, title, duration and errors, every word in
    # sight; its other figures are in the summary at the top of its page, which its
    # title links to, and the site's totals in the line above the table.
    measure = """() => {
        const table = document.querySelector("article .ct-totals ~ .md-typeset__scrollwrap table");
        const out = [];
        for (const e of [document.documentElement, table.closest(".md-typeset__scrollwrap"), table, ...table.querySelectorAll("td, th")])
            if (e.scrollWidth > e.clientWidth) out.push([e.tagName, e.textContent.trim().slice(0, 40), e.scrollWidth, e.clientWidth]);
        const shown = [...table.rows[0].cells].filter(cell => cell.getClientRects().length).map(cell => cell.textContent.trim());
        const links = [...table.querySelectorAll("td:nth-child(2) a")].filter(a => a.getClientRects().length).length;
        return [out, shown, links, table.rows.length - 2];
    }"""
    site = kinds[0].split("cases/")[0]
    for address in (f"{url}transcripts/", f"{site}transcripts/"):
        page.set_viewport_size({"width": 375, "height": 800})
        page.goto(address)
        too_wide, shown, links, sessions = page.evaluate(measure)
        assert too_wide == [], (address, too_wide)
        assert shown == ["date", "session", "duration", "errors"], shown
        assert links == sessions >= 3, (links, sessions)  # each session's title, a link to its page
        assert page.locator("article .ct-totals").is_visible()
        page.set_viewport_size({"width": 1280, "height": 800})
        _, shown, _, _ = page.evaluate(measure)
        assert shown == ["date", "session", "duration", "messages", "tool calls", "errors", "subagents", "tokens"]


def test_wide_tables_wrap_within_the_width_of_a_printed_page(page, tmp_path: Path) -> None:
    # A table in a message, the summary's tables and the index, printed on a page
    # 700 px wide (A4's width between its margins): none wider than the text's
    # column, none with a part hidden behind a scrollbar that paper does not have.
    root = tmp_path / "print"
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):
        shutil.rmtree(root / made, ignore_errors=True)
    head = "| " + " | ".join(f"column {n}" for n in range(8)) + " |"
    row = "| " + " | ".join(f"units_preference_panel_{n}.tsx" for n in range(8)) + " |"
    answer = "\n".join(["The files:", "", head, "|" + "---|" * 8, row, row])
    lines = calls([("mcp__plugin_playwright_playwright__browser_take_screenshot", {"filename": "page.png"})])
    text = [{"type": "text", "text": answer}]
    message = {"id": "msg_end", "role": "assistant", "model": "claude-sonnet-4-5", "content": text}
    lines.append({"type": "assistant", "message": message})
    write_session(root / "docs" / "transcripts", "5e55e555-0000-4000-8000-000000000003", lines)
    measure = """() => {
        const column = document.querySelector("article").getBoundingClientRect();
        const out = [];
        for (const table of document.querySelectorAll("article table")) {
            const box = table.getBoundingClientRect();
            if (box.left < column.left - 1 || box.right > column.right + 1) out.push(["table", table.textContent.trim().slice(0, 40), box.left, box.right, column.left, column.right]);
            for (let e = table; e && e.tagName !== "ARTICLE"; e = e.parentElement)
                if (e.scrollWidth > e.clientWidth + 1) out.push([e.tagName, e.className, e.scrollWidth, e.clientWidth]);
        }
        return [document.querySelectorAll("article table").length, out];
    }"""
    for url in serve(build(root)):
        page.set_viewport_size({"width": 700, "height": 1000})
        page.emulate_media(media="print")
        tables = 0
        for address in (f"{url}transcripts/5e55e555-0000-4000-8000-000000000003/", f"{url}transcripts/"):
            page.goto(address, wait_until="networkidle")  # every request answered before the site stops
            page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")  # as printed
            found, too_wide = page.evaluate(measure)
            tables += found
            assert too_wide == [], (address, too_wide)
        assert tables >= 4, tables  # the message's, the summary's two, the index


def test_a_page_opened_from_another_loads_without_a_full_reload_and_keeps_its_style(page, tmp_path: Path) -> None:
    # navigation.instant fetches only the pages the sitemap lists at the site's own
    # address (site_url): the example site, built for the address it is served at.
    root = tmp_path / "instant"
    copy_tree(ROOT / "example_site", root)
    for made in ("site", ".cache"):
        shutil.rmtree(root / made, ignore_errors=True)
    (root / "site").mkdir()
    served = serve(root / "site")
    url = next(served)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(re.sub(r"(?m)^site_url: .*$", f"site_url: {url}", config), encoding="utf-8")
    build(root)
    page.goto(f"{url}transcripts/")
    page.evaluate("window.sameDocument = true")
    page.locator("article a", has_text="Fix metric units").first.click()
    page.wait_for_url(f"**/{S1}/")
    page.locator("article .ct-user").first.wait_for()
    assert page.evaluate("window.sameDocument === true")  # not reloaded
    border = page.evaluate("getComputedStyle(document.querySelector('article .ct-user')).borderLeftColor")
    assert border == "rgb(59, 129, 245)", border
    page.locator("article details.ct-tool-error > summary").first.click()
    page.locator("article details.ct-tool-error pre").first.wait_for()
    served.close()

"""Screenshots of the example site for the docs, taken in headless Chromium:

    python -m tests.screenshots [--chromium /usr/bin/chromium]

writes docs/images/session-light.png, session-dark.png, subagent.png, search.png
and index.png.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from .browser import ARGS, built_example, serve
from .conftest import ROOT

S1 = "3f2b9c1e-8d4a-4e6b-9a71-2c5d8e0f4b13"
OUT = ROOT / "docs" / "images"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
        context.route(lambda address: not address.startswith("http://127.0.0.1:"), lambda route: route.fulfill(body=""))
        page = context.new_page()
        for url in serve(built_example(Path(scratch) / "site")):
            session = f"{url}transcripts/{S1}/"
            page.goto(session)
            page.locator("article details.ct-overview > summary").click()
            page.locator("article details.ct-tool").first.locator(":scope > summary").click()
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "session-light.png")
            page.locator("form[data-md-component='palette'] label:visible").first.click()
            page.wait_for_timeout(300)
            page.evaluate("window.scrollTo(0, 900)")
            shot(page, "session-dark.png")
            page.locator("form[data-md-component='palette'] label:visible").first.click()
            page.goto(session)
            page.locator("nav.md-nav--primary a[href*='agent-']").first.click()
            page.wait_for_url("**/agent-*/")
            shot(page, "subagent.png")
            page.goto(f"{url}transcripts/")
            shot(page, "index.png")
            search = page.locator("input.md-search__input")
            for _ in range(5):
                search.click()
                search.fill("")
                page.keyboard.type("Kelvin", delay=20)
                try:
                    page.locator(".md-search-result__item").first.wait_for(timeout=2_000)
                    break
                except Exception:  # the index is still loading
                    continue
            shot(page, "search.png")
        browser.close()


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_timeout(200)
    page.screenshot(path=str(OUT / name))
    print(OUT / name)


if __name__ == "__main__":
    main()

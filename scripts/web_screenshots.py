"""The README's pictures of the web app: each page with an answer on it, taken in the
system's Chromium from a running ``dicelab serve`` (docs/images/web-*.png).

usage: python scripts/web_screenshots.py

Needs the ``web`` extra, Playwright and Chromium (``apt-get install chromium``). The coach
gets a That's Pretty Clever position and its advice, the helpers a CloverUp position and
a Sly Dice claim, the what-if bench That's Pretty Clever without its round-4 bonus.
"""

from __future__ import annotations

import importlib.util
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.files import write_atomic

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 600_000  # ms: a first question may compile a game's kernels


def coach(page) -> None:
    """A few boxes and a roll clicked in round 2, and the advice asked for."""
    page.locator("#coach-sheet g.box[data-box='0']").wait_for(timeout=WAIT)
    for index in (0, 19, 27):  # yellow [1, 1], blue 5, green slot 1
        page.locator(f"#coach-sheet g.box[data-box='{index}']").click()
    for name, face in zip(("white", "yellow", "blue", "green", "orange", "purple"), "352641"):
        page.get_by_role("button", name=f"{name} die: {face}", exact=True).click()
    page.select_option("#coach-round", "2")
    page.get_by_role("button", name="Advise").click()
    page.locator("#coach-advice tbody tr").first.wait_for(timeout=WAIT)


def helpers(page) -> None:
    """A CloverUp position with one re-roll left, and a Sly Dice claim on 1, 2, 3."""
    page.get_by_role("button", name="CloverUp and Sly Dice").click()
    for k, face in ((1, "2"), (2, "6"), (3, "clover")):
        page.get_by_role("button", name=f"Die {k}: {face}", exact=True).click()
    page.select_option("#clover-left", "1")
    page.locator("#clover-answer").filter(has_text="Best play").wait_for(timeout=WAIT)
    for k, face in ((1, "1"), (2, "2"), (3, "3")):
        page.get_by_role("button", name=f"Common die {k}: {face}", exact=True).click()
    page.locator("#sly-answer").filter(has_text="accuses").wait_for(timeout=WAIT)


def bench(page) -> None:
    """That's Pretty Clever solo without the round-4 bonus, run to its precision."""
    page.get_by_role("button", name="What-if bench").click()
    page.select_option("#bench-game", "thats-pretty-clever")
    page.select_option("#bench-players", "1")
    page.get_by_label("rule", exact=True).select_option("round_4_bonus")
    page.get_by_label("new value", exact=True).select_option("false")
    page.get_by_role("button", name="Run").click()
    page.wait_for_selector("#bench-result:not([hidden])", timeout=WAIT)


PAGES = {"web-coach.png": ("#coach", coach), "web-helpers.png": ("#helpers", helpers),
         "web-whatif.png": ("#bench", bench)}


def take(address: str, chromium: str) -> list[Path]:
    """Each page set up and its section pictured; the files written."""
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=FLAGS)
        for name, (section, set_up) in PAGES.items():
            context = browser.new_context(viewport={"width": 1000, "height": 900})
            page = context.new_page()
            page.goto(address)
            set_up(page)
            write_atomic(IMAGES / name, page.locator(section).screenshot())
            written.append(IMAGES / name)
            context.close()
        browser.close()
    return written


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise UserError("no Chromium on this machine: apt-get install chromium")
    if importlib.util.find_spec("playwright") is None:
        raise UserError("Playwright is not installed: pip install -e '.[test,web]'")
    server = subprocess.Popen([sys.executable, "-m", "analyzer", "serve"], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        address = server.stdout.readline().split()[3]
        IMAGES.mkdir(parents=True, exist_ok=True)
        for path in take(address, chromium):
            print(f"wrote {path}")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


if __name__ == "__main__":
    script_args.run_main("web_screenshots.py", main)

"""The web app in a real browser (headless Chromium from the system's packages, driven by
Playwright): the what-if bench's chart and table read the command line's numbers, a bad
value shows the command line's one line, the CloverUp helper answers as ``solve --dice``
does, and the pages fit a 360-pixel-wide phone."""

import json
import shutil
import subprocess

import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api")

from tests.conftest import dicelab_error, dicelab_json, dicelab_process  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine "
                                "(.ci/run installs Debian's chromium)")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 240_000  # ms: a first question may compile the game's kernels


@pytest.fixture(scope="module")
def address():
    with dicelab_process("serve", stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True) as server:
        yield server.stdout.readline().split()[3]


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, address):
    """The app in a tab of its own, once the coach has scored its blank sheet (a question
    every page asks as it opens: none is left running into the next test, where the
    server's limit on questions at once could refuse that test's)."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    opened = context.new_page()
    opened.goto(address)
    opened.locator("#coach-score", has_text="Score so far").wait_for(timeout=WAIT)
    yield opened
    context.close()




def open_bench(page, game, rule, value, players):
    page.get_by_role("button", name="What-if bench").click()
    page.select_option("#bench-game", game)
    page.select_option("#bench-players", players)
    page.get_by_label("rule", exact=True).select_option(rule)
    field = page.get_by_label("new value", exact=True)
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
    page.get_by_role("button", name="Run").click()


def test_a_what_if_reads_the_command_lines_differences(page):
    open_bench(page, "cloverup", "rerolls", "1", "2")
    page.wait_for_selector("#bench-result:not([hidden])", timeout=WAIT)
    shown = {cell.get_attribute("data-metric"): float(cell.get_attribute("data-value"))
             for cell in page.locator("#bench-chart circle").all()}
    doc = dicelab_json("cloverup", "whatif", "--players", "2", "--vary", "rerolls=1")
    expected = {r["metric"]: r["diff"] for r in doc["tables"]["variants"]
                if r["variant"] != "baseline"}
    assert shown.keys() == expected.keys()
    for metric, diff in expected.items():
        assert shown[metric] == pytest.approx(diff, abs=1e-12)
    assert page.locator("#bench-table td.difference").count() == len(expected)
    assert "mean score a player" in page.locator("#bench-table").inner_text()
    notes = page.locator("#bench-notes").inner_text()  # in the form's words, not the CLI's
    assert "rerolls=1" not in notes and "assumed rule parameter" not in notes
    assert "Assumed, as the rules text does not settle them: " in notes


def test_a_bad_value_shows_the_command_lines_one_line(page):
    open_bench(page, "cloverup", "rerolls", "99", "2")
    error = page.locator("#bench-error")
    error.wait_for(state="visible", timeout=WAIT)
    assert error.inner_text() == dicelab_error("cloverup", "whatif", "--vary", "rerolls=99")


def test_the_cloverup_helper_gives_the_exact_best_play(page):
    page.get_by_role("button", name="CloverUp and Sly Dice").click()
    for k, face in ((1, "2"), (2, "6"), (3, "clover")):
        page.get_by_role("button", name=f"Die {k}: {face}", exact=True).click()
    page.select_option("#clover-left", "1")
    answer = page.locator("#clover-answer")
    answer.filter(has_text="Best play").wait_for(timeout=WAIT)
    doc = dicelab_json("cloverup", "solve", "--dice", "2 6 C", "--rerolls-left", "1")
    assert f"{doc['expected_score']:.2f} points" in answer.inner_text()
    assert doc["best_choice"] in answer.inner_text()


def test_the_pages_fit_a_phone(browser, address):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    phone = context.new_page()
    phone.goto(address)
    phone.locator("#coach-score", has_text="Score so far").wait_for(timeout=WAIT)  # as page
    for name in ("What-if bench", "CloverUp and Sly Dice", "Clever coach"):
        phone.get_by_role("button", name=name).click()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    smallest = phone.evaluate("""Math.min(...[...document.querySelectorAll('body *')]
        .filter(e => e.offsetParent && e.textContent.trim())
        .map(e => parseFloat(getComputedStyle(e).fontSize)))""")
    assert smallest >= 12
    context.close()


def box(page, index):
    return page.locator(f"#coach-sheet g.box[data-box='{index}']")


def test_a_clever_position_set_up_by_clicks_gets_the_command_lines_advice(page, tmp_path):
    """Yellow 3 (row 1, column 1), blue 5, one green slot and a 2 in purple, clicked on the
    sheet; the dice clicked; round 2: the ranked choices are the command line's, and taking
    the best marks the sheet and moves on to the second pick."""
    box(page, 0).wait_for(timeout=WAIT)
    for index in (0, 19, 27):  # yellow [1, 1], blue 5, green slot 1
        box(page, index).click()
    box(page, 49).click()  # purple slot 1: a value to write
    page.locator("#coach-picker button", has_text="2").first.click()
    for name, face in zip(("white", "yellow", "blue", "green", "orange", "purple"), "352641"):
        page.get_by_role("button", name=f"{name} die: {face}", exact=True).click()
    page.select_option("#coach-round", "2")
    page.get_by_role("button", name="Advise").click()
    page.locator("#coach-advice tbody tr, #coach-error:not([hidden])").first.wait_for(
        timeout=WAIT)
    assert page.locator("#coach-error").inner_text() == ""
    shown = [(row.locator("th").inner_text(), row.locator("td.expected").inner_text())
             for row in page.locator("#coach-advice tbody tr").all()]
    sheet = {"format": "dicelab-tpc-sheet/1", "yellow": [[1, 1]], "blue": [5], "green": 1,
             "orange": [], "purple": [2], "rerolls": {"unlocked": 0, "used": 0},
             "plus_ones": {"unlocked": 0, "used": 0}}
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet))
    doc = dicelab_json("thats-pretty-clever", "advise", "--sheet", str(path), "--roll",
                   "W3 Y5 B2 G6 O4 P1", "--round", "2", "--set", "rounds=6")
    assert shown == [(r["choice"], f"{r['expected_score']:.1f}")
                     for r in doc["tables"]["choices"]]
    marked = page.locator("#coach-sheet g.box[data-marked='true']").count()
    page.locator("#coach-advice tbody tr").first.get_by_role("button", name="Take").click()
    page.wait_for_function(f"document.querySelectorAll(\"#coach-sheet g.box[data-marked='true']\")"
                           f".length > {marked}", timeout=WAIT)
    assert page.locator("#coach-phase").input_value() == "active2"


@pytest.mark.slow  # solves a round's claim game twice (page and command line): 20 s
def test_the_sly_dice_helper_gives_the_equilibriums_answer_to_a_claim(page):
    """Common dice 1, 2, 3: the claim shown first is the equilibrium's likeliest, with the
    chance it is true and the chance it is accused as ``sly-dice equilibrium`` gives them;
    the odds table lists every card."""
    page.get_by_role("button", name="CloverUp and Sly Dice").click()
    for k, face in ((1, "1"), (2, "2"), (3, "3")):
        page.get_by_role("button", name=f"Common die {k}: {face}", exact=True).click()
    answer = page.locator("#sly-answer")
    answer.filter(has_text="accuses").wait_for(timeout=WAIT)
    claims = dicelab_json("sly-dice", "equilibrium", "--common", "1,2,3")["tables"]["claims"]
    first = claims[0]
    assert answer.inner_text() == (
        f"A claim of {first['claim'].replace('-', ' ')} is true "
        f"{100 * first['p_true_given_claim']:.1f}% of the time; at the equilibrium the next "
        f"player accuses it {100 * first['accuse_probability']:.1f}% of the time.")
    page.locator("#sly-odds tbody tr").first.wait_for(timeout=WAIT)
    cards = dicelab_json("sly-dice", "odds", "--common", "1,2,3")["tables"]["cards"]
    assert page.locator("#sly-odds tbody tr").count() == len(cards)

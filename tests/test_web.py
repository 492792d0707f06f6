"""``dicelab serve``'s server without a browser: the catalogue the forms are built from,
every request checked with the command line's own rules (a 400 with its one line), the
command line's own answer, jobs seen and cancelled only by their tab, a bounded number at
once, and the server started, found and stopped as a user does."""

import signal
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from analyzer.web.app import create_app  # noqa: E402
from analyzer.web.jobs import Jobs  # noqa: E402
from tests.conftest import dicelab_error, dicelab_json, dicelab_process  # noqa: E402

TAB = {"x-dicelab-tab": "tab0000one"}
OTHER = {"x-dicelab-tab": "tab0000two"}


@pytest.fixture
def client():
    with TestClient(create_app(Jobs(limit=2))) as test_client:
        yield test_client


def wait(client, job, headers=TAB, seconds=240.0):
    end = time.monotonic() + seconds
    while job["state"] == "running" and time.monotonic() < end:
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['id']}", headers=headers).json()
    return job




def test_the_page_and_the_catalogue_of_rules(client):
    page = client.get("/")
    assert page.status_code == 200 and "What-if bench" in page.text
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert list(games) == ["cloverup", "sly-dice", "thats-pretty-clever", "twice-as-clever"]
    weights = next(p for p in games["cloverup"]["params"] if p["name"] == "weights")
    assert weights["assumed"] and weights["label"] == "face weights"
    assert games["sly-dice"]["players"] == {"low": 2, "high": 4, "default": 2}
    bonus = next(p for p in games["thats-pretty-clever"]["params"]
                 if p["name"] == "round_4_bonus")
    assert [c["value"] for c in bonus["choices"]] == ["true", "false"]


@pytest.mark.parametrize("form, cli", [
    ({"game": "cloverup", "changes": {"rerolls": "11"}},
     ["cloverup", "whatif", "--vary", "rerolls=11"]),
    ({"game": "cloverup", "players": "7", "changes": {"rerolls": "1"}},
     ["cloverup", "whatif", "--players", "7", "--vary", "rerolls=1"]),
    ({"game": "sly-dice", "changes": {"no_such_rule": "1"}},
     ["sly-dice", "whatif", "--vary", "no_such_rule=1"]),
    ({"game": "twice-as-clever", "changes": {"fox_negative": "never"}},
     ["twice-as-clever", "whatif", "--vary", "fox_negative=never"]),
])
def test_a_bad_form_is_the_command_lines_one_line(client, form, cli):
    answer = client.post("/api/jobs", json={"kind": "whatif", **form}, headers=TAB)
    assert answer.status_code == 400
    assert answer.json()["error"] == dicelab_error(*cli)


@pytest.mark.parametrize("body, words", [
    ({"kind": "whatif"}, "game is missing"),
    ({"kind": "rm -rf"}, "unknown question"),
    ({"kind": "whatif", "game": "cloverup", "changes": {"rerolls": ["1"]}}, "must be text"),
    ({"kind": "whatif", "game": "cloverup", "changes": {"rerolls": "1;rounds=2"}}, "no ';'"),
    ({"kind": "whatif", "game": "cloverup", "changes": {"rules": "/etc/passwd"}},
     "unknown rule parameter"),
    ({"kind": "cloverup-keep", "dice": "1 2 9"}, "bad dice"),
    ({"kind": "sly-odds", "common": "1,2"}, "bad common dice"),
])
def test_fields_are_checked_and_no_path_is_read(client, body, words):
    answer = client.post("/api/jobs", json=body, headers=TAB)
    assert answer.status_code == 400 and words in answer.json()["error"]


def test_a_page_without_its_name_or_with_a_huge_body_is_refused(client):
    assert client.post("/api/jobs", json={"kind": "whatif"}).status_code == 400
    huge = client.post("/api/jobs", content=b"{" + b" " * 300_000 + b"}", headers=TAB)
    assert huge.status_code == 400 and "larger than" in huge.json()["error"]


def test_the_cloverup_helper_answers_as_the_command_line(client):
    job = client.post("/api/jobs", json={"kind": "cloverup-keep", "dice": "2 6 C",
                                         "rerolls_left": 1}, headers=TAB).json()
    job = wait(client, job)
    assert job["state"] == "done", job["error"]
    expected = dicelab_json("cloverup", "solve", "--dice", "2 6 C", "--rerolls-left", "1")
    assert job["answer"]["best_choice"] == expected["best_choice"]
    assert job["answer"]["expected_score"] == expected["expected_score"]
    assert client.get(f"/api/jobs/{job['id']}", headers=OTHER).status_code == 400
    download = client.get(f"/api/jobs/{job['id']}/answer.json?tab={TAB['x-dicelab-tab']}")
    assert download.status_code == 200 and download.json() == job["answer"]



def test_a_finished_answer_downloads_as_csv_and_only_for_its_tab(client):
    """The CSV holds each table of the command line's answer under its name; another tab,
    an unknown format and a question still running are refused in one line."""
    job = wait(client, client.post("/api/jobs", json={
        "kind": "sly-odds", "common": "1,2,3"}, headers=TAB).json())
    assert job["state"] == "done", job["error"]
    address = f"/api/jobs/{job['id']}/answer"
    download = client.get(f"{address}.csv?tab={TAB['x-dicelab-tab']}")
    assert download.status_code == 200 and "attachment" in download.headers[
        "content-disposition"]
    lines = download.text.splitlines()
    cards = job["answer"]["tables"]["cards"]
    assert lines[0] == "# cards" and lines[1].split(",") == list(cards[0])
    assert len(lines) == len(cards) + 2
    for url, words in ((f"{address}.csv?tab={OTHER['x-dicelab-tab']}", "of this page"),
                       (f"{address}.pdf?tab={TAB['x-dicelab-tab']}", "accepted: csv, json")):
        refused = client.get(url)
        assert refused.status_code == 400 and words in refused.json()["error"]


@pytest.mark.parametrize("game", ["thats-pretty-clever", "twice-as-clever"])
def test_a_clever_sheet_is_drawn_from_its_boxes(client, game):
    """The coach's sheet: every box with the sheet document's field it writes, the dice and
    the phases; a game that is not a Clever one is refused in one line."""
    layout = client.get(f"/api/clever/{game}/sheet").json()
    assert layout["game"] == game and len(layout["dice"]) == 6
    assert layout["boxes"] and layout["blank"]["format"].startswith("dicelab-")
    assert {"active1", "passive", "plus"} <= set(layout["phases"])
    refused = client.get("/api/clever/cloverup/sheet")
    assert refused.status_code == 400 and refused.json()["error"] == (
        "CloverUp has no such page; accepted: thats-pretty-clever, twice-as-clever")

def test_an_impossible_position_fails_with_the_command_lines_line(client):
    job = client.post("/api/jobs", json={"kind": "cloverup-keep", "dice": "C C C",
                                         "rerolls_left": 1}, headers=TAB).json()
    job = wait(client, job)
    assert job["state"] == "failed"
    assert job["error"] == dicelab_error("cloverup", "solve", "--dice", "C C C",
                                     "--rerolls-left", "1")


def test_jobs_are_bounded_cancelled_by_their_tab_and_replaced_by_its_next(client):
    form = {"kind": "whatif", "game": "thats-pretty-clever",
            "changes": {"round_4_bonus": "false"}}
    first = client.post("/api/jobs", json=form, headers=TAB).json()
    second = client.post("/api/jobs", json=form, headers=TAB).json()  # replaces the first
    assert client.get(f"/api/jobs/{first['id']}", headers=TAB).json()["state"] == "cancelled"
    client.post("/api/jobs", json=form, headers=OTHER)
    third = client.post("/api/jobs", json=form, headers={"x-dicelab-tab": "tab000three"})
    assert third.status_code == 429 and "at most 2" in third.json()["error"]
    assert client.delete(f"/api/jobs/{second['id']}", headers=OTHER).status_code == 400
    cancelled = client.delete(f"/api/jobs/{second['id']}", headers=TAB).json()
    assert cancelled["state"] == "cancelled"


def test_serve_prints_its_address_answers_and_stops_on_ctrl_c():
    with dicelab_process("serve", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True) as server:
        line = server.stdout.readline()
        assert line.startswith("dicelab: serving at http://127.0.0.1:")
        address = line.split()[3]
        with urllib.request.urlopen(address + "api/games", timeout=30) as answer:
            assert answer.status == 200
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0 and "Traceback" not in err
    assert out.strip() == "dicelab: stopped"


@pytest.mark.parametrize("args, words", [
    (["--host", "no-such-host.invalid"], "unknown host"),
    (["--port", "70000"], "bad port"),
])
def test_serve_refuses_a_bad_address_in_one_line(args, words):
    run = subprocess.run([sys.executable, "-m", "analyzer", "serve", *args],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and words in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1

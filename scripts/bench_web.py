"""The web app's timings for ``scripts/bench.py``: ``dicelab serve`` started as a user
starts it, its page loaded (the HTML, every script and style, and the rules catalogue the
forms are built from), and advice asked through it beside the command line's own ``advise``
on the same position (the web's extra time: starting the question, following it, and
reading its answer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

PAGE = ("/", "/static/style.css", "/static/common.js", "/static/bench.js",
        "/static/helpers.js", "/static/coach.js", "/api/games",
        "/api/clever/thats-pretty-clever/sheet")
TAB = {"x-dicelab-tab": "benchmark01", "content-type": "application/json"}


def _get(address: str, path: str, body: dict | None = None, method: str = "GET") -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(address.rstrip("/") + path, data=data, headers=TAB,
                                     method=method)
    with urllib.request.urlopen(request, timeout=600) as answer:
        text = answer.read()
    return json.loads(text) if path.startswith("/api") else {}


def page_load(address: str) -> float:
    start = time.perf_counter()
    for path in PAGE:
        _get(address, path)
    return time.perf_counter() - start


def web_advice(address: str, form: dict) -> float:
    """Seconds from asking for advice to holding the ranked choices."""
    start = time.perf_counter()
    job = _get(address, "/api/jobs", {"kind": "advise", **form}, "POST")
    while job["state"] == "running":
        time.sleep(0.05)
        job = _get(address, f"/api/jobs/{job['id']}")
    if job["state"] != "done":
        raise RuntimeError(f"the web advice failed: {job['error']}")
    return time.perf_counter() - start


def web_times(game, fields: dict, roll: str, cli_seconds) -> dict[str, float]:
    """The page's first and warm load, and the web's advice time less the command line's
    (``cli_seconds(args)``: one timed run) for the same position, each the best of three."""
    doc = {**game.sheetfile.blank(), **fields}
    with subprocess.Popen([sys.executable, "-m", "analyzer", "serve"], text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as server:
        try:
            address = server.stdout.readline().split()[3]
            first = page_load(address)
            warm = min(page_load(address) for _ in range(3))
            form = {"game": game.id, "players": 1, "sheet": doc, "roll": roll,
                    "round": 3, "phase": "active1"}
            web_advice(address, form)  # the kernels loaded once, as the command line's are
            web = min(web_advice(address, form) for _ in range(3))
        finally:
            server.terminate()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet.json")
        with open(path, "w") as fh:
            json.dump(doc, fh)
        args = [game.id, "advise", "--sheet", path, "--roll", roll, "--round", "3",
                "--set", "rounds=6"]
        cli = min(cli_seconds(args) for _ in range(3))
    return {"web_page_first_load_s": first, "web_page_load_s": warm,
            f"{game.prefix}_web_advise_s": web, f"{game.prefix}_cli_advise_s": cli,
            f"{game.prefix}_web_advise_extra_s": web - cli}

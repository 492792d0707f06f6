"""The README's pictures: the report's first page and That's Pretty Clever's strategy card
(docs/images/, PNG).

usage: python scripts/readme_images.py [REPORT_DIR]

REPORT_DIR is a folder written by ``dicelab report`` (default ``dicelab-report``): its
first page picture is copied; the card is drawn on the default rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.files import write_atomic
from analyzer.params import defaults
from analyzer.registry import get_game
from reports.balance import FIRST_PAGE
from reports.cheatsheet import render_cheatsheet

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
CARD_GAME = "thats-pretty-clever"


def main() -> None:
    report = Path(sys.argv[1] if len(sys.argv) > 1 else "dicelab-report")
    first = report / FIRST_PAGE
    if not first.is_file():
        raise UserError(f"{first} does not exist: run `dicelab report -o {report}` first")
    IMAGES.mkdir(parents=True, exist_ok=True)
    write_atomic(IMAGES / FIRST_PAGE, first.read_bytes())
    module = get_game(CARD_GAME).load()
    render_cheatsheet(module.cheatsheet(defaults(module.PARAMS)),
                      IMAGES / f"card-{CARD_GAME}.png")
    print(f"wrote {IMAGES / FIRST_PAGE} and {IMAGES / f'card-{CARD_GAME}.png'}")


if __name__ == "__main__":
    script_args.run_main("readme_images.py", main)

"""The console entry point (``dicelab``, ``python -m analyzer``): the command line, with
Ctrl-C at any instant, start-up and a first compile included, one line and exit status
130 (the command line itself handles it once a command runs)."""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run ``analyzer.cli.main``; a Ctrl-C before or around it is one line, exit 130."""
    try:
        from analyzer.cli import main as command_line

        command_line()
    except KeyboardInterrupt:
        print("dicelab: interrupted", file=sys.stderr, flush=True)
        os._exit(130)

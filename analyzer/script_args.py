"""Command lines of the maintenance scripts (``scripts/``): bad input is one line on stderr
and exit status 2, as in the ``dicelab`` CLI."""

from __future__ import annotations

import argparse
import sys
from typing import Callable, NoReturn


def fail(prog: str, message: str) -> NoReturn:
    """One line on stderr, ``PROG: error: MESSAGE``, and exit status 2."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    sys.exit(2)


def run_main(prog: str, main: Callable[[], None]) -> None:
    """Run a script's ``main``; a ``UserError`` it raises is ``fail``'s one line."""
    from analyzer.errors import UserError

    try:
        main()
    except UserError as exc:
        fail(prog, str(exc))


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are ``fail``'s one line (no usage block); ``--help`` still
    prints the usage."""

    def error(self, message: str) -> NoReturn:
        fail(self.prog, message)


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of at "
                                             f"least {low}")
        return value

    return whole

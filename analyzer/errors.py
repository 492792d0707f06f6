"""The exceptions the command line turns into one line on stderr."""

import re


class UserError(ValueError):
    """A problem with what the user asked for. The CLI prints it as one line and exits 2."""


class Interrupted(Exception):
    """The user stopped a run (Ctrl-C). The CLI prints it as one line and exits 130."""


def readable(text: str) -> str:
    """``text`` with the bytes that were not UTF-8 (decoded by Python as lone surrogates
    U+DC80..U+DCFF, shown by ``repr`` as ``\\udc9e``) written as ``\\x9e``, the byte typed."""
    text = re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", text)
    return re.sub("[\udc80-\udcff]", lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)


LONGEST_ECHO = 60  # characters of one unbroken value a message repeats


def shortened(text: str) -> str:
    """``text`` with every unbroken run of more than ``LONGEST_ECHO`` letters or digits
    (a value echoed back, such as a 5,000-digit seed) cut to its first and last 20, the
    number of characters left out between them."""
    def cut(match: re.Match) -> str:
        run = match.group()
        return f"{run[:20]}...({len(run) - 40:,} more)...{run[-20:]}"
    return re.sub(r"\w{%d,}" % (LONGEST_ECHO + 1), cut, text)

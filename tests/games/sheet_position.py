"""A Clever sheet and its pending-bonus stack, marked through a game's rules kernels: the
position both games' rules tests build."""

import numpy as np


class SheetPosition:
    """A sheet of the game whose kernels' ``layout`` and ``rules`` modules a subclass
    names, with the rule ``flags``, and its pending-bonus stack."""

    layout = None
    rules = None

    def __init__(self, flags=0):
        self.sheet = self.layout.new_sheet()
        self.sheet[self.layout.S_FLAGS] |= flags
        self.pending = np.zeros(self.rules.MAX_PENDING, np.int64)
        self.n = 0

    def enter(self, area, value, target=0):
        """A mark of ``value`` in ``area`` (``target``: the cell or row, where it has one);
        the bonuses it fires go on the stack."""
        assert self.rules.can_enter(self.sheet, area, value), (area, value)
        self.n = int(self.rules.enter(self.sheet, area, value, target, self.pending, self.n))
        return self

    def pushed_by_each(self, times, mark):
        """The bonuses pushed by each of ``times`` calls of ``mark`` (a mark on this
        sheet), mark by mark."""
        got = []
        for _ in range(times):
            before = self.n
            mark()
            got.append(self.stack()[before:])
        return got

    def stack(self):
        return [int(x) for x in self.pending[:self.n]]

    def pop(self, choice=0):
        """Resolve the next pending bonus (``pop_pending`` order); returns its code."""
        assert self.n > 0
        code = int(self.rules.pop_pending(self.sheet, self.pending, self.n))
        self.n -= 1
        self.n = int(self.rules.resolve_bonus(self.sheet, code, choice, self.pending, self.n))
        return code

    def give(self, code, choice=0):
        """Resolve a bonus from outside the sheet (round track, or a test setup)."""
        self.n = int(self.rules.resolve_bonus(self.sheet, code, choice, self.pending, self.n))
        return self

    def scores(self):
        out = np.zeros(5, np.int64)
        self.rules.area_scores(self.sheet, out)
        return [int(x) for x in out]

    def total(self):
        return int(self.rules.total_score(self.sheet))

    def f(self, field):
        return int(self.sheet[field])


def bits(*idx):
    return sum(1 << i for i in idx)


def sums(*s):
    return sum(1 << (v - 2) for v in s)

"""The sheet interface of the shared Clever turn engine: every function dispatches on the
sheet's ``H_GAME`` to That's Pretty Clever's or Twice As Clever's rules, so the turn,
policy and play loops run either game's sheet unchanged.

``moves``: int64[k, 3] rows ``(die, area, target)``; ``pending``: int64[MAX_PENDING].
"""

import numpy as np

from kernels.clever_base.dice import die_value
from kernels.clever_base.game_rules import (RULE_GAME, RULE_INPUT_BITS, RULE_INPUT_BITS_MULTI,
                                            RULE_SHEET_FLAGS, RULE_START_PLUS,
                                            RULE_START_REROLLS)
from kernels.clever_base.sheet import H_FLAGS, H_GAME, H_PLUS_GOT, H_REROLL_GOT, H_RULE_BITS, TAC
from kernels.jit import njit
from kernels.thats_pretty_clever.encode import encode as tpc_encode
from kernels.thats_pretty_clever import rules as tpc
from kernels.thats_pretty_clever import value as tpc_value
from kernels.thats_pretty_clever import layout as tpc_layout
from kernels.thats_pretty_clever.layout import BLUE_AREA as TPC_BLUE
from kernels.thats_pretty_clever.layout import USED_LEN as TPC_USED_LEN
from kernels.twice_as_clever import rules as tac
from kernels.twice_as_clever import value as tac_value
from kernels.twice_as_clever import layout as tac_layout
from kernels.twice_as_clever.layout import BLUE_AREA as TAC_BLUE
from kernels.twice_as_clever.layout import FLAG_CHAIN_LEFTOVERS, Q_ANY, Q_OF_AREA, SILVER_AREA
from kernels.twice_as_clever.layout import SILVER as TAC_SILVER_DIE
from kernels.twice_as_clever.layout import USED_LEN as TAC_USED_LEN
from kernels.twice_as_clever.encode import encode as tac_encode

MAX_PENDING = 32

NO_TOTAL = tac.NO_TOTAL  # below any total score (``quiet_total``: the use fires a bonus)
assert tpc.NO_TOTAL == NO_TOTAL


@njit(cache=True, _nrt=False)
def copy_sheet(dst, src):
    """Copy the fields of ``src`` its game uses, and its rules block's bits, into ``dst``
    (both int64[SHEET_LEN])."""
    n = TAC_USED_LEN if src[H_GAME] == TAC else TPC_USED_LEN
    for i in range(n):  # a plain loop: the slice assignment is not vectorised
        dst[i] = src[i]
    dst[H_RULE_BITS] = src[H_RULE_BITS]


@njit(cache=True, _nrt=False)
def die_uses(sheet, faces, die, moves, n):
    """Append the legal uses of ``die`` to ``moves`` from row ``n``; the new row count."""
    if sheet[H_GAME] == TAC:
        return tac.die_uses(sheet, faces, die, moves, n)
    return tpc.die_uses(sheet, faces, die, moves, n)


@njit(cache=True, _nrt=False)
def enter_die(sheet, faces, die, area, target, pending, n):
    """Enter a die (a row of ``die_uses``); the bonuses it fires go on ``pending``."""
    if sheet[H_GAME] == TAC:
        return tac.enter(sheet, area, die_value(faces, die, area, np.int64(TAC_BLUE)), target,
                         pending, n)
    return tpc.enter(sheet, area, die_value(faces, die, area, np.int64(TPC_BLUE)), target,
                     pending, n)


@njit(cache=True, _nrt=False)
def can_enter_die(sheet, faces, die, area):
    """Can ``die`` be entered in ``area`` (somewhere)?"""
    if sheet[H_GAME] == TAC:
        return tac.can_enter(sheet, area, die_value(faces, die, area, np.int64(TAC_BLUE)))
    return tpc.can_enter(sheet, area, die_value(faces, die, area, np.int64(TPC_BLUE)))


@njit(cache=True, _nrt=False)
def chain_rows(sheet, faces, picked, die):
    """Twice As Clever's platter chain: the silver rows ``die`` (sent to the platter by a
    pick of ``picked`` into silver) may mark; 0 for That's Pretty Clever."""
    if sheet[H_GAME] == TAC:
        return tac.chain_rows(sheet, faces, picked, die)
    return 0


@njit(cache=True, _nrt=False)
def chain_leftovers(sheet):
    """Twice As Clever, open point 12.4: does a silver third pick chain every leftover die
    (``FLAG_CHAIN_LEFTOVERS``) rather than only the lower ones?"""
    return sheet[H_GAME] == TAC and (sheet[H_FLAGS] & FLAG_CHAIN_LEFTOVERS) != 0


@njit(cache=True, _nrt=False)
def may_waste(sheet, die):
    """May a wasted pick (``wasted_pick``) take ``die``? Any die, but Twice As Clever's
    silver die (section 8.1: a player who cannot mark its number cannot choose it)."""
    return not (sheet[H_GAME] == TAC and die == TAC_SILVER_DIE)


@njit(cache=True, _nrt=False)
def chain_area(sheet):
    """The area whose picks start a platter chain (Twice As Clever's silver), else -1."""
    return SILVER_AREA if sheet[H_GAME] == TAC else -1


@njit(cache=True, _nrt=False)
def bonus_choices(sheet, code):
    """Bit mask of a free mark's choices (-1: none needed; 0: the bonus is lost)."""
    if sheet[H_GAME] == TAC:
        return tac.bonus_choices(sheet, code)
    return tpc.bonus_choices(sheet, code)


@njit(cache=True, _nrt=False)
def choice_of_bit(sheet, code, bit):
    """The ``resolve_bonus`` choice that bit ``bit`` of ``bonus_choices`` stands for."""
    if sheet[H_GAME] == TAC:
        return tac.choice_of_bit(code, bit)
    return tpc.choice_of_bit(code, bit)


@njit(cache=True, _nrt=False)
def resolve_bonus(sheet, code, choice, pending, n):
    """Pay a bonus (free marks at ``choice``); the new stack size."""
    if sheet[H_GAME] == TAC:
        return tac.resolve_bonus(sheet, code, choice, pending, n)
    return tpc.resolve_bonus(sheet, code, choice, pending, n)


@njit(cache=True, _nrt=False)
def pop_pending(sheet, pending, n):
    """The next pending bonus to resolve (the caller's stack then holds n - 1)."""
    if sheet[H_GAME] == TAC:
        return tac.pop_pending(sheet, pending, n)
    return tpc.pop_pending(sheet, pending, n)


@njit(cache=True, _nrt=False)
def total_score(sheet):
    if sheet[H_GAME] == TAC:
        return tac.total_score(sheet)
    return tpc.total_score(sheet)


@njit(cache=True, _nrt=False)
def mark_total(sheet, scores, code, choice):
    """``total_score`` after ``resolve_bonus(code, choice)`` of a free mark (``choice``: one
    of its ``bonus_choices``), the bonuses it fires unresolved, the sheet left unchanged;
    ``scores``: int64[5] the sheet's ``area_scores``."""
    if sheet[H_GAME] == TAC:
        return tac.mark_total(sheet, scores, code, choice)
    return tpc.mark_total(sheet, scores, code, choice)


@njit(cache=True, _nrt=False)
def enter_total(sheet, scores, faces, die, area, target):
    """``total_score`` after ``enter_die`` (a row of ``die_uses``), the bonuses it fires
    unresolved, the sheet left unchanged; ``scores``: int64[5] the sheet's ``area_scores``."""
    if sheet[H_GAME] == TAC:
        return tac.enter_total(sheet, scores, area, die_value(faces, die, area, np.int64(TAC_BLUE)),
                               target)
    return tpc.enter_total(sheet, scores, area, die_value(faces, die, area, np.int64(TPC_BLUE)),
                           target)


@njit(cache=True, _nrt=False)
def best_enter_total(sheet, scores, faces, die):
    """The most ``enter_total`` of any legal use of ``die`` (faces ``faces``), below any
    score (``NO_TOTAL``) if it has none; ``scores``: int64[5] the sheet's ``area_scores``."""
    if sheet[H_GAME] == TAC:
        return tac.best_enter_total(sheet, scores, faces, die)
    return tpc.best_enter_total(sheet, scores, faces, die)


@njit(cache=True, _nrt=False)
def quiet_total(sheet, scores, faces, die, area, target):
    """``enter_total`` of a use of ``die`` that fires no bonus; ``NO_TOTAL`` (below any
    score) if it fires one. The sheet is left unchanged."""
    if sheet[H_GAME] == TAC:
        value = die_value(faces, die, area, np.int64(TAC_BLUE))
        if tac.enter_fires(sheet, area, value, target):
            return NO_TOTAL
        return tac.enter_total(sheet, scores, area, value, target)
    value = die_value(faces, die, area, np.int64(TPC_BLUE))
    if tpc.enter_fires(sheet, area, value, target):
        return NO_TOTAL
    return tpc.enter_total(sheet, scores, area, value, target)


MAX_CELLS = max(tpc_layout.N_CELLS, tac_layout.N_CELLS)


@njit(cache=True, _nrt=False)
def marked_cells(sheet, out):
    """Fill ``out`` (int64[MAX_CELLS]) with 1 for each of the sheet's cells that is marked,
    0 otherwise (the cells of its game's ``layout.CELL_*``; the rest of ``out`` 0)."""
    if sheet[H_GAME] == TAC:
        field, bit, index = tac_layout.CELL_FIELD, tac_layout.CELL_BIT, tac_layout.CELL_INDEX
    else:
        field, bit, index = tpc_layout.CELL_FIELD, tpc_layout.CELL_BIT, tpc_layout.CELL_INDEX
    out[:] = 0
    for c in range(field.shape[0]):
        value = sheet[field[c]]
        out[c] = (value >> bit[c]) & 1 if bit[c] >= 0 else value > index[c]


@njit(cache=True, _nrt=False)
def area_scores(sheet, out):
    """Fill ``out`` (int64[5]) with the five area scores."""
    if sheet[H_GAME] == TAC:
        tac.area_scores(sheet, out)
    else:
        tpc.area_scores(sheet, out)


@njit(cache=True, _nrt=False)
def heuristic_value(sheet, w):
    """``(score, weighted feature sum)`` of the heuristic's value (see each game's
    ``value`` module): ``w`` holds at least the game's ``N_VALUE_WEIGHTS`` (or is empty).
    No feature is recorded, which compiles the fastest value (``feature_value`` records
    them)."""
    if sheet[H_GAME] == TAC:
        return tac_value.sheet_value(sheet, w, None)
    return tpc_value.sheet_value(sheet, w, None)


@njit(cache=True, _nrt=False)
def feature_value(sheet, w, out):
    """``heuristic_value``, the features added to ``out`` (float64[the game's N_FEATURES],
    zeroed by the caller)."""
    if sheet[H_GAME] == TAC:
        return tac_value.sheet_value(sheet, w, out)
    return tpc_value.sheet_value(sheet, w, out)


@njit(cache=True, _nrt=False)
def start_sheet(sheet, game, rounds, flags):
    """A blank sheet of ``game`` (TPC or TAC) for ``rounds`` rounds with rule ``flags``."""
    if game == TAC:
        tac.start_sheet(sheet, rounds, flags)
    else:
        tpc.start_sheet(sheet, rounds, flags)


@njit(cache=True, _nrt=False)
def start_game_sheet(sheet, game_rules, rounds, players):
    """A blank sheet for a game of ``players`` players and ``rounds`` rounds under the
    game-rules vector ``game_rules`` (int64[N_GAME_RULES]): its game, its rule flags, the
    re-rolls and +1s circled at the start (``start_rerolls``, ``start_plus_ones``) and
    the rules block's bits of that player count (``kernels.clever_base.rule_block``)."""
    start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
    sheet[H_REROLL_GOT] = game_rules[RULE_START_REROLLS]
    sheet[H_PLUS_GOT] = game_rules[RULE_START_PLUS]
    sheet[H_RULE_BITS] = game_rules[RULE_INPUT_BITS if players == 1 else RULE_INPUT_BITS_MULTI]


@njit(cache=True, _nrt=False)
def encode_afterstate(sheet, ts, idx, val, n_in):
    """The game's first ``n_in`` network inputs of the afterstate (``sheet``, ``ts``) into
    ``idx`` and ``val``; returns how many are nonzero."""
    if sheet[H_GAME] == TAC:
        return tac_encode(sheet, ts, idx, val, n_in)
    return tpc_encode(sheet, ts, idx, val, n_in)


@njit(cache=True, _nrt=False)
def value_stage(sheet):
    """The heuristic value's stage (weight set) of a sheet of either game."""
    if sheet[H_GAME] == TAC:
        return tac_value.value_stage(sheet)
    return tpc_value.value_stage(sheet)


@njit(cache=True, _nrt=False)
def chosen_bonus(sheet, code, choice):
    """The bonus a choice of ``code`` hands on (Twice As Clever's black ?: the ? of the
    chosen area), or 0 when ``code`` places its own mark."""
    if sheet[H_GAME] == TAC and code == Q_ANY:
        return Q_OF_AREA[choice]
    return 0

"""Clever turn mechanics (That's Pretty Clever rules page sections 4-5, 7 and 10; Twice As
Clever the same): the legal uses of the dice, the platter rule, recorded picks, re-roll and
+1 actions, the passive player's choices, for either sheet (``kernels.clever.sheets``). No
policy and no random numbers are involved except ``_roll``.

A move is a row ``(die, area, target)`` of an int64[MAX_MOVES, 3] buffer (``target``: see
each sheet's ``die_uses``; area -1: a wasted pick). Dice live in ``faces`` int64[6] and
``where`` int64[6] (``POOL``, ``FIELD``, ``PLATTER``).
"""

import numpy as np

from kernels.clever_base.sheet import (FLAG_RETURN_EMPTY_POOL, H_FLAGS, H_PLUS_GOT, H_PLUS_USED,
                                       H_REROLL_GOT, H_REROLL_USED, H_RETURN_GOT, H_RETURN_USED)
from kernels.clever.sheets import (MAX_PENDING, bonus_choices, can_enter_die, choice_of_bit,
                                   die_uses, enter_die, may_waste, pop_pending, resolve_bonus)
from kernels.jit import njit
from kernels.rng import uniform

N_DICE = 6
POOL, FIELD, PLATTER = 0, 1, 2
MAX_MOVES = 64


@njit(cache=True, _nrt=False)
def legal_moves(sheet, faces, usable, moves, waste):
    """Every legal use of the dice whose bit is set in ``usable``; returns the count. With
    ``waste``, a die with no legal placement may be picked anyway (``sheets.may_waste``):
    move ``(die, -1, -1)``."""
    n = np.int64(0)
    for die in range(N_DICE):
        if (usable >> die) & 1:
            before = n
            n = die_uses(sheet, faces, die, moves, n)
            if waste and n == before and may_waste(sheet, die):
                moves[n, 0], moves[n, 1], moves[n, 2] = die, -1, -1
                n += 1
    return n


@njit(cache=True, _nrt=False)
def to_field(faces, where, die):
    """Section 4: the picked die goes to a field and every die in play showing a strictly
    lower face goes to the silver platter."""
    where[die] = FIELD
    for d in range(N_DICE):
        if where[d] == POOL and faces[d] < faces[die]:
            where[d] = PLATTER


@njit(cache=True)
def take_die(sheet, faces, where, die, area, cell, targets):
    """Replay one active pick with recorded choices: enter ``die`` in ``area`` (``cell``:
    the yellow cell or blue sum), resolve the bonuses it triggers depth-first with the free
    marks going to ``targets`` (int64[k], in resolution order: yellow cell or blue sum; a
    target that is not one of its bonus's choices is a ``ValueError``), then apply the
    platter rule. Returns the number of targets used."""
    pending = np.zeros(MAX_PENDING, np.int64)
    n = enter_die(sheet, faces, die, area, cell, pending, np.int64(0))
    used = 0
    while n > 0:
        code = pop_pending(sheet, pending, n)
        n -= 1
        target = np.int64(0)
        if bonus_choices(sheet, code) > 0:
            if used >= targets.shape[0]:
                raise ValueError("a free mark has no recorded target")
            target = targets[used]
            used += 1
            if not _offered(sheet, code, target):
                raise ValueError("a recorded free mark is not one of its bonus's choices")
        n = resolve_bonus(sheet, code, target, pending, n)
    to_field(faces, where, die)
    return used


@njit(cache=True, _nrt=False)
def _offered(sheet, code, target):
    """Is ``target`` one of the choices (``bonus_choices``) of the bonus ``code``?"""
    options = bonus_choices(sheet, code)
    for bit in range(63):
        if (options >> bit) & 1 and choice_of_bit(sheet, code, bit) == target:
            return True
    return False


@njit(cache=True, _nrt=False)
def passive_candidates(sheet, faces, where, moves):
    """Section 5: a passive player's choices are the platter dice; only when none of them
    can be used, the dice on the active player's fields. Returns the move count."""
    platter = np.int64(0)
    fields = np.int64(0)
    for d in range(N_DICE):
        if where[d] == PLATTER:
            platter |= 1 << d
        elif where[d] == FIELD:
            fields |= 1 << d
    n = legal_moves(sheet, faces, platter, moves, np.bool_(False))
    if n == 0:
        n = legal_moves(sheet, faces, fields, moves, np.bool_(False))
    return n


N_ORDERS = 720  # the orders of the six dice


@njit(cache=True, _nrt=False)
def order_places(order):
    """The place of each die in the dice order number ``order`` (0 to ``N_ORDERS`` - 1; 0:
    colour order), packed 3 bits a die (a Lehmer code decoded)."""
    used, places, f = 0, 0, N_ORDERS
    for place in range(N_DICE):
        f //= N_DICE - place
        skip = order // f
        order %= f
        for d in range(N_DICE):
            if not (used >> d) & 1:
                if skip == 0:
                    used |= 1 << d
                    places |= place << (3 * d)
                    break
                skip -= 1
    return places


@njit(cache=True, _nrt=False)
def solo_platter(faces, where, order, fallback):
    """Section 6: the three lowest of the six rolled dice go to the platter; ties go by
    the dice order number ``order`` (``order_places``; 0: white, yellow, ..., in colour
    order). The other three go to the fields with ``fallback`` (the passive pick may take
    one of them when no platter die is usable), else they stay out of its reach
    (``POOL``)."""
    places = order_places(order)
    for d in range(N_DICE):  # the keys differ, so each die's rank is its place in order
        key = faces[d] * 8 + ((places >> (3 * d)) & 7)
        rank = 0
        for other in range(N_DICE):
            rank += faces[other] * 8 + ((places >> (3 * other)) & 7) < key
        where[d] = PLATTER if rank < 3 else FIELD if fallback else POOL


@njit(cache=True, _nrt=False)
def rolls_on(sheet, where):
    """Section 5: may the active player roll again after a pick? While dice are in play;
    with none left the turn's rolls end, unless the sheet's ``FLAG_RETURN_EMPTY_POOL``
    lets a return bring a platter die back first (Twice As Clever, 12.9)."""
    return _pool_mask(where) != 0 or (sheet[H_FLAGS] & FLAG_RETURN_EMPTY_POOL) != 0


@njit(cache=True, _nrt=False)
def may_return(sheet, where, die):
    """Section 5 (Twice As Clever): may ``die`` come back into play by a return? A return
    in hand and the die on the platter."""
    return sheet[H_RETURN_GOT] - sheet[H_RETURN_USED] > 0 and where[die] == PLATTER


@njit(cache=True, _nrt=False)
def use_reroll(sheet):
    """Section 10: spend an unlocked re-roll; False if none is left."""
    if sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] <= 0:
        return False
    sheet[H_REROLL_USED] += 1
    return True


@njit(cache=True)
def use_plus_one(sheet, faces, die, area, cell, targets, taken):
    """Section 10: spend a +1 on any die at its face (each die once per turn: ``taken`` is
    the bit mask of dice already taken by +1 this turn). Returns the new mask, or -1 when
    no +1 is left, the die was taken already or the use is not legal."""
    if sheet[H_PLUS_GOT] - sheet[H_PLUS_USED] <= 0 or (taken >> die) & 1:
        return -1
    if not can_enter_die(sheet, faces, die, area):
        return -1
    sheet[H_PLUS_USED] += 1
    where = np.full(N_DICE, FIELD, np.int64)  # nothing moves to the platter
    take_die(sheet, faces, where, die, area, cell, targets)
    return taken | (1 << die)


@njit(cache=True, _nrt=False)
def _roll(faces, where, stream, slot):
    """Roll every die in the pool; returns the next free random slot."""
    for d in range(N_DICE):
        if where[d] == POOL:
            faces[d] = np.int64(uniform(stream, slot + d) * 6.0) + 1
    return slot + N_DICE


@njit(cache=True, _nrt=False)
def _pool_mask(where):
    mask = 0
    for d in range(N_DICE):
        if where[d] == POOL:
            mask |= 1 << d
    return mask

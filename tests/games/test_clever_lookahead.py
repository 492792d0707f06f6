"""The learned policy's look one roll ahead (``kernels.clever.lookahead``; rules pages,
section 4: up to three rolls a turn, each of the dice still in play, and the dice below a
picked one go to the platter)."""

import numpy as np
import pytest

from analyzer.games.clever import value_weights
from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import denial, lookahead, play, valued
from kernels.clever_base.game_rules import RULE_SKIP_ROLL
from kernels.clever.moves import MAX_MOVES, POOL, legal_moves
from kernels.clever.policies import BEST_SHEET, CAND_SHEET, CAND_WHERE, LOOK_SLOT, WORK_LEN
from kernels.clever_base.sheet import SHEET_LEN
from kernels.rng import uniform
from tests.games.test_clever_denial import seated
from tests.games.test_clever_seats import _games

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
STREAM = np.uint64(77)


def look_row(game, samples=4, branch=3, margin=100.0, players=(2,)):
    """The shipped networks with the look set as a network file would set it."""
    members, info = value_weights.load(game.learned_file, game.kernel_game)
    look = {"players": list(players), "samples": samples, "branch": branch,
            "margin": margin}
    return value_weights.file_row(members, {**info, "look": look})


def mask(where):
    return int(sum(1 << d for d in range(6) if where[d] == POOL))


def next_roll_best(row, sheet, faces, where, picks, k, rules, exact):
    """The oracle's best value of pick ``picks`` on roll ``k`` of the dice in play (sampled,
    or with ``exact`` the ``k``-th of every roll, the first die in play the fastest
    digit): every legal pick tried on a fresh work buffer (no gift, no re-roll in hand),
    and the forfeit where the rules let a roll go unused or no die of it is usable."""
    rolled = faces.copy()
    in_play = [d for d in range(6) if where[d] == POOL]
    for j, d in enumerate(in_play):
        u = uniform(STREAM, LOOK_SLOT + picks * 4096 + k * 6 + d)
        rolled[d] = k // 6 ** j % 6 + 1 if exact else int(u * 6.0) + 1
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    n = legal_moves(sheet, rolled, mask(where), moves, False)
    inner = np.zeros(WORK_LEN, np.int64)
    denial.no_gift(inner)
    forfeit = valued._forfeit(sheet, where, picks, row, inner, rules) \
        if rules[RULE_SKIP_ROLL] or n == 0 else -np.inf  # no usable die: forfeited
    return max([forfeit, *(valued.pick_value(sheet, rolled, where, picks, moves, j, row,
                                             STREAM, 0, inner) for j in range(n))])


def oracle(row, sheet, faces, where, moves, n, samples, branch, margin, rules):
    """The pick the look should keep: of the ``branch`` best one-step picks within
    ``margin`` points of the best, the best mean of the next pick's best value over the
    sampled rolls, or every roll once where there are no more than the samples (a pick
    that leaves no dice in play: its own value); and every one-step value."""
    scratch = np.zeros(WORK_LEN, np.int64)
    denial.no_gift(scratch)
    one = [valued.pick_value(sheet, faces, where, 0, moves, i, row, STREAM, 0, scratch)
           for i in range(n)]
    shortlist = [i for i in sorted(range(n), key=lambda i: -one[i])[:branch]
                 if one[i] >= max(one) - margin]
    if len(shortlist) < 2:
        return int(np.argmax(one)), one
    means = {}
    for i in shortlist:
        valued.pick_value(sheet, faces, where, 0, moves, i, row, STREAM, 0, scratch)
        after = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN].copy()
        left = scratch[CAND_WHERE:CAND_WHERE + 6].copy()
        outcomes = 6 ** bin(mask(left)).count("1")
        exact = outcomes <= samples
        means[i] = one[i] if mask(left) == 0 else np.mean(
            [next_roll_best(row, after, faces, left, 1, k, rules, exact)
             for k in range(outcomes if exact else samples)])
    return max(shortlist, key=lambda i: means[i]), one


@GAMES
@pytest.mark.parametrize("samples", [4, 36])
def test_section_4_the_first_pick_is_the_best_mean_over_the_next_roll(game, samples):
    """Section 4: the dice a pick leaves in play are rolled again. On a two-player sheet,
    the first pick kept is the one whose next roll's best pick is worth most on average
    over the sampled rolls (with 36 samples, over every roll of one or two dice; the oracle
    tries every pick on each), among the three best by
    one-step value; the value returned and the afterstate left are that pick's own (Twice
    As Clever: unless leaving the roll unused is worth more than it). On some roll the
    look keeps another pick than the one-step best."""
    branch = 3
    row = look_row(game, samples, branch)
    rules = game.game_rules(defaults(game.params))
    sheet = seated(game, 2, 0, 0, 1)
    rng = np.random.default_rng(5)
    changed = 0
    for _ in range(12):
        faces = rng.integers(1, 7, 6).astype(np.int64)
        where = np.full(6, POOL, np.int64)
        moves = np.zeros((MAX_MOVES, 3), np.int64)
        n = legal_moves(sheet, faces, mask(where), moves, False)
        expected, one = oracle(row, sheet, faces, where, moves, n, samples, branch, 100.0,
                               rules)
        scratch = np.zeros(WORK_LEN, np.int64)
        denial.no_gift(scratch)
        forfeit = valued._forfeit(sheet, where, 0, row, scratch, rules) \
            if rules[RULE_SKIP_ROLL] else -np.inf  # Twice As Clever may leave a roll
        i, v = lookahead.choose_looking(sheet, faces, where, 0, moves, n, row, STREAM, 0,
                                        scratch, rules)
        if forfeit > one[expected]:
            assert i == -1 and v == forfeit
            continue
        assert i == expected and v == pytest.approx(one[expected])
        valued.pick_value(sheet, faces, where, 0, moves, i, row, STREAM, 0, scratch)
        assert (scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN]
                == scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]).all()
        changed += i != int(np.argmax(one))
    assert changed > 0


@GAMES
@pytest.mark.parametrize("picks, single", [(2, False), (0, True)])
def test_the_last_roll_or_a_single_pick_is_decided_one_step(game, picks, single):
    """Nothing is rolled after the third pick, and one legal pick leaves nothing to
    compare: there the look decides as the one-step policy does, to the same afterstate."""
    row = look_row(game)
    rules = game.game_rules(defaults(game.params))
    sheet = seated(game, 2, 0, 0, 1)
    faces = np.array([3, 5, 2, 6, 1, 4], np.int64)
    where = np.full(6, POOL, np.int64)
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    n = 1 if single else legal_moves(sheet, faces, mask(where), moves, False)
    results = []
    for choose in (lookahead.choose_looking, valued.choose_active):
        scratch = np.zeros(WORK_LEN, np.int64)
        denial.no_gift(scratch)
        results.append((*choose(sheet, faces, where, picks, moves, n, row, STREAM, 0,
                                scratch, rules), scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN]))
    assert results[0][:2] == results[1][:2] and (results[0][2] == results[1][2]).all()


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_look_plays_only_the_player_counts_it_names(players):
    """A file that looks in two-player games: the solo and three-player games are bit for
    bit those of the same networks without the look, two-player games are not."""
    game = TPC_GAME
    rules = game.game_rules(defaults(game.params))
    looking = _games(look_row(game, players=(2,)), players, game, rules)
    plain = look_row(game)
    plain[play.W_LOOK_PLAYERS] = 0
    assert (looking == _games(plain, players, game, rules)).all() == (players != 2)


@GAMES
def test_learned_n_looks_in_every_game_and_learned_0_never(game):
    """``learned:N``: the file's networks looking with N sampled rolls in games of every
    player count (the file's branch and margin, else the defaults); ``learned:0`` never
    looks; N beyond the limit is refused naming it."""
    row = game.parse_policy("learned:8")
    assert row[play.W_SAMPLES] == 8 and row[play.W_LOOK_PLAYERS] == 0b11110
    look = game.look() or value_weights.LOOK_DEFAULTS
    assert row[play.W_BRANCH] == look["branch"] and row[play.W_LOOK_MARGIN] == look["margin"]
    assert game.parse_policy("learned:0")[play.W_LOOK_PLAYERS] == 0
    limit = value_weights.LOOK_LIMITS["samples"]
    with pytest.raises(UserError, match=f"expected learned:N with N a whole number from 0 "
                                        f"to {limit}"):
        game.parse_policy(f"learned:{limit + 1}")

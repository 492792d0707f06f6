"""A rule-conditioned network distilled from the game's networks: which network
teaches which variant, the taught variant table, and the teachers' rows
(``analyzer.games.clever.training.teachers``; the kernel's distillation is tested in
``test_value_engine``)."""

import numpy as np
import pytest

from analyzer.games.clever import variants
from analyzer.games.clever.training import run as training_run
from analyzer.games.clever.training import teachers
from analyzer.games.clever.training.stages import LAMBDA, NO_CURRICULUM, Stage, trainable
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import net, selfplay, value_net
from kernels.clever.play import W_NET

TAUGHT = [{}, {"rounds": 4}, {"rounds": 7, "round_3_bonus": False, "forfeited_dice": "platter"},
          {"rounds": 7}, {"return_empty_pool": "return_allowed"}]


@pytest.mark.parametrize("changes,teacher", [
    ({}, 0),
    ({"solo_ties": "colour_order"}, 0),  # outside the shape: the defaults' network
    ({"rounds": 4, "solo_ties": "colour_order"}, 1),
    ({"rounds": 7}, 3),
    ({"rounds": 7, "round_3_bonus": False}, -1),  # a shape no network learnt
    ({"rounds": 7, "round_3_bonus": False, "forfeited_dice": "platter"}, 2),
    ({"return_empty_pool": "return_allowed", "skip_roll": "never"}, 4),  # the most specific
    ({"round_4_bonus": False}, -1),
])
def test_the_network_of_the_same_shape_with_the_most_of_its_changes_teaches(changes, teacher):
    """Rules section "Rounds" and "Round-track bonuses" make a game's shape: a network
    teaches a variant of its own shape whose changes include its own."""
    assert teachers.teacher_of(changes, TAUGHT) == teacher


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
def test_a_taught_table_lies_inside_the_distribution_and_gives_each_teacher_its_games(game):
    """Every variant of a distilled run's table lies inside the training distribution; the
    same seed draws the same table; each teaching network's own shape is among them."""
    files = teachers.teacher_files(game)
    taught = teachers.taught_changes(game, files)
    table = teachers.taught_sample(game, 512, 7, taught)
    assert table == teachers.taught_sample(game, 512, 7, taught)
    assert table != teachers.taught_sample(game, 512, 8, taught)
    assert all(variants.inside(game, v) and v["players"] == 1 for v in table)
    _, index = teachers.teacher_table(game, files, table)
    assert set(index.tolist()) >= set(range(len(files)))
    assert (index == -1).mean() < teachers.FREE_SHARE


def test_a_teacher_weighted_more_teaches_more_of_the_table():
    """``--teacher-weight``: a teacher whose weight is 4 draws about four times the
    variants of a teacher weighted 1, every variant still inside the distribution; the
    same weights and seed draw the same table."""
    game = TPC_GAME
    files = teachers.teacher_files(game)
    taught = teachers.taught_changes(game, files)
    four = [path.name for path in files].index("value_net.rounds_4.npy")
    weights = [1.0] * len(files)
    weights[four] = 4.0
    table = teachers.taught_sample(game, 2048, 7, taught, weights=weights)
    assert table == teachers.taught_sample(game, 2048, 7, taught, weights=weights)
    assert all(variants.inside(game, v) for v in table)
    even = teachers.taught_sample(game, 2048, 7, taught)
    share, even_share = (np.mean([v["rounds"] == 4 for v in drawn]) for drawn in (table, even))
    assert share > 2.5 * even_share
    assert share == pytest.approx((1 - teachers.FREE_SHARE) * 4 / (len(files) + 3), abs=0.05)


def test_a_teacher_that_plays_plays_its_share_of_its_own_rows_only():
    """``--teacher-plays``: a teacher given a share plays about that share of the rows it
    teaches and no other row; a teacher given none plays none; the same seed draws the same
    rows, another seed others."""
    teacher_of = np.repeat(np.array([-1, 0, 1, 2], np.int64), 2000)
    actor_of = teachers.acting_rows(teacher_of, [0.0, 0.5, 1.0], 7)
    assert actor_of.dtype == np.int64 and actor_of.shape == teacher_of.shape
    assert set(actor_of[teacher_of == -1].tolist()) == {-1}
    assert set(actor_of[teacher_of == 0].tolist()) == {-1}
    assert set(actor_of[teacher_of == 2].tolist()) == {2}
    played = actor_of[teacher_of == 1]
    assert set(played.tolist()) == {-1, 1}
    assert (played == 1).mean() == pytest.approx(0.5, abs=0.05)
    assert np.array_equal(actor_of, teachers.acting_rows(teacher_of, [0.0, 0.5, 1.0], 7))
    assert not np.array_equal(actor_of, teachers.acting_rows(teacher_of, [0.0, 0.5, 1.0], 8))


def test_the_game_s_own_network_teaches_the_defaults_with_its_own_values():
    """The teacher rows are the files' solo networks, given the rules block: the defaults'
    teacher gives the game's solo network's estimate, and a specialist its own."""
    files = teachers.teacher_files(TPC_GAME)
    assert files[0] == TPC_GAME.learned_file and len(files) > 1
    defaults_only = {**defaults(TPC_GAME.params), "players": 1}
    four = {**defaults_only, "rounds": 4}
    rows, index = teachers.teacher_table(TPC_GAME, files, [defaults_only, four])
    assert index[0] == 0 and files[index[1]].name == "value_net.rounds_4.npy"
    n_in = int(value_net.n_inputs(TPC_GAME.kernel_game, 3))
    assert all(int(row[W_NET + value_net.P_INPUTS]) == n_in for row in rows)
    idx = np.arange(0, 40, 3, dtype=np.int64)
    val = np.ones(idx.size, np.float32)
    p1, p2 = np.zeros(net.H1, np.float32), np.zeros(net.H2, np.float32)
    own, skip = teachers.solo_network(TPC_GAME, files[0])
    a1, a2 = np.zeros(net.H1, np.float32), np.zeros(net.H2, np.float32)
    expected = net.forward(own, n_in, idx, val, idx.size, a1, a2)
    assert selfplay.teacher_value(rows[0], n_in, 1, idx, val, idx.size, p1, p2) \
        == pytest.approx(expected)
    assert selfplay.teacher_value(rows[index[1]], n_in, 1, idx, val, idx.size, p1, p2) \
        != pytest.approx(expected)


def test_a_rows_stage_changes_only_the_rules_block_s_rows(tmp_path):
    """A distilled stage whose rules block rows learn alone (``distilledrows``) leaves
    every other weight as it started, so play on the defaults (rules block 0) stays the
    own network's; the rules block's rows learn from the teachers."""
    game = TPC_GAME
    files = teachers.teacher_files(game)[:2]
    table = teachers.taught_sample(game, 64, 3, teachers.taught_changes(game, files))
    rows, index = teachers.teacher_table(game, files, table)
    spec = Stage(64, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 1e-4),), True, NO_CURRICULUM,
                 16, new_rows_only=True, skip_head=True, rules_block=True, teach=1.0)
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    start, _ = teachers.solo_network(game, game.learned_file)
    run = training_run.Run(
        game=game.prefix, stages={"rows": spec}, seed=5, until="rows",
        checkpoint=tmp_path / "rows.npz",
        rules=game.game_rules({**defaults(game.params), "players": 1}),
        rounds_of=game.layout.ROUNDS_BY_PLAYERS, heuristic=game.heuristic_row(),
        variants=variants.table(game, table), eval_every=32, eval_games=8, chunk=32,
        start=start.copy(), teachers=rows, teacher_of=index)
    weights = training_run.train(run)["weights"]
    first, end = trainable(spec, game.kernel_game, n_in)
    np.testing.assert_array_equal(weights[:first], start[:first])
    np.testing.assert_array_equal(weights[end:], start[end:])
    assert not np.array_equal(weights[first:end], start[first:end])


def test_the_own_network_s_rows_can_learn_from_their_returns():
    """``--own-returns``: the rows the own network teaches (the defaults among them)
    learn from their own returns; every other teacher keeps its rows."""
    sample = teachers.taught_sample(TAC_GAME, 64, 3, TAUGHT)
    index = np.array([teachers.teacher_of(teachers.solo_changes(TAC_GAME, v), TAUGHT)
                      for v in sample], np.int64)
    assert (index == 0).any() and (index > 0).any()
    changed = teachers.own_learns_returns(index)
    assert (changed[index == 0] == -1).all()
    np.testing.assert_array_equal(changed[index != 0], index[index != 0])

"""What the shared Clever analyzer does for both games: policy ordering, multiplayer win
shares, identical results for any thread count, the decision log, and one-line errors for
bad input to simulate, advise and coach."""

import json
import re

import numba
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.games.clever import simulation
from analyzer.cli import cli
from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever_base.sheet import H_REROLL_GOT

K = 5
GAMES = [TPC_GAME, TAC_GAME]
ids = [g.id for g in GAMES]


def full_roll(game):
    """A roll of all six dice in the game's letters, e.g. 'W3 Y5 B2 G6 O4 P1'."""
    return " ".join(f"{letter}{face}" for letter, face in zip(game.letters, "352641"))


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_policies_are_ordered(game):
    """The tuned heuristic beats greedy, which beats random, by far more than 5 SE."""
    values = defaults(game.params)
    means, tables = {}, set()
    for name in ("random", "greedy", "heuristic"):
        run = simulation.simulate(game, values, [name], 3000, seed=1, progress=False)
        means[name] = run.headline["policies"][name]
        tables |= set(run.tables)
    for low, high in (("random", "greedy"), ("greedy", "heuristic")):
        lo, hi = means[low], means[high]
        se = (hi["ci95"][1] - hi["ci95"][0] + lo["ci95"][1] - lo["ci95"][0]) / (2 * 1.96)
        assert hi["mean_score"] - lo["mean_score"] > K * se
    assert tables >= {"policies", "areas", "bonuses", "ratings", "seats", "first_picks",
                      "picks", "bonus_rounds"}


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_simulate_gives_the_summary_or_the_tables_named(game):
    """By default the summary alone (each policy over all seats and in each); --tables
    all: every table, the summary first; --tables NAME: that one."""
    args = [game.id, "simulate", "--players", "2", "--policy", "greedy", "--games", "16",
            "--quiet", "--format", "json"]
    docs = [json.loads(CliRunner().invoke(cli, [*args, *extra]).output)
            for extra in ([], ["--tables", "all"], ["--tables", "cells"])]
    assert list(docs[0]["tables"]) == ["summary"]
    assert [r["seat"] for r in docs[0]["tables"]["summary"]] == ["all", "1", "2"]
    assert list(docs[1]["tables"]) == list(simulation.TABLES)
    assert list(docs[2]["tables"]) == ["cells"]


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_multiplayer_win_shares_add_up(game):
    values = {**defaults(game.params), "players": 3}
    result = simulation.simulate(game, values, ["greedy", "random"], 2000, seed=2,
                                 progress=False)
    assert result.tables["seats"]["win_rate"].sum() == pytest.approx(1.0)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_identical_for_any_thread_count(game):
    values = defaults(game.params)
    runs = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        runs.append(simulation.play_games(game, values, ["heuristic:2"], 1500, 5,
                                          progress=False)[0])
    np.testing.assert_array_equal(runs[0], runs[-1])


def test_block_loop_equals_the_blocks_one_by_one():
    """The threaded block loop (the Clever runs' runner) fills each block's accumulator as
    the block kernel does alone, whatever the threads and the order they finish in."""
    from analyzer.run.driver import BlockLoop
    from analyzer.seeding import block_keys
    from kernels.clever import play

    values = {**defaults(TPC_GAME.params), "players": 2}
    args = (np.stack([TPC_GAME.parse_policy(p) for p in ("greedy", "random")]), True,
            TPC_GAME.rounds_for(values), TPC_GAME.game_rules(values))
    keys, sizes = block_keys(3, 0, 0, 5), np.array([7, 3, 5, 1, 4], np.int64)
    shape = (len(keys), 2, 2, play.COL_HIST + play.HIST_BINS)
    alone = np.zeros(shape, np.int64)
    for b in range(len(keys)):
        play.games_block(keys[b], 0, sizes[b], alone[b], *args)
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        looped = np.zeros(shape, np.int64)
        BlockLoop.of(play.games_block)(keys, sizes, looped, *args)
        np.testing.assert_array_equal(looped, alone)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_decision_log_adds_up(game):
    """The decision log is consistent with the game totals: first picks are shares that
    add to 1, the bonuses by round add up to the bonuses per game, and every turn has a
    first pick unless its first roll was forfeited."""
    run = simulation.simulate(game, defaults(game.params), ["greedy"], 2000, seed=5,
                              progress=False)
    assert run.tables["first_picks"].share.sum() == pytest.approx(1.0)
    by_round = run.tables["bonus_rounds"].groupby("bonus")["per_game"].sum()
    per_game = run.tables["bonuses"].set_index("bonus")["per_game"]
    for bonus, value in per_game.items():
        assert by_round[bonus] == pytest.approx(value, abs=1e-12)
    picks = run.tables["picks"].set_index("pick")
    assert 5.5 < picks.loc[1, "per_game"] <= 6.0
    assert picks.loc[1, "per_game"] >= picks.loc[2, "per_game"] >= picks.loc[3, "per_game"]


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_comeback_record_ends_at_the_final_scores(game):
    """Rules page, section 12 (end of the game: the highest total wins, ties by the best
    single area): the standings recorded after the last round are the final scores, so a
    player still behind then never wins; each round counts every player once; the
    report's comeback table gives each spot's win chance inside its interval."""
    from analyzer import seats
    from kernels.clever import play
    from tests.comebacks import check_comeback_record

    values = {**defaults(game.params), "players": 2}
    acc, n = simulation.play_games(game, values, ["greedy", "random"], 600, 7,
                                   progress=False)
    row = acc.sum(axis=(0, 1))
    rounds = game.rounds_for(values)
    standings = row[play.COL_LOG + play.LOG_STANDINGS:][:rounds]
    assert standings[-1] == row[play.COL_SCORE_SUM]
    check_comeback_record(row, play.COL_COMEBACK, rounds, 2, n, play.WIN_UNITS)
    table = seats.comebacks(row, simulation.COLUMNS, play.COL_COMEBACK, rounds,
                            play.COMEBACK_STEP)
    assert {t["rounds_left"] for t in table} <= {f"{k} round{'s' * (k > 1)} left"
                                                 for k in range(1, rounds)}
    for t in table:
        assert t["ci95_low"] <= t["win_chance"] <= t["ci95_high"]
        assert t["games"] >= seats.MIN_COMEBACK_GAMES


def _blank_sheet(tmp_path, game):
    path = tmp_path / "sheet.json"
    path.write_text(__import__("json").dumps(game.sheetfile.blank()))
    return path


@pytest.mark.parametrize("game", GAMES, ids=ids)
@pytest.mark.parametrize("args,needle", [
    (["--roll", "W3 Y5 X2"], "bad roll token"),
    (["--phase", "later"], "unknown phase"),
    (["--roll", "W3 Y5", "--fields", "G6", "--phase", "active2"], "every die needs a place"),
    (["--phase", "active2"], "one die on your fields"),
    (["--roll", "W3 Y5 B2", "--fields", "G6", "--platter", "P1"], "active pick 1"),
    (["--roll", "W3 Y5 B2 G6", "--platter", "P1"], "no die is on the platter"),
    (["--taken", "Y"], "--taken is for +1 windows"),
    (["--phase", "passive", "--platter", "G6"], "give no --fields or --platter"),
    (["--round", "9"], "bad round"),
    (["--rollouts", "0"], "bad rollout count"),
    (["--policy", "clever"], "unknown policy"),
])
def test_advise_bad_input(tmp_path, game, args, needle):
    path = _blank_sheet(tmp_path, game)
    roll = [] if "--roll" in args else ["--roll", full_roll(game)]
    result = CliRunner().invoke(cli, [game.id, "advise", "--sheet", str(path), *roll, *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_coach_takes_any_seed_one_after_another(game):
    """The round-track streams are 64-bit keys: a key of 2^63 or more (seed 80's) after a
    smaller one (the default seed's) in the same process once overflowed."""
    for seed in ("20261129", "80"):
        result = CliRunner().invoke(cli, [game.id, "coach", "--rollouts", "4", "--seed", seed],
                                    input="done\n")
        assert result.exit_code == 0 and "final: score" in result.output, result.output


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_coach_plays_along_from_piped_input(game):
    """The coach reads a roll, ranks the choices, applies the chosen one and keeps going;
    a bad line gets a message, 'done' ends the game with the final score. (The best
    choice may be the round-1 re-roll: then the same roll comes again, and with no re-roll
    left its best choice is a pick.)"""
    lines = f"W3 Y5 X9\n{full_roll(game)}\n1\n{full_roll(game)}\n1\ndone\n"
    result = CliRunner().invoke(cli, [game.id, "coach", "--rollouts", "50"], input=lines)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "bad roll token 'X9'" in out
    assert "1. " in out and "your choice number" in out
    assert "round 1, active2" in out and "final: score" in out


@pytest.mark.parametrize("game", GAMES, ids=ids)
@pytest.mark.parametrize("args,needle", [
    (["simulate", "--policy", "clever"], "unknown policy"),
    (["simulate", "--policy", "heuristic:x"], "bad lookahead"),
    (["simulate", "--policy", "learned:99"], "bad lookahead"),
    (["simulate", "--policy", "greedy:2"], "unknown policy"),
    (["simulate", "--players", "5"], "players"),
    (["simulate", "--games", "0"], "game count"),
    (["simulate", "--set", "solo_ties=closest"], "one of random, colour_order"),
    (["simulate", "--tables", "summary,cellz"], "bad --tables name 'cellz'; accepted: "
                                                "summary, policies, seats, areas"),
    (["whatif", "--vary", "rounds=-1"], "rounds"),
    (["sheet"], "exactly one of --new or --score"),
    (["sheet", "--score", "no/such/sheet.json"], "does not exist"),
])
def test_bad_input_is_one_line_exit_2(game, args, needle):
    result = CliRunner().invoke(cli, [game.id, *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_wasted_pick_changes_random_games(game):
    """The open point 'wasted pick' (only the random policy uses it) lowers its mean score
    by more than 5 SE of the paired difference (the same dice)."""
    values = defaults(game.params)
    variants = [("plain", values, ["random"]),
                ("wasted", {**values, "wasted_pick": True}, ["random"])]
    rows = simulation.whatif(game, variants, 3000, 4, progress=False).tables["variants"]
    diff = rows[(rows.variant == "wasted") & (rows.metric == "mean_score")].iloc[0]
    se = (diff["diff_ci95_high"] - diff["diff_ci95_low"]) / (2 * 1.96)
    assert -diff["diff"] > K * se


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_advice_from_a_blank_sheet_expects_a_whole_game(game, tmp_path):
    """Rollouts from a blank sheet in round 1 (with round 1's re-roll, as in a game) play
    a whole game: the best choice's
    expected score is close to the rollout policy's solo mean (within 5 SE of both plus
    the spread a single roll can make, 5% of the mean); rollouts valued with the wrong
    rounds-left weights fall far below it."""
    from analyzer.games.clever.advise import advise

    values = defaults(game.params)
    policy = game.rollout_policy
    sim = simulation.simulate(game, values, [policy], 1024, seed=8, progress=False)
    mean, (low, _) = (sim.headline["policies"][policy][k]
                      for k in ("mean_score", "ci95"))
    sheet = game.blank_sheet(values)
    sheet[H_REROLL_GOT] = 1  # round 1's bonus, as every game starts (section 3)
    result = advise(game, values, sheet, full_roll(game), "active1", 1, policy, 200, 9)
    best = result.tables["choices"].iloc[0]
    se = (best.ci95_high - best.ci95_low) / (2 * 1.96) + (mean - low) / 1.96
    assert abs(best.expected_score - mean) < K * se + 0.05 * mean


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_raced_advice_stops_only_clearly_worse_choices(game, monkeypatch):
    """Raced rollouts (advise.raced_rollouts): a choice that runs to the end has the
    numbers of an unraced run, a stopped one those of a run of RACE_FIRST rollouts, and
    it stopped only when its paired difference from the leader was more than RACE_Z
    standard errors below zero."""
    from analyzer.games.clever import advise

    values = defaults(game.params)
    sheet = game.blank_sheet(values)
    sheet[H_REROLL_GOT] = 1

    def choices(rollouts):
        result = advise.advise(game, values, sheet, full_roll(game), "active1", 1, "greedy",
                               rollouts, 4)
        return result.tables["choices"].set_index("choice")

    raced, first = choices(200), choices(advise.RACE_FIRST)
    monkeypatch.setattr(advise, "RACE_FIRST", 200)
    whole = choices(200)
    stopped = raced[raced.rollouts == 50]
    ran = raced[raced.rollouts == 200]
    assert len(stopped) > 0 and len(ran) > 0 and len(stopped) + len(ran) == len(raced)
    assert (raced.index[:len(ran)] == ran.index).all()  # the finished ones rank first
    pd.testing.assert_series_equal(ran.expected_score, whole.expected_score[ran.index])
    pd.testing.assert_series_equal(stopped.expected_score, first.expected_score[stopped.index])
    behind = first.loc[stopped.index]  # paired against the leader of the first rollouts
    se = (behind.vs_best_ci95_high - behind.vs_best_ci95_low) / (2 * 1.96)
    assert (behind.vs_best + advise.RACE_Z * se < 0).all()
    kept = first.drop(stopped.index)
    se = (kept.vs_best_ci95_high - kept.vs_best_ci95_low) / (2 * 1.96)
    assert (kept.vs_best + advise.RACE_Z * se >= -1e-9).all()


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_boxes_marked_give_back_the_area_scores(game):
    """The record of boxes marked by each round's end (the sheet picture's data) agrees
    with the scores of the same games: a track scored by its length (That's Pretty
    Clever's green, Twice As Clever's blue) averages exactly what the share of games
    reaching each box says; shares fall along a track, a yellow box of Twice As Clever
    is crossed no more often than circled, and a box's mean round is a round played."""
    values = {**defaults(game.params), "players": 1}
    run = simulation.simulate(game, values, ["greedy"], 1024, seed=3, progress=False)
    cells = run.tables["cells"]
    area = "green" if game is TPC_GAME else "blue"
    points = game.layout.GREEN_POINTS if game is TPC_GAME else game.layout.BLUE_POINTS
    reach = cells[cells.area == area]["marked"].to_numpy()  # P(length > k) by slot k
    assert (np.diff(reach) <= 0).all()
    exactly = -np.diff(np.concatenate([[1.0], reach, [0.0]]))  # P(length == k)
    expected = float((exactly * points[:len(exactly)]).sum())
    mean = run.tables["areas"].set_index("area").loc[area, "mean_score"]
    assert expected == pytest.approx(mean, abs=1e-9)
    played = cells.dropna(subset=["mean_round"])
    assert played.mean_round.between(1, game.rounds_for(values)).all()
    if game is TAC_GAME:
        circled = cells[cells.area == "yellow circled"]["marked"].to_numpy()
        crossed = cells[cells.area == "yellow crossed"]["marked"].to_numpy()
        assert (crossed <= circled).all() and crossed.sum() > 0
    else:
        assert cells[cells.label == "X"]["marked"].isna().all()  # printed, not marked


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_decision_record_adds_up_to_the_decision_log(game):
    """Rules page, section 10 (actions): every re-roll the learned bot spends is one of its
    recorded re-roll choices; first picks by round add up to the first picks; the actions
    spent by round add up to the re-rolls, +1s and returns spent (solo games)."""
    from analyzer.games.clever import decisions
    from kernels.clever import play

    values = defaults(game.params)
    acc, n = simulation.play_games(game, values, ["learned"], 160, 11, progress=False)
    row = acc.sum(axis=(0, 1))
    log = row[play.COL_LOG:play.COL_LOG + play.LOG_LEN]
    rerolls = log[play.LOG_REROLLS:play.LOG_REROLLS + 3]
    assert rerolls.sum() > 0
    assert decisions.reroll_counts(row)[:, :, 1].sum(axis=1).tolist() == rerolls.tolist()
    rounds = game.rounds_for(values)
    firsts = pd.DataFrame(decisions.first_round_rows(game, "learned", row, rounds))
    assert firsts.groupby("round").share.sum().round(12).tolist() == [1.0] * rounds
    by_round = log[play.LOG_FIRST_ROUND:play.LOG_FIRST_ROUND + play.N_AREAS * rounds]
    assert by_round.sum() == log[play.LOG_FIRST:play.LOG_FIRST + 6 * play.N_AREAS].sum()
    spent = log[play.LOG_ACTION_ROUNDS:play.LOG_ACTION_ROUNDS + 3 * play.LOG_ROUNDS]
    spent = spent.reshape(play.LOG_ROUNDS, 3).sum(axis=0)
    assert spent[play.ACTION_REROLL] == rerolls.sum()
    assert spent[play.ACTION_PLUS] == log[play.LOG_PLUS] + log[play.LOG_PLUS_PASSIVE]
    assert spent[play.ACTION_RETURN] == log[play.LOG_RETURNS:play.LOG_RETURNS + 3].sum()


def test_the_reroll_rule_is_the_tree_that_agrees_with_most_choices():
    """In rounds 1-3 of 4 the bot never re-rolls (100 rolls each); in
    round 4 it re-rolled 90 of 100 rolls scoring 0, 70 of 100 scoring 1, 20 of 100 scoring
    2 and none of 500 others. "From round 4, re-roll under 2 points" agrees with 300 + 740
    of 1100 choices, more than any other split (never: 300 + 620)."""
    from analyzer.games.clever import decisions
    from kernels.clever import play

    late = np.array([[10, 90], [30, 70], [80, 20]] + [[100, 0]] * 5, float)
    early = np.zeros_like(late)
    early[0, 0] = 100
    counts = np.stack([early, early, early, late])
    rule = decisions.reroll_tree(counts)
    assert (rule["from_round"], rule["below"], rule["choices"]) == (4, 2, 1100)
    assert rule["agrees"] == pytest.approx(1040 / 1100)
    assert rule["never"] == pytest.approx(920 / 1100)
    words = decisions.reroll_words(rule, 4)
    assert words == "Keep re-rolls until round 4; then re-roll when no die scores 2 points " \
        "or more at once"
    never = decisions.reroll_tree(np.stack([early] * 4))
    assert never["from_round"] is None and never["agrees"] == 1.0
    assert decisions.reroll_words(never, 4).startswith("Keep re-rolls")
    always = decisions.reroll_tree(np.array([[[0, 5]] * 8] * 2, float))
    assert (always["from_round"], always["below"]) == (1, float("inf"))
    assert decisions.reroll_words(always, 2) == "Re-roll whenever you hold one"
    for points in range(-3, 30):
        b = play.gain_bin(points)
        assert decisions.GAIN_FROM[b] <= max(points, 0)
        assert b == play.GAIN_BINS - 1 or points < decisions.GAIN_FROM[b + 1]


def test_a_paired_run_stops_on_the_first_batch_precise_enough():
    """``whatif`` with a precision plays whole batches until every paired difference in
    mean score is that precise, and then equals a run of exactly that many games."""
    from analyzer.games.clever.game import ROUND_BONUS_ROUNDS

    values = defaults(TPC_GAME.params)
    variants = [("in force", values, ["greedy"]),
                ("without", {**values, f"round_{ROUND_BONUS_ROUNDS[0]}_bonus": False},
                 ["greedy"])]

    def half_width(result):
        diff = result.headline["variants"]["without"]["mean_score"]
        return diff["diff_ci95"][1] - diff["diff"]

    stopped = simulation.whatif(TPC_GAME, variants, 1 << 14, 3, progress=False,
                                precision=0.1, batch_blocks=1)
    n = stopped.headline["games"]
    assert 512 < n < 1 << 14 and n % 512 == 0
    assert half_width(stopped) <= 0.1
    assert half_width(simulation.whatif(TPC_GAME, variants, n - 512, 3, progress=False)) > 0.1
    fixed = simulation.whatif(TPC_GAME, variants, n, 3, progress=False)
    pd.testing.assert_frame_equal(fixed.tables["variants"], stopped.tables["variants"])


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in GAMES if g.table_policy != "heuristic"],
                         ids=[g.id for g in GAMES if g.table_policy != "heuristic"])
def test_the_report_table_policy_plays_as_well_as_the_tuned_heuristic(game):
    """A game whose report seats and rule values use a cheaper reading of the heuristic:
    in two-player games against the heuristic (seats rotating, 8,192 games) it loses less
    than 2 percentage points (its win rate's 95% interval reaches 48%)."""
    values = {**defaults(game.params), "players": 2}
    run = simulation.simulate(game, values, [game.table_policy, "heuristic"], 8192, 13,
                              progress=False)
    row = run.tables["policies"].set_index("policy").loc[game.table_policy]
    assert row["win_ci95_high"] >= 0.48


def test_report_shows_the_table_policys_seats_beside_only_where_a_seat_is_off(monkeypatch):
    """Where a seat of the report's bot wins more or less than a fair share (its
    interval leaves the share out), the table policy's own mirror games of that player
    count sit beside it, and the reading names the largest such seat; elsewhere nothing
    is added."""
    from analyzer.games.clever import report
    from analyzer.sections import fair_share

    def seat_rows(rates):
        return fair_share(pd.DataFrame(
            [{"players": str(len(r)), "seat": f"seat {k + 1}", "win_rate": x,
              "ci95_low": x - 0.01, "ci95_high": x + 0.01, "games": 4000}
             for r in rates for k, x in enumerate(r)]))

    asked = []

    def mirror(game, values, policy, counts, samples, seed, progress, verdict=True):
        asked.append((policy, counts))
        return seat_rows([[0.26, 0.25, 0.24, 0.25]]).to_dict("records"), [], []

    monkeypatch.setattr(report, "mirror_seats", mirror)
    fair = seat_rows([[0.5, 0.5], [0.34, 0.33, 0.33]])
    assert report.table_policy_beside(TAC_GAME, {}, "learned", fair, None, 1, None) == \
        (fair, "") and not asked
    off = seat_rows([[0.5, 0.5], [0.24, 0.27, 0.30, 0.19]])
    table, words = report.table_policy_beside(TAC_GAME, {}, "learned", off, None, 1, None)
    assert asked == [(TAC_GAME.table_policy, (4,))]
    assert table["heuristic_win_rate"].isna().tolist() == [True, True, False, False, False,
                                                          False]
    assert table.loc[5, "heuristic_win_rate"] == pytest.approx(0.25)
    assert "seat 4 of the learned policy wins 19.0%" in words and "wins 25.0%" in words


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_report_seats_are_played_by_learned_only_where_it_was_trained(game):
    """The report's seats and comebacks are played by learned on rules inside its
    network's training (the defaults, 5 rounds), else by the game's table policy (12
    rounds; the words say why)."""
    from analyzer.games.clever import report
    values = defaults(game.params)
    assert report.seat_policy(game, values) == "learned"
    assert report.seat_policy(game, {**values, "rounds": 5}) == "learned"
    assert report.seat_policy(game, {**values, "rounds": 12}) == game.table_policy
    assert "not trained in games of 2-4 players" in report.seat_words(
        game, {**values, "rounds": 12})


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_matches_of_a_policy_against_itself_are_even(game):
    """analyzer.games.clever.matches: greedy against greedy with seats rotating is the same
    policy in both slots, so each wins half the games within 5 SE (and one greedy against
    three a quarter of 4-player games); in a 3-player mirror the seats' win rates add up
    to 1."""
    from analyzer.games.clever import matches
    values = defaults(game.params)
    greedy = game.parse_policy("greedy")
    rows = matches.head_to_head(game, values, {"a": greedy, "b": greedy.copy()}, 2048, 9)
    for row in rows:
        se = (row["win_ci95_high"] - row["win_ci95_low"]) / 3.92
        assert abs(row["win_rate"] - 0.5) < K * se and row["games"] == 2048
    seats = matches.mirror(game, values, "greedy", greedy, 3, 512, 9)
    assert [r["who"] for r in seats] == ["seat 1", "seat 2", "seat 3"]
    assert sum(r["win_rate"] for r in seats) == pytest.approx(1.0)
    one, rest = matches.one_against_rest(game, values, {"a": greedy, "b": greedy.copy()}, 4,
                                         2048, 9)
    se = (one["win_ci95_high"] - one["win_ci95_low"]) / 3.92
    assert abs(one["win_rate"] - 0.25) < K * se and rest["players"] == 4


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_report_seat_words_name_the_gift_and_the_look(game, monkeypatch):
    """The report says where learned looks one roll ahead and the gift's weight (none:
    not a word)."""
    from analyzer.games.clever import report
    values = defaults(game.params)
    for name, value in (("gift", 0.0), ("look", {})):
        monkeypatch.setattr(type(game), name, lambda self, v=None, x=value: x)
    words = report.seat_words(game, values)
    assert words.startswith("the learned policy (") and "trained in games of 1-4" in words
    assert "platter" not in words and "ahead" not in words
    monkeypatch.setattr(type(game), "look", lambda self, v=None: {
        "players": [1, 2], "samples": 16, "branch": 3, "margin": 6.0})
    assert "; in 2-player games its first two picks of a turn look one roll ahead (16 " \
        "sampled rolls)" in report.seat_words(game, values)
    monkeypatch.setattr(type(game), "gift", lambda self, v=None: 1.5)
    assert "last roll counts 1.5 times each point the platter it leaves gives an opponent " \
        "as a point lost" in report.seat_words(game, values)
    monkeypatch.setattr(type(game), "gift", lambda self, v=None: 1.0)
    assert "last roll counts each point the platter" in report.seat_words(game, values)


def test_scores_by_player_count_figure_has_the_solo_mean_and_each_seat():
    """How scores change with the player count: each seat's mean score at 2-4 players
    beside the solo mean, the reading giving each count's mean and its rounds."""
    import pandas as pd

    from analyzer.games.clever.report import scores_figure
    from analyzer.games.thats_pretty_clever.model import GAME as TPC

    rows = [{"players": str(n), "seat": f"seat {k + 1}", "score": 200.0 + 10 * n + k,
             "score_ci95_low": 199.0, "score_ci95_high": 260.0}
            for n in (2, 3, 4) for k in range(n)]
    policies = pd.DataFrame({"policy": ["learned"], "mean_score": [263.0],
                             "ci95_low": [262.0], "ci95_high": [264.0]})
    values = defaults(TPC.params)
    fig = scores_figure(TPC, "learned", rows, policies, values)
    assert list(fig.data.players) == ["1", "2", "2", "3", "3", "3", "4", "4", "4", "4"]
    assert "263 points solo (6 rounds), 220 points with 2 players (6 rounds), 231 points " \
        "with 3 players (5 rounds), 242 points with 4 players (4 rounds)" in fig.reading
    no_solo = scores_figure(TPC, "heuristic", rows, policies, values)
    assert "1" not in set(no_solo.data.players)


def test_the_solo_score_distribution_sums_to_one_per_policy():
    """The Clever games' full score distributions: each policy's solo scores
    in 10-point bins, from its own rows of the distribution (not again from its seat's)."""
    import pandas as pd

    from analyzer.games.clever.report import distribution_figure
    from analyzer.games.thats_pretty_clever.model import GAME as TPC
    from analyzer.output import Result

    def run(name, scores):
        dist = pd.DataFrame([{"by": by, "name": label, "score": s, "probability": 0.25,
                              "se": 0.1} for by, label in (("policy", name), ("seat", "1"))
                             for s in scores])
        policies = pd.DataFrame({"policy": [name], "seat_games": [4], "median": [scores[1]]})
        return Result("t", tables={"score_distribution": dist, "policies": policies})

    fig = distribution_figure(TPC, {"greedy": run("greedy", [101, 104, 117, 250]),
                                    "learned": run("learned", [240, 251, 259, 301])})
    shares = fig.data.groupby("policy").probability.sum()
    assert shares.tolist() == [1.0, 1.0]
    greedy = fig.data[fig.data.policy == "greedy"].set_index("score").probability
    assert greedy.to_dict() == {100: 0.5, 110: 0.25, 250: 0.25}
    assert "Median solo scores: greedy 104, learned 251" in fig.reading


def test_the_seats_lever_is_measured_only_where_the_rules_create_a_seat_effect(monkeypatch):
    """Where a seat is off its fair share under both the learned policy
    and the table policy, the verdict names the rule changes that bring that seat's win
    rate most (the table policy's paired games); where only learned's seat is off, it says
    the effect comes from its play; balanced seats need no lever."""
    from dataclasses import replace

    from analyzer.games.clever import report
    from analyzer.sections import fair_share

    game = replace(TPC_GAME, table_policy="greedy")  # quick paired games

    def table(learned, heuristic):
        rows = fair_share(pd.DataFrame(
            [{"players": "2", "seat": f"seat {k + 1}", "win_rate": x, "ci95_low": x - 0.01,
              "ci95_high": x + 0.01, "games": 4000} for k, x in enumerate(learned)]))
        return rows.assign(greedy_win_rate=heuristic,
                           greedy_ci95_low=[h - 0.01 for h in heuristic],
                           greedy_ci95_high=[h + 0.01 for h in heuristic])

    values = defaults(game.params)
    assert report.seat_lever_words(game, values, table([0.5, 0.5], [0.5, 0.5]), 1,
                                   False) == ""
    assert "learned policy's play" in report.seat_lever_words(
        game, values, table([0.56, 0.44], [0.5, 0.5]), 1, False)
    monkeypatch.setattr(report, "SEAT_LEVER_GAMES", 64)
    words = report.seat_lever_words(game, values, table([0.56, 0.44], [0.56, 0.44]), 1,
                                    False)
    assert "bring that seat closest to a fair share" in words or "No rule change" in words
    assert "(64 each, where that seat wins" in words
    flips = [p.words(report._alternative(p)) for p in game.params
             if p.assumed and p.kind in ("bool", "choice")]
    assert "no round" in words or "No rule change" in words or any(f in words for f in flips)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_rollout_horizon_ends_rollouts_at_a_round_s_end(game):
    """``advise --horizon K``: a horizon past the last round is the full ranking, bit for
    bit; a shorter one ends every rollout at the end of round (this one + K) with the
    rollout policy's value of the position (a score to come: more than the sheet's score
    now), and says so; the same seed gives the same ranking."""
    from analyzer.games.clever import advise

    values = defaults(game.params)
    sheet = game.blank_sheet(values)
    sheet[H_REROLL_GOT] = 1

    def choices(horizon):
        result = advise.advise(game, values, sheet, full_roll(game), "active1", 2,
                               "learned", 40, 4, horizon=horizon)
        return result, result.tables["choices"].set_index("choice")

    full, whole = choices(None)
    pd.testing.assert_frame_equal(choices(9)[1], whole)
    cut, short = choices(0)
    pd.testing.assert_frame_equal(choices(0)[1], short)
    assert "to the end of round 2, where the learned policy's value" in cut.notes[0]
    assert "to the end of the game" in full.notes[0]
    assert not short.expected_score.equals(whole.expected_score)
    assert (short.expected_score > 20).all()
    with pytest.raises(UserError, match="bad horizon -1"):
        advise.advise(game, values, sheet, full_roll(game), "active1", 2, "learned", 40, 4,
                      horizon=-1)


BAD_SHEETS = {TPC_GAME.id: [
    ({"blue": [13]}, "blue[0]"),
    ({"orange": [7]}, "orange[0]"),
    ({"orange": [1, 1, 1, 3]}, "orange[3]"),
    ({"purple": [4, 2]}, "purple[1]"),
    ({"yellow": [[1, 4]]}, "yellow[0]"),
    ({"green": 12}, "green"),
    ({"rerolls": {"unlocked": 1, "used": 2}}, "rerolls.used"),
    ({"colour": 1}, "colour"),
    ({"format": "other"}, "format"),
    ({"yellow": None}, "yellow"),
    ({"blue": 5}, "blue"),
    ({"blue": [2, 2]}, "blue[1]"),  # a cell listed twice
    ({"yellow": [[1, 1], [1, 1]]}, "yellow[1]"),
], TAC_GAME.id: [
    ({"blue": [9, 10]}, "blue[1]"),
    ({"blue": [13]}, "blue[0]"),
    ({"green": [3]}, "green[0]"),
    ({"pink": [0]}, "pink[0]"),
    ({"yellow": {"circled": [[1, 1]]}}, "yellow.circled[0]"),
    ({"yellow": {"circled": [], "crossed": [[2, 1]]}}, "yellow.crossed"),
    ({"yellow": [[2, 1]]}, "yellow"),
    ({"silver": {"red": [1]}}, "silver"),
    ({"silver": {"blue": [7]}}, "silver.blue[0]"),
    ({"returns": {"unlocked": 7, "used": 0}}, "returns.unlocked"),
    ({"orange": []}, "orange"),
    ({"silver": {"blue": [4, 4]}}, "silver.blue[1]"),  # a cell listed twice
    ({"yellow": {"circled": [[1, 2], [1, 2]]}}, "yellow.circled[1]"),
]}


@pytest.mark.parametrize("game,change,field",
                         [(g, c, f) for g in GAMES for c, f in BAD_SHEETS[g.id]],
                         ids=[f"{g.prefix}-{f}" for g in GAMES for _, f in BAD_SHEETS[g.id]])
def test_a_bad_sheet_names_the_field(game, change, field):
    """Sheet format: a field out of its range, of the wrong kind, unknown or listed twice is
    refused with its name."""
    doc = game.sheetfile.blank()
    doc.update(change)
    with pytest.raises(UserError, match=re.escape(f"field '{field}'")):
        game.sheetfile.to_kernel(doc)


@pytest.mark.parametrize("game,marks,area,points", [
    (TPC_GAME, {"blue": [5, 9], "rerolls": {"unlocked": 1, "used": 0}}, "blue", 2),
    (TAC_GAME, {"pink": [5, 6]}, "pink", 11)], ids=ids)
def test_a_new_sheet_marked_and_scored(tmp_path, game, marks, area, points):
    """``sheet --new`` writes a blank sheet of the format; ``sheet --score`` scores it once
    marked (That's Pretty Clever: blue column 1 earned its re-roll)."""
    doc = json.loads(CliRunner().invoke(cli, [game.id, "sheet", "--new"]).output)
    assert doc["format"] == game.sheetfile.FORMAT
    doc.update(marks)
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(cli, [game.id, "sheet", "--score", str(path), "--format",
                                      "json"])
    assert json.loads(result.output)["areas"][area] == points


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_blank_sheet_file_is_the_new_sheet(game):
    np.testing.assert_array_equal(game.sheetfile.to_kernel(game.sheetfile.blank()),
                                  game.layout.new_sheet())

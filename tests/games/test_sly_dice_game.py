"""Sly Dice games and bots: simulated rolling against the exact odds (5 standard errors),
the rules of claims, accusations and bonus cards (rules page, *Rounds, claims and
accusations*), posterior and what-if sanity, and the CLI contract."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from numba import njit

from analyzer.cli import cli
from analyzer.games.sly_dice import bluffing, fictitious, simulation
from analyzer.games.sly_dice.model import get_model, parse_policy
from analyzer.games.sly_dice.params import PARAMS
from analyzer.params import defaults
from kernels.rng import turn_stream
from kernels.sly_dice import bots, layout, odds, play, posterior
from kernels.sly_dice.combos import holds

K = 5


@pytest.fixture(scope="module")
def values():
    return defaults(PARAMS)


@njit(cache=True)
def _simulate_rolls(c_idx, common_counts, card, weights, q1, q2, rerolls, n):
    """Roll ``n`` times aiming at ``card`` alone; returns (hits, face count sum, squares)."""
    open_cards = np.zeros(layout.DICE_CARDS, np.int64)
    hits, total, squares = 0, 0, 0
    for t in range(n):
        own, _, _ = play.roll_own(turn_stream(np.uint64(77), t, 0), c_idx, 1 << card,
                                  weights, q1, q2, rerolls, open_cards)
        six = layout.CODE_INDEX[own + (common_counts[1:] * layout.FACE_CODE[1:]).sum()]
        counts = play.MS_COUNTS_6[six]
        if card < layout.N_NUMBER_CARDS:
            c = counts[card + 1]
            total += c
            squares += c * c
            hits += c >= 1
        else:
            hits += holds(counts, card, 1)
    return hits, total, squares


@pytest.mark.parametrize("common", [(1, 2, 3), (6, 6, 2), (1, 1, 5), (2, 4, 6)])
@pytest.mark.parametrize("rerolls", [1, 2])
def test_simulated_rolling_matches_exact_odds(values, common, rerolls):
    """Dice and the rolling phase: the bot's hit rate of each fixed card it aims at, and its
    mean count of each face, agree with the exact dynamic programme within 5 SE."""
    model = get_model({**values, "rerolls": rerolls})
    counts = layout.counts_of(common)
    c_idx = layout.CODE_INDEX[layout.code_of(common)]
    table = odds.odds_table(model.points, rerolls)
    n = 40_000
    for card in range(layout.DICE_CARDS):
        hits, total, squares = _simulate_rolls(c_idx, counts, card, model.weights, model.q1,
                                               model.q2, rerolls, n)
        if card < layout.N_NUMBER_CARDS:
            exact = table[c_idx, card, 2]
            mean = total / n
            se = math.sqrt(max(squares / n - mean**2, 1e-12) / n)
            assert abs(mean - exact) <= K * se + 1e-9, (card, mean, exact)
        else:
            exact = table[c_idx, card, 0]
            p = hits / n
            se = math.sqrt(max(exact * (1 - exact), 1e-12) / n)
            assert abs(p - exact) <= K * se + 1e-9, (layout.CARD_NAMES[card], p, exact)


def test_bonus_cards_escalate():
    """End of the game: 10 + 15 + 20 for three Successful Bluffing cards, and the rulebook's
    example 3 bluffs and 2 false accusations = 20."""
    assert play.bonus_total(3, 10, 5) == 45
    assert play.bonus_total(3, 10, 5) - play.bonus_total(2, 10, 5) == 20
    assert play.bonus_total(0, 10, 5) == 0


def test_ties_go_to_bluff_cards_then_are_shared():
    """The winner: most points, then most Successful Bluffing cards, then shared."""
    wins = np.zeros(3, np.int64)
    play.award_wins(np.array([50, 50, 40]), np.array([1, 2, 5]), wins)
    assert list(wins) == [0, play.WIN_UNITS, 0]
    play.award_wins(np.array([50, 50, 40]), np.array([2, 2, 5]), wins)
    assert list(wins) == [play.WIN_UNITS // 2, play.WIN_UNITS // 2, 0]


def _claim(values, common, own, open_cards, bluff_below=-1.0):
    model = get_model(values)
    six = layout.CODE_INDEX[layout.code_of(common + own)]
    mask = sum(1 << c for c in open_cards)
    plaus = model.plausibility[0, layout.CODE_INDEX[layout.code_of(common)]]
    hol_ev = model.hol_success[sum(common)] * model.points[layout.HIGHER_OR_LOWER]
    return play.choose_claim(play.MS_COUNTS_6[six], model.made[six], mask, hol_ev,
                             model.points, bluff_below, plaus, 10.0)


def test_honest_claim_is_the_best_true_card(values):
    """Claiming: an honest bot claims its most valuable true card (number cards with the
    count it has)."""
    full_house = layout.card_id("full-house")
    card, k, value, true = _claim(values, [2, 2, 5], [2, 5, 1], [full_house, 4, 1, 0])
    assert (card, true) == (full_house, True) and value == values["points_full_house"]
    card, k, value, true = _claim(values, [6, 6, 2], [6, 2, 1], [5, 0])
    assert (card, k, value, true) == (5, 3, 18.0, True)


def test_forced_bluff_when_nothing_is_true(values):
    """Claiming: each player claims exactly one card; with nothing true and Higher or Lower
    scored, even an honest bot must bluff."""
    odds_card = layout.card_id("odds")
    card, _, _, true = _claim(values, [2, 4, 6], [2, 2, 4], [odds_card])
    assert card == odds_card and not true


def test_accusation_rules():
    """Accusation: a threshold accuser accuses implausible claims; the expected-points rule
    weighs the claim and the bluff bonus kept from one opponent against the escalating
    penalty, on the average of the accuser's opponents."""
    bonus = np.array([10.0, 5.0, 10.0, 5.0])
    assert play.accuses(play.THRESHOLD, 0.3, 0.2, 10.0, 0, 0, bonus, 1)
    assert not play.accuses(play.THRESHOLD, 0.3, 0.4, 10.0, 0, 0, bonus, 1)
    assert not play.accuses(play.NEVER, 0.3, 0.0, 10.0, 0, 0, bonus, 1)
    # (1 - p)(value + 10) > opponents * p * (10 + 5 * held): p = 0.6, value 5: 6 > 6? no
    assert not play.accuses(play.EXPECTED, 0.0, 0.6, 5.0, 0, 0, bonus, 1)
    assert play.accuses(play.EXPECTED, 0.0, 0.5, 5.0, 0, 0, bonus, 1)
    assert not play.accuses(play.EXPECTED, 0.0, 0.5, 5.0, 0, 2, bonus, 1)
    assert not play.accuses(play.EXPECTED, 0.0, 0.5, 5.0, 0, 0, bonus, 3)  # 7.5 > 15? no
    assert play.accuses(play.EXPECTED, 0.0, 0.2, 5.0, 0, 0, bonus, 3)  # 12 > 6


def test_claim_posterior_follows_the_claimants_rolling_and_claiming(values):
    """What a claim tells an accuser who knows the claimant's rules (rules page, *Rounds,
    claims and accusations*): enumerating only the rolls that end with the locked dice
    gives exactly the joint chances of the full enumeration over every roll, for honest
    and bluffing claimants, 0, 1 and 2 locked dice."""
    model = get_model(values)
    rng = np.random.default_rng(5)
    work = np.zeros(layout.DICE_CARDS, np.int64)
    checked = 0
    for bluff_below in (-1.0, 15.0):
        common = sorted(rng.integers(1, 7, 3).tolist())
        mask = sum(1 << int(c) for c in rng.choice(17, 7, replace=False)) | 1 << 17
        c_code = layout.code_of(common)
        c_idx = layout.CODE_INDEX[c_code]
        hol_ev = model.hol_success[sum(common)] * model.points[layout.HIGHER_OR_LOWER]
        args = (mask, model.weights, model.q1, model.q2, values["rerolls"], hol_ev,
                model.points, bluff_below, model.plausibility, model.made, 10.0)
        full = posterior.claim_distribution(c_code, c_idx, model.weights, model.q1, model.q2,
                                            values["rerolls"], mask, hol_ev, model.points,
                                            bluff_below, model.plausibility, model.made, 10.0)
        if bluff_below < 0:  # honest with Higher or Lower open: never a false claim, so the
            assert full[..., 0].sum() == 0  # game loop skips the enumeration (p = 1)
        for n_locked in range(3):
            for li, code in enumerate(layout.MS_CODE[n_locked]):
                for card, k in zip(*np.nonzero(full[n_locked, li].sum(axis=-1))):
                    got = bots.claim_posterior(c_code, c_idx, int(code), n_locked, card, k,
                                               *args, work)
                    assert got == pytest.approx(full[n_locked, li, card, k], abs=1e-15)
                    checked += 1
    assert checked > 50


def test_rational_accuser_beats_honest_claimants(values):
    """The rational accuser (exact posterior of an honest claimant, accuses when that gains
    on its opponents' average) wins more than its share against honest players: two
    players, and one against three. Win rates with 95% Wilson intervals, 3000 games."""
    for lineup, fair in (("rational,honest", 0.5), ("rational,honest,honest,honest", 0.25)):
        vals = {**values, "players": len(lineup.split(","))}
        res = simulation.simulate(vals, lineup.split(","), 3000, seed=11, progress=False)
        row = res.tables["policies"].set_index("policy").loc["rational"]
        assert row["win_ci95_low"] > fair, (lineup, row["win_rate"])
        assert row["accusations_right_rate"] > 0.5


def _policy_row(sim, name):
    return sim.headline["policies"][name]


def test_game_rounds_by_player_count(values):
    """Rounds: 8 for two players, 9 for three, 8 for four; each player claims once a round."""
    for players, rounds in ((2, 8), (3, 9), (4, 8)):
        result = simulation.simulate({**values, "players": players}, ["honest"], 2048, seed=3,
                                     progress=False)
        row = result.tables["policies"].iloc[0]
        assert row["seat_games"] == 2048 * players
        model = get_model({**values, "players": players})
        assert model.rounds == rounds


def test_comeback_record_ends_at_the_final_scores(values):
    """Rules page, *End of the game and scoring* (most points, bonus cards counted, then
    most Successful Bluffing cards): the standings after the last round are the final
    scores, so a player behind then never wins; every round counts each player once."""
    from analyzer.games.sly_dice.runs import play_games
    from tests.comebacks import check_comeback_record

    vals = {**values, "players": 3}
    lineup = [parse_policy(p) for p in ("bluffer:10", "accuser:0.3", "rational")]
    acc, n = play_games(vals, lineup, 900, 4, True, None, False)
    row = acc.sum(axis=(0, 1))
    rounds = get_model(vals).rounds
    assert row[play.COL_STANDINGS + rounds - 1] == row[play.COL_SCORE_SUM]
    check_comeback_record(row, play.COL_COMEBACK, rounds, 3, n, play.WIN_UNITS)


def test_honest_bots_never_accuse_and_bluff_only_when_forced(values):
    result = simulation.simulate(values, ["honest"], 4096, seed=5, progress=False)
    row = result.tables["policies"].iloc[0]
    assert row["accusations_per_game"] == 0
    assert row["bluffs_caught_rate"] == 0 or math.isnan(row["bluffs_caught_rate"])
    assert 0 <= row["bluff_rate"] < 0.2


def test_simulate_json_contract(values):
    out = CliRunner().invoke(cli, ["sly-dice", "simulate", "--games", "4096", "--quiet",
                                   "--policy", "honest,bluffer:10", "--format", "json"])
    doc = json.loads(out.output)
    for entry in doc["policies"].values():
        assert len(entry["ci95"]) == 2 and 0 <= entry["win_rate"] <= 1


def test_posterior_of_an_honest_claimant_is_certain(values):
    """What a claim tells the others: an honest bot's (unforced) claims are always true."""
    result = bluffing.posterior_result(values, [1, 2, 3], [], layout.card_id("small-straight"),
                                       1, "honest")
    assert result.headline["posterior_true"] == pytest.approx(1.0)
    table = result.tables["claims"]
    assert table["p_claim_given_locked"].sum() == pytest.approx(1.0)


def test_posterior_of_a_bluffer_is_lower(values):
    card = layout.card_id("sixteen-or-lower")
    honest = bluffing.posterior_result(values, [1, 2, 3], [], card, 1, "honest")
    bluffer = bluffing.posterior_result(values, [1, 2, 3], [], card, 1, "bluffer:20")
    assert bluffer.headline["posterior_true"] < honest.headline["posterior_true"]


def test_whatif_identical_variants_have_zero_difference(values):
    result = simulation.whatif([("a", values, ["honest"]), ("b", dict(values), ["honest"])],
                               4096, seed=2, progress=False)
    metrics = [m for k, m in result.headline["variants"]["b"].items()
               if isinstance(m, dict) and k != "rules"]
    assert metrics
    for metric in metrics:
        assert metric["diff"] == 0 and metric["diff_ci95"] == [0, 0]


def test_policy_names():
    assert parse_policy("sly:10:0.3").accuse_below == 0.3
    assert parse_policy("sly:10:rational").accuse_mode == play.EXPECTED
    with pytest.raises(Exception):
        parse_policy("accuser:2")


@pytest.mark.parametrize("args,needle", [
    (["odds", "--common", "1,2,7"], "common dice"),
    (["odds", "--common", "1,2,3,4"], "common dice"),
    (["odds", "--common", "1,2"], "common dice"),
    (["odds", "--common", "1,2,3", "--combo", "royal-flush"], "unknown card"),
    (["odds", "--common", "1,2,3", "--points", "royal-flush=3"], "unknown card"),
    (["odds", "--common", "1,2,3", "--points", "full-house=-3"], "points_full_house"),
    (["odds", "--common", "1,2,3", "--rerolls", "3"], "rerolls"),
    (["odds", "--common", "1,2,3", "--power", "fly"], "power"),
    (["odds", "--common", "1,2,3", "--combo", "full-house", "--count", "2"], "count"),
    (["accuse", "--common", "1,2,3", "--claim", "higher-or-lower"], "cannot be accused"),
    (["claim", "--common", "1,2,3", "--locked", "6", "--hidden", "1,2,3"], "hidden dice"),
    (["simulate", "--players", "5"], "players"),
    (["simulate", "--policy", "liar"], "unknown policy"),
    (["simulate", "--games", "0"], "game count"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    result = CliRunner().invoke(cli, ["sly-dice", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines


@pytest.mark.parametrize("body", ["full-house = 'x'", "full-house = [", "royal = 3"])
def test_malformed_points_file(tmp_path, body):
    path = tmp_path / "points.toml"
    path.write_text(body)
    result = CliRunner().invoke(cli, ["sly-dice", "odds", "--common", "1,2,3",
                                      "--points-file", str(path)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_points_change_expected_points():
    out = CliRunner().invoke(cli, ["sly-dice", "odds", "--common", "1,2,3", "--combo",
                                   "small-straight", "--points", "small-straight=40",
                                   "--format", "json"])
    doc = json.loads(out.output)
    assert doc["expected_points"] == pytest.approx(40 * 0.41799554, abs=1e-6)


def test_fictitious_play_is_kept_on_disk(tmp_path, monkeypatch):
    """The report's fictitious play is computed once per rules, games and seed, then read
    back unchanged (and a broken file is computed again)."""
    from analyzer.run import kept

    def same(a, b):
        return a[0] == b[0] and a[2] == b[2] and np.allclose(a[1], b[1], equal_nan=True)

    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    values = defaults(PARAMS)
    first = fictitious.kept_fictitious_play(values, 64, 3, steps=2)
    files = list(tmp_path.glob("kept-sly-fictitious-play-*.json"))
    assert len(files) == 1 and len(first[0]) == 3
    play_it = fictitious.fictitious_play
    monkeypatch.setattr(fictitious, "fictitious_play", None)  # not called again
    assert same(fictitious.kept_fictitious_play(values, 64, 3, steps=2), first)
    files[0].write_text("{broken")
    monkeypatch.setattr(fictitious, "fictitious_play", play_it)
    assert same(fictitious.kept_fictitious_play(values, 64, 3, steps=2), first)



def _duel_args(values=None):
    return get_model({**(values or defaults(PARAMS)), "players": 2}).game_args()


def test_a_duel_plays_both_seatings_of_the_same_games():
    """``duel_block`` equals two games_block runs on the same block key, one per seating:
    the candidate's win units over both seatings, game by game (so also their squares)."""
    args = _duel_args()
    cand, opp = parse_policy("sly:10:0.3"), parse_policy("bluffer:15")
    key, n = np.uint64(987654321), 40
    duel = np.zeros((1, play.N_DUEL), np.int64)
    play.duel_block(key, 0, n, duel, cand.row()[None, :], opp.row(), *args)
    units = []
    for g in range(n):  # one game at a time: the same game index in both seatings
        per_seat = 0
        for lineup, seat in (([cand, opp], 0), ([opp, cand], 1)):
            out = np.zeros((2, 2, play.COL_HIST + play.HIST_BINS), np.int64)
            rows = np.stack([p.row() for p in lineup])
            play.games_block(key, g, g + 1, out, rows, False, *args)
            per_seat += out[seat, seat, play.COL_WIN_UNITS]
        units.append(per_seat)
    units = np.array(units)
    assert duel[0].tolist() == [n, units.sum(), (units ** 2).sum()]


def test_a_strategy_against_itself_wins_exactly_half():
    """Both seatings of the same game between copies of one policy split the win."""
    duels = fictitious.Duels(defaults(PARAMS), 5)
    p = parse_policy("sly:5:0.2")
    duels.play([p], p, 300)
    assert duels.rate(p, p) == (0.5, 0.0)


def test_an_extended_duel_equals_one_played_at_once():
    """Duels grow by continuing their stream: 256 games then 512 more are the first 768."""
    values = defaults(PARAMS)
    grid = [parse_policy(n) for n in ("honest", "bluffer:10", "sly:15:0.4")]
    opp = parse_policy("accuser:0.3")
    grown, once = fictitious.Duels(values, 9), fictitious.Duels(values, 9)
    grown.play(grid, opp, 256)
    grown.play(grid[1:], opp, 768)
    grown.play(grid[:1], opp, 768)
    once.play(grid, opp, 768)
    for c in grid:
        assert np.array_equal(grown.acc[c.name, opp.name], once.acc[c.name, opp.name])


def test_racing_finds_the_best_reply_of_full_duels():
    """The raced best reply is the candidate with the best win rate when every candidate
    plays every duel in full, and the candidates far behind stop early."""
    values = defaults(PARAMS)
    grid = [parse_policy(n) for n in ("honest", "bluffer:5", "bluffer:30", "accuser:0.5",
                                      "sly:30:0.1")]
    mixture = {parse_policy("honest"): 0.5, parse_policy("bluffer:20"): 0.5}
    raced = fictitious.Duels(values, 4)
    best, rate = fictitious.best_reply(raced, grid, mixture, 2048)
    full = fictitious.Duels(values, 4)
    for q in mixture:
        full.play(grid, q, 2048)
    scores = [sum(w * full.rate(c, q)[0] for q, w in mixture.items()) for c in grid]
    assert best == grid[int(np.argmax(scores))] and rate == pytest.approx(max(scores))
    assert min(raced.games(c, q) for c in grid for q in mixture) < 2048


def test_equilibrium_grid_reports_fictitious_play(tmp_path, monkeypatch):
    """``equilibrium --grid``: every step of fictitious play, the stable strategy's duels
    with the bots, and a rerun that reads the kept fictitious play gives the same
    answer."""
    from analyzer.run import kept

    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    args = ["sly-dice", "equilibrium", "--grid", "--games", "64", "--seed", "2", "--quiet",
            "--format", "json"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.output)
    assert len(doc["tables"]["iterations"]) == fictitious.STEPS + 1
    assert doc["stable"] == doc["tables"]["iterations"][-1]["strategy"]
    assert sum(doc["mixture"].values()) == pytest.approx(1)
    assert [r["opponent"] for r in doc["tables"]["stable_vs_bots"]] == [
        "honest", "rational", "bluffer:10", "accuser:0.3"]
    assert 0 <= doc["best_reply_win_rate"] <= 1
    again = json.loads(CliRunner().invoke(cli, args).output)
    for d in (doc, again):
        d["meta"].pop("chunks")  # the work done in this run: less when read back
    assert again == doc


def test_bad_game_counts_are_refused_before_any_compile(monkeypatch):
    """A bad --games or --precision is one line at once, not after the kernels compile."""
    from analyzer.games.sly_dice import runs

    monkeypatch.setattr(runs, "get_model", lambda *a, **k: 1 / 0)  # builds and compiles
    for args, needle in ((["--games", "0"], "bad game count 0"),
                         (["--precision", "-1"], "bad precision")):
        out = CliRunner().invoke(cli, ["sly-dice", "simulate", *args, "--quiet"])
        assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
        assert needle in out.output

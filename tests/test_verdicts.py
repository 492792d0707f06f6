"""The report's verdicts: "not balanced" only beyond noise and past a threshold a designer
acts on; an imbalance names the rule changes that bring it closest to fair; a verdict says
in the same sentence which assumed rule value it rests on."""

import pandas as pd

from analyzer.games.cloverup import report as cloverup_report
from analyzer.games.cloverup.params import PARAMS as CLOVERUP_PARAMS
from analyzer.params import defaults
from analyzer.sections import fair_share, seat_finding
from analyzer.verdicts import (MATTERS, THRESHOLDS, closest_to_fair, imbalanced, lever_words,
                               rests_on, seat_verdict)


def seats(rates: list[float], half_width: float) -> pd.DataFrame:
    """A seat table of one player count with ``rates`` and intervals of ``half_width``."""
    n = len(rates)
    return fair_share(pd.DataFrame({
        "players": [n] * n, "seat": [f"seat {k + 1}" for k in range(n)], "win_rate": rates,
        "ci95_low": [r - half_width for r in rates],
        "ci95_high": [r + half_width for r in rates]}))


def test_not_balanced_needs_both_noise_and_size():
    """Beyond noise but small, or large but within the noise, reads as balanced."""
    assert not imbalanced(0.003, 0.001, 0.005)  # CloverUp's 16.9% against 16.7%
    assert not imbalanced(0.03, -0.001, 0.061)  # large, but the interval holds fair
    assert imbalanced(-0.035, -0.052, -0.017)  # Twice As Clever's first of four seats
    assert imbalanced(-0.025) and not imbalanced(0.012)  # exact: no noise
    assert f"{100 * MATTERS:.0f} percentage points" in THRESHOLDS


def test_seat_verdict_follows_the_threshold():
    small = seats([0.169, 0.164, 0.166, 0.167, 0.167, 0.167], 0.002)
    assert seat_verdict(small, "x").startswith("Balanced: the seats")
    big = seats([0.215, 0.25, 0.27, 0.265], 0.017)
    words = seat_verdict(big, "x", "the assumed card points")
    assert words.startswith("Not balanced: the seats, x, on the assumed card points.")
    assert "seat 1 wins 21.5%" in words
    assert seat_finding(small, "f", "players").text.startswith("No seat effect to act on")
    assert seat_finding(big, "f", "players").text.startswith("Seat effect")


def test_closest_to_fair_is_not_the_largest_move():
    """From 48.8%, fair dice (+5.1) moves the first seat most but further from 50%; one
    re-roll (+0.4) and steeper numbers (+0.2) bring it closest."""
    changes = pd.DataFrame({"change": ["fair dice", "one re-roll", "steeper", "three re-rolls"],
                            "move": [0.051, 0.004, 0.002, -0.003]})
    show = lambda x: f"{100 * x:+.1f} pp"  # noqa: E731
    words = closest_to_fair(changes, 0.488, 0.5, "move", show)
    assert words == "one re-roll (+0.4 pp, exact); steeper (+0.2 pp, exact)"
    assert "fair dice" in lever_words(changes, "move", show)
    assert closest_to_fair(changes.iloc[3:], 0.488, 0.5, "move", show) == ""


def test_runner_up_the_other_way_is_named_so():
    changes = pd.DataFrame({"change": ["a", "b"], "v": [0.197, -0.191],
                            "lo": [0.15, -0.24], "hi": [0.24, -0.14]})
    words = lever_words(changes, "v", lambda x: f"{x:+.3f}", "lo", "hi")
    assert "about as large as b (-0.191, the other way)" in words
    assert "within the interval" not in words


def test_rests_on_closes_the_first_sentence():
    text = "The first seat wins 48.8% (exact). Closest to fair: one re-roll."
    assert rests_on(text, "the assumed face weights") == (
        "The first seat wins 48.8% (exact), on the assumed face weights. Closest to fair: "
        "one re-roll.")
    assert rests_on(text, "") == text


def test_cloverup_verdict_names_the_assumed_weights_and_the_fairest_changes():
    """CloverUp's exact first seat (48.8%) is within 2 points of fair: balanced, on the
    assumed face weights, with the changes that bring it closest to 50% named."""
    values = defaults(CLOVERUP_PARAMS)
    first = cloverup_report.first_seat(values).set_index("both_play")
    changes = pd.DataFrame({"change": ["rules in force", "weights: fair dice", "rerolls 1"],
                            "parameter": ["", "weights", "rerolls"],
                            "expected_points_change": [0.0, 3.97, -1.31],
                            "first_seat_change": [0.0, 0.051, 0.004]})
    opt = pd.Series({"expected_points": 12.46})
    skill = cloverup_report.skill_duels(values)
    lines = cloverup_report.verdict(first, changes, opt, seats([0.5, 0.5], 0.01), values,
                                    skill)
    assert all("on the assumed face weights (6,5,5,3,3,1,1)" in line for line in lines)
    assert lines[1].startswith("Balanced: two players both playing to win")
    assert "Closest to fair: rerolls 1 (+0.4 pp, exact)." in lines[1]
    assert "points of an instant win (18)" in lines[2]
    chosen = {**values, "weights": (1, 1, 1, 1, 1, 1, 1)}
    assert "assumed" not in cloverup_report.verdict(first, changes, opt,
                                                    seats([0.5, 0.5], 0.01), chosen, skill)[0]

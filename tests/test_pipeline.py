"""The one games pipeline (``analyzer.pipeline``): every game family's simulations and
what-ifs come out of it with the same shared tables, columns and notes."""

import pytest

from analyzer.games.clever import simulation as clever
from analyzer.games.cloverup import simulation as cloverup
from analyzer.games.cloverup.params import PARAMS as CLOVERUP_PARAMS
from analyzer.games.sly_dice import simulation as sly
from analyzer.games.sly_dice.params import PARAMS as SLY_PARAMS
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.params import defaults

WHATIF_COLUMNS = ["variant", "lineup", "metric", "seat_policy", "value", "ci95_low",
                  "ci95_high", "diff", "diff_ci95_low", "diff_ci95_high", "changes"]


def _runs():
    cv = {**defaults(CLOVERUP_PARAMS), "players": 2}
    sv = {**defaults(SLY_PARAMS), "players": 2}
    tv = {**defaults(TPC.params), "players": 2}
    yield (cloverup.simulate(cv, ["optimal"], 500, 1, threads=1, progress=False),
           cloverup.whatif([("baseline", cv, "optimal"), ("more", {**cv, "rounds": 9},
                            "optimal")], 500, 1, threads=1, progress=False))
    yield (sly.simulate(sv, ["honest"], 300, 1, threads=1, progress=False),
           sly.whatif([("baseline", sv, ["honest"]), ("r", {**sv, "rerolls": 1},
                       ["honest"])], 300, 1, threads=1, progress=False))
    yield (clever.simulate(TPC, tv, ["greedy"], 16, 1, threads=1, progress=False),
           clever.whatif(TPC, [("baseline", tv, ["greedy"]), ("r5", {**tv, "rounds": 5},
                               ["greedy"])], 16, 1, threads=1, progress=False))


@pytest.mark.parametrize("index", range(3), ids=["cloverup", "sly-dice", "clever"])
def test_every_family_gives_the_shared_tables_and_columns(index):
    """Whole games: the summary, policies, seats and score-distribution tables, in the
    order its ``simulate`` names them (``--tables``), the headline's per-policy figures,
    the games played in the title; what-ifs: one table of the same columns for every game
    (CloverUp's exact turn score rows among its rows)."""
    games, whatif = list(_runs())[index]
    assert list(games.tables) == list((cloverup, sly, clever)[index].TABLES)
    assert list(games.tables)[:3] == ["summary", "policies", "seats"]
    assert list(games.tables)[-1] == "score_distribution"
    played = games.headline["games"]
    assert f"{played} games" in games.title and games.meta["games"] == played
    assert set(games.headline["policies"]) == set(games.tables["policies"]["policy"])
    assert any(n.startswith("ties") or "win" in n for n in games.notes)
    table = whatif.tables["variants"]
    assert list(table.columns) == WHATIF_COLUMNS
    assert set(table["variant"]) == set(whatif.headline["variants"])
    assert (table[table["variant"] != "baseline"]["diff"].notna()).all()
    assert whatif.notes[0].startswith("reference: baseline")


def test_a_bad_game_count_is_one_line_for_every_family():
    """``pipeline.check_games``: a count below 1 names the count and what is accepted."""
    from analyzer.errors import UserError

    cv = {**defaults(CLOVERUP_PARAMS), "players": 2}
    sv = {**defaults(SLY_PARAMS), "players": 2}
    tv = {**defaults(TPC.params), "players": 2}
    for call in (lambda: cloverup.simulate(cv, ["optimal"], 0, 1, progress=False),
                 lambda: sly.simulate(sv, ["honest"], 0, 1, progress=False),
                 lambda: clever.simulate(TPC, tv, ["greedy"], 0, 1, progress=False)):
        with pytest.raises(UserError, match="bad game count 0: expected a whole number"):
            call()

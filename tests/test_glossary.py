"""Words for people: a chart shows a player's description, never its code name; the names
that remain in the tables and notes are explained on the appendix's first page."""

from pathlib import Path

import pandas as pd
import pytest

from analyzer.games.cloverup.params import PARAMS
from analyzer.sections import Figure, Section, Table, glossary
from reports.balance import write_report
from reports.figures import draw_figure


def test_glossary_names_players_with_words_and_rules_named_in_notes():
    named = glossary({"never": "never rerolls", "optimal": "", "win": "win"}, PARAMS,
                     ["weights = 6,5,5,3,3,1,1 is an assumed rule parameter: ..."])
    assert named == {"never": "never rerolls", "weights": "face weights"}


def test_charts_show_descriptions_not_code_names():
    df = pd.DataFrame({"policy": ["reach:15", "never"], "win_rate": [0.4, 0.1]})
    spec = Figure("f", "t", "bar", df, "policy", "win_rate",
                  labels={"reach:15": "aims for 15+", "never": "never rerolls"})
    fig = draw_figure(spec)
    fig.canvas.draw()
    shown = " ".join(t.get_text() for ax in fig.axes for t in ax.get_xticklabels())
    assert "aims for 15+" in shown and "reach:15" not in shown


def test_the_appendix_opens_with_the_glossary(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    table = Table("t_table", "A table", pd.DataFrame({"policy": ["reach:15"], "x": [1.0]}))
    sec = Section("t", "Test game", "Intro.", tables=[table],
                  glossary={"reach:15": "aims for 15+", "weights": "face weights"})
    written = write_report([sec], tmp_path / "out", "T", ["seed 1"])
    with pymupdf.open(written["appendix"]) as doc:
        first = " ".join(doc[0].get_text().split())
    assert "Names used in the tables and notes" in first
    assert "Test game. reach:15: aims for 15+; weights: face weights." in first

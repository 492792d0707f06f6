"""The notes under a result: every note in CSV and JSON; in the text and Markdown formats
at most three lines by default and the assumed rule parameters' line, never counted away,
and all of them with ``--verbose``."""

import json

from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.output import MAX_NOTES, Result, render, shown_notes
from analyzer.params import ASSUMED_MARK

ASSUMED = [f"rule_{k} = {k}{ASSUMED_MARK}why {k}" for k in range(4)]


def test_assumed_parameters_are_named_in_one_line_and_the_rest_counted():
    """The assumed rule parameters collapse into one line naming each with its value, which
    is never counted away; an untrained network's note comes first; past three other lines
    the rest are counted."""
    notes = ["first", "second", "third", "learned plays rules its network was not trained on"]
    shown = shown_notes(notes + ASSUMED, every=False)
    assert len(shown) == MAX_NOTES + 1
    assert shown[0].startswith("learned plays rules") and shown[1] == "first"
    assert shown[2] == "2 more notes: --verbose shows every note"
    assert shown[3].endswith("rule_0=0, rule_1=1, rule_2=2, rule_3=3")
    short = shown_notes(["first"] + ASSUMED, every=False)
    assert short[0] == "first" and len(short) == 2
    assert short[1].endswith("rule_0=0, rule_1=1, rule_2=2, rule_3=3")
    assert shown_notes(notes + ASSUMED, every=True) == notes + ASSUMED
    assert len(shown_notes(notes, every=False)) == MAX_NOTES


def test_the_note_naming_the_network_that_played_comes_next():
    """After an untrained network's note, the line naming the network that played comes
    before the other notes, so the short list keeps both."""
    notes = ["first", "second", "learned plays value_net.npy here: ...",
             "learned plays rules its network was not trained on (rounds=7)"]
    shown = shown_notes(notes + ASSUMED, every=False)
    assert shown[0].startswith("learned plays rules") and shown[1] == notes[2]
    assert shown[2] == "2 more notes: --verbose shows every note"
    assert "assumed rule parameters in force" in shown[3]


def test_every_format_but_text_and_markdown_keeps_every_note():
    """JSON and CSV are for machines: every note, word for word."""
    result = Result("t", notes=["first"] + ASSUMED)
    assert json.loads(render(result, "json", every=False))["notes"] == ["first"] + ASSUMED
    text = render(result, "table", every=False)
    assert text.count("note: ") == 2 and ASSUMED[0] not in text
    assert render(result, "markdown", every=True).count("> ") == 5


def test_verbose_prints_every_note_of_a_kept_answer():
    """An exact answer kept on disk prints the short notes, and with --verbose every note
    (Sly Dice's odds carry one note per placeholder card)."""
    args = ["sly-dice", "odds", "--common", "1,2,3"]
    for _ in range(2):  # computed, then kept
        short = CliRunner().invoke(cli, args)
        assert short.exit_code == 0, short.output
        lines = [line for line in short.output.splitlines() if line.startswith("note: ")]
        assert len(lines) <= MAX_NOTES and "points_full_house=15" in lines[-1]
        every = CliRunner().invoke(cli, [*args, "--verbose"])
        lines = [line for line in every.output.splitlines() if line.startswith("note: ")]
        assert any(line.startswith("note: points_full_house = 15" + ASSUMED_MARK)
                   for line in lines) and len(lines) > MAX_NOTES

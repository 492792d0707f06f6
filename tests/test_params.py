"""Rule parameters: parsing, validation, and the order defaults < --rules file < --set."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.errors import UserError
from analyzer.params import Param, load_rules_file, resolve

PARAMS = (
    Param("weights", "weights", (1, 1), "w", size=2),
    Param("rounds", "int", 5, "r", low=1, high=20),
    Param("bonus", "float", 1.5, "b", low=0),
    Param("flag", "bool", True, "f"),
)


def test_defaults_then_file_then_set(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text("rounds = 7\nbonus = 2\n")
    values = resolve(PARAMS, path, ["bonus=3.5", "flag=false"])
    assert values == {"weights": (1, 1), "rounds": 7, "bonus": 3.5, "flag": False}


@pytest.mark.parametrize("text", ["rounds", "=3", "nosuch=1", "rounds=0", "rounds=2.5",
                                  "rounds=x", "weights=1", "weights=-1,2", "weights=0,0",
                                  "weights=a,b", "flag=maybe", "bonus=-1", "bonus=nan"])
def test_bad_assignments_are_user_errors(text):
    with pytest.raises(UserError):
        resolve(PARAMS, None, [text])


@pytest.mark.parametrize("body", ["nosuch = 1", "rounds = 'x'", "rounds = [", "flag = 1",
                                  "weights = [1]"])
def test_bad_rules_files(tmp_path, body):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(UserError):
        load_rules_file(path, PARAMS)


def test_missing_rules_file(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_rules_file(tmp_path / "none.toml", PARAMS)


@settings(max_examples=50)
@given(st.lists(st.integers(0, 1000), min_size=2, max_size=2).filter(lambda w: sum(w) > 0))
def test_weights_round_trip(weights):
    param = PARAMS[0]
    value = param.parse(",".join(map(str, weights)))
    assert param.parse(param.show(value)) == value == tuple(float(w) for w in weights)


def test_a_value_the_user_set_is_not_an_assumed_placeholder():
    """Assumed-parameter notes name the parameters at their assumed default only: CloverUp
    weights and Sly Dice points the user gave are theirs."""
    from click.testing import CliRunner

    from analyzer.cli import cli

    def notes(args):
        out = CliRunner().invoke(cli, args + ["--format", "json"])
        assert out.exit_code == 0, out.output
        return " ".join(json.loads(out.output)["notes"])

    assert "weights" in notes(["cloverup", "solve"])
    assert "weights" not in notes(["cloverup", "solve", "--weights", "1,1,1,1,1,1,1"])
    odds = ["sly-dice", "odds", "--common", "1,2,3", "--combo", "full-house"]
    assert "full_house" in notes(odds)
    assert "full_house" not in notes(odds + ["--points", "full-house=25"])

"""Rates in the text format: percentages with one decimal in text tables; CSV and JSON
keep full precision."""

import json

import numpy as np
import pandas as pd

from analyzer.output import Result, readable_rates, render


def test_rate_columns_and_rate_rows_read_as_percentages():
    """Columns named *rate (and the win intervals) print as 49.8%; in a what-if table the
    rows whose metric is a rate print their figures as percentages and their differences
    in percentage points; every other number is left alone."""
    seats = pd.DataFrame({"policy": ["a"], "mean_score": [250.25], "win_rate": [0.497557],
                          "win_ci95_low": [0.48], "win_ci95_high": [0.515]})
    shown = readable_rates(seats)
    assert list(shown.iloc[0]) == ["a", 250.25, "49.8%", "48.0%", "51.5%"]
    variants = pd.DataFrame({"metric": ["mean_score", "first_seat_win_rate"],
                             "value": [60.8, 0.5], "ci95_low": [60.7, 0.493],
                             "ci95_high": [60.9, 0.507], "diff": [np.nan, 0.0123],
                             "diff_ci95_low": [np.nan, -0.004], "diff_ci95_high": [np.nan, 0.03]})
    shown = readable_rates(variants)
    assert list(shown.iloc[0, 1:4]) == [60.8, 60.7, 60.9]
    assert list(shown.iloc[1, 1:]) == ["50.0%", "49.3%", "50.7%", "+1.2 pp", "-0.4 pp", "+3.0 pp"]


def test_machines_get_full_precision():
    result = Result("t", tables={"seats": pd.DataFrame({"win_rate": [0.497557]})})
    assert json.loads(render(result, "json"))["tables"]["seats"][0]["win_rate"] == 0.497557
    assert "0.497557" in render(result, "csv") and "49.8%" in render(result, "table")

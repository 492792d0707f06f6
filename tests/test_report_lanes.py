"""The report's sections built in parallel lanes (``analyzer.report_lanes``): games that
share kernels share a lane, and a section built in a worker process is the one built here."""

import pytest

from analyzer import report_lanes
from analyzer.games.cloverup.params import PARAMS
from analyzer.params import defaults
from analyzer.registry import GAMES, get_game


def test_games_that_share_kernels_share_a_lane():
    lanes = report_lanes.lanes_for(list(GAMES.values()), 2)
    ids = [[spec.id for spec in lane] for lane in lanes]
    assert ids == [["thats-pretty-clever", "twice-as-clever"], ["cloverup", "sly-dice"]]
    assert report_lanes.lanes_for(list(GAMES.values()), 1) == [list(GAMES.values())]
    one = report_lanes.lanes_for([get_game("cloverup")], 2)
    assert one == [[get_game("cloverup")]]


@pytest.mark.slow  # about a minute: a worker process compiles and builds a section
def test_a_section_built_in_a_worker_is_the_same():
    """The CloverUp quick section built in a worker process equals the one built here:
    every figure's and table's data, the findings and the notes."""
    spec = get_game("cloverup")
    values = {"cloverup": defaults(PARAMS)}
    (remote,), _ = report_lanes.build_in_lanes([spec], values, 5, True, None, False, 2)
    local = spec.load().report_section(values["cloverup"], seed=5, quick=True,
                                       progress=False)
    assert [f.name for f in remote.figures] == [f.name for f in local.figures]
    for a, b in zip(remote.figures + remote.tables, local.figures + local.tables):
        assert a.data.equals(b.data), a.name
    assert remote.notes == local.notes
    assert [f.text for f in remote.findings] == [f.text for f in local.findings]

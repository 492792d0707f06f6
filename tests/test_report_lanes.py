"""The report's sections built in parallel lanes (``analyzer.report_lanes``): games that
share kernels share a lane, and a section built in a worker process is the one built here."""

from concurrent.futures import Future

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


def test_compiled_kernels_let_the_lanes_balance_by_time():
    """With every kernel compiled, the longest sections go first, each to the lane with
    the least time so far: 64 + 15 against 52 + 33 seconds."""
    seconds = {"cloverup": 15.0, "sly-dice": 33.0, "thats-pretty-clever": 52.0,
               "twice-as-clever": 64.0}
    lanes = report_lanes.lanes_for(list(GAMES.values()), 2, seconds)
    ids = [[spec.id for spec in lane] for lane in lanes]
    assert ids == [["cloverup", "twice-as-clever"], ["sly-dice", "thats-pretty-clever"]]


def test_only_games_that_share_kernels_wait_for_them_to_compile():
    """The lanes balance by time once the kernels shared by two games are cached, whether
    or not a game's own kernels are."""
    assert report_lanes.shared_kernels(list(GAMES.values())) == [
        "thats-pretty-clever", "twice-as-clever"]
    assert report_lanes.shared_kernels([get_game("cloverup"), get_game("sly-dice")]) == []


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


def test_the_time_left_follows_the_lanes_and_the_last_run(tmp_path, monkeypatch):
    """The report's estimate: each lane's sections still to build, the ones under way
    counted from their start; the slowest lane sets the time left. A run's section times
    are kept and become the next run's expectations of the same kind (built-in estimates
    until then): a first run's, compiles included, apart from a run's once compiled."""
    from analyzer import report_eta

    monkeypatch.setattr(report_eta, "_path", lambda: tmp_path / "times.json")
    first = report_eta.expected_seconds(["cloverup", "sly-dice"], quick=False, compiled=False)
    assert first == {g: report_eta.ESTIMATES[False, False][g] for g in first}
    estimate = report_eta.Estimate([["a", "b"], ["c"]], {"a": 10.0, "b": 20.0, "c": 25.0})
    assert estimate.seconds_left(0.0) == 30.0 and estimate.fraction_done(0.0) == 0.0
    estimate.start("a", 0.0)
    estimate.start("c", 0.0)
    assert estimate.seconds_left(4.0) == 26.0  # lane 1: 6 + 20; lane 2: 21
    estimate.finish("a", 12.0)
    estimate.start("b", 12.0)
    assert estimate.seconds_left(12.0) == 20.0
    assert estimate.fraction_done(12.0) == pytest.approx(1 - (20 + 13) / 55)
    assert estimate.seconds_left(100.0) == pytest.approx(1.25)  # overdue: 5% of each left
    assert "about 0:01 left" in estimate.bar(100.0)
    report_eta.record(estimate.finished, quick=False)
    assert report_eta.expected_seconds(["a", "cloverup"], quick=False) == {
        "a": 12.0, "cloverup": report_eta.ESTIMATES[False, True]["cloverup"]}
    assert report_eta.expected_seconds(["a"], quick=False, compiled=False)["a"] == \
        report_eta.UNKNOWN_SECTION_SECONDS
    assert report_eta.expected_seconds(["a"], quick=True)["a"] == \
        report_eta.UNKNOWN_SECTION_SECONDS
    (tmp_path / "times.json").write_text("{not json")
    assert report_eta.expected_seconds(["a"], quick=False)["a"] == \
        report_eta.UNKNOWN_SECTION_SECONDS


@pytest.mark.parametrize("stored", [
    '{"full": {"a": "ten"}}', '{"full": {"a": NaN}}', '{"full": {"a": [1, 2]}}',
    '{"full": {"a": -7200}}', '{"full": {"a": 1e400}}', '{"full": {"a": ' + "9" * 400 + "}}",
    '{"full": [1]}', "[1, 2]", '"times"'])
def test_a_damaged_section_times_file_is_passed_over(tmp_path, monkeypatch, stored):
    """A stored section time that is not a finite number of seconds of at least 0 (a
    string, NaN, a list, a negative or infinite time), or a file of another shape, is
    passed over: the built-in estimate stands, the time left is never negative, and the
    next run's times are kept beside what was good."""
    from analyzer import report_eta

    monkeypatch.setattr(report_eta, "_path", lambda: tmp_path / "times.json")
    (tmp_path / "times.json").write_text(stored)
    expected = report_eta.expected_seconds(["a"], quick=False)
    assert expected == {"a": report_eta.UNKNOWN_SECTION_SECONDS}
    estimate = report_eta.Estimate([["a"]], expected)
    assert estimate.seconds_left(0.0) > 0 and "about -" not in estimate.bar(0.0)
    report_eta.record({"a": 12.0}, quick=False)
    assert report_eta.expected_seconds(["a"], quick=False) == {"a": 12.0}


def test_a_first_run_starts_one_game_of_a_family_and_holds_the_rest():
    """From an empty cache, the first game of a kernel family starts at once (it compiles
    the kernels) and the family's later games wait; the other games keep their lanes."""
    plan, waiting = report_lanes.first_run_plan(list(GAMES.values()), 2)
    assert [[s.id for s in lane] for lane in plan] == [
        ["thats-pretty-clever"], ["cloverup", "sly-dice"]]
    assert [s.id for s in waiting] == ["twice-as-clever"]
    plan, waiting = report_lanes.first_run_plan([get_game("cloverup")], 2)
    assert plan == [[get_game("cloverup")]] and waiting == []


class _Pool:
    """A pool that runs nothing: each submitted lane's future is finished by the test."""

    def __init__(self):
        self.lanes = []

    def submit(self, _function, ids, *_args):
        future = Future()
        self.lanes.append((ids, future))
        return future


@pytest.mark.parametrize("released_by", ["the cache", "the first section"])
def test_a_waiting_game_starts_once_its_kernels_are_compiled(monkeypatch, released_by):
    """A game waiting for its family's kernels is submitted, in a lane of its own, as soon
    as numba's cache holds them or the section that compiles them is done; not before."""
    cached = [False]
    monkeypatch.setattr(report_lanes, "all_compiled", lambda ids: cached[0])
    monkeypatch.setattr(report_lanes._LaneRun, "CHECK_EVERY", 0.0)
    games = [get_game("thats-pretty-clever"), get_game("twice-as-clever")]
    plan, waiting = report_lanes.first_run_plan(games, 2)
    pool = _Pool()
    run = report_lanes._LaneRun(pool, {}, 1, True, waiting)
    run.submit(plan[0])
    run.collect()
    assert [ids for ids, _ in pool.lanes] == [["thats-pretty-clever"]]
    if released_by == "the cache":
        cached[0] = True
    else:
        pool.lanes[0][1].set_result((["section 1"], 3))
    run.collect()
    assert [ids for ids, _ in pool.lanes] == [["thats-pretty-clever"], ["twice-as-clever"]]
    for number, (_, future) in enumerate(pool.lanes, 1):
        if not future.done():
            future.set_result(([f"section {number}"], 3))
    while run.pending or run.waiting:
        run.collect()
    assert run.built == {"thats-pretty-clever": "section 1", "twice-as-clever": "section 2"}
    assert run.chunks == 6

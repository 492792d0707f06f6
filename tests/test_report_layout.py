"""Every page of a report built from synthetic sections, checked as drawn: no two texts
overlap, no text under 7.5 pt, each page's running head names the sections on it, no
legend covers data, and table cells break only where the page is too narrow."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure as MplFigure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from analyzer.sections import Figure, Finding, Section, Table
from reports.balance import lay_out_documents
from reports.figures import KINDS, draw_figure
from reports.layout import HANG, wrapped_rows, wrapped_widths
from reports.pdfflow import HEAD_JOIN, PAGE_NUMBER, RUNNING_HEAD, PageFlow

TOKENS = ("Alder", "Birch", "Cedar")  # one word per section, on every line of its text
TOUCH = 0.5  # pixels two text boxes may share (touching is no overlap)
MIN_PT = 7.5


def said(token: str, sentences: int) -> str:
    """Running text with the section's word in every sentence (so on every line)."""
    return " ".join(f"{token} reads this sentence number {k}." for k in range(sentences))


# --- synthetic figures of every kind ----------------------------------------------------
POLICIES = {"honest": "never bluffs or accuses", "bluffer:10": "bluffs under 10 points",
            "bluffer:20": "bluffs under 20 points",
            "accuser:0.3": "accuses if P(true) < 0.3",
            "sly:10,0.3": "bluffs under 10 points, accuses if P(true) < 0.3",
            "rational": "accuses when it pays", "stable": "fictitious play's strategy"}


def explained_bars(token: str) -> Figure:
    """Grouped bars of long policy names, each explained in words under the axis."""
    rows = [(p, side, 3.0 + 20 * (side == "accusing") * (i % 3 == 0) + i)
            for i, p in enumerate(POLICIES) for side in ("claiming", "accusing")]
    df = pd.DataFrame(rows, columns=["policy", "side", "gain"])
    return Figure(f"{token}_gain", f"{token}: how much a best response gains against each "
                  "policy, per claim (exact, 95% intervals)", "bar",
                  df.assign(lo=df.gain - 0.8, hi=df.gain + 0.8), "policy", "gain", "side",
                  "lo", "hi", xlabel="policy", ylabel="points gained by a best response",
                  reading=said(token, 4), labels=POLICIES)


SEATS_EVEN = [(2, 0.3, 1.5), (2, -0.3, 1.55), (3, 0.15, 1.45), (3, 0.05, 1.45), (3, -0.2, 1.45),
              (4, -1.3, 1.35), (4, 1.0, 1.35), (4, -0.6, 1.3), (4, 0.95, 1.3)]
SEATS_SKEWED = [(2, 2.0, 1.8), (2, -2.0, 1.8), (3, -0.8, 1.65), (3, -0.45, 1.65),
                (3, 1.3, 1.65), (4, -3.5, 1.8), (4, 1.6, 1.9), (4, 2.0, 1.95), (4, -0.1, 1.85)]


def seat_rows(most: int) -> list[tuple[int, float, float]]:
    """(players, difference in pp, half interval in pp) of every seat up to ``most``."""
    return [(n, 1.2 * ((seat + n) % 3 - 1), 1.5) for n in range(2, most + 1)
            for seat in range(n)]


def seat_dots(token: str, seats: list[tuple[int, float, float]],
              appendix: bool = False) -> Figure:
    """Seats' win rates minus a fair share (``(players, pp, half interval pp)`` per seat,
    in seat order), with intervals that leave little room for a legend."""
    rows, seen = [], {}
    for players, diff, half in seats:
        seen[players] = seen.get(players, 0) + 1
        rows.append((players, f"seat {seen[players]}", diff / 100, (diff - half) / 100,
                     (diff + half) / 100))
    df = pd.DataFrame(rows, columns=["players", "seat", "diff", "lo", "hi"])
    return Figure(f"{token}_seats_{len(rows)}", f"{token}: win rate by seat minus a fair "
                  "share, the equilibrium player in every seat (simulated, 95% intervals)",
                  "dot", df, "players", "diff", "seat", "lo", "hi",
                  xlabel="players at the table", ylabel="win rate minus a fair share",
                  reading=said(token, 3), ref_line=0.0, percent=True, appendix=appendix)


def end_lines(token: str) -> Figure:
    """Two lines of long names ending close together at the right edge."""
    x = np.arange(0, 31, 5)
    df = pd.concat([pd.DataFrame({"points": x, "rate": 0.45 + 0.012 * x + 0.004 * k,
                                  "parameter": name})
                    for k, name in enumerate(["Successful Bluffing bonus",
                                              "False Accusation penalty"])])
    return Figure(f"{token}_sweep", f"{token}: a bluffer's win rate as the bluffing bonus "
                  "or the false-accusation penalty changes", "line", df, "points", "rate",
                  "parameter", xlabel="points of the first card", ylabel="bluffer's win rate",
                  reading=said(token, 2), percent=True)


def comeback_lines(token: str) -> Figure:
    """Lines ending at different x, with error bars (a comeback chart)."""
    frames = []
    for k in range(1, 6):
        x = np.arange(5, 5 + 10 * (k + 1), 10)
        y = 0.5 - 0.006 * x * (6 - k) / 3
        frames.append(pd.DataFrame({"behind": x, "chance": y, "lo": y - 0.04, "hi": y + 0.04,
                                    "rounds_left": f"{k} rounds left"}))
    return Figure(f"{token}_comebacks", f"{token}: comebacks, a player's chance to win by how "
                  "far behind the leader they are after a round", "line",
                  pd.concat(frames), "behind", "chance", "rounds_left", "lo", "hi",
                  xlabel="points behind the leader", ylabel="chance to win",
                  reading=said(token, 3), percent=True)


def pmf_steps(token: str) -> Figure:
    """Step charts of three wordy series."""
    x = np.arange(0, 40)
    df = pd.concat([pd.DataFrame({"score": x, "p": np.exp(-(x - m) ** 2 / 30.0) / 9.7,
                                  "policy": name})
                    for m, name in ((10, "random"), (20, "greedy"), (28, "learned"))])
    return Figure(f"{token}_scores", f"{token}: solo final scores by policy (simulated, bins of "
                  "10 points)", "step", df, "score", "p", "policy", xlabel="final score",
                  ylabel="share of games", reading=said(token, 2), percent=True,
                  labels={"random": "random legal choices", "greedy": "best score now",
                          "learned": "self-play value network"})


RULES = ["rerolls", "clover_bonus_rerolls", "double_six_rule", "double_six_bonus_rerolls",
         "one_clover_floor", "one_clover_triples_from", "triple_six_effect", "rounds",
         "weights: fair dice", "weights: commoner clovers"]


def rule_names(count: int) -> list[str]:
    """Parameter names with a value, as a what-if table or chart names its changes."""
    return [f"{RULES[k % len(RULES)]} {k // len(RULES) + 1}" for k in range(count)]


def many_bars(token: str) -> Figure:
    """A single series over thirty long category names."""
    names = rule_names(30)
    df = pd.DataFrame({"change": names, "delta": np.sin(np.arange(30)) * 1.5})
    return Figure(f"{token}_rules", f"{token}: what one rule change does to a turn's expected "
                  "score", "bar", df, "change", "delta", xlabel="rule changed",
                  ylabel="change in expected points", reading=said(token, 2))


def category_lines(token: str) -> Figure:
    """Lines over long category names."""
    cats = ["without round 1", "without round 2", "without round 3", "without round 4",
            "bonus removed entirely"]
    df = pd.DataFrame([(c, who, 10.0 + 7 * i + 5 * j) for i, c in enumerate(cats)
                       for j, who in enumerate(["learned", "heuristic"])],
                      columns=["removed", "policy", "lost"])
    return Figure(f"{token}_rounds", f"{token}: what each round-track bonus is worth", "line",
                  df, "removed", "lost", "policy", xlabel="bonus removed",
                  ylabel="points lost", reading=said(token, 2))


def score_sheet(token: str, columns: int = 6) -> Figure:
    """A sheet picture: two areas of boxes with labels, shares and mean rounds (many
    columns: boxes too small for all three at 7.5 pt)."""
    rows = [("yellow", x, r, f"y{x + 1}", (x + r) / (columns + 2), 2.0 + x % 5)
            for r in range(3) for x in range(columns - 2)]
    rows += [("blue", x, 4, "", x / columns, 3.0) for x in range(columns)]
    df = pd.DataFrame(rows, columns=["area", "x", "row", "label", "marked", "mean_round"])
    return Figure(f"{token}_sheet_{columns}", f"{token}: how often each box is marked",
                  "sheet", df, "x", "marked", "area", reading=said(token, 2), appendix=True)


def wide_sheet(token: str) -> Figure:
    return score_sheet(token, 16)


def rule_table(token: str, rows: int = 45) -> Table:
    """A long table whose first column names parameters with their values."""
    k = np.arange(rows)
    df = pd.DataFrame({"change": rule_names(rows), "section": token,
                       "expected_points": 12.46 + np.sin(k), "win_rate": 0.48 + 0.001 * k,
                       "ci95_low": 0.47 + 0.001 * k, "ci95_high": 0.49 + 0.001 * k})
    return Table(f"{token}_rule_table", f"{token}: one rule changed at a time, a turn's "
                 "expected score and the first seat's win rate", df, note=said(token, 2),
                 max_rows=rows)


def wide_table(token: str) -> Table:
    """A table too wide for the page: its columns split into groups."""
    df = pd.DataFrame({"policy": [f"{token} policy {k}" for k in range(30)],
                       **{f"a_long_measure_name_{j}": np.linspace(0, j, 30) for j in range(14)}})
    return Table(f"{token}_wide", f"{token}: every measure of every policy", df, max_rows=30)


def synthetic_sections() -> list[Section]:
    """Three sections covering every figure kind, long labels and long tables."""
    alder, birch, cedar = TOKENS
    figures = {alder: [explained_bars(alder), seat_dots(alder, SEATS_EVEN), end_lines(alder),
                       score_sheet(alder)],
               birch: [pmf_steps(birch), many_bars(birch),
                       seat_dots(birch, SEATS_SKEWED, appendix=True), wide_sheet(birch)],
               cedar: [category_lines(cedar), seat_dots(cedar, seat_rows(6)),
                       explained_bars(cedar), comeback_lines(cedar)]}
    tables = {alder: [rule_table(alder)], birch: [wide_table(birch), rule_table(birch, 12)],
              cedar: [rule_table(cedar, 30)]}
    return [Section(token.lower(), f"{token} game", said(token, 6), figures=figures[token],
                    tables=tables[token], notes=[said(token, 2)],
                    verdict=[said(token, 3), said(token, 2)],
                    findings=[Finding(said(token, 1), 0.25, figures[token][0].name,
                                      (0.2, 0.3), "%")])
            for token in TOKENS]


# --- pages as drawn -----------------------------------------------------------------------
@dataclass
class Page:
    document: str
    number: int
    front: bool  # title, contents or key findings (no running head)
    fig: MplFigure
    texts: list[Text]  # every text drawn on the page


def drawn_texts(fig: MplFigure) -> list[Text]:
    """The texts a draw of ``fig`` puts on the page (visible, not empty: a tick label
    outside the axes' limits is not drawn, so not counted)."""
    drawn: list[Text] = []
    draw = Text.draw

    def recording(self: Text, renderer: object) -> None:
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        draw(self, renderer)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "draw", recording)
        fig.canvas.draw()
    return drawn


@pytest.fixture(scope="module")
def pages() -> list[Page]:
    docs = lay_out_documents(synthetic_sections(), "Layout test report", ["seed 1"])
    out = []
    for name, flow, front in (("report", docs.report, docs.report_front),
                              ("appendix", docs.appendix, docs.appendix_front)):
        for i, fig in enumerate(flow.finish()):
            out.append(Page(name, i + 1, i < front, fig, drawn_texts(fig)))
    return out


def box(text: Text) -> Bbox:
    return text.get_window_extent(text.figure.canvas.get_renderer())


def overlap(a: Bbox, b: Bbox) -> bool:
    """Whether two boxes share more than a touching edge."""
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > TOUCH
            and min(a.y1, b.y1) - max(a.y0, b.y0) > TOUCH)


def overlapping(texts: list[Text]) -> list[tuple[str, str]]:
    """Pairs of distinct texts whose boxes overlap."""
    boxes = [(t, box(t)) for t in texts]
    return [(a.get_text(), b.get_text()) for i, (a, abox) in enumerate(boxes)
            for b, bbox in boxes[i + 1:] if a is not b and overlap(abox, bbox)]


def test_the_synthetic_report_covers_every_figure_kind(pages: list[Page]) -> None:
    kinds = {fig.kind for sec in synthetic_sections() for fig in sec.figures}
    assert kinds == set(KINDS)
    assert sum(not p.front for p in pages) >= 10
    heads = [t.get_text() for p in pages for t in p.texts if t.get_gid() == RUNNING_HEAD]
    assert any(HEAD_JOIN in head for head in heads)  # a section starts mid-page


def test_no_two_texts_overlap_on_any_page(pages: list[Page]) -> None:
    clashes = [(p.document, p.number, pair) for p in pages for pair in overlapping(p.texts)]
    assert not clashes, clashes[:10]


def test_no_text_is_under_the_smallest_size(pages: list[Page]) -> None:
    small = [(p.document, p.number, t.get_text()) for p in pages for t in p.texts
             if t.get_fontsize() < MIN_PT - 1e-6]
    assert not small, small[:10]


def test_each_running_head_names_the_sections_on_its_page(pages: list[Page]) -> None:
    """A page's head names exactly the sections whose text is on it (both, on a page where
    one section ends and the next begins); front matter has none."""
    for page in pages:
        heads = [t.get_text() for t in page.texts if t.get_gid() == RUNNING_HEAD]
        if page.front:
            assert heads == [], (page.document, page.number)
            continue
        body = " ".join(t.get_text() for t in page.texts
                        if t.get_gid() not in (RUNNING_HEAD, PAGE_NUMBER))
        on_page = {token for token in TOKENS if token in body}
        assert len(heads) == 1 and on_page, (page.document, page.number, heads)
        named = {token for token in TOKENS if token in heads[0]}
        assert named == on_page, (page.document, page.number, heads[0], on_page)


def test_a_page_shared_by_two_sections_is_headed_by_both() -> None:
    flow = PageFlow("Alder game")
    flow.paragraph(said("Alder", 3), 9.5)
    flow.running_head = "Birch game"  # the next section starts on the same page
    flow.paragraph(said("Birch", 150), 9.5)
    flow.finish()
    heads = [[t.get_text() for t in fig.texts if t.get_gid() == RUNNING_HEAD]
             for fig in flow.finish()]  # finished once: no second head
    assert len(heads) > 1 and heads[0] == [HEAD_JOIN.join(["Alder game", "Birch game"])]
    assert all(h == ["Birch game"] for h in heads[1:])


# --- legends and data ---------------------------------------------------------------------
def crosses(segment: np.ndarray, area: Bbox, steps: int = 200) -> bool:
    """Whether a straight segment passes through ``area`` (points along it tested)."""
    t = np.linspace(0.0, 1.0, steps)[:, None]
    x, y = (segment[0] + t * (segment[1] - segment[0])).T
    return bool(np.any((area.x0 < x) & (x < area.x1) & (area.y0 < y) & (y < area.y1)))


def legend_clashes(ax: object) -> list[str]:
    """The error bars and markers of ``ax`` that its legend's box covers."""
    legend = ax.get_legend()
    renderer = ax.figure.canvas.get_renderer()
    area = legend.get_window_extent(renderer)
    found = []
    for coll in ax.collections:
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                if crosses(coll.get_transform().transform(seg), area):
                    found.append(f"error bar at x={seg[0][0]:.2f}")
    for line in ax.lines:
        if line.get_marker() in (None, "None", "none", "", " "):
            continue
        r = line.get_markersize() * ax.figure.dpi / 72 / 2
        for x, y in line.get_transform().transform(line.get_xydata()):
            if overlap(Bbox([[x - r, y - r], [x + r, y + r]]), area):
                found.append(f"marker of {line.get_label()} at {x:.0f},{y:.0f}")
    return found


def test_dot_chart_legends_cover_no_error_bar_or_marker(pages: list[Page]) -> None:
    dots = [(p.document, p.number, ax) for p in pages for ax in p.fig.axes
            if ax.get_legend() is not None and "win rate by seat" in ax.get_title()]
    assert len(dots) == 3
    for document, number, ax in dots:
        assert not legend_clashes(ax), (document, number, legend_clashes(ax))


def even_seats(token: str) -> Figure:
    return seat_dots(token, SEATS_EVEN)


def skewed_seats(token: str) -> Figure:
    return seat_dots(token, SEATS_SKEWED)


@pytest.mark.parametrize("make", [explained_bars, even_seats, skewed_seats, end_lines,
                                  comeback_lines, pmf_steps, many_bars, category_lines,
                                  score_sheet, wide_sheet], ids=lambda f: f.__name__)
def test_stand_alone_charts_have_no_overlapping_texts(make: object) -> None:
    """The PNG's figure of each chart, laid out on its own, passes the same checks."""
    fig = draw_figure(make("Alder"))
    texts = drawn_texts(fig)
    assert not overlapping(texts)
    assert min(t.get_fontsize() for t in texts) >= MIN_PT - 1e-6
    ax = fig.axes[0]
    if ax.get_legend() is not None:
        assert not legend_clashes(ax)


# --- tables ---------------------------------------------------------------------------------
def test_parameter_names_stay_whole_when_the_table_has_room(pages: list[Page]) -> None:
    lines = [t.get_text() for p in pages if p.document == "appendix" for t in p.texts]
    for name in rule_names(45):
        assert any(f"{name}  " in line for line in lines), name


def test_a_cell_that_must_wrap_indents_its_further_lines() -> None:
    headers, rows = ["Change", "Points"], [["double_six_bonus_rerolls 1 and more", "1.5"]]
    widths = wrapped_widths(headers, rows, cap=16)
    _, body = wrapped_rows(headers, rows, [False, True], widths, [0, 1])
    first, *further = body[0]
    assert first.startswith("double_six_bonus_rerolls") and further
    assert all(line.startswith(HANG) and not line.startswith(HANG + " ") for line in further)
    assert wrapped_widths(headers, rows, room=80) == [len(rows[0][0]), 6]

"""Tests of the report renderers (figures, balance report folder, cheat sheet)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure as MplFigure

from analyzer.sections import (Block, CheatSheet, Figure, Finding, Section, Table, fair_share,
                               policy_words, seat_figure)
from reports import balance
from reports.balance import write_report
from reports.cheatsheet import render_cheatsheet
from reports.figures import draw_figure, save_png
from reports.layout import reader_table, wrap
from reports.markdown import markdown_table
from reports.style import series_style, text_width_pt


def pdf_pages(path: Path) -> int:
    """Page objects in a PDF (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", path.read_bytes()))


# --- synthetic content ---------------------------------------------------------------------
def bar_fig(name: str = "win_rates", kind: str = "bar") -> Figure:
    df = pd.DataFrame({
        "strategy": ["hold at 20", "hold at 25", "always roll"] * 2,
        "players": [2, 2, 2, 3, 3, 3],
        "win": [0.5, 0.6, 0.2, 0.4, 0.45, 0.1],
    })
    df["lo"] = df["win"] - 0.05
    df["hi"] = df["win"] + 0.03
    return Figure(name, "Win rate by strategy", kind, df, "strategy", "win", series="players",
                  err_low="lo", err_high="hi", xlabel="Strategy", ylabel="P(win)",
                  reading="Holding at 25 wins most often with two players. " * 4)


def line_fig() -> Figure:
    x = np.arange(10)
    df = pd.DataFrame({"turn": np.tile(x, 2), "score": np.r_[x * 2.0, x * 3.0],
                       "who": ["first"] * 10 + ["second"] * 10})
    return Figure("scores", "Mean score by turn", "line", df, "turn", "score", series="who",
                  reading="The second player catches up.")


def step_fig() -> Figure:
    x = np.arange(0, 30)
    df = pd.concat([pd.DataFrame({"s": x, "p": np.exp(-(x - m) ** 2 / 20.0), "t": m})
                    for m in (8, 15, 22)])
    return Figure("pmf", "Turn score distribution", "step", df, "s", "p", series="t",
                  reading="The later the mean, the wider the spread.")


def single_fig() -> Figure:
    df = pd.DataFrame({"n": [1, 2, 3, 4], "mean": [3.5, 7.0, 10.5, 14.0]})
    return Figure("single", "Single series line", "line", df, "n", "mean",
                  reading="The mean grows by 3.5 a step.")


def sections(extra: list[Figure] | None = None) -> list[Section]:
    policy = pd.DataFrame({"banked": range(40), "decision": ["roll", "hold"] * 20,
                           "p": np.linspace(0, 1, 40)})
    first = Section("alpha", "Alpha game", "An introduction " * 30,
                    figures=[bar_fig(), line_fig()] + (extra or []),
                    tables=[Table("policy", "Policy", policy, note="First rows only.",
                                  max_rows=10)],
                    notes=["Seed 1.", "Assumed rules: six-sided die."],
                    findings=[Finding("Holding at 25 wins most often.", 0.6, "win_rates",
                                      (0.55, 0.63), "%"),
                              Finding("The first rows say roll.", 40, "policy", unit="rows",
                                      digits=0)])
    second = Section("beta", "Beta game", "Short.", figures=[step_fig(), single_fig()],
                     tables=[Table("odds", "Odds", pd.DataFrame({"a|b": ["x|y"], "v": [1.5]}))],
                     findings=[Finding("The mean grows steadily.", 3.5, "single",
                                       unit="points")])
    return [first, second]


# --- figures -------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", [bar_fig(), line_fig(), step_fig(), single_fig()],
                         ids=["bar", "line", "step", "single"])
def test_draw_figure_kinds(spec: Figure, tmp_path: Path) -> None:
    fig = draw_figure(spec)
    assert isinstance(fig, MplFigure)
    ax = fig.axes[0]
    assert ax.get_title() == spec.title
    multi = spec.series is not None and spec.data[spec.series].nunique() > 1
    assert (ax.get_legend() is not None) == multi
    out = tmp_path / "f.png"
    save_png(fig, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bar_error_bars_span_interval_ends_and_hatches_cycle() -> None:
    spec = bar_fig()
    ax = draw_figure(spec).axes[0]
    bars = [c for c in ax.containers if not isinstance(c, ErrorbarContainer)]
    hatches = [b.patches[0].get_hatch() or "" for b in bars]
    assert hatches == [series_style(i)["hatch"] for i in (0, 1)]
    assert series_style(1)["hatch"] == "//"
    errs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    spans = sorted((round(s[0][1], 9), round(s[1][1], 9))
                   for c in errs for s in c.lines[2][0].get_segments())
    expected = sorted(zip(spec.data["lo"].round(9), spec.data["hi"].round(9)))
    assert spans == expected


@pytest.mark.parametrize("change", [{"kind": "pie"}, {"y": "nope"}, {"err_high": None}])
def test_invalid_figure_raises(change: dict) -> None:
    spec = bar_fig()
    for key, value in change.items():
        setattr(spec, key, value)
    with pytest.raises(ValueError):
        draw_figure(spec)


def sheet_fig() -> Figure:
    df = pd.DataFrame({"area": ["grid"] * 4 + ["track"] * 3, "x": [0, 1, 0, 1, 0, 1, 2],
                       "row": [0, 0, 1, 1, 3, 3, 3], "label": ["1", "2", "X", "4", "", "", ""],
                       "marked": [0.9, 0.5, np.nan, 0.0, 1.0, 0.6, 0.004],
                       "mean_round": [1.5, 3.0, np.nan, np.nan, 1.0, 2.5, 6.0]})
    return Figure("sheet", "A sheet", "sheet", df, "x", "marked", "area",
                  reading="Darker boxes are marked more often.")


def test_sheet_picture_shades_each_box_by_its_share(tmp_path: Path) -> None:
    """One box per row of the data, darker the more often it is marked (grey levels,
    for black and white print), a box without a share hatched, each area named; a box
    marked in under half a percent of games reads "<1%", with no mean round."""
    from matplotlib.patches import Rectangle

    from reports.sheet_picture import shade

    spec = sheet_fig()
    ax = draw_figure(spec).axes[0]
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(boxes) == len(spec.data)
    greys = [float(b.get_facecolor()[0]) for b in boxes]
    for grey, share in zip(greys, spec.data.marked):
        assert grey == pytest.approx(1.0 if np.isnan(share) else shade(share), abs=1e-6)
    assert boxes[2].get_hatch() == "xx" and not boxes[0].get_hatch()
    assert shade(1.0) < shade(0.5) < shade(0.0) == 1.0
    texts = {t.get_text() for t in ax.texts}
    assert {"grid", "track", "90%", "r1.5", "0%", "<1%"} <= texts and "r6.0" not in texts
    save_png(draw_figure(spec), tmp_path / "sheet.png")
    spec.data = spec.data.drop(columns="row")
    with pytest.raises(ValueError, match="row"):
        draw_figure(spec)


def test_sheet_picture_labels_small_boxes_too() -> None:
    """On a card the boxes are about 23 pt: each box still prints its number, sum,
    minimum or multiplier (at 7.5 pt) above its share, where the label fits across it."""
    from reports.sheet_picture import draw_sheet, label_fits

    assert label_fits(">=5", 7.5, 23.0) and label_fits("12", 7.5, 23.0)
    assert not label_fits(">=5", 7.5, 10.0) and not label_fits("", 7.5, 50.0)
    fig = MplFigure(figsize=(8.27, 11.69))
    ax = fig.add_axes((0.1, 0.5, 0.4, 23 * 5 / (11.69 * 72)))  # 4 rows: boxes of 23 pt
    draw_sheet(ax, sheet_fig(), rounds=False, min_pt=7.5)
    texts = [t for t in ax.texts]
    assert {"1", "2", "4"} <= {t.get_text() for t in texts}
    assert min(t.get_fontsize() for t in texts) >= 7.5


# --- balance report ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[Section]]:
    out = tmp_path_factory.mktemp("rep") / "nested" / "out"
    secs = sections()
    return write_report(secs, out, "Test report", ["seed: 1", "dicelab test"]), secs


def test_report_files(report: tuple[dict, list[Section]]) -> None:
    written, secs = report
    pdf = written["pdf"]
    assert pdf.read_bytes().startswith(b"%PDF")
    assert pdf_pages(pdf) == written["pages"] >= 1 + len(secs)
    names = [f.name for s in secs for f in s.figures]
    assert sorted(written["figures"]) == sorted(names)
    for path in written["figures"].values():
        assert path.is_file() and path.stat().st_size > 0
    leftovers = [p for p in written["out_dir"].parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []
    preview = written["out_dir"] / balance.FIRST_PAGE  # the first page as a picture
    assert preview.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_tables_round_trip(report: tuple[dict, list[Section]]) -> None:
    written, secs = report
    for tab in (t for s in secs for t in s.tables):
        back = pd.read_csv(written["tables"][tab.name])
        pd.testing.assert_frame_equal(back, tab.data.reset_index(drop=True), check_dtype=False)


def test_report_summary(report: tuple[dict, list[Section]]) -> None:
    written, secs = report
    text = written["summary"].read_text(encoding="utf-8")
    for fig in (f for s in secs for f in s.figures):
        assert fig.title in text
        assert f"(figures/{fig.name}.png)" in text
    assert "| a\\|b | v |" in text  # pipes escaped in the markdown table
    assert "S40" not in text and "| 9 | hold |" in text  # max_rows=10 respected


def test_report_failure_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(ValueError):
        write_report(sections([bar_fig("broken", kind="pie")]), out, "T", [])
    assert list(tmp_path.iterdir()) == []


def test_report_failure_mid_render_keeps_old_output(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("keep")

    def boom(*args: object, **kwargs: object) -> int:
        raise ValueError("pdf failed")

    monkeypatch.setattr(balance, "_write_pdfs", boom)
    with pytest.raises(ValueError, match="pdf failed"):
        write_report(sections(), out, "T", [])
    assert [p.name for p in out.iterdir()] == ["old.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_report_rejects_repeated_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="twice"):
        write_report(sections([bar_fig()]), tmp_path / "out", "T", [])
    assert not (tmp_path / "out").exists()


def pdf_text(path: Path) -> list[str]:
    """The text of every page, whitespace collapsed (pymupdf)."""
    pymupdf = pytest.importorskip("pymupdf")
    with pymupdf.open(path) as doc:
        return [" ".join(page.get_text().split()) for page in doc]


def pdf_spans(path: Path) -> list[list[dict]]:
    """Every text span of every page (pymupdf dicts: text, size, flags, bbox), with the
    page's width and height under ``page_w``/``page_h``."""
    pymupdf = pytest.importorskip("pymupdf")
    pages = []
    with pymupdf.open(path) as doc:
        for page in doc:
            spans = [dict(span, page_w=page.rect.width, page_h=page.rect.height)
                     for block in page.get_text("dict")["blocks"]
                     for line in block.get("lines", []) for span in line["spans"]
                     if span["text"].strip()]
            pages.append(spans)
    return pages


def check_layout(path: Path) -> None:
    """No text cut with "..." or running off the page, and no heading
    (bold text of 10.5 pt or more) as the last text of its page."""
    for number, spans in enumerate(pdf_spans(path), 1):
        for span in spans:
            assert "\u2026" not in span["text"], (number, span["text"])
            x0, y0, x1, y1 = span["bbox"]
            assert x0 >= 0 and y0 >= 0 and x1 <= span["page_w"] + 0.5, (number, span["text"])
            assert y1 <= span["page_h"] + 0.5, (number, span["text"])
        body = [s for s in spans if not s["text"].startswith("page ")]
        lowest = max(body, key=lambda s: s["bbox"][3], default=None)
        if lowest is not None:
            bold = lowest["flags"] & 16 and lowest["size"] >= 10.4
            assert not bold, (number, lowest["text"])


def check_report(written: dict, secs: list[Section]) -> None:
    """Key findings on page 2, each with its number, interval and the page (of the report
    or of its appendix) of its figure or table; every figure with a caption and a reading,
    in the report or in the appendix; nothing cut off or stranded in either."""
    pages = pdf_text(written["pdf"])
    appendix = pdf_text(written["appendix"])
    assert "Key findings" in pages[1]
    items = {i.name: i for s in secs for i in [*s.tables, *s.figures]}  # a figure's name wins
    for sec in secs:
        for fig in sec.figures:
            assert fig.title.strip() and fig.reading.strip(), fig.name
            shown = " ".join(appendix if fig.appendix else pages[2:])
            assert " ".join(fig.title.split()[:4]) in shown, fig.name
        for finding in sec.findings:
            assert finding.source in items, finding.source
            assert finding.number() in pages[1] and finding.interval() in pages[1]
            title = " ".join(items[finding.source].title.split())
            shown = re.search(r"on page (\d+)( of appendix\.pdf)?: " + re.escape(title[:25]),
                              pages[1])
            assert shown, title
            doc = appendix if shown.group(2) else pages
            assert " ".join(title.split()[:4]) in doc[int(shown.group(1)) - 1]
    check_layout(written["pdf"])
    check_layout(written["appendix"])


def test_findings_page(report: tuple[dict, list[Section]]) -> None:
    written, secs = report
    check_report(written, secs)
    assert "Key findings" in pdf_text(written["pdf"])[0]  # listed in the contents
    summary = written["summary"].read_text(encoding="utf-8")
    assert "## Key findings" in summary and "(60.0%, 95% CI 55.0% to 63.0%;" in summary


def test_finding_without_its_figure_raises(tmp_path: Path) -> None:
    secs = sections()
    secs[1].findings.append(Finding("Nowhere.", 1.0, "no_such_figure"))
    with pytest.raises(ValueError, match="no_such_figure"):
        write_report(secs, tmp_path / "out", "T", [])
    assert not (tmp_path / "out").exists()


def test_finding_numbers() -> None:
    assert Finding("x", 0.3693, "f", (0.36, 0.38), "%").number() == "36.9%"
    assert Finding("x", 0.0213, "f", (0.01, 0.03), "pp").interval() == \
        "95% CI +1.0 pp to +3.0 pp"
    exact = Finding("x", 12.45558, "f", unit="points", digits=2)
    assert (exact.number(), exact.interval()) == ("12.46 points", "exact")


def test_reader_table_words_and_percentages() -> None:
    df = pd.DataFrame({"policy": ["a"], "win_rate": [0.3693], "ci95_low": [0.35],
                       "ci95_high": [0.38], "mean_score": [7.234e-05], "games": [20000],
                       "p_at_least_12": [0.5], "false_given_claim": [0.25]})
    headers, rows, right = reader_table(df, ("false_given_claim",))
    assert headers[:3] == ["Policy", "Win rate", "95% CI"]  # an interval's ends in one cell
    assert headers[5] == "Chance of at least 12"
    assert rows[0] == ["a", "36.9%", "35.0% to 38.0%", "<0.001", "20,000", "50.0%", "25.0%"]
    assert right == [False] + [True] * 6
    _, rows, _ = reader_table(pd.DataFrame({"points": [1.46, 0.884, np.nan],
                                            "share": [0.5, 0.00004, 0.25]}))
    assert rows == [["1.46", "50.00%"], ["0.88", "<0.01%"], ["", "25.00%"]]


def test_wide_tables_turn_on_their_side_or_wrap_and_hide_what_the_csv_keeps() -> None:
    """A wide table of few rows is transposed, long headings wrap onto
    more lines of the same column, and ``hidden`` columns stay out of print only."""
    from reports.balance import _laid_out
    from reports.pdfflow import PageFlow

    wide = pd.DataFrame({"policy": ["random", "greedy"],
                         **{f"a_long_measure_name_{k}": [1.25, 2.5] for k in range(12)}})
    headers, rows, _, widths, size = _laid_out(Table("w", "W", wide), PageFlow.width_pt)
    assert headers == ["Policy", "random", "greedy"] and len(rows) == 12 and size == 7.5
    tall = pd.concat([wide] * 8, ignore_index=True)
    headers, rows, _, widths, _ = _laid_out(Table("t", "T", tall, hidden=("a_long_measure_"
                                                                           "name_0",)),
                                            PageFlow.width_pt)
    assert len(rows) == 16 and len(headers) == 12 and max(widths) <= 16


def test_csvs_carry_provenance(tmp_path: Path) -> None:
    secs = sections()
    secs[0].provenance = {"seed": 7, "rules": "sides=6; target=100"}
    written = write_report(secs, tmp_path / "out", "T", [])
    back = pd.read_csv(written["tables"]["policy"])
    assert list(back.columns) == ["banked", "decision", "p", "seed", "rules"]
    assert back.seed.eq(7).all() and back.p.iloc[1] == secs[0].tables[0].data.p.iloc[1]
    assert list(pd.read_csv(written["tables"]["odds"]).columns) == ["a|b", "v"]


def test_seat_figure_is_a_difference_from_a_fair_share() -> None:
    seats = fair_share(pd.DataFrame({"players": ["2", "2", "3", "3", "3"],
                                     "seat": ["seat 1", "seat 2", "seat 1", "seat 2", "seat 3"],
                                     "win_rate": [0.55, 0.45, 0.4, 0.3, 0.3]}).assign(
        ci95_low=lambda d: d.win_rate - 0.02, ci95_high=lambda d: d.win_rate + 0.02))
    assert seats.vs_fair_share.round(6).tolist() == [0.05, -0.05, 0.066667, -0.033333,
                                                     -0.033333]
    ax = draw_figure(seat_figure("seats", "Seats", seats, "Seat 1 wins more.")).axes[0]
    zero = [line for line in ax.lines if list(line.get_ydata()) == [0, 0]]
    assert zero and not [c for c in ax.containers if not isinstance(c, ErrorbarContainer)]
    assert len([c for c in ax.containers if isinstance(c, ErrorbarContainer)]) == 3


def test_policy_words_follow_policy_help() -> None:
    from analyzer.games.clever import card as clever_card
    from analyzer.games.clever import report as clever
    from analyzer.games.clever.game import POLICY_HELP as CLEVER_HELP
    from analyzer.games.cloverup import POLICY_HELP as CLOVER_HELP
    from analyzer.games.cloverup import report as cloverup
    from analyzer.games.sly_dice import POLICY_HELP as SLY_HELP
    from analyzer.games.sly_dice import report as sly

    for words, helps in ((cloverup.WORDS, CLOVER_HELP), (sly.WORDS, SLY_HELP),
                         ({**clever.WORDS, **clever_card.WORDS}, CLEVER_HELP)):
        kinds = {key.split(":")[0] for key in helps}
        assert {key.split(":")[0] for key in words} == kinds
    assert policy_words("reach:15", cloverup.WORDS) == "aims for 15+"
    assert "when it pays" in policy_words("sly:10:rational", sly.WORDS)
    assert policy_words("accuser:0.3", sly.WORDS).endswith("0.3")


def test_game_section_report(tmp_path: Path) -> None:
    """A real section (CloverUp, quick; 3 rounds, whose exact games solve fast): findings
    from its own numbers, page 2 lists them."""
    from analyzer.games import cloverup
    from analyzer.params import defaults

    sec = cloverup.report_section({**defaults(cloverup.PARAMS), "rounds": 3}, seed=1,
                                  quick=True, progress=False)
    assert 2 <= len(sec.findings) <= 4
    assert any(f.ci95 is None for f in sec.findings) and any(f.ci95 for f in sec.findings)
    written = write_report([sec], tmp_path / "out", "T", ["seed 1"])
    check_report(written, [sec])
    seats = pd.read_csv(written["tables"]["cloverup_seat_win_rates"])
    assert {"vs_fair_share", "seed", "rules"} <= set(seats.columns) and seats.seed.eq(1).all()


# --- cheat sheet ---------------------------------------------------------------------------
def sheet(rows: int) -> CheatSheet:
    policy = pd.DataFrame({"bank": [str(i) for i in range(rows)],
                           "turn": [str(i % 37) for i in range(rows)],
                           "do": ["ROLL", "hold"] * (rows // 2) + ["ROLL"] * (rows % 2)})
    return CheatSheet("Strategy card", "Two players, target 100", [
        Block("How to use", ["Find your row; ROLL means roll again. " * 3, "Hold otherwise."]),
        Block("Scoring", table=pd.DataFrame({"die": ["1", "2-6"], "points": ["bust", "face"]})),
        Block("Policy", ["Sorted by bank."], policy),
        Block("Notes", ["Exact dynamic programming."]),
    ], footer="dicelab test footer")


@pytest.mark.parametrize("rows", [10, 90, 250])
def test_cheatsheet_single_page(rows: int, tmp_path: Path) -> None:
    path = tmp_path / "sub" / "card.pdf"
    render_cheatsheet(sheet(rows), path)
    assert path.read_bytes().startswith(b"%PDF")
    assert pdf_pages(path) == 1
    check_card(path)
    assert not internal_names(" ".join(pdf_text(path)))
    assert [p.name for p in path.parent.iterdir()] == ["card.pdf"]


def test_cheatsheet_as_a_picture(tmp_path: Path) -> None:
    """A card path ending in .png: the page as a PNG picture, A4-shaped."""
    import matplotlib.image as mpimg

    path = tmp_path / "card.png"
    render_cheatsheet(sheet(12), path)
    height, width = mpimg.imread(path).shape[:2]
    assert abs(height / width - 297 / 210) < 0.01


def test_cheatsheet_with_a_sheet_picture_is_one_page(tmp_path: Path) -> None:
    card = sheet(90)
    card.figure = sheet_fig()
    path = tmp_path / "card.pdf"
    render_cheatsheet(card, path)
    assert pdf_pages(path) == 1
    assert "Darker boxes are marked more often." in " ".join(pdf_text(path))
    check_card(path)


def test_cheatsheet_too_big_raises_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "card.pdf"
    with pytest.raises(ValueError, match="one A4 page"):
        render_cheatsheet(sheet(3000), path)
    assert list(tmp_path.iterdir()) == []


# --- helpers -------------------------------------------------------------------------------
def test_wrap_fits_width() -> None:
    text = "A long sentence with words of varied length, repeated. " * 20 + "x" * 200
    lines = wrap(text, 200.0, 9.0)
    assert len(lines) > 5
    assert all(text_width_pt(line, 9.0) <= 200.0 for line in lines)


def test_markdown_table_alignment_and_rows() -> None:
    md = markdown_table(pd.DataFrame({"name": ["a", "b", "c"], "x": [1.0, 2.5, np.nan]}), 2)
    assert md.splitlines() == ["| name | x |", "|---|---:|", "| a | 1 |", "| b | 2.5 |"]


@pytest.mark.slow  # compiles every game's kernels and plays Sly Dice's fictitious play:
# 7 to 8 minutes from an empty cache; test_cli's report test covers one game by default
def test_dicelab_report_quick_end_to_end(tmp_path):
    """The main job: every registered game's section, figures and tables; the report at
    most 16 pages, nothing in it or its appendix cut off or stranded, every
    finding on page 2 with the page of its figure or table."""
    from click.testing import CliRunner

    from analyzer.cli import cli
    from analyzer.registry import GAMES

    out = tmp_path / "report"
    result = CliRunner().invoke(cli, ["report", "--quick", "--quiet", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")
    summary = (out / "summary.md").read_text()
    for spec in GAMES.values():
        assert f"## {spec.title}" in summary
    assert len(list((out / "figures").glob("*.png"))) >= 3 * len(GAMES)
    findings = pdf_text(out / "report.pdf")[1]
    assert "Key findings" in findings
    for spec in GAMES.values():
        assert spec.title in findings
    assert pdf_pages(out / "report.pdf") <= 16
    check_layout(out / "report.pdf")
    check_layout(out / "appendix.pdf")
    assert not internal_names(" ".join(pdf_text(out / "report.pdf")))


INTERNAL = re.compile(r"\b[a-z]+:[0-9.]+(?::[a-z0-9.]+)?\b|\b[a-z0-9]+_[a-z0-9_]+\b")


def internal_names(text: str) -> list[str]:
    """Code spellings a person should not have to read: policy names with arguments
    (``reach:15``) and parameter or file names (``round_4_bonus``, ``value_net``)."""
    return INTERNAL.findall(text)


def test_internal_names_are_found():
    assert internal_names("reach:15 and sly:10:rational, round_4_bonus") == [
        "reach:15", "sly:10:rational", "round_4_bonus"]
    assert internal_names("a +1 in round 2: 48.8% (95% CI 1.2 to 3.4)") == []


@pytest.mark.parametrize("game", ["cloverup", "sly-dice",
                                  pytest.param("thats-pretty-clever", marks=pytest.mark.slow),
                                  pytest.param("twice-as-clever", marks=pytest.mark.slow)])
def test_every_game_cheatsheet_fills_one_page(game: str, tmp_path: Path) -> None:
    """Each game's real strategy card, on its default rules, fits one A4
    page with no text under 7.5 pt, none cut or off the page (the renderer shrinks the
    type down to 7.5 pt and refuses what still overflows), and no code spellings."""
    from analyzer.params import defaults
    from analyzer.registry import get_game

    module = get_game(game).load()
    path = tmp_path / "card.pdf"
    render_cheatsheet(module.cheatsheet(defaults(module.PARAMS)), path)
    assert pdf_pages(path) == 1
    check_card(path)


def check_card(path: Path) -> None:
    """No text on the card under 7.5 pt, none cut with "..." or off the page."""
    spans = pdf_spans(path)[0]
    assert spans and min(s["size"] for s in spans) >= 7.5 - 0.01
    for span in spans:
        x0, y0, x1, y1 = span["bbox"]
        assert "\u2026" not in span["text"], span["text"]
        assert x0 >= 0 and y0 >= 0 and x1 <= span["page_w"] and y1 <= span["page_h"]


def test_no_text_is_cut_and_no_table_title_ends_a_page(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """No "..." cut in any title, contents entry or reference, and a table's
    title (with its note) always stands on the page of its first rows. Tables of long
    titles and notes of every length are laid out until some fall near a page's foot."""
    from reports.pdfflow import PageFlow

    pages: list[MplFigure] = []
    save = PageFlow.save
    monkeypatch.setattr(PageFlow, "save", lambda self, path, metadata=None: (
        pages.extend(self.pages), save(self, path, metadata))[1])
    long_title = "A table whose title runs on well past the width of one line of the page, " * 2
    data = pd.DataFrame({"x": range(8), "y": np.linspace(0, 1, 8)})
    tables = [Table(f"t{k}", f"{long_title}number {k}", data,
                    note="A note that takes some room. " * (k % 7)) for k in range(40)]
    findings = [Finding("The tables are long.", 1.0, f"t{k}") for k in range(0, 40, 9)]
    write_report([Section("long", "Long tables", "Intro.", tables=tables,
                          findings=findings)], tmp_path / "out", "Cut test", ["seed: 1"])
    texts = [t for fig in pages for t in fig.texts]
    assert texts and not any("\u2026" in t.get_text() for t in texts)
    for fig in pages:
        mono_ys = [t.get_position()[1] for t in fig.texts if "mono" in t.get_family()[0].lower()]
        for t in fig.texts:
            if t.get_text().startswith("Table: ") and t.get_fontsize() == 10.5:  # a title
                assert any(y < t.get_position()[1] for y in mono_ys), t.get_text()


def test_a_seat_effect_is_claimed_only_where_an_interval_leaves_out_a_fair_share() -> None:
    """No "largest seat effect" of -0.1 pp; a seat effect is named only where a
    seat's interval leaves out its fair share by a margin worth acting on, and the finding
    names who played."""
    from analyzer.sections import fair_share, seat_finding

    def seats(rates, half):
        return fair_share(pd.DataFrame({"players": ["2", "2"], "seat": ["seat 1", "seat 2"],
                                        "win_rate": rates,
                                        "ci95_low": [r - half for r in rates],
                                        "ci95_high": [r + half for r in rates]}))

    none = seat_finding(seats([0.499, 0.501], 0.01), "t", "optimal players")
    assert none.text.startswith("No seat effect to act on") and "optimal players" in none.text
    some = seat_finding(seats([0.54, 0.46], 0.01), "t", "optimal players")
    assert some.text.startswith("Seat effect: with 2 optimal players, seat 1 wins 54.0%")


def test_a_long_chart_title_wraps_within_the_page(tmp_path: Path) -> None:
    """No figure title runs off the page. A chart of a long title, placed on a
    report page, keeps every title line inside the page's text width."""
    from reports.pdfflow import PageFlow

    flow = PageFlow()
    flow.new_page()
    spec = line_fig()
    spec.title = "A chart whose title goes on and on about what it shows, " * 3
    balance._figure(flow, spec)
    fig = flow.pages[-1]
    renderer = fig.canvas.get_renderer()
    title = fig.axes[0].title
    box = title.get_window_extent(renderer).transformed(fig.transFigure.inverted())
    assert "\n" in title.get_text()
    assert flow.left / flow.page_w - 1e-3 <= box.x0 and box.x1 <= 1 - flow.left / flow.page_w + 1e-3


def test_readme_images_without_a_report_is_one_line(tmp_path: Path) -> None:
    """scripts/readme_images.py pointed at a folder with no report: one line naming the
    missing picture and the command that writes it, status 2, nothing written."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[1] / "scripts" / "readme_images.py"
    images = script.parents[1] / "docs" / "images"
    before = {p: p.stat().st_mtime_ns for p in images.iterdir()}
    out = subprocess.run([sys.executable, str(script), str(tmp_path / "none")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "report-page-1.png does not exist: run `dicelab report" in out.stderr
    assert {p: p.stat().st_mtime_ns for p in images.iterdir()} == before


def test_crossing_comeback_curves_are_explained_by_their_intervals() -> None:
    """Where a curve with fewer rounds left lies above one with more,
    the reading says whether the intervals separate them."""
    from analyzer.sections import crossing_words

    def curves(late_low: float) -> pd.DataFrame:
        rows = [("2 rounds left", 11, "11-20 behind", 0.20, 0.15, 0.25),
                ("1 round left", 11, "11-20 behind", 0.30, late_low, 0.35),
                ("1 round left", 1, "1-10 behind", 0.10, 0.05, 0.15),
                ("2 rounds left", 1, "1-10 behind", 0.40, 0.35, 0.45)]
        return pd.DataFrame(rows, columns=["rounds_left", "behind_from", "behind_by",
                                           "win_chance", "ci95_low", "ci95_high"])

    assert "overlap" in crossing_words(curves(0.22))
    apart = crossing_words(curves(0.27))
    assert "11-20 behind with 1 round left wins 30.0%" in apart and "beyond" in apart
    assert crossing_words(curves(0.22).iloc[2:]) == ""

"""Results as one object, written as a text table, CSV, JSON or Markdown.

A ``Result`` has a title, headline figures (top-level keys of the JSON document), named
tables (DataFrames), the run metadata (rule parameters, seed, sample size) and notes (for
example, which rule parameters are assumed). Files are written atomically: a failed run
leaves no partial file behind. The text and Markdown formats show at most ``MAX_NOTES``
note lines (the assumed rule parameters named in one), unless every note is asked for
(``every_note``, the commands' ``--verbose``); CSV and JSON carry every note.
"""

from __future__ import annotations

import contextvars
import json
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from analyzer.run import kept
from analyzer.files import write_output, write_stdout
from analyzer.params import ASSUMED_MARK

FORMATS = ("table", "csv", "json", "markdown")
TEXT_ROWS = 60  # longer tables are cut in the plain-text format
MAX_NOTES = 3  # note lines the text and Markdown formats show unless every note is asked for
_EVERY_NOTE: contextvars.ContextVar[bool] = contextvars.ContextVar("every_note",
                                                                   default=False)


@dataclass
class Result:
    title: str
    headline: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, Any] = field(default_factory=dict)  # name -> pandas.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run_meta(game_id: str, params: Any, values: dict[str, Any], seed: int | None = None,
             **extra: Any) -> dict[str, Any]:
    """Metadata written with every result: game, versions, seed, run details, rule values."""
    import numba
    import numpy

    from analyzer import __version__

    meta: dict[str, Any] = {"game": game_id, "dicelab": __version__,
                            "numba": numba.__version__, "numpy": numpy.__version__}
    if seed is not None:
        meta["seed"] = seed
    meta.update(extra)
    from analyzer.run.execution import current

    execution = current()
    if execution.cluster is not None:
        meta.pop("threads", None)  # the client's threads did no work
    meta.update(execution.meta())
    meta["rules"] = {p.name: values[p.name] for p in params}
    return meta


def _clean(value: Any) -> Any:
    """JSON-safe copies of numpy scalars, tuples and NaN."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _fmt_scalar(value: Any, digits: int = 6) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_fmt_scalar(v, digits) for v in value) + "]"
    return str(value)


def _flat(meta: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``(key, value)`` pairs with nested keys joined by dots (``rules.players``)."""
    out = []
    for k, v in meta.items():
        if isinstance(v, dict):
            out += _flat(v, f"{prefix}{k}.")
        else:
            out.append((f"{prefix}{k}", v))
    return out


def _markdown_table(df: Any) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_fmt_scalar(v) for v in row) + " |")
    return "\n".join(lines)


@contextmanager
def every_note(on: bool = True):
    """Within it, the text and Markdown formats show every note (``--verbose``)."""
    token = _EVERY_NOTE.set(on)
    try:
        yield
    finally:
        _EVERY_NOTE.reset(token)


def shown_notes(notes: list[str], every: bool) -> list[str]:
    """The note lines a text or Markdown result shows: with ``every``, all of them; else
    the notes that are not about assumed rule parameters (a note on an untrained network
    first, then those naming the network that played), at most ``MAX_NOTES`` lines in all
    with the rest counted in one line, and last, never counted away, the assumed rule
    parameters in force in one line."""
    if every:
        return list(notes)
    assumed = [n.split(ASSUMED_MARK)[0].replace(" = ", "=") for n in notes if ASSUMED_MARK in n]
    others = sorted((n for n in notes if ASSUMED_MARK not in n),
                    key=lambda n: ("not trained on" not in n, "learned plays" not in n))
    if len(others) > MAX_NOTES:
        hidden = len(others) - MAX_NOTES + 1
        others = others[:MAX_NOTES - 1] + [f"{hidden} more notes: --verbose shows every note"]
    if assumed:
        others.append(f"assumed rule parameters in force (marked ASSUMED by `dicelab rules "
                      f"GAME`; --verbose says why each is assumed): {', '.join(assumed)}")
    return others


def render(result: Result, fmt: str, every: bool | None = None) -> str:
    """The whole result as text in one of ``FORMATS`` (the notes shown: ``shown_notes``;
    ``every`` None: as ``every_note`` says)."""
    every = _EVERY_NOTE.get() if every is None else every
    notes = shown_notes(result.notes, every)
    if fmt == "json":
        doc = {"title": result.title, **result.headline, "meta": result.meta,
               "notes": result.notes,
               "tables": {name: df.to_dict(orient="records")
                          for name, df in result.tables.items()}}
        return json.dumps(_clean(doc), indent=2) + "\n"
    if fmt == "csv":
        parts = []
        for name, df in result.tables.items():
            parts.append(f"# {name}\n" + df.to_csv(index=False))
        if result.meta:
            import pandas as pd

            rows = [{"key": k, "value": _fmt_scalar(v, 12)} for k, v in _flat(result.meta)]
            parts.append("# meta\n" + pd.DataFrame(rows).to_csv(index=False))
        return "\n".join(parts)
    flat = {k: v for k, v in result.headline.items() if not isinstance(v, dict)}
    meta = ", ".join(f"{k}={_fmt_scalar(v)}" for k, v in result.meta.items()
                     if not isinstance(v, dict))
    if fmt == "markdown":
        out = [f"# {result.title}", ""]
        out += [f"- **{k}**: {_fmt_scalar(v, 10)}" for k, v in flat.items()]
        out += ["", f"_{meta}_", ""] if meta else [""]
        for name, df in result.tables.items():
            out += [f"## {name}", "", _markdown_table(df), ""]
        out += [f"> {note}" for note in notes]
        return "\n".join(out) + "\n"
    out = [result.title, "=" * len(result.title)]
    out += [f"{k}: {_fmt_scalar(v, 10)}" for k, v in flat.items()]
    if meta:
        out.append(f"({meta})")
    for name, df in result.tables.items():
        shown = readable_rates(df if len(df) <= TEXT_ROWS else df.head(TEXT_ROWS))
        out += ["", f"{name}:", shown.to_string(index=False, float_format=lambda x: f"{x:.6g}")]
        if len(df) > TEXT_ROWS:
            out.append(f"... {len(df) - TEXT_ROWS} more rows (all of them with --format csv)")
    if notes:
        out += [""] + [f"note: {n}" for n in notes]
    return "\n".join(out) + "\n"


RATE_COLUMNS = ("win_ci95_low", "win_ci95_high", "tie_ci95_low", "tie_ci95_high")  # besides
# every column named *rate
PAIRED_COLUMNS = ("value", "ci95_low", "ci95_high")  # a what-if row's figure of a *rate
PAIRED_DIFFS = ("diff", "diff_ci95_low", "diff_ci95_high")  # ... and its differences


def readable_rates(df: Any) -> Any:
    """``df`` for the text format, its rates as percentages with one decimal (the columns
    named ``*rate`` and ``RATE_COLUMNS``; in a table with a ``metric`` column, the figures
    of the rows whose metric is a rate (``*rate``, ``win_rate_seat_N``), and their
    differences in percentage points)."""
    rate_cols = [c for c in df.columns if str(c).endswith("rate") or c in RATE_COLUMNS]
    rate_rows = df["metric"].astype(str).str.contains(r"rate(?:$|_seat_)") \
        if "metric" in df.columns else None
    if not rate_cols and (rate_rows is None or not rate_rows.any()):
        return df
    out = df.astype(object).copy()
    for c in rate_cols:
        out[c] = [_percent(x) for x in df[c]]
    if rate_rows is not None:
        for c in (c for c in PAIRED_COLUMNS + PAIRED_DIFFS if c in df.columns):
            points = c in PAIRED_DIFFS
            out.loc[rate_rows, c] = [_percent(x, points) for x in df.loc[rate_rows, c]]
    return out


def _percent(x: Any, points: bool = False) -> Any:
    """A rate as a percentage with one decimal (a difference in percentage points)."""
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x):
        return x
    return f"{100 * x:+.1f} pp" if points else f"{100 * x:.1f}%"


SUFFIX_FORMATS = {".csv": "csv", ".json": "json", ".md": "markdown", ".markdown": "markdown"}


def _format(fmt: str | None, output: str | None) -> str:
    """The format asked for; without one, a file's suffix (.csv, .json, .md) chooses it,
    else the text table."""
    if fmt is None:
        suffix = Path(output).suffix.lower() if output else ""
        return SUFFIX_FORMATS.get(suffix, "table")
    return fmt


def _write(text: str, output: str | None) -> None:
    if output:
        write_output(output, text)
    else:
        write_stdout(text)


def emit(result: Result, fmt: str | None, output: str | None) -> None:
    """Print the result or write it to ``output`` (see ``_format``)."""
    _write(render(result, _format(fmt, output)), output)


KEPT_TEXTS = FORMATS + ("table+notes", "markdown+notes")  # with every note


def _is_texts(value: Any) -> bool:
    """A kept answer of ``emit_kept``: the text in every format, and those that cut notes
    with every note too."""
    return isinstance(value, dict) and all(isinstance(value.get(f), str) for f in KEPT_TEXTS)


def emit_kept(kind: str, key: Any, compute: Callable[[], Result], fmt: str | None,
              output: str | None) -> None:
    """``emit`` for an exact answer: the first run with these inputs (``key``) computes it
    and keeps it in every format (``analyzer.run.kept``); later runs print the kept text
    without loading the compiled kernels."""
    path = kept.path_for(kind, key)
    texts = kept.read(path, _is_texts)
    if texts is None:
        result = compute()
        texts = {f: render(result, f, every=False) for f in FORMATS}
        texts |= {f"{f}+notes": render(result, f, every=True) for f in ("table", "markdown")}
        kept.write(path, texts)
    fmt = _format(fmt, output)
    every = _EVERY_NOTE.get() and fmt in ("table", "markdown")
    _write(texts[f"{fmt}+notes" if every else fmt], output)

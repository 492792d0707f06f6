"""Rendering of :mod:`analyzer.sections` objects into printable files.

* :mod:`reports.style` -- matplotlib setup (Agg backend, A4 geometry, a
  black-and-white-friendly style and per-series line styles, markers and hatches).
* :mod:`reports.figures` -- one :class:`analyzer.sections.Figure` drawn as a chart.
* :mod:`reports.chart_fit` -- a drawn chart's category names, end labels and legend
  fitted to its axes' final size (no collisions, no legend on the data).
* :mod:`reports.balance` -- the balance report folder (PDF, PNG, CSV, Markdown).
* :mod:`reports.cheatsheet` -- a one-page A4 strategy card (PDF).
"""

"""Rendering of :mod:`analyzer.sections` objects into printable files.

* :mod:`reports.style` -- matplotlib setup (Agg backend, A4 geometry, a
  black-and-white-friendly style and per-series line styles, markers and hatches).
* :mod:`reports.figures` -- one :class:`analyzer.sections.Figure` drawn as a chart.
* :mod:`reports.balance` -- the balance report folder (PDF, PNG, CSV, Markdown).
* :mod:`reports.cheatsheet` -- a one-page A4 strategy card (PDF).
"""

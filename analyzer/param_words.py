"""Rule parameters in plain words, for the people who read reports, cards and charts: a
one-rule change as a label, several as one, a glossary's rows, and the check that every
parameter declares its words (``Param.plain``: see ``analyzer.params.Words``). A parameter
without words has no fallback: ``Param.words`` raises, and ``unworded`` names it.
"""

from __future__ import annotations

from typing import Any, Iterable

from analyzer.params import Param


def change_words(param: Param, value: Any, before: Any = None) -> str:
    """A one-rule change as a chart label or part of a sentence: the rule at its new value,
    e.g. "3 re-rolls a turn", "no round-2 bonus"; with a number's old value ``before``,
    "3 re-rolls a turn (from 2)"."""
    text = param.words(value)
    if before is None or param.kind not in ("int", "float"):
        return text
    special = dict(param.plain.fixed)
    old = special[before] if before in special else param.show(before)
    return f"{text} (from {old})"


def variant_words(params: Iterable[Param], changes: dict[str, Any]) -> str:
    """Several rule changes (``{name: value}``) in words, joined by commas; "the rules in
    force" for none."""
    known = {p.name: p for p in params}
    return ", ".join(change_words(known[name], value) for name, value in changes.items()) \
        or "the rules in force"


def glossary(params: Iterable[Param]) -> list[dict[str, str]]:
    """One row per parameter for a report's glossary: its plain words (``rule``), its name
    as typed on the command line (``parameter``) and its meaning."""
    return [{"rule": p.label, "parameter": p.name, "meaning": p.help} for p in params]


def sample_values(param: Param) -> list[Any]:
    """The values of ``param`` a person may read about: true and false, every choice; a
    number's default, bounds, the default's neighbours, its special values and search
    range; weights' default and even weights."""
    if param.kind == "bool":
        return [True, False]
    if param.kind == "choice":
        return list(param.choices)
    if param.kind == "weights":
        return [param.default, (1.0,) * param.size]
    ends = [v for v in (param.low, param.high) if v is not None]
    near = [param.default - 1, param.default + 1]
    special = [key for key, _ in param.plain.fixed] if param.plain else []
    values = [param.default, *ends, *near, *special, *(param.search or ())]
    cast = int if param.kind == "int" else float
    return list(dict.fromkeys(cast(v) for v in values if _in_range(param, v)))


def _in_range(param: Param, value: float) -> bool:
    return (param.low is None or value >= param.low) and (param.high is None
                                                          or value <= param.high)


def unworded(params: Iterable[Param]) -> list[str]:
    """What a person could not read: each parameter without words, and each of its sample
    values without a clean phrase (empty, with an underscore, or the bare name)."""
    problems = []
    for param in params:
        if param.plain is None:
            problems.append(f"{param.name}: no plain words")
            continue
        if not _clean(param, param.plain.label):
            problems.append(f"{param.name}: label {param.plain.label!r}")
        for value in sample_values(param):
            try:
                text = param.words(value)
            except ValueError as error:
                problems.append(str(error))
                continue
            if not _clean(param, text):
                problems.append(f"{param.name} = {param.show(value)}: {text!r}")
    return problems


def _clean(param: Param, text: str) -> bool:
    return bool(text.strip()) and "_" not in text and "{" not in text \
        and text.strip() != param.name

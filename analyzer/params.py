"""Rule parameters: declared per game with validated defaults, overridden by a TOML file
(``--rules FILE.toml``) and then by ``--set key=value``.

A parameter marked ``assumed`` is a default that the rules page chose where the source text
is silent or vague; every output that depends on one says so. Each parameter also declares
its plain words (``Words``), which reports and cards print instead of its name.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from analyzer.errors import UserError
from analyzer.files import read_document


MAX_WEIGHT = 1e6  # a weight past it says nothing a smaller one could not (they are relative)


@dataclass(frozen=True)
class Words:
    """How a person reads one rule parameter.

    ``label`` names the rule. A value reads as its own phrase in ``fixed`` (true and false,
    each choice, a sentinel such as 0 = by player count), otherwise as ``template`` with
    the value in place of ``{}`` (``{s}``: "s" unless the value is 1); ``even`` is the
    phrase of weights that are all equal.
    """

    label: str
    template: str = ""
    fixed: tuple[tuple[Any, str], ...] = ()
    even: str = ""

    @classmethod
    def number(cls, label: str, template: str, special: dict[float, str] | None = None
               ) -> Words:
        """A number's words: ``template`` such as "{} re-roll{s} a turn", and ``special``
        phrases for sentinel values, e.g. ``{0: "rounds by player count"}``."""
        return cls(label, template, tuple((special or {}).items()))

    @classmethod
    def switch(cls, label: str, on: str, off: str) -> Words:
        """A yes/no rule's words: its phrase when true, and when false."""
        return cls(label, fixed=((True, on), (False, off)))

    @classmethod
    def choice(cls, label: str, **phrases: str) -> Words:
        """A choice's words: one phrase per choice, keyed by the choice."""
        return cls(label, fixed=tuple(phrases.items()))

    @classmethod
    def weights(cls, label: str, template: str, even: str) -> Words:
        """Weights' words: ``template`` with the weights for ``{}``, ``even`` when equal."""
        return cls(label, template, even=even)

    def phrase(self, value: Any, shown: str) -> str | None:
        """The phrase of ``value`` (``shown``: as typed), or None where none is declared."""
        for key, text in self.fixed:
            if key == value and isinstance(key, bool) == isinstance(value, bool):
                return text
        if self.even and isinstance(value, (tuple, list)) and len(set(value)) == 1:
            return self.even
        if not self.template or isinstance(value, (bool, str)):
            return None
        return self.template.format(shown, s="" if value == 1 else "s")


@dataclass(frozen=True)
class Param:
    """One rule parameter.

    ``kind`` is ``int``, ``float``, ``bool``, ``choice`` (one of ``choices``) or
    ``weights`` (``size`` non-negative numbers with a positive sum, each at most ``high``,
    default ``MAX_WEIGHT``). ``low``/``high`` bound numbers inclusively; ``search``, where
    set, is the documented range a search (``tune``) tries, ``(low, high)``. ``plain``
    is how a person reads it (``Words``): ``label`` and ``words(value)``; the helpers that
    use them are in ``analyzer.param_words``.
    """

    name: str
    kind: str
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    size: int = 0
    assumed: bool = False
    choices: tuple[str, ...] = ()
    search: tuple[int, int] | None = None
    plain: Words | None = None

    @property
    def label(self) -> str:
        """A few plain words naming the rule, e.g. "re-rolls a turn"."""
        return self._plain().label

    def words(self, value: Any) -> str:
        """The rule at ``value`` in plain words, e.g. "1 re-roll a turn", "fair dice"."""
        text = self._plain().phrase(value, self.show(value))
        if text is None:
            raise ValueError(f"rule parameter {self.name} has no words for the value "
                             f"{self.show(value)}")
        return text

    def _plain(self) -> Words:
        if self.plain is None:
            raise ValueError(f"rule parameter {self.name} has no plain words (Param.plain)")
        return self.plain

    def accepted(self) -> str:
        """What values are accepted, for error messages and ``dicelab rules``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "weights":
            return (f"{self.size} comma-separated non-negative numbers with a positive sum, "
                    f"each at most {self.most_weight():g}")
        lo = "" if self.low is None else f">= {self.low:g}"
        hi = "" if self.high is None else f"<= {self.high:g}"
        bounds = " and ".join(b for b in (lo, hi) if b)
        noun = "a whole number" if self.kind == "int" else "a number"
        return f"{noun} {bounds}".strip()

    def most_weight(self) -> float:
        """The largest weight accepted (``weights``)."""
        return MAX_WEIGHT if self.high is None else self.high

    def _fail(self, value: Any) -> UserError:
        return UserError(f"bad value {shown_value(value)} for {self.name}: expected "
                         f"{self.accepted()}")

    def parse(self, text: str) -> Any:
        """Validate a value given as text (``--set`` and CLI options)."""
        text = text.strip()
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in ("true", "yes", "on", "1"):
                return True
            if lowered in ("false", "no", "off", "0"):
                return False
            raise self._fail(text)
        if self.kind == "choice":
            return self.validate(text)
        if self.kind == "weights":
            try:
                values = [float(part) for part in text.split(",")]
            except ValueError:
                raise self._fail(text) from None
            return self.validate(values)
        try:
            number = int(text) if self.kind == "int" else float(text)
        except ValueError:
            raise self._fail(text) from None
        return self.validate(number)

    def validate(self, value: Any) -> Any:
        """Validate a typed value (TOML files, Python callers); returns the clean value."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._fail(value)
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise self._fail(value)
            return value
        if self.kind == "weights":
            if isinstance(value, str):
                return self.parse(value)
            try:
                values = tuple(float(v) for v in value)
            except (TypeError, ValueError):
                raise self._fail(value) from None
            if (
                len(values) != self.size
                or any(not math.isfinite(v) or not 0 <= v <= self.most_weight() for v in values)
                or not 0 < sum(values) < math.inf
            ):
                raise self._fail(",".join(f"{v:g}" for v in values))
            return values
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self._fail(value)
        if self.kind == "int":
            if value != int(value):
                raise self._fail(value)
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise self._fail(value)
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise self._fail(value)
        return value

    def show(self, value: Any) -> str:
        """A value as the user would type it."""
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "choice":
            return str(value)
        if self.kind == "weights":
            return ",".join(f"{v:g}" for v in value)
        return f"{value:g}" if isinstance(value, float) else str(value)


def choice_param(name: str, help: str, label: str, *, assumed: bool = False,
                 **phrases: str) -> Param:
    """A choice among the keys of ``phrases`` (each one's words), the first the default;
    ``label`` names the rule in plain words."""
    return Param(name, "choice", next(iter(phrases)), help, assumed=assumed,
                 choices=tuple(phrases), plain=Words.choice(label, **phrases))


def switch_param(name: str, default: bool, help: str, label: str, on: str, off: str, *,
                 assumed: bool = False) -> Param:
    """A yes/no rule: ``on`` and ``off`` are its words when true and when false."""
    return Param(name, "bool", default, help, assumed=assumed,
                 plain=Words.switch(label, on, off))


def shown_value(value: Any) -> str:
    """A value read from a file or typed, as a message shows it: a TOML table named so
    (never a Python dict), a long value cut short."""
    if isinstance(value, dict):
        return "a table (" + ", ".join(f"{k} = ..." for k in list(value)[:3]) + \
            (", ..." if len(value) > 3 else "") + ")"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _index(params: Iterable[Param]) -> dict[str, Param]:
    return {p.name: p for p in params}


def defaults(params: Iterable[Param]) -> dict[str, Any]:
    """The default value of every parameter."""
    return {p.name: p.default for p in params}


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``key=value``; a ``UserError`` if there is no ``=``."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UserError(f"bad setting {text!r}: expected key=value, e.g. rounds=7")
    return key.strip().replace("-", "_"), value


def read_toml(path: str | Path, what: str = "rules file") -> dict[str, Any]:
    """A TOML file (``what``: how errors name it) as a dict; a one-line ``UserError`` if it
    is missing or broken."""
    return read_document(path, what, tomllib.loads, tomllib.TOMLDecodeError, "TOML",
                         "numbers of the parameters' ranges", "key = value lines")


def validate_mapping(data: dict[str, Any], params: Iterable[Param],
                     source: str) -> dict[str, Any]:
    """Validate ``{name: value}`` read from ``source`` (named in error messages)."""
    known = _index(params)
    values = {}
    for key, value in data.items():
        name = key.replace("-", "_")
        if name not in known:
            raise UserError(
                f"unknown rule parameter {key!r} in {source}; accepted: {', '.join(known)}")
        values[name] = known[name].validate(value)
    return values


def load_rules_file(path: str | Path, params: Iterable[Param]) -> dict[str, Any]:
    """Read and validate a TOML file of parameter values (top-level ``key = value``)."""
    return validate_mapping(read_toml(path), params, repr(str(path)))


def resolve(
    params: Iterable[Param],
    rules_file: str | Path | None = None,
    assignments: Iterable[str] = (),
    overrides: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Defaults, then the rules file, then ``key=value`` assignments, then typed overrides."""
    params = tuple(params)
    known = _index(params)
    values = defaults(params)
    if rules_file is not None:
        values.update(load_rules_file(rules_file, params))
    for text in assignments:
        name, raw = parse_assignment(text)
        if name not in known:
            raise UserError(f"unknown rule parameter {name!r}; accepted: {', '.join(known)}")
        values[name] = known[name].parse(raw)
    for name, value in (overrides or {}).items():
        values[name] = known[name].validate(value)
    return values


ASSUMED_MARK = " is an assumed rule parameter: "  # in every note of ``assumed_notes``


def assumed_notes(params: Iterable[Param], values: dict[str, Any],
                  unused: Iterable[str] = ()) -> list[str]:
    """One line per assumed parameter that the result depends on (all but ``unused``) and
    that is at its assumed default: a value the user chose is theirs, not a placeholder."""
    skip = set(unused)
    return [
        f"{p.name} = {p.show(values[p.name])}{ASSUMED_MARK}{p.help}"
        for p in params
        if p.assumed and p.name not in skip and values[p.name] == p.default
    ]

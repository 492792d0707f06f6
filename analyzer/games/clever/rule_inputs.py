"""The rules block's bits (``kernels.clever_base.rule_block``) of a Clever game: one bit for
every value of a named rule parameter other than its default, in the order the game
declares its parameters (booleans: one bit, set when the value is not the default;
choices: one bit per choice but the default; whole numbers: one bit, ``NAME=changed``, set
when the value is not the default, the sheet inputs showing the rest, such as the actions
in hand). The player count and the round count have inputs of their own (the seat block
and the rules block's rounds inputs), so they take no bit here; nor does a parameter at a
player count whose games never read it."""

from __future__ import annotations

from typing import Any

from analyzer.games.clever.params import unread_at
from analyzer.params import Param
from kernels.clever_base.rule_block import N_RULE_BITS

OWN_INPUTS = ("players", "rounds")  # parameters the network reads through other inputs


def input_names(params: tuple[Param, ...]) -> list[str]:
    """The name of each bit of the rules block, ``parameter=value``, in bit order."""
    names = []
    for param in params:
        if param.name in OWN_INPUTS:
            continue
        if param.kind == "bool":
            names.append(f"{param.name}={not param.default}")
        elif param.kind == "choice":
            names.extend(f"{param.name}={c}" for c in param.choices if c != param.default)
        elif param.kind == "int":
            names.append(f"{param.name}=changed")
        else:
            raise ValueError(f"rule parameter {param.name!r} of kind {param.kind!r} has no "
                             "rules-block input; give it one in analyzer.games.clever.rule_inputs")
    if len(names) > N_RULE_BITS:
        raise ValueError(f"{len(names)} rules-block bits; the kernels hold {N_RULE_BITS}")
    return names


def input_bits(params: tuple[Param, ...], values: dict[str, Any]) -> int:
    """The rules block's bits of the rule ``values`` (0 on the defaults); a parameter no
    valued policy's game reads at the player count in force takes no bit
    (``params.UNREAD_AT``), so that changing it changes no ``learned`` game either."""
    names = input_names(params)
    unread = unread_at(values["players"])
    bits = 0
    for param in params:
        if param.name in OWN_INPUTS or param.name in unread \
                or values[param.name] == param.default:
            continue
        bits |= 1 << names.index(f"{param.name}={_shown(param, values[param.name])}")
    return bits


def _shown(param: Param, value: Any) -> str:
    """How the bit of ``param`` at ``value`` (not its default) names the value."""
    if param.kind == "bool":
        return str(bool(value))
    return "changed" if param.kind == "int" else str(value)

"""Rule inputs only grow (``analyzer.games.clever.rule_rows``): a network trained before a
rule parameter existed still loads and plays, computing what it did on every rule it was
trained with, its new inputs' rows zero; outputs say where it plays that parameter changed;
a rule input the game no longer has is one clear error."""

import copy
import dataclasses

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.clever import rule_inputs, rule_rows, trained_on, value_weights
from analyzer.games.thats_pretty_clever.model import GAME
from analyzer.params import defaults
from kernels.clever import net, value_net
from kernels.clever_base.rule_block import N_RULE_BITS, RULES_SCALED

NETWORK = GAME.learned_file
RULES_FIRST = int(value_net.n_inputs(GAME.kernel_game, 2))
NEW = "solo_fallback"  # the parameter the older network is made never to have had


def _older_network(tmp_path):
    """The game's network as it would be had ``NEW`` been added after it was trained: its
    rows moved to the bits of the game without ``NEW``, its card without it; its file,
    and the bits."""
    members, info = value_weights.load(NETWORK, GAME.kernel_game)
    names = rule_inputs.input_names(GAME.params)
    older = [name for name in names if not name.startswith(f"{NEW}=")]
    pairs = [(k, names.index(name)) for k, name in enumerate(older)]
    n_in = int(info["inputs"])
    old_members = [rule_rows.regrown_weights(m, n_in, RULES_FIRST, pairs, len(names))
                   for m in members]
    old_info = copy.deepcopy(info)
    del old_info["card"]["trained"]["rules"][NEW]
    old_info.update(rule_inputs=older,
                    skip=rule_rows.regrown_skip(info["skip"], pairs, len(names)))
    path = tmp_path / "value_net.npy"
    value_weights.save(path, old_members, old_info)
    return path, members, info, names


def _new_rows(weights, n_in, bit):
    h1 = int(net.width_of(weights.size, n_in))
    return np.concatenate([weights[(RULES_FIRST + o + bit) * h1:(RULES_FIRST + o + bit + 1) * h1]
                           for o in (0, RULES_SCALED)])


def test_a_network_from_before_a_new_rule_parameter_loads_and_plays_as_it_did(tmp_path):
    path, members, info, names = _older_network(tmp_path)
    grown, settings = GAME.file_networks(path)
    n_in = int(info["inputs"])
    new_bits = [k for k, name in enumerate(names) if name.startswith(f"{NEW}=")]
    expected = members[0].copy()
    h1 = int(net.width_of(expected.size, n_in))
    for bit in new_bits:  # the original with the new parameter's rows zero
        for o in (0, RULES_SCALED):
            expected[(RULES_FIRST + o + bit) * h1:(RULES_FIRST + o + bit + 1) * h1] = 0.0
        assert not _new_rows(grown[0], n_in, bit).any()
    np.testing.assert_array_equal(grown[0], expected)
    assert settings["rule_inputs"] == names
    skip = np.array(settings["skip"])
    first = len(skip) - N_RULE_BITS
    assert not skip[[first + bit for bit in new_bits]].any()
    kept = [k for k in range(len(names)) if k not in new_bits]
    np.testing.assert_array_equal(skip[[first + k for k in kept]],
                                  np.array(info["skip"])[[first + k for k in kept]])


def test_the_output_says_where_it_plays_a_parameter_it_never_learnt(tmp_path):
    path, *_ = _older_network(tmp_path)
    game = dataclasses.replace(GAME, folder=path.parent)
    values = {**defaults(GAME.params), "players": 1}
    assert trained_on.differences(game, values) == []
    changed = {**values, NEW: "other_dice"}
    assert trained_on.differences(game, changed) == [
        f"{NEW}=other_dice (never trained with it changed)"]


def test_a_rule_input_the_game_no_longer_has_is_one_clear_error(tmp_path):
    members, info = value_weights.load(NETWORK, GAME.kernel_game)
    info["rule_inputs"] = info["rule_inputs"][:-1] + ["dragons=True"]
    path = tmp_path / "value_net.npy"
    value_weights.save(path, members, info)
    with pytest.raises(UserError, match=r"rule inputs the game no longer has \(dragons=True\); "
                                        "rule inputs only grow"):
        GAME.file_networks(path)


def test_damaged_weights_are_detected_never_played(tmp_path):
    """A network file whose weights no longer match the SHA-256 its settings record (here
    200 sign bits flipped, every weight still finite) is one clear error."""
    members, info = value_weights.load(NETWORK, GAME.kernel_game)
    path = tmp_path / "value_net.npy"
    value_weights.save(path, members, info)
    weights = np.load(path)
    flat = weights.view(np.uint32).ravel()
    flat[np.random.default_rng(1).choice(flat.size, 200, replace=False)] ^= 0x80000000
    np.save(path, weights)
    assert np.isfinite(np.load(path)).all()
    with pytest.raises(UserError, match="is damaged: its weights do not match the SHA-256"):
        value_weights.load(path, GAME.kernel_game)

"""Sly Dice kernels (rules page: ``docs/rules/sly-dice.md``).

``layout``: card ids and dice-multiset encodings; ``combos``: the combination predicates;
``odds``: exact dynamic programming over the rolling phase; ``hol``: Higher or Lower;
``play``: whole games with bot policies.
"""

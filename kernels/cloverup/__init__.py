"""CloverUp kernels (rules page: ``docs/rules/cloverup.md``).

``layout``: face, outcome and position encodings; ``rules``: pure rule functions and the
tables built from them; ``solve``: exact turn dynamic programming; ``play``: the play loops.
"""

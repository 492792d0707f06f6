"""The value a Clever die enters with (both games number the dice alike: white 0, blue 2)."""

from kernels.jit import njit

WHITE, BLUE = 0, 2


@njit(cache=True, _nrt=False)
def die_value(faces, die, area, blue_area):
    """The face of ``die`` (int64[6] ``faces``), or blue + white when it enters the blue
    area (``blue_area``), wherever the other die is."""
    if area == blue_area:
        return faces[BLUE] + faces[WHITE]
    return faces[die]


@njit(cache=True, _nrt=False)
def enters(die, area, die_area):
    """Whether ``die`` may enter ``area``: the white die any area, the others their own
    (``die_area``: int64[6], each die's area)."""
    return die == WHITE or die_area[die] == area

"""Laying out consecutive blocks of a flat array (network inputs, a work buffer)."""


def block_starts(first: int, *sizes: int) -> tuple[int, ...]:
    """Where each block of ``sizes`` starts when they follow one another from ``first``,
    then where the last one ends: ``block_starts(6, 2, 3) == (6, 8, 11)``."""
    starts = [first]
    for size in sizes:
        starts.append(starts[-1] + size)
    return tuple(starts)

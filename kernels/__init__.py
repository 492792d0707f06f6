"""Numba kernels: plain arrays and numbers in and out, no pandas, click, plotting or I/O.

Rules functions never draw random numbers; only the play loops do, through :mod:`kernels.rng`.
"""

"""Numba pieces shared by the Clever games (That's Pretty Clever, Twice As Clever)."""

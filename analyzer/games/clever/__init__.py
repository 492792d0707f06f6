"""What the two Clever games (That's Pretty Clever, Twice As Clever) share in the analyzer:
the game description each game module fills in (``game.CleverGame``), the rule parameters
of the open points both rules pages list, and simulation, what-if, advice, coaching, the
click commands and the report built once over that description."""

"""Self-play training of the Clever games' value networks, as a library: the stages of
a run, its resumable state, the games that measure it and the loop that runs it."""

"""The pieces both Clever games' kernels build on: the sheet header and its bit fields,
dice and pending actions, a turn's record, sparse inputs and their rules and seat blocks,
feature terms, the game-rules vector, a total from the area scores. Below the game packages
(``kernels.thats_pretty_clever``, ``kernels.twice_as_clever``), which import only these,
and below the engine (``kernels.clever``), which dispatches to the games."""

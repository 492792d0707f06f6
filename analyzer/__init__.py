"""dicelab analyzer: rule parameters, the game registry, seeding, the parallel driver,
aggregation into DataFrames and the command line (``analyzer.cli``)."""

__version__ = "0.1.0"

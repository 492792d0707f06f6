"""One analyzer module (or package) per game; each is listed in ``analyzer.registry``."""

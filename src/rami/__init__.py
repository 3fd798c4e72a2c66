"""rami: rules engines, solvers and play for Marriage (Nepali, Indian) and Tunisian rami."""

__version__ = "0.1.0"

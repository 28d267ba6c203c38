"""Defaults of the analysis, in one place and free of imports, so that the
command line can show them in ``--help`` without loading numpy."""

DEFAULT_DRAWS = 10_000  # Monte Carlo draws of `costmodel build` and `costmodel montecarlo`
DEFAULT_SEED = 0

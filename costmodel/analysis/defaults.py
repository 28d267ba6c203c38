"""Defaults of the analysis, in one place and free of imports, so that the
command line can show them in ``--help`` without loading numpy."""

DEFAULT_DRAWS = 10_000  # Monte Carlo draws of `costmodel build` and `costmodel montecarlo`
DEFAULT_SEED = 0
#: the most Monte Carlo draws of one run: each draw keeps its metrics per tier
#: (a million draws of three tiers: about 250 MB), README "Limits"
MAX_DRAWS = 1_000_000
#: the most steps per axis of the price x utilization grid: points^2 models per
#: tier (101: about 10,000, a few seconds; 400 took 40 s and 2.2 GB), README "Limits"
MAX_GRID_POINTS = 101

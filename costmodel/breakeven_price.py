"""Break-even year-1 price per GPU-hour of each tier (NPV = 0), for the memo.

NPV is not linear in the price (the tax loss pool switches tax on and off), but
it is non-decreasing in it: a higher price adds revenue in every month and tax
takes at most ``tax_rate < 1`` of the extra profit. So the root is bracketed and
then narrowed by a vectorised bisection: each round evaluates ``K`` prices across
the current bracket in one call of :func:`costmodel.run_variants` (the engine's
scenario axis) and keeps the sub-interval where NPV changes sign. Each round
shrinks the bracket by a factor ``K - 1``.

The price of a tier lives at the dotted path that
``resolve_tier(a, tier).paths()["price_per_gpu_hour"]`` names: the tier's own
``tiers.<name>.revenue.price_per_gpu_hour`` where it overrides the global
``revenue.price_per_gpu_hour``.
"""

from __future__ import annotations

import math

import numpy as np

from .model import run_variants
from .params import resolve_tier
from .schema import Assumptions

K = 33  # prices per round
ROUNDS = 6  # bracket / 32**6 ~ 1e-9 of the first bracket
MAX_DOUBLINGS = 40


def _npv(a: Assumptions, tier: str, path: str, prices: np.ndarray) -> np.ndarray:
    return run_variants(a, {path: prices}, tiers=[tier])[tier].metrics["npv"]


def breakeven_price(a: Assumptions, tier: str) -> float:
    """Year-1 price per GPU-hour at which the tier's NPV is 0; NaN if no price
    reaches it (no GPU-hours sold). 0 if the NPV is already >= 0 at price 0."""
    ti = resolve_tier(a, tier)
    path = ti.paths()["price_per_gpu_hour"]
    if _npv(a, tier, path, np.array([0.0]))[0] >= 0:
        return 0.0
    hi = max(ti.values()["price_per_gpu_hour"], 1.0)
    for _ in range(MAX_DOUBLINGS):
        if _npv(a, tier, path, np.array([hi]))[0] >= 0:
            break
        hi *= 2.0
    else:
        return math.nan
    lo = 0.0
    for _ in range(ROUNDS):
        grid = np.linspace(lo, hi, K)
        npv = _npv(a, tier, path, grid)
        i = int(np.argmax(npv >= 0))  # first price with NPV >= 0 (grid[-1] always is)
        lo, hi = grid[max(i - 1, 0)], grid[i]
    return float(hi)


def breakeven_prices(a: Assumptions, tiers: list[str] | None = None) -> dict[str, float]:
    """:func:`breakeven_price` for every tier (in tier order)."""
    return {t: breakeven_price(a, t) for t in tiers or list(a.tiers)}

"""Pieces the independent reference implementations share (they import nothing
from the package)."""

from __future__ import annotations

import math


def irr(flows: list[float]) -> float:
    """The annual IRR: among monthly rates in (-1, 10] where the NPV falls through 0
    (positive at the lower rate), the one nearest 0; NaN if none."""

    def npv(r):
        return sum(f / (1 + r) ** m for m, f in enumerate(flows))

    grid = [-0.99 + i * 0.001 for i in range(int((10 + 0.99) / 0.001) + 1)]
    roots = []
    prev_r, prev_v = grid[0], npv(grid[0])
    for r in grid[1:]:
        v = npv(r)
        if prev_v > 0 >= v:
            lo, hi = prev_r, r
            for _ in range(200):
                mid = (lo + hi) / 2
                if npv(mid) > 0:
                    lo = mid
                else:
                    hi = mid
            roots.append((lo + hi) / 2)
        prev_r, prev_v = r, v
    if not roots:
        return math.nan
    return (1 + min(roots, key=abs)) ** 12 - 1

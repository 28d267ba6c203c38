"""NPV on a grid of year-1 price against utilization, per tier (methodology §9.2).

A CFO decides on the price and the utilization at once; break-even
(:mod:`costmodel.analysis.breakeven`) moves one input at a time. For tier t with
year-1 price axis ``p_1 < .. < p_n`` and utilization axis ``u_1 < .. < u_m``::

    npv[t, i, j] = NPV_t(price_per_gpu_hour = p_i, utilization = u_j)

every other input at its value. Each axis spans the input's range ``low..high``
in ``points`` equal steps when the input is ranged (otherwise ``0.5..1.5 x`` the
price and the utilization ``+-0.25`` clipped to [0, 1]); the step nearest the base
value is replaced by the base value, so the grid holds the base case. When the
whole grid has one sign (no break-even in the ranges), the price axis is
stretched once so that the contour shows: with NPV < 0 everywhere, its top
becomes ``ceil(EXTEND_FACTOR x r)``, r the price at which NPV at the base
utilization reaches 0, extrapolated linearly from the two highest grid prices
(the largest r of the tiers evaluated together); with NPV > 0 everywhere, its
bottom becomes ``max(0, r / EXTEND_FACTOR)``, r extrapolated from the two lowest
(a second engine call; the cells are engine values either way). All ``n x m``
cells of the tiers that read the same paths on the same axes are one
:func:`costmodel.inputs.runs.run_variants` call (the scenario axis; no loop of
builds).

The break-even contour: a cell is ``positive`` when ``npv > 0``; it is on the
contour (``edge_price`` / ``edge_utilization``) when its next cell up the price /
utilization axis has the other sign (NPV = 0 lies between the two). Per
utilization, ``break_even_price`` is the lowest price with NPV = 0 interpolated
linearly between the two grid prices that bracket it
(:func:`costmodel.core.roots.first_bracket`, :func:`~costmodel.core.roots.secant_root`);
NaN where NPV keeps one sign over the price axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from costmodel.analysis.defaults import MAX_GRID_POINTS
from costmodel.analysis.sensitivity import ranged_inputs
from costmodel.core.roots import first_bracket, secant_root
from costmodel.inputs.model import assumptions_of
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.runs import run_variants
from costmodel.inputs.schema import Assumptions

if TYPE_CHECKING:
    from costmodel.inputs.model import Model

GRID_POINTS = 7  # steps per axis by default (at least 5)
MIN_POINTS = 5
UNRANGED_PRICE_SPAN = 0.5  # an unranged price: base x (1 -+ 0.5)
UNRANGED_UTILIZATION_SPAN = 0.25  # an unranged utilization: base -+ 0.25, within [0, 1]
EXTEND_FACTOR = 1.2  # a stretched price axis ends 20% beyond the extrapolated root
GRID_COLUMNS = [
    "tier",
    "price_per_gpu_hour",
    "utilization",
    "npv",
    "positive",
    "edge_price",
    "edge_utilization",
    "base",
    "break_even_price",
]


def grid_axis(base: float, low: float, high: float, points: int) -> np.ndarray:
    """``points`` equal steps from ``low`` to ``high``, the one nearest ``base``
    replaced by ``base`` (ascending as long as ``low <= base <= high``)."""
    axis = np.linspace(low, high, points)
    axis[int(np.argmin(np.abs(axis - base)))] = base
    return axis


def _axes(a: Assumptions, tier: str, points: int) -> tuple[str, np.ndarray, str, np.ndarray]:
    """``(price_path, prices, utilization_path, utilizations)`` of one tier."""
    ti = resolve_tier(a, tier)
    paths, values = ti.paths(), ti.values()
    ranged = {r.path: r for r in ranged_inputs(a)[0]}
    out: list[object] = []
    for key in ("price_per_gpu_hour", "utilization"):
        path, base = paths[key], float(values[key])
        r = ranged.get(path)
        if r is not None and r.low is not None and r.high is not None:
            lo, hi = float(r.low), float(r.high)
        elif key == "price_per_gpu_hour":
            lo, hi = base * (1 - UNRANGED_PRICE_SPAN), base * (1 + UNRANGED_PRICE_SPAN)
        else:
            lo = max(0.0, base - UNRANGED_UTILIZATION_SPAN)
            hi = min(1.0, base + UNRANGED_UTILIZATION_SPAN)
        out += [path, grid_axis(base, min(lo, base), max(hi, base), points)]
    return out[0], out[1], out[2], out[3]  # type: ignore[return-value]


def _npv_grid(
    a: Assumptions, tiers: list[str], pp: str, prices: np.ndarray, up: str, utils: np.ndarray
) -> dict[str, np.ndarray]:
    """Tier -> its ``(n, m)`` NPV at ``prices x utils``: one engine call."""
    pi, uj = np.meshgrid(prices, utils, indexing="ij")
    res = run_variants(a, {pp: pi.ravel(), up: uj.ravel()}, tiers=tiers)
    shape = (prices.size, utils.size)
    return {t: np.asarray(res[t].metrics["npv"], dtype=float).reshape(shape) for t in tiers}


def _stretched(
    prices: np.ndarray, base: float, column: int, npvs: dict[str, np.ndarray], points: int
) -> np.ndarray | None:
    """The stretched price axis of a group whose grids all keep one sign
    (module docstring), or None."""
    grids = list(npvs.values())
    if any((g > 0).any() and (g <= 0).any() for g in grids):
        return None
    lo, hi = float(prices[0]), float(prices[-1])
    roots = []
    for g in grids:
        col = g[:, column]
        k = slice(-2, None) if (g <= 0).all() else slice(0, 2)
        (p0, p1), (f0, f1) = prices[k], col[k]
        roots.append(p0 - f0 * (p1 - p0) / (f1 - f0) if f1 != f0 else np.nan)
    if not np.isfinite(roots).any():
        return None
    if (grids[0] <= 0).all():
        hi = max(hi, float(np.ceil(EXTEND_FACTOR * np.nanmax(roots))))
    else:
        lo = max(0.0, min(lo, float(np.nanmin(roots)) / EXTEND_FACTOR))
    if not np.isfinite([lo, hi]).all():
        return None
    return grid_axis(base, lo, hi, points)


def _tier_rows(
    tier: str, prices: np.ndarray, utils: np.ndarray, npv: np.ndarray, base: tuple[float, float]
) -> pd.DataFrame:
    """The long rows of one tier from its ``(n, m)`` NPV grid."""
    positive = npv > 0
    edge_p = np.zeros_like(positive)
    edge_p[:-1] = positive[:-1] != positive[1:]
    edge_u = np.zeros_like(positive)
    edge_u[:, :-1] = positive[:, :-1] != positive[:, 1:]
    lo, hi, f_lo, f_hi = first_bracket(prices, npv.T)
    be = secant_root(lo, hi, f_lo, f_hi)
    pi, uj = np.meshgrid(np.arange(prices.size), np.arange(utils.size), indexing="ij")
    return pd.DataFrame(
        {
            "tier": tier,
            "price_per_gpu_hour": prices[pi.ravel()],
            "utilization": utils[uj.ravel()],
            "npv": npv.ravel(),
            "positive": positive.ravel(),
            "edge_price": edge_p.ravel(),
            "edge_utilization": edge_u.ravel(),
            "base": (prices[pi.ravel()] == base[0]) & (utils[uj.ravel()] == base[1]),
            "break_even_price": np.asarray(be, dtype=float)[uj.ravel()],
        }
    )


def price_utilization_grid(
    x: Model | Assumptions, tiers: list[str] | None = None, *, points: int = GRID_POINTS
) -> pd.DataFrame:
    """NPV per tier on a ``points x points`` grid of year-1 price per GPU-hour
    against utilization (see the module docstring for the axes, the contour and
    ``break_even_price``).

    One row per (tier, price, utilization), prices ascending then utilizations
    ascending: ``tier, price_per_gpu_hour, utilization, npv, positive, edge_price,
    edge_utilization, base, break_even_price``. ``df.attrs``: ``price_path`` and
    ``utilization_path`` (tier -> the dotted path varied) and ``points``.

    Parameters
    ----------
    x : Model or Assumptions
    tiers : list of str, optional
        The tiers (default: all).
    points : int, optional
        Points per axis (at least 5).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import costmodel as cm
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> g = cm.price_utilization_grid(a, tiers=["large"], points=5)
    >>> len(g), int(g["positive"].sum())
    (25, 13)
    >>> [round(float(u), 4) for u in sorted(g["utilization"].unique())]
    [0.4, 0.5, 0.6, 0.7, 0.8]
    """
    if not MIN_POINTS <= points <= MAX_GRID_POINTS:
        raise ValueError(
            f"points: at least {MIN_POINTS} and at most {MAX_GRID_POINTS}, got {points}"
        )
    a = assumptions_of(x)
    tiers = list(tiers or a.tiers)
    axes = {t: _axes(a, t, points) for t in tiers}
    groups: dict[tuple, list[str]] = {}
    for t, (pp, ps, up, us) in axes.items():
        groups.setdefault((pp, tuple(ps), up, tuple(us)), []).append(t)
    frames: dict[str, pd.DataFrame] = {}
    for (pp, ps, up, us), members in groups.items():
        prices, utils = np.array(ps), np.array(us)
        npvs = _npv_grid(a, members, pp, prices, up, utils)
        vals = resolve_tier(a, members[0]).values()
        column = int(np.flatnonzero(utils == float(vals["utilization"]))[0])
        stretched = _stretched(prices, float(vals["price_per_gpu_hour"]), column, npvs, points)
        if stretched is not None:
            prices = stretched
            npvs = _npv_grid(a, members, pp, prices, up, utils)
            for t in members:
                axes[t] = (pp, prices, up, utils)
        for t in members:
            vals = resolve_tier(a, t).values()
            base = (float(vals["price_per_gpu_hour"]), float(vals["utilization"]))
            frames[t] = _tier_rows(t, prices, utils, npvs[t], base)
    df = pd.concat([frames[t] for t in tiers], ignore_index=True)[GRID_COLUMNS]
    df.attrs["price_path"] = {t: axes[t][0] for t in tiers}
    df.attrs["utilization_path"] = {t: axes[t][2] for t in tiers}
    df.attrs["points"] = points
    return df

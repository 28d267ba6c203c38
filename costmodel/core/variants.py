"""Run the engine for many variants of the inputs at once (the scenario axis).

Numeric inputs vary per variant inside one engine evaluation
(:func:`costmodel.inputs.runs.run_variants` varies them by dotted path). The
whole-number inputs that shape the computation
(:attr:`costmodel.inputs.params.TierInputs.structure`:
the horizon, the depreciation lives, the years a tax loss may be carried forward;
methodology §11.3) cannot: the variants are grouped by their values of those, in
order, each group is one engine evaluation with its own
:class:`~costmodel.core.config.TierConfig`, and the results are put back in the
order of the variants (:func:`scattered`). A group of one variant is evaluated as
two copies of it, as the engine does a lone timing, so that a variant's numbers do
not depend on the other variants evaluated with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.config import TierConfig, configured
from costmodel.core.engine import run_tier
from costmodel.core.finance import FloatArray
from costmodel.core.result import Lazy, Metrics, TierResult
from costmodel.core.tierparams import TierParams


def run_shaped(
    values: TierParams, config: TierConfig, shape: Mapping[str, ArrayLike]
) -> TierResult:
    """:func:`run_tier` of ``values``, or :func:`run_structured` when some variants
    differ in a structural whole number (``shape``: config key -> values)."""
    if shape:
        return run_structured(values, config, shape)
    return run_tier(values, config)


def run_structured(
    values: TierParams, config: TierConfig, shape: Mapping[str, ArrayLike]
) -> TierResult:
    """:func:`run_tier` of variants whose structural whole numbers ``shape``
    (config key -> scalar or (S,) array, :func:`costmodel.core.config.configured`)
    differ: one evaluation per distinct combination, in order of it."""
    size = int(
        np.broadcast_shapes(*[np.shape(v) for v in (*values.arrays(), *shape.values())], (1,))[0]
    )
    keys = list(shape)
    table = np.stack(
        [np.round(np.broadcast_to(np.asarray(shape[k], dtype=float), (size,))) for k in keys],
        axis=1,
    )
    combos, inverse = np.unique(table, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    if combos.shape[0] == 1:
        return run_tier(values, configured(config, dict(zip(keys, combos[0], strict=True))))
    parts = []
    for j, combo in enumerate(combos):
        idx = np.flatnonzero(inverse == j)
        take = idx if idx.size > 1 else np.repeat(idx, 2)
        sub = values.mapped(lambda v, take=take: _take(v, take, size))
        cfg = configured(config, dict(zip(keys, combo, strict=True)))
        parts.append((idx, run_tier(sub, cfg)))
    return scattered(parts, size)


def _take(v: ArrayLike, take: np.ndarray, size: int) -> Any:
    """The variants ``take`` of an input (a scalar stays a scalar)."""
    if np.ndim(v) == 0:
        return v
    return np.broadcast_to(np.asarray(v, dtype=float), (size,))[take]


def scattered(parts: list[tuple[np.ndarray, TierResult]], size: int) -> TierResult:
    """One :class:`TierResult` of ``size`` variants from the results of groups of
    them (``parts``: the variants' indices, ascending, and their result, with at
    least as many rows), every line put back in order of the variants. Monthly and
    yearly lines exist only where every group has the same horizon; otherwise
    reading one raises ``ValueError``."""

    def scatter(get: Callable[[TierResult], FloatArray]) -> FloatArray:
        values = [(idx, np.asarray(get(r))) for idx, r in parts]
        tail = np.broadcast_shapes(*[v.shape[1:] for _, v in values])
        out = np.empty((size, *tail), dtype=np.result_type(*[v.dtype for _, v in values]))
        for idx, v in values:
            out[idx] = np.broadcast_to(v, (max(idx.size, 2), *tail))[: idx.size]
        return out

    first = parts[0][1]
    same = all(r.months == first.months for _, r in parts)

    def lines(get: Callable[[TierResult], Mapping[str, FloatArray]]) -> Lazy:
        def build() -> dict[str, FloatArray]:
            if not same:
                raise ValueError("variants of different horizons have no common monthly lines")
            return {k: scatter(lambda r, k=k: get(r)[k]) for k in get(first)}

        return Lazy(build)

    metrics = Metrics({k: (lambda k=k: scatter(lambda r: r.metrics[k])) for k in first.metrics})
    deployments = [
        {k: scatter(lambda r, d=d, k=k: r.deployments[d][k]) for k in dep}
        for d, dep in enumerate(first.deployments)
    ]
    return TierResult(
        months=first.months if same else max(r.months for _, r in parts),
        capex={c: scatter(lambda r, c=c: r.capex[c]) for c in first.capex},
        capex_months=lines(lambda r: r.capex_months),
        opex=lines(lambda r: r.opex),
        depreciation=lines(lambda r: r.depreciation),
        nbv={c: scatter(lambda r, c=c: r.nbv[c]) for c in first.nbv},
        flows=lines(lambda r: r.flows),
        annual=lines(lambda r: r.annual),
        metrics=metrics,
        debt=lines(lambda r: r.debt),
        deployments=deployments,
        opex_by_year=lines(lambda r: r.opex_by_year),
        fcf=cache(lambda: scatter(lambda r: r.monthly_fcf())) if same else None,
    )

"""Run the engine for many variants of the inputs at once (the scenario axis)."""

from __future__ import annotations

from collections.abc import Mapping

from numpy.typing import ArrayLike

from costmodel.core.engine import run_tier
from costmodel.core.result import TierResult
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions


def run_variants(
    a: Assumptions, variants: Mapping[str, ArrayLike] | None = None, tiers: list[str] | None = None
) -> dict[str, TierResult]:
    """Run the engine once per tier with inputs varied by dotted path.

    ``variants`` maps a dotted assumption path (``"power.price_per_kwh"``,
    ``"servers.h800.price"``, ``"tiers.tens.gpus"``) to a scalar or an (S,) array;
    every tier input resolved from that path takes those values, so all S
    variants go through one vectorised evaluation per tier.
    """
    variants = dict(variants or {})
    out = {}
    for name in tiers or list(a.tiers):
        ti = resolve_tier(a, name)
        values: dict[str, ArrayLike] = ti.values()
        for key, path in ti.paths().items():
            if path in variants:
                values[key] = variants[path]
        out[name] = run_tier(values, ti.config)
    return out

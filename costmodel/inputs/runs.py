"""The engine run on validated assumptions with inputs varied by dotted path
(the scenario axis of the analyses, methodology §6): each varied path reaches the
engine inputs of every tier that reads it (:mod:`costmodel.inputs.params`)."""

from __future__ import annotations

from collections.abc import Mapping

from numpy.typing import ArrayLike

from costmodel.core.result import TierResult
from costmodel.core.variants import run_shaped
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.schema import Assumptions


def run_variants(
    a: Assumptions, variants: Mapping[str, ArrayLike] | None = None, tiers: list[str] | None = None
) -> dict[str, TierResult]:
    """Run the engine once per tier with inputs varied by dotted path.

    ``variants`` maps a dotted assumption path (``"power.price_per_kwh"``,
    ``"servers.h800.price"``, ``"tiers.tens.gpus"``, ``"depreciation.servers.life_years"``)
    to a scalar or an (S,) array; every tier input resolved from that path takes
    those values, so all S variants go through one vectorised evaluation per tier
    (one per distinct value of the structural whole numbers:
    :mod:`costmodel.core.variants`; their values are rounded to whole numbers).

    Parameters
    ----------
    a : Assumptions
    variants : mapping of str to array_like, optional
        Dotted path -> a number or S values; none: the assumptions as they are.
    tiers : list of str, optional
        The tiers to run (default: all).

    Returns
    -------
    dict of str to TierResult
        Per tier the engine's result; ``metrics[column]`` holds S values.

    Examples
    --------
    >>> import costmodel as cm
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> runs = cm.run_variants(a, {"power.price_per_kwh": [0.4, 0.65, 0.9]}, ["large"])
    >>> [f"{v:.3f}" for v in runs["large"].metrics["cost_per_gpu_hour"]]
    ['25.208', '25.758', '26.308']
    """
    variants = dict(variants or {})
    out = {}
    for name in tiers or list(a.tiers):
        ti = resolve_tier(a, name)
        varied = {key: variants[path] for key, path in ti.paths().items() if path in variants}
        params = ti.params().varied(varied)
        shape = {key: variants[path] for key, path in ti.structure.items() if path in variants}
        out[name] = run_shaped(params, ti.config, shape)
    return out

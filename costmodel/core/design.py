"""The summary columns of a tier's build (methodology §12.1, §28): the levels of its
designed fabric, its storage and its rack power, each of the final cluster."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from costmodel.core.fabric import fabric_counts, fabric_endpoints, fabric_rails
from costmodel.core.finance import FloatArray
from costmodel.core.storage import storage_columns
from costmodel.core.tierparams import TierParams


def network_levels(q: TierParams, deps: list[dict[str, FloatArray]]) -> FloatArray:
    """Levels of the final cluster's designed fabric (methodology §12.1); NaN with a share."""
    gpus = sum(d["gpus"] for d in deps)
    if q.fabric_radix is None:
        return np.full_like(np.asarray(gpus, dtype=float), np.nan)
    rails, ends = fabric_rails(q), fabric_endpoints(q, gpus)
    return fabric_counts(ends, q.fabric_radix, q.fabric_oversubscription, rails)["levels"]


def design_columns(
    q: TierParams, deps: list[dict[str, FloatArray]]
) -> dict[str, FloatArray | Callable[[], FloatArray]]:
    """``network_levels`` (computed when read), ``storage_tb``,
    ``storage_write_gbps``, ``storage_nodes`` (:func:`storage.storage_columns`) and
    ``rack_kw``."""
    return {
        "network_levels": lambda: network_levels(q, deps),
        **storage_columns(q, deps),
        "rack_kw": q.rack_kw,
    }

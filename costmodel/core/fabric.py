"""The network fabric sized from the cluster (methodology §12.1, §28.4).

For E endpoints (one compute NIC per GPU), switch radix k (even) and
oversubscription o >= 1:

- ``levels = 1 if E <= k; 2 if E <= k^2 / 2; else 3`` (3 levels hold k^3 / 4);
- 1 level: ``switches = ceil(E / k)``, ``uplinks = 0``;
- leaves at 2 and 3 levels: ``L = ceil(E / (k/2))``, or rail-optimised
  (``rails = R > 0``, the endpoints of one server) ``L = R * ceil(servers / (k/2))``
  with ``servers = E / R``: one leaf per rail per group of k/2 servers;
- 2 levels: each leaf has ``u = ceil((k/2) / o)`` uplinks, ``U1 = L u``; the spines
  ``S`` are the smallest divisor of u with ``S >= ceil(U1 / k)``, so that every leaf
  splits its uplinks evenly over the spines (NVIDIA's DGX SuperPOD reference
  designs: 512, 1,024 and 2,048 GPUs at radix 64 are 16/8, 32/16 and 64/32 leaves and
  spines; 24 leaves take 16 spines); ``switches = L + S``, ``uplinks = U1``;
- 3 levels: L as above, ``U1 = ceil(L (k/2) / o)``, aggregation ``A = ceil(U1 / (k/2))``,
  its uplinks ``U2 = A (k/2)``, cores ``C = ceil(U2 / k)``; ``switches = L + A + C``,
  ``uplinks = U1 + U2``;
- ``optics = 2 (E + uplinks)`` (a transceiver at each end of every link);
- ``fabric(E) = switches * switch_price + optics * optic_price``.

Every function works elementwise on arrays (the engine's scenario/variant axis), so
each variant may have its own endpoint count and design.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.finance import FloatArray
from costmodel.core.tierparams import TierParams

#: the counts of :func:`fabric_counts`, in the order the schedules show them
COUNT_KEYS = (
    "levels",
    "leaves",
    "leaf_uplinks",
    "spines",
    "aggregation",
    "cores",
    "switches",
    "uplinks",
    "optics",
)


def max_endpoints(radix: ArrayLike) -> FloatArray:
    """The endpoints three levels hold: ``k^3 / 4``."""
    k = np.asarray(radix, dtype=float)
    return k**3 / 4.0


def smallest_divisor_at_least(n: ArrayLike, floor: ArrayLike) -> FloatArray:
    """The smallest divisor of the positive whole number ``n`` that is ``>= floor``
    (``n`` itself when ``floor >= n``), elementwise.

    >>> smallest_divisor_at_least([32, 32, 32], [8, 12, 33]).tolist()
    [8.0, 16.0, 32.0]
    """
    n_, f = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(floor, dtype=float))
    n_ = np.maximum(n_, 1.0)
    s = np.clip(f, 1.0, n_)
    while True:
        uneven = np.mod(n_, s) != 0
        if not uneven.any():
            return s
        s = np.where(uneven, s + 1.0, s)


def fabric_counts(
    endpoints: ArrayLike,
    radix: ArrayLike,
    oversubscription: ArrayLike,
    rails: ArrayLike = 0.0,
) -> dict[str, FloatArray]:
    """Levels and switch, uplink and transceiver counts of a fabric of ``endpoints``
    (module docstring). ``rails`` R > 0 makes the leaves of 2 and 3 levels
    rail-optimised (R endpoints per server); 0 sizes them from the endpoints alone.
    ``leaf_uplinks`` is U1; ``leaves`` is L for 2 and 3 levels and the switches of one
    level; ``spines`` is S (2 levels), ``aggregation`` A and ``cores`` C (3 levels).
    No endpoints: no fabric (all zero)."""
    e, k, o, r = np.broadcast_arrays(
        np.asarray(endpoints, dtype=float),
        np.asarray(radix, dtype=float),
        np.asarray(oversubscription, dtype=float),
        np.asarray(rails, dtype=float),
    )
    half = k / 2.0
    levels = np.where(e <= 0, 0.0, np.where(e <= k, 1.0, np.where(e <= k * k / 2.0, 2.0, 3.0)))
    rail_servers = np.ceil(e / np.where(r > 0, r, 1.0) - 1e-9)
    leaves = np.where(r > 0, r * np.ceil(rail_servers / half - 1e-9), np.ceil(e / half))
    per_leaf = np.ceil(half / o)
    u1_two = leaves * per_leaf
    spines = smallest_divisor_at_least(per_leaf, np.ceil(u1_two / k))
    u1 = np.where(levels == 2.0, u1_two, np.ceil(leaves * half / o))
    aggregation = np.ceil(u1 / half)
    u2 = aggregation * half
    cores = np.ceil(u2 / k)
    one, two, three = levels == 1.0, levels == 2.0, levels == 3.0
    zero = np.zeros_like(e)
    out = {
        "levels": levels,
        "leaves": np.where(one, np.ceil(e / k), np.where(levels >= 2, leaves, zero)),
        "spines": np.where(two, spines, zero),
        "aggregation": np.where(three, aggregation, zero),
        "cores": np.where(three, cores, zero),
        "leaf_uplinks": np.where(levels >= 2, u1, zero),
        "uplinks": np.where(two, u1, np.where(three, u1 + u2, zero)),
    }
    out["switches"] = out["leaves"] + out["spines"] + out["aggregation"] + out["cores"]
    out["optics"] = np.where(e > 0, 2.0 * (e + out["uplinks"]), zero)
    return out


def fabric_cost(
    endpoints: ArrayLike,
    radix: ArrayLike,
    oversubscription: ArrayLike,
    switch_price: ArrayLike,
    optic_price: ArrayLike,
    rails: ArrayLike = 0.0,
) -> FloatArray:
    """``fabric(E) = switches * switch_price + optics * optic_price``."""
    c = fabric_counts(endpoints, radix, oversubscription, rails)
    return c["switches"] * np.asarray(switch_price) + c["optics"] * np.asarray(optic_price)


def fabric_rails(q: TierParams) -> FloatArray | float:
    """The rails R of a rail-optimised fabric, the unit's endpoints (``gpus_per_server``,
    or ``fabric_endpoints_per_unit``: methodology §28.4, §33.1), or 0 for leaves sized
    from the endpoints alone."""
    if q.fabric_rail_optimized is None:
        return 0.0
    per_unit = q.fabric_endpoints_per_unit
    if per_unit is None:
        per_unit = q.gpus_per_server
    return q.fabric_rail_optimized * per_unit


def fabric_endpoints(q: TierParams, gpus: ArrayLike) -> FloatArray:
    """Endpoints of ``gpus`` GPUs: one a GPU, or ``fabric_endpoints_per_unit`` per unit
    of ``gpus_per_server`` GPUs where the SKU gives it (a supernode's own fabric,
    methodology §33)."""
    g = np.asarray(gpus, dtype=float)
    if q.fabric_endpoints_per_unit is None:
        return g
    return g / q.gpus_per_server * q.fabric_endpoints_per_unit


def design_network(q: TierParams, gpus: list[FloatArray]) -> list[dict[str, FloatArray]]:
    """Per deployment d of a designed fabric: the counts of the fabric of
    ``E_1 + .. + E_d`` endpoints (``fabric_<count>`` of :data:`COUNT_KEYS`, its cost
    ``fabric_cost``) and the network capex of d,
    ``network = fabric(E_1 + .. + E_d) - fabric(E_1 + .. + E_{d-1}) + per_server * servers_d``
    with ``E_d`` the endpoints of deployment d (:func:`fabric_endpoints`; no price
    decline)."""
    k, o = q.fabric_radix, q.fabric_oversubscription
    rails = fabric_rails(q)
    out, before, cost_before = [], np.zeros_like(gpus[0]), np.zeros_like(gpus[0])
    for g in gpus:
        now = before + fabric_endpoints(q, g)
        counts = fabric_counts(now, k, o, rails)
        cost = counts["switches"] * q.fabric_switch_price + counts["optics"] * q.fabric_optic_price
        row = {f"fabric_{key}": counts[key] for key in COUNT_KEYS}
        row["fabric_endpoints"] = now
        row["fabric_cost"] = cost
        row["network"] = cost - cost_before + q.fabric_per_server * g / q.gpus_per_server
        out.append(row)
        before, cost_before = now, cost
    return out

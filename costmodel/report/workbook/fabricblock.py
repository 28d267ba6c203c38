"""Tier-sheet fabric block (methodology §12.1): for each deployment d the fabric of
the GPUs in service after it, ``E_d = g_0 + .. + g_d``, as live formulas of the
deployments' GPUs and the design inputs (radix k, oversubscription o, prices):

- ``levels = IF(E <= k, 1, IF(E <= k^2/2, 2, 3))``
- ``leaves = ROUNDUP(E / k)`` at 1 level, else ``L = ROUNDUP(E / (k/2))``, or
  rail-optimised ``L = R ROUNDUP((E / R) / (k/2))`` with R the GPUs per server
- ``leaf uplinks U1 = L ROUNDUP((k/2) / o)`` (2 levels), ``ROUNDUP(L (k/2) / o)``
  (3 levels), 0 at 1 level
- ``spines`` (2 levels): the smallest divisor of ``u = ROUNDUP((k/2) / o)`` that is
  ``>= ROUNDUP(U1 / k)`` (methodology §28.4), a one-cell array formula over the
  candidates 1..:data:`SPINE_CANDIDATES` (``u`` itself when none is); ``aggregation
  A = ROUNDUP(U1 / (k/2))`` and ``cores = ROUNDUP(A (k/2) / k)`` (3 levels)
- ``uplinks = U1 + A (k/2)``, ``switches = leaves + spines + A + cores``,
  ``transceivers = 2 (E + uplinks)``
- ``fabric cost = switches x switch price + transceivers x optic price``
- network capex of d = fabric cost of d - fabric cost of d-1 + per server x servers_d.

Cached values are the engine's (``fabric_*`` of :attr:`TierResult.deployments`).
"""

from __future__ import annotations

from costmodel.report.workbook.inputs import lead_fields
from costmodel.report.workbook.tiercontext import Tier, scalar

K, OVER = "{$fabric_radix}", "{$fabric_oversubscription}"
#: spine counts the workbook's formula searches (a leaf of radix 512 has 256 uplinks)
SPINE_CANDIDATES = 256
_CANDIDATES = "{" + ",".join(str(c) for c in range(1, SPINE_CANDIDATES + 1)) + "}"
#: uplinks of one leaf, u = ROUNDUP((k/2) / o)
_PER_LEAF = f"ROUNDUP(({K}/2)/{OVER},0)"


def fabric_rows(x: Tier, i: int, d: dict) -> str:
    """The fabric of deployment ``i`` (its cumulative endpoints); returns the
    formula of its network capex."""
    for key, label, unit, formula, source in (*_topology_rows(x, i), *_cost_rows(x, i)):
        value = d[source]
        kind = "money" if key == "f_cost" else "count"
        x.cs.const(
            f"{key}{i}",
            f"deployment {i}: {label}",
            unit,
            formula,
            scalar(value),
            kind,
            array=key == "f_s",
        )
    prev = f"-{{$f_cost{i - 1}}}" if i else ""
    return f"={{$f_cost{i}}}{prev}+{{$fabric_per_server}}*{{$d_n{i}}}"


def _leaves(x: Tier, e: str, lv: str) -> tuple[str, str]:
    """The leaves' label and formula: from the endpoints, or one leaf per rail per
    k/2 servers when the tier's fabric is rail-optimised (methodology §28.4; the
    flag is an input, so a design that switches it switches the leaves)."""
    r = _unit_endpoints(x)
    return (
        "fabric: leaves = E/k (1 level); E/(k/2), or rails x servers/(k/2) when "
        "rail-optimised, rounded up",
        f"=IF({lv}=1,ROUNDUP({e}/{K},0),IF({{$fabric_rail_optimized}}=1,"
        f"{r}*ROUNDUP(({e}/{r})/({K}/2),0),ROUNDUP({e}/({K}/2),0)))",
    )


def _unit_endpoints(x: Tier) -> str:
    """The fabric endpoints of one unit: ``gpus_per_server``, or the catalogue's
    ``fabric_endpoints_per_unit`` where a server of the catalogue gives one (a
    supernode's own fabric, methodology §33; blank: one per GPU)."""
    if "fabric_endpoints_per_unit" not in lead_fields(x.a):
        return "{$gpus_per_server}"
    n = "SUMIFS(Srv_fabric_endpoints_per_unit,Srv_id,{$server})"
    return f"IF({n}>0,{n},{{$gpus_per_server}})"


def _topology_rows(x: Tier, i: int) -> tuple[tuple[str, str, str, str, str], ...]:
    """Rows (key, label, unit, formula, engine field) of deployment ``i``'s
    endpoints, levels and switches per level."""
    e, lv = f"{{$f_e{i}}}", f"{{$f_lv{i}}}"
    before = f"{{$f_e{i - 1}}}+" if i else ""
    leaves_label, leaves = _leaves(x, e, lv)
    plain = _unit_endpoints(x) == "{$gpus_per_server}"
    u1 = f"{{$f_u1{i}}}"
    return (
        (
            "f_e",
            *(
                ("fabric: endpoints = GPUs in service (one NIC per GPU)", "endpoints")
                if plain
                else ("fabric: endpoints = units in service x endpoints per unit", "endpoints")
            ),
            f"={before}{{$d_g{i}}}" if plain else f"={before}{{$d_n{i}}}*{_unit_endpoints(x)}",
            "fabric_endpoints",
        ),
        (
            "f_lv",
            "fabric: levels = 1 if E <= k, 2 if E <= k^2/2, else 3",
            "levels",
            f"=IF({e}<={K},1,IF({e}<={K}^2/2,2,3))",
            "fabric_levels",
        ),
        ("f_l", leaves_label, "switches", leaves, "fabric_leaves"),
        (
            "f_u1",
            "fabric: leaf uplinks U1 = leaves x ROUNDUP((k/2)/o) (2 levels), "
            "ROUNDUP(leaves x (k/2)/o) (3 levels)",
            "links",
            f"=IF({lv}=1,0,IF({lv}=2,{{$f_l{i}}}*{_PER_LEAF},"
            f"ROUNDUP({{$f_l{i}}}*({K}/2)/{OVER},0)))",
            "fabric_leaf_uplinks",
        ),
        (
            "f_s",
            "fabric: spines = smallest divisor of a leaf's uplinks >= U1/k (2 levels)",
            "switches",
            f"=IF({lv}=2,MIN(IF((MOD({_PER_LEAF},{_CANDIDATES})=0)"
            f"*({_CANDIDATES}>=ROUNDUP({u1}/{K},0)),{_CANDIDATES},{_PER_LEAF})),0)",
            "fabric_spines",
        ),
        (
            "f_a",
            "fabric: aggregation A = U1 / (k/2), rounded up (3 levels)",
            "switches",
            f"=IF({lv}=3,ROUNDUP({{$f_u1{i}}}/({K}/2),0),0)",
            "fabric_aggregation",
        ),
        (
            "f_c",
            "fabric: cores = A x (k/2) / k, rounded up (3 levels)",
            "switches",
            f"=IF({lv}=3,ROUNDUP({{$f_a{i}}}*({K}/2)/{K},0),0)",
            "fabric_cores",
        ),
    )


def _cost_rows(x: Tier, i: int) -> tuple[tuple[str, str, str, str, str], ...]:
    """Rows of deployment ``i``'s uplinks, switches, transceivers and cost."""
    e = f"{{$f_e{i}}}"
    return (
        (
            "f_up",
            "fabric: uplinks = U1 + A x (k/2)",
            "links",
            f"={{$f_u1{i}}}+{{$f_a{i}}}*({K}/2)",
            "fabric_uplinks",
        ),
        (
            "f_sw",
            "fabric: switches = leaves + spines + aggregation + cores",
            "switches",
            f"={{$f_l{i}}}+{{$f_s{i}}}+{{$f_a{i}}}+{{$f_c{i}}}",
            "fabric_switches",
        ),
        (
            "f_o",
            "fabric: transceivers = 2 x (endpoints + uplinks)",
            "transceivers",
            f"=2*({e}+{{$f_up{i}}})",
            "fabric_optics",
        ),
        (
            "f_cost",
            "fabric: cost = switches x switch price + transceivers x optic price",
            x.cur,
            f"={{$f_sw{i}}}*{{$fabric_switch_price}}+{{$f_o{i}}}*{{$fabric_optic_price}}",
            "fabric_cost",
        ),
    )

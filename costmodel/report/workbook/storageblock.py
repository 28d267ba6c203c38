"""Tier-sheet storage block (methodology §28.2): for each deployment d the storage of
the GPUs in service after it, ``G_d = g_0 + .. + g_d``, as live formulas of the
deployments' GPUs and the storage inputs (the node's TB, GB/s and price, the per-GPU
targets), the bandwidth-bound and the capacity-bound node counts side by side so that
a reader sees which binds:

- ``need TB = MAX(min TB, TB per GPU x G)``
- ``nodes for writes = ROUNDUP(write per GPU x G / node write - 1e-9)``, reads likewise
- ``bandwidth-bound nodes = MAX(min nodes, writes, reads)``
- ``capacity-bound nodes = ROUNDUP(need TB / node TB - 1e-9)``
- ``nodes = bandwidth-bound`` with a capacity tier, else the larger of the two
- ``capacity tier TB = MAX(0, need TB - nodes x node TB)`` with a capacity tier, else 0
- ``storage cost = nodes x node price + capacity tier TB x its price per TB``
- storage capex of d = storage cost of d - storage cost of d-1.

Cached values are the engine's (``storage_*`` of :attr:`TierResult.deployments`).
"""

from __future__ import annotations

from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.tiercontext import Tier, scalar

#: the tier's storage inputs (engine name, Inputs key, unit; ``{cur}`` = currency)
NODE_LINKS = (
    ("storage_node_capacity_tb", "storage.node.capacity_tb", "TB/node"),
    ("storage_node_write_gbps", "storage.node.write_gbps", "GB/s per node"),
    ("storage_node_read_gbps", "storage.node.read_gbps", "GB/s per node"),
    ("storage_node_price", "storage.node.price", "{cur}/node"),
    ("storage_min_nodes", "storage.min_nodes", "nodes"),
    ("storage_min_capacity_tb", "storage.min_capacity_tb", "TB"),
    ("storage_capacity_tb_per_gpu", "storage.capacity_tb_per_gpu", "TB/GPU"),
    ("storage_write_gbps_per_gpu", "storage.write_gbps_per_gpu", "GB/s per GPU"),
    ("storage_read_gbps_per_gpu", "storage.read_gbps_per_gpu", "GB/s per GPU"),
)
SLACK = "1E-9"


def storage_inputs(x: Tier) -> None:
    """Green links to the tier's storage inputs on the Inputs sheet, and the
    capacity tier's flag and price (an empty price: no capacity tier)."""
    cs = x.cs
    for key, path, unit in NODE_LINKS:
        cell = x.inputs.tier_cells[(x.tier, path)]
        label = f"storage: {path.removeprefix('storage.')}"
        unit = unit.format(cur=x.cur)
        cs.const(key, label, unit, f"={cell}", x.ti[key], "number", GREEN)
    price = x.inputs.tier_cells[(x.tier, "storage.capacity_price_per_tb")]
    cs.const(
        "storage_capacity_tier",
        "storage: capacity tier (1 when its price per TB is given)",
        "flag",
        f"=ISNUMBER({price})*1",
        x.ti["storage_capacity_tier"],
        "flag",
    )
    cs.const(
        "storage_capacity_price_per_tb",
        "storage: capacity tier price per TB (0 without one)",
        x.money("TB"),
        f"=IF(ISNUMBER({price}),{price},0)",
        x.ti["storage_capacity_price_per_tb"],
        "money",
    )


def storage_rows(x: Tier, i: int, d: dict) -> str:
    """The storage of deployment ``i`` (its cumulative GPUs); returns the formula of
    its storage capex."""
    for key, label, unit, formula, source, kind in (*_count_rows(i), *_total_rows(x, i)):
        value = x.rows.gpus_so_far[i] if source == "gpus" else scalar(d[source])
        x.cs.const(f"{key}{i}", f"deployment {i}: {label}", unit, formula, value, kind)
    prev = f"-{{$st_cost{i - 1}}}" if i else ""
    return f"={{$st_cost{i}}}{prev}"


def _count_rows(i: int) -> tuple[tuple[str, str, str, str, str, str], ...]:
    """(key, label, unit, formula, engine field, format) of deployment ``i``'s GPUs,
    TB needed and node counts."""
    g = f"{{$st_g{i}}}"
    before = f"{{$st_g{i - 1}}}+" if i else ""
    node_tb = "{$storage_node_capacity_tb}"
    return (
        ("st_g", "storage: GPUs in service", "GPUs", f"={before}{{$d_g{i}}}", "gpus", "count"),
        (
            "st_need",
            "storage: TB needed = MAX(min TB, TB per GPU x GPUs)",
            "TB",
            f"=MAX({{$storage_min_capacity_tb}},{{$storage_capacity_tb_per_gpu}}*{g})",
            "storage_need_tb",
            "number",
        ),
        (
            "st_nw",
            "storage: nodes for writes = write per GPU x GPUs / node write, rounded up",
            "nodes",
            f"=ROUNDUP({{$storage_write_gbps_per_gpu}}*{g}/{{$storage_node_write_gbps}}-{SLACK},0)",
            "storage_nodes_write",
            "count",
        ),
        (
            "st_nr",
            "storage: nodes for reads = read per GPU x GPUs / node read, rounded up",
            "nodes",
            f"=ROUNDUP({{$storage_read_gbps_per_gpu}}*{g}/{{$storage_node_read_gbps}}-{SLACK},0)",
            "storage_nodes_read",
            "count",
        ),
        (
            "st_nbw",
            "storage: bandwidth-bound nodes = MAX(min nodes, writes, reads)",
            "nodes",
            f"=MAX({{$storage_min_nodes}},{{$st_nw{i}}},{{$st_nr{i}}})",
            "storage_nodes_bw",
            "count",
        ),
        (
            "st_ncap",
            "storage: capacity-bound nodes = TB needed / node TB, rounded up",
            "nodes",
            f"=ROUNDUP({{$st_need{i}}}/{node_tb}-{SLACK},0)",
            "storage_nodes_cap",
            "count",
        ),
    )


def _total_rows(x: Tier, i: int) -> tuple[tuple[str, str, str, str, str, str], ...]:
    """Rows of deployment ``i``'s nodes, capacity tier, TB, write bandwidth and cost."""
    node_tb, tier = "{$storage_node_capacity_tb}", "{$storage_capacity_tier}"
    return (
        (
            "st_n",
            "storage: nodes = bandwidth-bound (capacity tier) or the larger of the two",
            "nodes",
            f"=IF({tier}=1,{{$st_nbw{i}}},MAX({{$st_nbw{i}}},{{$st_ncap{i}}}))",
            "storage_nodes",
            "count",
        ),
        (
            "st_x",
            "storage: capacity tier TB = MAX(0, TB needed - nodes x node TB)",
            "TB",
            f"=IF({tier}=1,MAX(0,{{$st_need{i}}}-{{$st_n{i}}}*{node_tb}),0)",
            "storage_extra_tb",
            "number",
        ),
        (
            "st_tb",
            "storage: TB = nodes x node TB + capacity tier TB",
            "TB",
            f"={{$st_n{i}}}*{node_tb}+{{$st_x{i}}}",
            "storage_tb",
            "number",
        ),
        (
            "st_w",
            "storage: write bandwidth = nodes x node write",
            "GB/s",
            f"={{$st_n{i}}}*{{$storage_node_write_gbps}}",
            "storage_write_gbps",
            "number",
        ),
        (
            "st_cost",
            "storage: cost = nodes x node price + capacity tier TB x its price",
            x.cur,
            f"={{$st_n{i}}}*{{$storage_node_price}}+{{$st_x{i}}}*{{$storage_capacity_price_per_tb}}",
            "storage_cost",
            "money",
        ),
    )

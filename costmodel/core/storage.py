"""Storage sized by capacity and by bandwidth (methodology §28.2).

For a cluster of G GPUs (the GPUs in service after a deployment), storage nodes of
``capacity_tb``, ``write_gbps``, ``read_gbps`` and ``price`` each, and the per-GPU
targets of the tier's storage (``ceil(x)`` is ``ceil(x - 1e-9)``):

- ``need_tb = max(min_capacity_tb, capacity_tb_per_gpu * G)``;
- ``nodes_bw = max(min_nodes, ceil(write_gbps_per_gpu * G / node.write_gbps),
  ceil(read_gbps_per_gpu * G / node.read_gbps))``: the nodes the bandwidth needs;
- ``nodes_cap = ceil(need_tb / node.capacity_tb)``: the nodes the capacity needs;
- without a capacity tier: ``nodes = max(nodes_bw, nodes_cap)``, ``extra_tb = 0``;
  with one (``capacity_price_per_tb``): ``nodes = nodes_bw`` and the TB beyond the
  nodes, ``extra_tb = max(0, need_tb - nodes * node.capacity_tb)``, are bought at
  ``capacity_price_per_tb`` (an object store);
- ``storage_cost(G) = nodes * node.price + extra_tb * capacity_price_per_tb``,
  ``storage_tb(G) = nodes * node.capacity_tb + extra_tb``,
  ``storage_write(G) = nodes * node.write_gbps`` (GB/s, aggregate).

Deployment d pays ``storage_cost(G_1..d) - storage_cost(G_1..d-1)`` at its capex
month, with no price decline (as the fabric). Every function works elementwise on
the variant axis; ``capacity_tier`` is a 1/0 flag per variant.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from costmodel.core.finance import FloatArray
from costmodel.core.tierparams import TierParams

#: ``ceil(x - CEIL_SLACK)``: a count that is whole up to rounding is not rounded up
CEIL_SLACK = 1e-9

#: the engine inputs of node-sized storage (methodology §28.2)
NODE_KEYS = (
    "storage_node_capacity_tb",
    "storage_node_write_gbps",
    "storage_node_read_gbps",
    "storage_node_price",
    "storage_min_nodes",
    "storage_min_capacity_tb",
    "storage_capacity_tb_per_gpu",
    "storage_write_gbps_per_gpu",
    "storage_read_gbps_per_gpu",
    "storage_capacity_tier",
    "storage_capacity_price_per_tb",
)


def node_sized(q: TierParams) -> bool:
    """Whether the tier's storage is sized in nodes (methodology §28.2)."""
    return q.storage_node_price is not None


def ceil_whole(x: ArrayLike) -> FloatArray:
    """``ceil(x - 1e-9)``."""
    return np.ceil(np.asarray(x, dtype=float) - CEIL_SLACK)


def storage_sizing(q: TierParams, gpus: ArrayLike) -> dict[str, FloatArray]:
    """The storage of a cluster of ``gpus`` GPUs (module docstring): ``need_tb``,
    ``nodes_write``, ``nodes_read`` (the bandwidth's counts before ``min_nodes``),
    ``nodes_bw``, ``nodes_cap``, ``nodes``, ``extra_tb``, ``cost``, ``tb``,
    ``write_gbps`` and ``read_gbps``."""
    g = np.asarray(gpus, dtype=float)
    need = np.maximum(q.storage_min_capacity_tb, q.storage_capacity_tb_per_gpu * g)
    nodes_write = ceil_whole(q.storage_write_gbps_per_gpu * g / q.storage_node_write_gbps)
    nodes_read = ceil_whole(q.storage_read_gbps_per_gpu * g / q.storage_node_read_gbps)
    nodes_bw = np.maximum(q.storage_min_nodes, np.maximum(nodes_write, nodes_read))
    nodes_cap = ceil_whole(need / q.storage_node_capacity_tb)
    tier = np.asarray(q.storage_capacity_tier, dtype=float) > 0
    nodes = np.where(tier, nodes_bw, np.maximum(nodes_bw, nodes_cap))
    extra = np.where(tier, np.maximum(0.0, need - nodes * q.storage_node_capacity_tb), 0.0)
    return {
        "need_tb": need,
        "nodes_write": nodes_write,
        "nodes_read": nodes_read,
        "nodes_bw": nodes_bw,
        "nodes_cap": nodes_cap,
        "nodes": nodes,
        "extra_tb": extra,
        "cost": nodes * q.storage_node_price + extra * q.storage_capacity_price_per_tb,
        "tb": nodes * q.storage_node_capacity_tb + extra,
        "write_gbps": nodes * q.storage_node_write_gbps,
        "read_gbps": nodes * q.storage_node_read_gbps,
    }


def design_storage(q: TierParams, gpus: list[FloatArray]) -> list[dict[str, FloatArray]]:
    """Per deployment d: the storage of the ``G_1 + .. + G_d`` GPUs in service
    (``storage_<key>`` of :func:`storage_sizing`) and its capex,
    ``storage = storage_cost(G_1..d) - storage_cost(G_1..d-1)``."""
    out, before, cost_before = [], np.zeros_like(gpus[0]), np.zeros_like(gpus[0])
    for g in gpus:
        now = before + g
        s = storage_sizing(q, now)
        row = {f"storage_{key}": value for key, value in s.items()}
        row["storage"] = s["cost"] - cost_before
        out.append(row)
        before, cost_before = now, s["cost"]
    return out


def storage_columns(q: TierParams, deps: list[dict[str, FloatArray]]) -> dict[str, FloatArray]:
    """Summary columns of the final cluster's storage (methodology §28.2): in nodes,
    ``storage_tb``, ``storage_write_gbps`` and ``storage_nodes`` of the storage of
    every deployment's GPUs; otherwise the deployments' capacity, ``write_gbps``
    and no node count (NaN)."""
    last = deps[-1]
    if "storage_nodes" in last:
        return {
            "storage_tb": last["storage_tb"],
            "storage_write_gbps": last["storage_write_gbps"],
            "storage_nodes": last["storage_nodes"],
        }
    tb = q.storage_capacity_tb + sum(st.capacity_tb for st in q.stages[: len(deps) - 1])
    write = np.broadcast_to(np.asarray(q.write_gbps, dtype=float), np.shape(tb))
    return {
        "storage_tb": tb,
        "storage_write_gbps": write,
        "storage_nodes": np.full_like(np.asarray(tb, dtype=float), np.nan),
    }

"""Quotes rolled to the start and supply lead times (methodology §30).

A price may carry ``as_of: YYYY-MM``, the month it was observed. Its value at the
model's ``start`` month is ``value * (1 - d)^(months(start - as_of) / 12)``: ``d`` the
tier's ``revenue.price_decline`` (after a tier override) for GPU-hour prices (spot,
contract, a server's cloud prices) and the server's ``price_decline`` for its
``price``. The engine rolls (:func:`costmodel.core.siteprices.selling_prices`), so that a
quote's low and high, varied by the tornado or drawn by Monte Carlo, roll the same
way as its value; this module gives it the months of each roll
(``<input>_roll_months``, present only for a quote with ``as_of``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from costmodel.inputs.schema import Assumptions, Quantity

#: engine input -> the engine input of its months of roll
ROLLED = {
    "price_per_gpu_hour": "spot_roll_months",
    "contract_price_per_gpu_hour": "contract_roll_months",
    "cloud_price_per_gpu_hour": "cloud_roll_months",
    "server_price": "server_price_roll_months",
}


def months_between(start: str, as_of: str) -> int:
    """Whole months from ``as_of`` to ``start`` (both ``YYYY-MM``).

    >>> months_between("2027-01", "2025-03")
    22
    """
    sy, sm = (int(x) for x in start.split("-"))
    ay, am = (int(x) for x in as_of.split("-"))
    return (sy - ay) * 12 + (sm - am)


def node_at(a: Assumptions, path: str) -> Any:
    """The node at dotted ``path`` of ``a`` (None where a key is absent)."""
    node: Any = a
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else getattr(node, part, None)
        if node is None:
            return None
    return node


def put_rolls(
    a: Assumptions,
    paths: dict[str, str],
    put: Callable[[str, str, float], None],
) -> None:
    """For each rolled engine input (``ROLLED``) read from a quantity with ``as_of``
    (``paths``: engine input -> the dotted path it was read from), its months of roll
    at ``<path>.as_of``."""
    for name, months in ROLLED.items():
        path = paths.get(name)
        q = node_at(a, path) if path is not None else None
        if isinstance(q, Quantity) and q.as_of is not None:
            put(months, f"{path}.as_of", float(months_between(a.start, q.as_of)))


#: the dotted paths whose quantities may carry ``as_of`` (``*`` any one key)
QUOTE_PATHS = (
    "revenue.price_per_gpu_hour",
    "revenue.contract.price_per_gpu_hour",
    "tiers.*.revenue.price_per_gpu_hour",
    "tiers.*.revenue.contract.price_per_gpu_hour",
    "servers.*.price",
    "servers.*.cloud_on_demand_per_gpu_hour",
    "servers.*.cloud_reserved_per_gpu_hour",
)


def is_quote_path(path: str) -> bool:
    """``path`` is one of :data:`QUOTE_PATHS`."""
    parts = path.split(".")
    for pattern in QUOTE_PATHS:
        want = pattern.split(".")
        if len(want) == len(parts) and all(w in ("*", p) for w, p in zip(want, parts, strict=True)):
            return True
    return False

"""Rules that relate several sections of the assumptions (spec 2, "Validation").

Each rule yields ``(dotted_path, rendered_value, rule)`` so that the loader can
name the file and line of the offending value.
"""

from __future__ import annotations

from collections.abc import Iterator

from costmodel.inputs.params import revenue_mode
from costmodel.inputs.schema import Assumptions


def check_consistency(a: Assumptions) -> list[tuple[str, str, str]]:
    return list(_iter_problems(a))


def _iter_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    pue = a.power.pue
    build = a.facility.build_cost_per_kw
    max_rack = a.facility.max_rack_kw
    for name, tier in a.tiers.items():
        base = f"tiers.{name}"
        server = a.servers.get(tier.server)
        if server is None:
            known = ", ".join(a.servers)
            yield f"{base}.server", repr(tier.server), f"unknown server; the catalogue has: {known}"
        else:
            n = server.gpus_per_server
            if tier.gpus % n:
                yield (
                    f"{base}.gpus",
                    str(tier.gpus),
                    f"must be a positive multiple of {n} (gpus_per_server of {tier.server})",
                )
            mode, term = revenue_mode(a, name)
            key = f"cloud_{term}_per_gpu_hour"
            if mode == "avoided_cloud" and getattr(server, key) is None:
                yield (
                    f"servers.{tier.server}.{key}",
                    "",
                    f"required: tier {name} values GPU-hours at the cloud price "
                    f"(revenue.mode avoided_cloud, cloud_term {term})",
                )
            if tier.rack_kw.value < server.power_kw.value:
                yield (
                    f"{base}.rack_kw",
                    f"{tier.rack_kw.value:g}",
                    f"a rack must hold at least one {tier.server} server "
                    f"({server.power_kw.value:g} kW)",
                )
        missing = [
            sect
            for sect, table in (
                ("power.pue", pue),
                ("facility.build_cost_per_kw", build),
                ("facility.max_rack_kw", max_rack),
            )
            if tier.cooling not in table
        ]
        if missing:
            yield (
                f"{base}.cooling",
                repr(tier.cooling),
                f"unknown cooling; it must be a key of {' and '.join(missing)} "
                f"(known: {', '.join(pue)})",
            )
        elif tier.rack_kw.value > max_rack[tier.cooling].value:
            limit = max_rack[tier.cooling].value
            yield (
                f"{base}.rack_kw",
                f"{tier.rack_kw.value:g}",
                f"{tier.cooling} cooling cannot serve a {tier.rack_kw.value:g} kW rack: "
                f"facility.max_rack_kw.{tier.cooling} is {limit:g} kW "
                "(choose a denser cooling or a lower rack power)",
            )

"""Rules that relate several sections of the assumptions (methodology §2.4).

Each rule yields ``(dotted_path, rendered_value, rule)`` so that the loader can
name the file and line of the offending value.
"""

from __future__ import annotations

from collections.abc import Iterator

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core.config import servers_per_rack
from costmodel.inputs.correlations import correlation_problems
from costmodel.inputs.designs import tier_design_parts
from costmodel.inputs.params import CONTRACT_KEYS, contract_paths, revenue_mode
from costmodel.inputs.paths import key_path
from costmodel.inputs.schema import Assumptions, Quantity
from costmodel.inputs.siterules import quote_problems, site_problems
from costmodel.inputs.suggest import name_hint

#: One broken rule: (dotted path, rendered value, rule).
RuleProblem = tuple[str, str, str]


def check_consistency(a: Assumptions) -> list[tuple[str, str, str]]:
    return list(_iter_problems(a))


def _iter_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    yield from _name_problems(a)
    yield from _tier_problems(a)
    yield from _design_cooling_problems(a)
    yield from _model_problems(a)
    yield from _contract_problems(a)
    yield from _discount_problems(a)
    yield from correlation_problems(a)
    yield from site_problems(a)
    yield from quote_problems(a)


#: The years a start month may have: spreadsheet dates run from 1900 to 9999.
FIRST_YEAR, LAST_YEAR = 1900, 9999

#: Characters that spreadsheet lookups (MATCH, COUNTIF) read as wildcards.
WILDCARDS = "*?~"


def _control(name: str) -> bool:
    return any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in name)


def _name_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    """Names of tiers, servers and cooling types become workbook labels and
    lookup keys: no control characters, no wildcard characters, and no two that
    differ only by case (spreadsheet lookups ignore case)."""
    tables = {
        "tiers": a.tiers,
        "servers": a.servers,
        "power.pue": a.power.pue,
        "facility.build_cost_per_kw": a.facility.build_cost_per_kw,
        "facility.max_rack_kw": a.facility.max_rack_kw,
        "sites": a.sites,
    }
    for section, table in tables.items():
        seen: dict[str, str] = {}
        for name in table:
            path = key_path(*section.split("."), name)
            if _control(name):
                yield path, repr(name), "a name must not contain control characters"
            elif any(c in name for c in WILDCARDS):
                yield (
                    path,
                    repr(name),
                    f"a name must not contain {', '.join(WILDCARDS)} "
                    "(spreadsheet lookups read them as wildcards)",
                )
            elif not name.strip():
                yield path, repr(name), "a name must not be empty or blank"
            folded = name.casefold()
            if folded in seen:
                yield (
                    path,
                    repr(name),
                    f"differs from {seen[folded]!r} only by case "
                    f"({key_path(*section.split('.'), seen[folded])}); spreadsheet lookups "
                    "ignore case, so names must differ by more than case",
                )
            else:
                seen[folded] = name


def _model_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    """Rules of methodology §8.1 and §8.3 that do not depend on a tier."""
    months = 12 * min(v for _, v in ends(a.horizon_years))  # the shortest horizon varied
    year = int(a.start[:4])
    if not FIRST_YEAR <= year <= LAST_YEAR - a.horizon_years:
        yield (
            "start",
            repr(a.start),
            f"the year must be from {FIRST_YEAR} to {LAST_YEAR - a.horizon_years} (spreadsheet "
            f"dates run from 1900 to {LAST_YEAR}, and the horizon is {a.horizon_years} years)",
        )
    yield from _timeline_problems(a, months)
    if a.depreciation.facility.tax_method == "expensed":
        yield (
            "depreciation.facility.tax_method",
            "'expensed'",
            "expensed is for equipment; buildings do not qualify for the one-off "
            "deduction (methodology §11.7): use book",
        )
    income_build = a.terminal_value == "income" and a.facility.mode == "build"
    if income_build and a.depreciation.facility.market_decline is None:
        yield (
            "depreciation.facility.market_decline",
            "",
            "required: terminal_value is income and the facility is built, so the "
            "facility is valued at market (methodology §30)",
        )
    if a.terminal_value == "market":
        for cls in CAPEX_CLASSES:
            if getattr(a.depreciation, cls).market_decline is None:
                yield (
                    f"depreciation.{cls}.market_decline",
                    "",
                    "required: terminal_value is market, so every asset class needs "
                    "its annual market decline",
                )


def _build_problems(q: Quantity, path: str, whose: str, months: int) -> Iterator[RuleProblem]:
    """Construction ``q`` (its value, and the high of a range drawn or varied) must
    leave at least one operating month in the horizon: ``round(B) <= M - 1``; a
    normal draw reaches the field's bound (360 months), so it is refused."""
    ends = [("", q.value)] + ([(".high", q.high)] if q.high is not None else [])
    for key, b in ends:
        if round(b) >= months:
            yield (
                path + key,
                f"{b:g}",
                f"{whose}: construction of {b:g} months leaves no operating month in the "
                f"{months}-month horizon (horizon_years {months // 12}); it must be at most "
                f"{months - 1} months",
            )
    if q.dist == "normal" and (q.sd or 0) > 0:
        yield (
            path + ".dist",
            "normal",
            f"{whose}: a normal draw of construction months can reach month 360, past the "
            f"{months}-month horizon; use triangular or uniform with high at most {months - 1}",
        )


def _timeline_problems(a: Assumptions, months: int) -> Iterator[RuleProblem]:
    """Methodology §2.4: every tier's effective construction (its own
    ``timeline.build_months`` or the global one) ends before the horizon."""
    shared = [
        t
        for t, tier in a.tiers.items()
        if tier.timeline is None or tier.timeline.build_months is None
    ]
    if shared:  # the global value applies to these tiers only
        whose = f"tier{'s' if len(shared) > 1 else ''} {', '.join(shared)}"
        yield from _build_problems(a.timeline.build_months, "timeline.build_months", whose, months)
    for name, tier in a.tiers.items():
        own = tier.timeline.build_months if tier.timeline is not None else None
        if own is not None:
            path = key_path("tiers", name, "timeline", "build_months")
            yield from _build_problems(own, path, f"tier {name}", months)


def ends(x: int) -> list[tuple[str, int]]:
    """``[("", value), ("low", low), ("high", high)]`` of a whole-number input, the
    ends given (a :class:`~costmodel.inputs.schema.WholeNumber` carries them)."""
    out = [("", int(x))]
    for end in ("low", "high"):
        v = getattr(x, end, None)
        if v is not None:
            out.append((end, int(v)))
    return out


def _multiple_problems(path: str, gpus: int, per_server: int, server: str):
    """Value, low and high of a GPU count each a positive multiple of the server size."""
    for end, v in ends(gpus):
        if v % per_server:
            label = f"{end} {v}: " if end else ""
            yield (
                path,
                str(int(gpus)),
                f"{label}must be a positive multiple of {per_server} (gpus_per_server of {server})",
            )


def _stage_problems(a: Assumptions, name: str, per_server: int) -> Iterator[tuple[str, str, str]]:
    """Methodology §8.1: stage months strictly increasing, after construction and before the
    horizon end; stage GPUs positive multiples of the server size."""
    tier = a.tiers[name]
    own = tier.timeline.build_months if tier.timeline is not None else None
    build = (own or a.timeline.build_months).value
    months = 12 * min(v for _, v in ends(a.horizon_years))  # the shortest horizon varied
    previous = build
    for i, st in enumerate(tier.stages):
        path = key_path("tiers", name, "stages", i)
        if st.month <= previous or st.month >= months:
            after = "build_months" if i == 0 else "the stage before"
            yield (
                f"{path}.month",
                str(st.month),
                f"tier {name}: a stage's month must be after {after} (month {previous:g}) and "
                f"before the horizon end (month {months} of {a.horizon_years} years), so "
                "that it has an operating month",
            )
        for end, v in ends(st.month)[1:]:  # a range of the month: within the same bounds
            if v <= build or v >= months:
                yield (
                    f"{path}.month",
                    str(int(st.month)),
                    f"{end} {v}: must be after build_months (month {build:g}) and before the "
                    f"horizon end (month {months})",
                )
        previous = max(previous, st.month)
        yield from _multiple_problems(f"{path}.gpus", st.gpus, per_server, tier.server)


def _tier_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    pue = a.power.pue
    build = a.facility.build_cost_per_kw
    max_rack = a.facility.max_rack_kw
    rent = a.facility.colocation_per_kw_month
    rent = rent if isinstance(rent, dict) else None
    for name, tier in a.tiers.items():
        base = key_path("tiers", name)
        server = a.servers.get(tier.server)
        if server is None:
            known = ", ".join(a.servers)
            hint = name_hint(tier.server, a.servers)
            yield (
                f"{base}.server",
                repr(tier.server),
                f"unknown server{hint} the catalogue has: {known}",
            )
        else:
            n = server.gpus_per_server
            yield from _multiple_problems(f"{base}.gpus", tier.gpus, n, tier.server)
            mode, term = revenue_mode(a, name)
            key = f"cloud_{term}_per_gpu_hour"
            if mode == "avoided_cloud" and getattr(server, key) is None:
                yield (
                    f"servers.{tier.server}.{key}",
                    "",
                    f"required: tier {name} values GPU-hours at the cloud price "
                    f"(revenue.mode avoided_cloud, cloud_term {term})",
                )
            aux = a.power.aux_power_fraction.value
            per_server_kw = server.power_kw.value * (1 + aux)
            whole_racks = server.racks_per_unit is None  # a rack-scale unit spans its own
            if whole_racks and servers_per_rack(tier.rack_kw.value, server.power_kw.value, aux) < 1:
                yield (
                    f"{base}.rack_kw",
                    f"{tier.rack_kw.value:g}",
                    f"a {tier.rack_kw.value:g} kW rack cannot hold one {tier.server} server, "
                    f"which draws {per_server_kw:g} kW ({server.power_kw.value:g} kW x "
                    f"(1 + aux_power_fraction {a.power.aux_power_fraction.value:g}))",
                )
            yield from _stage_problems(a, name, n)
        yield from _fabric_problems(a, name)
        missing = [
            sect
            for sect, table in (
                ("power.pue", pue),
                ("facility.build_cost_per_kw", build),
                ("facility.max_rack_kw", max_rack),
                ("facility.colocation_per_kw_month", rent),  # a rent by cooling (§28.3)
            )
            if table is not None and tier.cooling not in table
        ]
        # a design's cooling and racks are reported at the design (_design_cooling_problems)
        taken = tier_design_parts(a, name) >= {"cooling", "rack_kw"}
        if missing and "cooling" in tier_design_parts(a, name):
            pass
        elif missing:
            yield (
                f"{base}.cooling",
                repr(tier.cooling),
                f"unknown cooling{name_hint(tier.cooling, pue)} it must be a key of "
                f"{' and '.join(missing)} "
                f"(known: {', '.join(k for k in pue if k in build and k in max_rack)})",
            )
        elif tier.rack_kw.value > max_rack[tier.cooling].value and not taken:
            limit = max_rack[tier.cooling].value
            yield (
                f"{base}.rack_kw",
                f"{tier.rack_kw.value:g}",
                f"{tier.cooling} cooling cannot serve a {tier.rack_kw.value:g} kW rack: "
                f"facility.max_rack_kw.{tier.cooling} is {limit:g} kW "
                "(choose a denser cooling or a lower rack power)",
            )


def _design_cooling_problems(a: Assumptions) -> Iterator[RuleProblem]:
    """Every design's cooling is a key of the PUE, build cost, rack limit and (a rent
    by cooling) rent tables, and its racks within the cooling's limit (methodology
    §28.1), whether or not a tier takes it now: a sweep or a GPU edit may take it."""
    rent = a.facility.colocation_per_kw_month
    tables = (
        ("power.pue", a.power.pue),
        ("facility.build_cost_per_kw", a.facility.build_cost_per_kw),
        ("facility.max_rack_kw", a.facility.max_rack_kw),
        ("facility.colocation_per_kw_month", rent if isinstance(rent, dict) else None),
    )
    for key, d in a.designs.items():
        missing = [sect for sect, t in tables if t is not None and d.cooling not in t]
        if missing:
            yield (
                f"designs.{key}.cooling",
                repr(d.cooling),
                f"unknown cooling{name_hint(d.cooling, a.power.pue)} it must be a key of "
                f"{' and '.join(missing)} (the {key} design is priced by its cooling)",
            )
            continue
        limit = a.facility.max_rack_kw[d.cooling].value
        if d.rack_kw.value > limit:
            yield (
                f"designs.{key}.rack_kw",
                f"{d.rack_kw.value:g}",
                f"{d.cooling} cooling cannot serve a {d.rack_kw.value:g} kW rack: "
                f"facility.max_rack_kw.{d.cooling} is {limit:g} kW (choose a denser "
                "cooling or a lower rack power for the design)",
            )


def _fabric_problems(a: Assumptions, name: str) -> Iterator[RuleProblem]:
    """Three levels hold at most k^3 / 4 endpoints (methodology §12.1): the final
    GPUs of the tier (its high end where ranged) must fit."""
    tier = a.tiers[name]
    d = tier.network.design
    base = f"{key_path('tiers', name)}.network"
    if tier.network.share is not None and d is not None:
        yield f"{base}.design", "", "give exactly one of share and design (share is given too)"
    if tier.network.share is None and d is None:
        yield base, "", "required: share or design (methodology §12.1)"
    if d is None:
        return
    final = max(v for _, v in ends(tier.gpus)) + sum(
        max(v for _, v in ends(s.gpus)) for s in tier.stages
    )
    k = min(v for _, v in ends(d.switch_radix))
    server, what = a.servers.get(tier.server), "GPUs"
    if server is not None and server.fabric_endpoints_per_unit is not None:
        final = final // int(server.gpus_per_server) * int(server.fabric_endpoints_per_unit)
        what = "fabric endpoints"
    if final > k**3 / 4:
        yield (
            f"{base}.design.switch_radix",
            str(k),
            f"3 levels of radix {k} hold at most {k**3 // 4} endpoints; "
            f"the tier reaches {final} {what}",
        )


def _contract_problems(a: Assumptions) -> Iterator[tuple[str, str, str]]:
    """A tier's contract (methodology §11.5) given only in part must find the rest
    in the global ``revenue.contract``."""
    for name in a.tiers:
        paths = contract_paths(a, name)
        if paths is None:
            continue
        for key in CONTRACT_KEYS:
            if key not in paths and key not in ("escalation", "default_rate"):
                yield (
                    key_path("tiers", name, "revenue", "contract", key),
                    "(missing)",
                    f"the tier's contract needs {key} (no global revenue.contract gives it)",
                )


def _discount_problems(a: Assumptions) -> Iterator[RuleProblem]:
    """``finance.discount_rate: wacc`` (methodology §11.10) weighs the cost of
    equity, so the financing must give it."""
    if a.finance.discount_rate != "wacc":
        return
    if a.financing is None or a.financing.cost_of_equity is None:
        where = "financing" if a.financing is None else "financing.cost_of_equity"
        yield (
            "finance.discount_rate",
            "wacc",
            f"wacc weighs the cost of equity: give {where}"
            + (
                " with debt_share, interest_rate, term_years and cost_of_equity"
                if a.financing is None
                else ""
            ),
        )

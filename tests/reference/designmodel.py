"""An independent implementation of a tier built from a scale-class design, month by
month in plain Python, for the held-out checks of designs (methodology sections 1-9,
14-16, 20, 26 and 28).

It reads the assumption files as plain YAML (never the package's loader, schema or
engine), merges them key by key, applies dotted overrides, resolves the tier's design
itself (``design: auto`` takes the design of the scale class of the final GPU count;
a value the tier writes beats the design, the design beats the global value) and
computes every summary column from the formulas of the methodology written out here.
It covers what its cases use: deployments (a first one and stages of GPUs), servers
with a price decline, a network share or a designed fabric (the spine correction and
rail-optimised leaves of section 28.4), storage priced per TB or sized in nodes by
capacity and bandwidth with an optional capacity tier (28.2), cooling and rack power,
PUE, build cost and rent by cooling, facility built (with or without reserved
headroom) or rented, staff from ``staff_scaling``, straight-line depreciation with
salvage, a loss pool without expiry, terminal value book or none, repair downtime and
goodput (section 9). No financing, VAT, contract, selling costs or subsidies: their
columns are given at the values a project without them has.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path

import yaml

H = 730.0  # hours per month (section 1)
SLACK = 1e-9  # ceil(x) of section 28.2 is ceil(x - 1e-9)


def load(paths: list[Path], overrides: dict | None = None) -> dict:
    """The files merged key by key (a later file's mapping merges into an earlier one,
    anything else replaces it), then each ``dotted.path: value`` of ``overrides``."""
    doc: dict = {}
    for p in paths:
        merge(doc, yaml.safe_load(Path(p).read_text(encoding="utf-8")) or {})
    for dotted, value in (overrides or {}).items():
        *head, last = dotted.split(".")
        node = doc
        for key in head:
            node = node.setdefault(key, {})
        node[last] = copy.deepcopy(value)
    return doc


def merge(into: dict, other: dict) -> None:
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def scale_class(gpus: float) -> str:
    """Section 3."""
    return "tens" if gpus <= 64 else "hundreds" if gpus <= 511 else "thousands"


def ceil_(x: float) -> int:
    return math.ceil(x - SLACK)


# --- the network (sections 26 and 28.4) -------------------------------------------


def fabric(endpoints: int, k: int, o: float, rails: int) -> dict:
    """Levels, switches and optics of a fabric of ``endpoints`` NICs at radix k."""
    half = k // 2
    if endpoints <= 0:
        return {"levels": 0, "switches": 0, "optics": 0}
    if endpoints <= k:
        levels, switches, uplinks = 1, math.ceil(endpoints / k), 0
    else:
        levels = 2 if endpoints <= k * k / 2 else 3
        if rails:
            leaves = rails * ceil_(ceil_(endpoints / rails) / half)
        else:
            leaves = math.ceil(endpoints / half)
        if levels == 2:
            per_leaf = math.ceil(half / o)
            u1 = leaves * per_leaf
            # the smallest divisor of a leaf's uplinks that is at least ceil(U1 / k)
            spines = next(
                s for s in range(1, per_leaf + 1) if per_leaf % s == 0 and s >= math.ceil(u1 / k)
            )
            switches, uplinks = leaves + spines, u1
        else:
            u1 = math.ceil(leaves * half / o)
            agg = math.ceil(u1 / half)
            u2 = agg * half
            switches, uplinks = leaves + agg + math.ceil(u2 / k), u1 + u2
    return {"levels": levels, "switches": switches, "optics": 2 * (endpoints + uplinks)}


# --- storage (section 28.2) ---------------------------------------------------------


def storage_of(s: dict, gpus: int) -> dict:
    n = s["node"]
    need = max(s.get("min_capacity_tb", 0.0), s.get("capacity_tb_per_gpu", 0.0) * gpus)
    nodes_bw = max(
        s.get("min_nodes", 1),
        ceil_(s.get("write_gbps_per_gpu", 0.0) * gpus / n["write_gbps"]),
        ceil_(s.get("read_gbps_per_gpu", 0.0) * gpus / n["read_gbps"]),
    )
    tier_price = s.get("capacity_price_per_tb")
    if tier_price is None:
        nodes, extra = max(nodes_bw, ceil_(need / n["capacity_tb"])), 0.0
    else:
        nodes = nodes_bw
        extra = max(0.0, need - nodes * n["capacity_tb"])
    return {
        "nodes": nodes,
        "cost": nodes * n["price"] + extra * (tier_price or 0.0),
        "tb": nodes * n["capacity_tb"] + extra,
        "write": nodes * n["write_gbps"],
    }


# --- a tier ---------------------------------------------------------------------


def resolved_tier(doc: dict, name: str) -> dict:
    """The tier with its design's parts where it does not size them (section 28.1)."""
    t = copy.deepcopy(doc["tiers"][name])
    final = t["gpus"] + sum(st["gpus"] for st in t.get("stages", []))
    key = t.get("design")
    if key is None:
        t["design_key"] = ""
        return t
    key = scale_class(final) if key == "auto" else key
    d = doc["designs"][key]
    assert final <= d["max_gpus"], (name, final, key)
    for part in ("network", "storage", "cooling", "rack_kw", "staff_scaling"):
        if part not in t and not (part == "staff_scaling" and "staff_fte" in t):
            t[part] = copy.deepcopy(d[part])
    if "mfu" in d and "mfu" not in t.get("reliability", {}):
        t.setdefault("reliability", {})["mfu"] = d["mfu"]
    t["design_key"] = key
    return t


def tier_row(doc: dict, name: str) -> dict:
    """Every summary column of tier ``name`` (sections 8, 9, 14-16, 20, 26, 28)."""
    t = resolved_tier(doc, name)
    srv = doc["servers"][t["server"]]
    gps = srv["gpus_per_server"]
    M = 12 * doc["horizon_years"]
    Y = M // 12

    def opt(section: str, key: str, default=None):
        own = t.get(section, {})
        if key in own:
            return own[key]
        return doc.get(section, {}).get(key, default)

    util = opt("operations", "utilization")
    pd_ = opt("revenue", "price_decline", 0.0)
    price = opt("revenue", "price_per_gpu_hour")
    kwh = opt("power", "price_per_kwh")
    esc = opt("power", "escalation", 0.0)
    aux = doc["power"]["aux_power_fraction"]
    B = opt("timeline", "build_months", 0)
    ramp = opt("timeline", "ramp_months", 0)
    cooling = t["cooling"]
    pue = doc["power"]["pue"][cooling]
    fac = doc["facility"]
    build = fac["mode"] == "build"
    rent_in = fac["colocation_per_kw_month"]
    rent = rent_in[cooling] if isinstance(rent_in, dict) else rent_in
    build_kw = fac["build_cost_per_kw"][cooling]
    retrofit = fac.get("retrofit_premium", 0.0)
    headroom = t.get("reserve_headroom", True)
    srv_decline = srv.get("price_decline", 0.0)
    idle = srv["idle_fraction"]
    kw_server = srv["power_kw"] * (1 + aux)

    # deployments: (capex month, GPUs)
    deps = [(B, t["gpus"])] + [(st["month"], st["gpus"]) for st in t.get("stages", [])]
    final = sum(g for _, g in deps)
    final_servers = final / gps

    # capex per deployment and class
    events = []  # (month, in-service month, class, cost)
    net = t["network"]
    design = net.get("design")
    store = t["storage"]
    cum, fabric_before, storage_before = 0, 0.0, 0.0
    for month, g in deps:
        cum += g
        servers_cost = g / gps * srv["price"] * (1 - srv_decline) ** (month / 12)
        if "node" in store:
            s_now = storage_of(store, cum)
            storage_cost = s_now["cost"] - storage_before
            storage_before = s_now["cost"]
        else:
            tb = store["capacity_tb"] if month == B else 0.0
            storage_cost = tb * store["price_per_tb"]
        if design is not None:
            rails = gps if design.get("rail_optimized") else 0
            f = fabric(cum, design["switch_radix"], design.get("oversubscription", 1.0), rails)
            f_cost = f["switches"] * design["switch_price"] + f["optics"] * design["optic_price"]
            network_cost = f_cost - fabric_before + design.get("per_server", 0.0) * g / gps
            fabric_before = f_cost
        else:
            share = net["share"]
            network_cost = share / (1 - share) * (servers_cost + storage_cost)
        for cls, c in (
            ("servers", servers_cost),
            ("network", network_cost),
            ("storage", storage_cost),
        ):
            events.append((month, month + 1, cls, c))
    if build:
        first_kw = deps[0][1] / gps * kw_server
        if headroom:
            events.append((0, B + 1, "facility", final_servers * kw_server * build_kw))
        else:
            events.append((0, B + 1, "facility", first_kw * build_kw))
            for month, g in deps[1:]:
                events.append(
                    (month, month + 1, "facility", g / gps * kw_server * build_kw * (1 + retrofit))
                )

    # staff: the headcount of the last deployment in service, the first's from month 1
    if "staff_scaling" in t:
        sc = t["staff_scaling"]
        heads, servers_so_far = [], 0.0
        for _, g in deps:
            servers_so_far += g / gps
            heads.append(sc["fixed_fte"] + sc["fte_per_server"] * servers_so_far)
    else:
        heads = [t["staff_fte"]] + [
            st.get("staff_fte", t["staff_fte"]) for st in t.get("stages", [])
        ]

    ops = doc["operations"]
    maint, insure = opt("operations", "maintenance_rate"), opt("operations", "insurance_rate")
    staff_cost, staff_esc = (
        opt("operations", "staff_cost_per_fte"),
        opt("operations", "staff_escalation", 0.0),
    )
    software = opt("operations", "software_per_gpu_year", ops.get("software_per_gpu_year", 0.0))
    rel = {**doc.get("reliability", {}), **t.get("reliability", {})}
    nfpd = rel["node_failures_per_day"]
    avail = max(0.0, 1 - nfpd * rel.get("repair_hours", 0.0) / 24)

    capex_m = [0.0] * (M + 1)
    for month, _, _, c in events:
        capex_m[month] += c
    revenue, opex, hours = [0.0] * (M + 1), [0.0] * (M + 1), [0.0] * (M + 1)
    for m in range(1, M + 1):
        y = math.ceil(m / 12)
        cost, sold = 0.0, 0.0
        for month, g in deps:
            if m <= month:
                continue
            u = util * (min(1.0, (m - month) / ramp) if ramp > 0 else 1.0)
            sold += g * u * avail * H
            it_kw = g / gps * kw_server
            cost += it_kw * (idle + (1 - idle) * u) * pue * H * kwh * (1 + esc) ** (y - 1)
            cost += 0.0 if build else it_kw * rent
            cost += software * g / 12
        for _month, live, cls, c in events:
            if m >= live:
                cost += insure * c / 12 + (maint * c / 12 if cls != "facility" else 0.0)
        in_service = [i for i, (month, _) in enumerate(deps) if m > month]
        head = heads[in_service[-1]] if in_service else heads[0]
        cost += head * staff_cost * (1 + staff_esc) ** (y - 1) / 12
        hours[m] = sold
        revenue[m] = sold * price * (1 - pd_) ** (y - 1)
        opex[m] = cost

    # straight-line depreciation of each event from its in-service month
    dep = [0.0] * (M + 1)
    nbv = 0.0
    for _, live, cls, c in events:
        dc = doc["depreciation"][cls]
        assert dc.get("method", "straight_line") == "straight_line"
        life = 12 * dc["life_years"]
        per = c * (1 - dc.get("salvage", 0.0)) / life
        done = 0.0
        for m in range(live, min(M, live + life - 1) + 1):
            dep[m] += per
            done += per
        nbv += c - done

    terminal = nbv if doc.get("terminal_value", "book") == "book" else 0.0

    # tax by model year, losses carried forward without limit
    tax_rate = opt("finance", "tax_rate")
    tax = [0.0] * (M + 1)
    pool = 0.0
    for y in range(1, Y + 1):
        e = sum(revenue[m] - opex[m] - dep[m] for m in range(12 * (y - 1) + 1, 12 * y + 1))
        if e <= 0:
            pool += -e
        else:
            used = min(pool, e)
            pool -= used
            tax[12 * y] = tax_rate * (e - used)

    fcf = [revenue[m] - opex[m] - tax[m] - capex_m[m] for m in range(M + 1)]
    rate = opt("finance", "discount_rate")
    rm = (1 + rate) ** (1 / 12) - 1
    disc = [(1 + rm) ** -m for m in range(M + 1)]
    with_terminal = fcf[:]
    with_terminal[M] += terminal
    npv = sum(f * d for f, d in zip(with_terminal, disc, strict=True))
    capex = sum(capex_m)
    pv_cost = sum((capex_m[m] + opex[m]) * disc[m] for m in range(M + 1))
    pv_hours = sum(hours[m] * disc[m] for m in range(M + 1))
    cum_, low = 0.0, 0.0
    cums = []
    for m in range(M + 1):
        cum_ += fcf[m]
        cums.append(cum_)
        low = min(low, cum_)
    payback = next((m / 12 for m in range(1, M + 1) if all(c >= 0 for c in cums[m:])), math.nan)

    # goodput of the final cluster (section 9) with the storage's write bandwidth
    if "node" in store:
        s_final = storage_of(store, final)
        write, storage_tb, nodes = s_final["write"], s_final["tb"], s_final["nodes"]
    else:
        write, storage_tb, nodes = store["write_gbps"], store["capacity_tb"], math.nan
    if nfpd > 0:
        mtbf = 24 / (nfpd * final_servers)
        delta = rel["checkpoint_tb"] * 1000 / write / 3600
        tau = math.sqrt(2 * delta * mtbf)
        goodput = max(0.0, 1 - (delta / tau + (tau / 2 + rel["restart_hours"]) / mtbf))
    else:
        mtbf, tau, goodput = math.nan, math.nan, 1.0
    mfu = rel["mfu"]
    pv_pflop = pv_hours * goodput * mfu * srv["tflops_bf16"] / 1000

    full_year = math.ceil(B / 12) + 1 if B > 0 else 1
    opex_full = (
        sum(opex[12 * (full_year - 1) + 1 : 12 * full_year + 1]) if full_year <= Y else math.nan
    )
    by_class = {
        c: sum(e[3] for e in events if e[2] == c)
        for c in ("servers", "network", "storage", "facility")
    }
    hardware = by_class["servers"] + by_class["network"] + by_class["storage"]
    per_rack = math.floor(t["rack_kw"] / kw_server + 1e-9)
    levels = math.nan
    if design is not None:
        rails = gps if design.get("rail_optimized") else 0
        levels = float(
            fabric(final, design["switch_radix"], design.get("oversubscription", 1.0), rails)[
                "levels"
            ]
        )
    cost_per_hour = pv_cost / pv_hours
    irr = annual_irr(fcf[:M] + [fcf[M] + terminal])
    return {
        "scale_class": scale_class(final),
        "gpus": final,
        "servers": final_servers,
        "racks": math.ceil(final_servers / per_rack),
        "it_kw": final_servers * kw_server,
        "capex": capex,
        "capex_servers": by_class["servers"],
        "capex_network": by_class["network"],
        "capex_storage": by_class["storage"],
        "capex_facility": by_class["facility"],
        "network_share": by_class["network"] / hardware,
        "network_levels": levels,
        "storage_tb": storage_tb,
        "storage_write_gbps": write,
        "storage_nodes": nodes,
        "cooling": cooling,
        "rack_kw": t["rack_kw"],
        "design": t["design_key"],
        "opex_year1": sum(opex[1:13]),
        "opex_full_year": opex_full,
        "opex_full_year_number": full_year if full_year <= Y else math.nan,
        "tco": capex + sum(opex),
        "gpu_hours": sum(hours),
        "tco_per_gpu_hour": (capex + sum(opex)) / sum(hours),
        "cost_per_gpu_hour": cost_per_hour,
        "revenue": sum(revenue),
        "contract_at_risk": 0.0,
        "realized_price": sum(revenue) / sum(hours),
        "npv": npv,
        "discount_rate": rate,
        "irr": irr,
        "payback_years": payback,
        "roi": sum(with_terminal) / capex,
        "mtbf_hours": mtbf,
        "checkpoint_interval_hours": tau,
        "goodput": goodput,
        "cost_per_effective_gpu_hour": cost_per_hour / goodput,
        "cost_per_pflop_hour": pv_cost / pv_pflop,
        "availability": avail,
        "peak_funding": max(0.0, -low),
        # a project without debt, VAT or subsidies (sections 17, 24, 31)
        "equity_npv": npv,
        "equity_irr": irr,
        "min_dscr": math.nan,
        "debt_peak": 0.0,
        "vat_paid": 0.0,
        "vat_credit_peak": 0.0,
        "surtax": 0.0,
        "subsidies": 0.0,
    }


def sweep_row(doc: dict, name: str, gpus: int) -> dict:
    """The tier rebuilt at ``gpus`` GPUs (section 28.5): one deployment, no stages, the
    design of ``scale_class(gpus)`` under ``design: auto``; the columns of a sweep row."""
    one = copy.deepcopy(doc)
    tier = one["tiers"][name]
    tier["gpus"] = gpus
    tier.pop("stages", None)
    row = tier_row(one, name)
    t = resolved_tier(one, name)
    sc = t.get("staff_scaling")
    staff = sc["fixed_fte"] + sc["fte_per_server"] * row["servers"] if sc else t.get("staff_fte")
    return {
        "gpus": gpus,
        "servers": row["servers"],
        "scale_class": row["scale_class"],
        "design": row["design"],
        "cooling": row["cooling"],
        "rack_kw": row["rack_kw"],
        "network_levels": row["network_levels"],
        "network_share": row["network_share"],
        "storage_nodes": row["storage_nodes"],
        "storage_write_gbps": row["storage_write_gbps"],
        "staff_fte": staff,
        "capex_per_gpu": row["capex"] / gpus,
        "cost_per_gpu_hour": row["cost_per_gpu_hour"],
        "npv": row["npv"],
        "irr": row["irr"],
    }


def annual_irr(flows: list[float]) -> float:
    """Section 21a: among the monthly rates in (-1, 10] where the NPV falls through 0
    (positive at the lower rate), the one nearest 0, annualised; NaN if none."""

    def npv(r: float) -> float:
        return sum(f / (1 + r) ** m for m, f in enumerate(flows))

    grid = [-0.999 + 0.999 * i / 2000 for i in range(2000)]  # (-1, 0)
    grid += [0.5 * i / 2000 for i in range(2000)]  # [0, 0.5)
    grid += [0.5 + 9.5 * i / 400 for i in range(401)]  # [0.5, 10]
    roots = []
    prev_r, prev_v = grid[0], npv(grid[0])
    for r in grid[1:]:
        v = npv(r)
        if prev_v > 0 >= v:
            lo, hi = prev_r, r
            for _ in range(200):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if npv(mid) > 0 else (lo, mid)
            roots.append((lo + hi) / 2)
        prev_r, prev_v = r, v
    if not roots:
        return math.nan
    return (1 + min(roots, key=abs)) ** 12 - 1

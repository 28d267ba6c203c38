"""An independent implementation of one tier, month by month in plain Python, for
the held-out checks of sites, quotes, lead times, the income residual and chip
access (methodology sections 15-17; the spec's sections 29, 30, 33).

It reads the validated assumptions (never the engine's resolved inputs) and covers
what its cases use: one deployment (no stages), a network share, straight-line
depreciation with salvage, a loss pool with carry-forward, terminal value book,
market or income, no VAT, no financing, no contract, no selling costs. Every
formula is written out here from the methodology; nothing is imported from the
engine but the validated assumptions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.reference.common import irr

H = 730.0  # hours per month


def _pick(*candidates):
    """The first candidate given (a quantity's value, or a plain value)."""
    for c in candidates:
        if c is not None:
            return c.value if hasattr(c, "value") else c
    return None


def _months_between(start: str, as_of: str) -> int:
    sy, sm = map(int, start.split("-"))
    ay, am = map(int, as_of.split("-"))
    return 12 * (sy - ay) + sm - am


def _rolled(q, start: str, decline: float) -> float:
    """A quote at the start month: value x (1 - decline)^(months / 12)."""
    if q.as_of is None:
        return q.value
    return q.value * (1 - decline) ** (_months_between(start, q.as_of) / 12)


@dataclass
class Row:
    values: dict


def tier_row(a, name: str) -> dict:
    """The summary row of tier ``name`` (the columns checked by the held-out cases)."""
    t = a.tiers[name]
    s = a.servers[t.server]
    site_name = t.site if t.site is not None else a.site
    site = a.sites.get(site_name) if site_name else None
    M = 12 * int(a.horizon_years)

    def own(section, key):
        sec = getattr(t, section)
        return getattr(sec, key) if sec is not None and key in sec.model_fields_set else None

    def at_site(section, key):
        sec = getattr(site, section) if site is not None else None
        return getattr(sec, key) if sec is not None and key in sec.model_fields_set else None

    kwh = _pick(
        own("power", "price_per_kwh"), at_site("power", "price_per_kwh"), a.power.price_per_kwh
    )
    esc = _pick(own("power", "escalation"), at_site("power", "escalation"), a.power.escalation)
    tax_rate = _pick(own("finance", "tax_rate"), at_site("finance", "tax_rate"), a.finance.tax_rate)
    if own("finance", "loss_carryforward_years") is not None or (
        t.finance is not None and "loss_carryforward_years" in t.finance.model_fields_set
    ):
        carry = t.finance.loss_carryforward_years
    elif (
        site is not None
        and site.finance is not None
        and ("loss_carryforward_years" in site.finance.model_fields_set)
    ):
        carry = site.finance.loss_carryforward_years
    else:
        carry = a.finance.loss_carryforward_years
    rents = site.colocation_per_kw_month if site is not None else None
    rent = (
        rents[t.cooling].value
        if rents and t.cooling in rents
        else (a.facility.colocation_per_kw_month.value)
    )
    factor = site.price_factor.value if site is not None else 1.0

    def tier_or_global(section, key):
        sec = getattr(t, section)
        mine = getattr(sec, key) if sec is not None else None
        return _pick(mine, getattr(getattr(a, section), key))

    util = tier_or_global("operations", "utilization")
    pd_ = tier_or_global("revenue", "price_decline")
    build_months = tier_or_global("timeline", "build_months")
    ramp = tier_or_global("timeline", "ramp_months")
    spot_q = (
        t.revenue.price_per_gpu_hour
        if t.revenue and t.revenue.price_per_gpu_hour
        else (a.revenue.price_per_gpu_hour)
    )
    spot = _rolled(spot_q, a.start, pd_) * factor

    # hardware, power and the grid
    gpus = int(t.gpus)
    gps = int(s.gpus_per_server)
    units = gpus / gps
    aux = a.power.aux_power_fraction.value
    it_kw = units * s.power_kw.value * (1 + aux)
    pue = a.power.pue[t.cooling].value
    p_mw = it_kw * pue / 1000
    build = a.facility.mode == "build"
    B = round(build_months)
    connection = 0.0
    if site is not None and site.grid_mw is not None and build and p_mw > site.grid_mw.value:
        connection = (p_mw - site.grid_mw.value) * site.grid_connection_per_mw.value
        B += round(site.grid_lead_months.value)
    if s.lead_months is not None:
        B = max(B, round(s.lead_months.value))
    spd = s.price_decline.value
    server_price = _rolled(s.price, a.start, spd)
    servers = units * server_price * (1 - spd) ** (B / 12)
    storage = t.storage.capacity_tb.value * t.storage.price_per_tb.value
    share = t.network.share.value
    network = share / (1 - share) * (servers + storage)
    hardware = servers + network + storage
    facility = (
        (it_kw * a.facility.build_cost_per_kw[t.cooling].value + connection) if build else 0.0
    )
    racks = (
        units * s.racks_per_unit
        if s.racks_per_unit
        else math.ceil(units / math.floor(t.rack_kw.value / (s.power_kw.value * (1 + aux)) + 1e-9))
    )

    # month by month
    maint = tier_or_global("operations", "maintenance_rate")
    insure = tier_or_global("operations", "insurance_rate")
    staff_cost = tier_or_global("operations", "staff_cost_per_fte")
    staff_esc = tier_or_global("operations", "staff_escalation")
    software = tier_or_global("operations", "software_per_gpu_year")
    rel = a.reliability
    nfpd = _pick(
        t.reliability.node_failures_per_day if t.reliability else None, rel.node_failures_per_day
    )
    repair = _pick(t.reliability.repair_hours if t.reliability else None, rel.repair_hours)
    avail = max(0.0, 1 - nfpd * repair / 24)
    idle = s.idle_fraction.value
    fte = t.staff_fte.value
    capex_m = [0.0] * (M + 1)
    capex_m[0] += facility
    capex_m[B] += hardware
    revenue, opex, hours = [0.0] * (M + 1), [0.0] * (M + 1), [0.0] * (M + 1)
    for m in range(1, M + 1):
        y = math.ceil(m / 12)
        live = m > B
        share_ramp = (min(1.0, (m - B) / ramp) if ramp > 0 else 1.0) if live else 0.0
        u = util * share_ramp
        hours[m] = gpus * u * avail * H
        revenue[m] = hours[m] * spot * (1 - pd_) ** (y - 1)
        cost = fte * staff_cost / 12 * (1 + staff_esc) ** (y - 1)
        if live:
            cost += it_kw * (idle + (1 - idle) * u) * pue * H * kwh * (1 + esc) ** (y - 1)
            cost += 0.0 if build else it_kw * rent
            cost += maint * hardware / 12 + insure * (hardware + facility) / 12
            cost += software * gpus / 12
        opex[m] = cost

    # depreciation (straight line from month B + 1) and book value at M
    def dep_class(cost, cls):
        dc = getattr(a.depreciation, cls)
        life = 12 * int(dc.life_years)
        per = cost * (1 - dc.salvage.value) / life
        months = max(0, min(life, M - B))
        by_month = [0.0] * (M + 1)
        for m in range(B + 1, B + 1 + months):
            by_month[m] = per
        return by_month, cost - per * months

    parts = {"servers": servers, "network": network, "storage": storage, "facility": facility}
    dep = [0.0] * (M + 1)
    nbv = 0.0
    for cls, cost in parts.items():
        d, left = dep_class(cost, cls)
        dep = [x + z for x, z in zip(dep, d, strict=True)]
        nbv += left

    # terminal value
    r = 1.08
    rate = a.finance.discount_rate.value
    rm = (1 + rate) ** (1 / 12) - 1
    if a.terminal_value == "book":
        terminal, gain = nbv, 0.0
    elif a.terminal_value == "none":
        terminal, gain = 0.0, 0.0
    else:
        md = {c: getattr(a.depreciation, c).market_decline for c in parts}
        fac = facility * (1 - _pick(md["facility"], 0.0)) ** (M / 12)
        if a.terminal_value == "market":
            hw = sum(
                parts[c] * (1 - _pick(md[c], 0.0)) ** ((M - B) / 12)
                for c in parts
                if c != "facility"
            )
        else:
            y = math.ceil(M / 12)
            share_ramp = min(1.0, (M - B) / ramp) if ramp > 0 else 1.0
            u = util * share_ramp
            margin = gpus * u * avail * H * spot * (1 - pd_) ** (y - 1)
            margin -= it_kw * (idle + (1 - idle) * u) * pue * H * kwh * (1 + esc) ** (y - 1)
            margin -= 0.0 if build else it_kw * rent
            margin -= maint * hardware / 12 + insure * hardware / 12 + software * gpus / 12
            dc = a.depreciation.servers
            life = int(
                dc.economic_life_years if dc.economic_life_years is not None else dc.life_years
            )
            left = max(0, B + 12 * life - M)
            annuity = sum((1 - pd_) ** (k / 12) / (1 + rm) ** k for k in range(1, left + 1))
            hw = max(0.0, margin) * annuity
        terminal = hw + fac
        gain = terminal - nbv
    del r

    # tax by model year with the loss pool
    Y = M // 12
    taxable = []
    for y in range(1, Y + 1):
        months = range(12 * (y - 1) + 1, 12 * y + 1)
        taxable.append(sum(revenue[m] - opex[m] - dep[m] for m in months))
    taxable[-1] += gain
    n = Y + 1 if carry is None else int(carry)
    pool = [0.0] * Y
    tax_y = []
    for y in range(Y):
        e = taxable[y]
        if e <= 0:
            pool[y] = -e
            tax_y.append(0.0)
        else:
            need = e
            for v in range(max(0, y - n), y):
                take = min(pool[v], need)
                pool[v] -= take
                need -= take
            tax_y.append(tax_rate * need)
        if 0 <= y - n < Y:
            pool[y - n] = 0.0
    tax = [0.0] * (M + 1)
    for y in range(1, Y + 1):
        tax[12 * y] = tax_y[y - 1]

    fcf = [revenue[m] - opex[m] - tax[m] - capex_m[m] for m in range(M + 1)]
    fcf[M] += terminal
    disc = [(1 + rm) ** -m for m in range(M + 1)]
    npv = sum(f * d for f, d in zip(fcf, disc, strict=True))
    capex = sum(capex_m)
    pv_cost = sum((capex_m[m] + opex[m]) * disc[m] for m in range(M + 1))
    pv_hours = sum(hours[m] * disc[m] for m in range(M + 1))
    cum, low = 0.0, 0.0
    for m in range(M + 1):
        cum += fcf[m] - (terminal if m == M else 0.0)
        low = min(low, cum)
    feasible = not (a.policy.domestic_only and s.origin == "foreign")
    return {
        "site": site_name or "",
        "gpus": gpus,
        "servers": units,
        "racks": racks,
        "it_kw": it_kw,
        "facility_mw": p_mw,
        "capex_servers": servers,
        "capex_network": network,
        "capex_storage": storage,
        "capex_facility": facility,
        "capex": capex,
        "opex_year1": sum(opex[1:13]),
        "tco": capex + sum(opex),
        "gpu_hours": sum(hours),
        "revenue": sum(revenue),
        "npv": npv,
        "irr": irr(fcf),
        "cost_per_gpu_hour": pv_cost / pv_hours,
        "roi": sum(fcf) / capex,
        "peak_funding": max(0.0, -low),
        "feasible": feasible,
    }

"""An independent implementation of one tier, month by month in plain Python, for the
held-out case of contract default, subsidies, monthly VAT refunds and the WACC
(methodology §11.10-§11.13; the spec's sections 31 and 32): tests/data/finance.yaml.

It reads the validated assumptions (never the engine's resolved inputs) and covers
what that case uses: one deployment bought at month 0 (no construction, no stages),
a ramp, a network share, a take-or-pay contract whose counterparty may default, VAT
with refunds by month at a ratio, straight-line depreciation with salvage (tax
depreciation = book), a loss pool, terminal value book, a loan drawn at month 0 and
repaid in level payments at the nominal monthly rate, no selling costs, and the three
kinds of subsidy. Every formula is written out here from the methodology; nothing is
imported from the engine.
"""

from __future__ import annotations

import math

from tests.reference.common import irr

H = 730.0  # hours per month


def _v(x):
    return x.value if hasattr(x, "value") else x


def _tax(taxable: list[float], rate: float, carry: int | None) -> list[float]:
    """Tax of each model year with the loss pool (losses offset the next ``carry``
    years' profits, oldest first; None: without limit)."""
    Y = len(taxable)
    n = Y + 1 if carry is None else int(carry)
    pool = [0.0] * Y
    out = []
    for y in range(Y):
        e = taxable[y]
        if e <= 0:
            pool[y] = -e
            out.append(0.0)
        else:
            need = e
            for v in range(max(0, y - n), y):
                take = min(pool[v], need)
                pool[v] -= take
                need -= take
            out.append(rate * need)
        if 0 <= y - n < Y:
            pool[y - n] = 0.0
    return out


def tier_row(a, name: str) -> dict:
    """The summary row of tier ``name`` of the held-out case."""
    t = a.tiers[name]
    s = a.servers[t.server]
    M = 12 * int(a.horizon_years)
    Y = M // 12
    ms = range(M + 1)

    def year(m):
        return math.ceil(m / 12)

    # capex at month 0 (section 4)
    gpus = int(t.gpus)
    units = gpus / int(s.gpus_per_server)
    aux = _v(a.power.aux_power_fraction)
    it_kw = units * _v(s.power_kw) * (1 + aux)
    servers = units * _v(s.price)
    storage = _v(t.storage.capacity_tb) * _v(t.storage.price_per_tb)
    share = _v(t.network.share)
    network = share / (1 - share) * (servers + storage)
    hardware = servers + network + storage
    facility = it_kw * _v(a.facility.build_cost_per_kw[t.cooling])
    capex = hardware + facility
    racks = math.ceil(units / math.floor(_v(t.rack_kw) / (_v(s.power_kw) * (1 + aux)) + 1e-9))
    capex_m = [capex if m == 0 else 0.0 for m in ms]

    # reliability (section 9)
    rel = a.reliability
    nfpd, restart = _v(rel.node_failures_per_day), _v(rel.restart_hours)
    repair = _v(rel.repair_hours) if rel.repair_hours is not None else 0.0
    fph = nfpd * units / 24
    write_h = _v(rel.checkpoint_tb) * 1000 / _v(t.storage.write_gbps) / 3600
    tau = math.sqrt(2 * write_h / fph)
    goodput = max(0.0, 1 - write_h / tau - (tau / 2 + restart) * fph)
    avail = max(0.0, 1 - nfpd * repair / 24)

    # revenue: contract with survival, the rest spot with the ramp (sections 14, 23, 31)
    ops, rv, c = a.operations, a.revenue, a.revenue.contract
    util, ramp = _v(ops.utilization), _v(a.timeline.ramp_months)
    spot_price, decline = _v(rv.price_per_gpu_hour), _v(rv.price_decline)
    c_share, c_price, c_months = _v(c.share), _v(c.price_per_gpu_hour), _v(c.months)
    c_esc, default = _v(c.escalation), _v(c.default_rate)
    idle, pue = _v(s.idle_fraction), _v(a.power.pue[t.cooling])
    kwh_price, p_esc = _v(a.power.price_per_kwh), _v(a.power.escalation)
    z = [0.0] * (M + 1)
    hours, revenue, contract_raw, contract_rev, kwh = z[:], z[:], z[:], z[:], z[:]
    opex, elec, maint, soft = z[:], z[:], z[:], z[:]
    for m in range(1, M + 1):
        y = year(m)
        u = util * min(1.0, m / ramp) if ramp > 0 else util
        inside = 1.0 if m <= c_months else 0.0
        alive = (1 - default) ** ((m - 1) / 12)
        sc = c_share * inside * alive
        price_c = c_price * (1 + c_esc) ** math.floor((m - 1) / 12)
        avail_h = gpus * avail * H
        c_hours = avail_h * sc
        s_hours = avail_h * u * (1 - sc)
        hours[m] = c_hours + s_hours
        contract_rev[m] = c_hours * price_c
        contract_raw[m] = avail_h * c_share * inside * price_c
        revenue[m] = contract_rev[m] + s_hours * spot_price * (1 - decline) ** (y - 1)
        load = sc + (1 - sc) * u
        kwh[m] = it_kw * (idle + (1 - idle) * load) * pue * H
        elec[m] = kwh[m] * kwh_price * (1 + p_esc) ** (y - 1)
        staff = _v(t.staff_fte) * _v(ops.staff_cost_per_fte)
        staff *= (1 + _v(ops.staff_escalation)) ** (y - 1) / 12
        maint[m] = _v(ops.maintenance_rate) * hardware / 12
        insure = _v(ops.insurance_rate) * (hardware + facility) / 12
        soft[m] = _v(ops.software_per_gpu_year) * gpus / 12
        opex[m] = elec[m] + staff + maint[m] + insure + soft[m]

    # straight-line depreciation from month 1, book value at M (section 6)
    dep = z[:]
    nbv = 0.0
    for cls, cost in (
        ("servers", servers),
        ("network", network),
        ("storage", storage),
        ("facility", facility),
    ):
        d = getattr(a.depreciation, cls)
        life = 12 * int(d.life_years)
        per = cost * (1 - _v(d.salvage)) / life
        n = min(life, M)
        for m in range(1, n + 1):
            dep[m] += per
        nbv += cost - per * n
    terminal = nbv

    # VAT with the credit claimed each month at a ratio (sections 24, 32)
    v = a.vat
    rates = v.input_rates
    ir = {k: _v(getattr(rates, k)) for k in ("servers", "network", "storage", "facility")}
    out_v = [_v(v.output_rate) * revenue[m] for m in ms]
    in_v = [
        ir["servers"] * servers
        + ir["network"] * network
        + ir["storage"] * storage
        + ir["facility"] * facility
        if m == 0
        else _v(rates.electricity) * elec[m]
        + _v(rates.maintenance) * maint[m]
        + _v(rates.software) * soft[m]
        for m in ms
    ]
    ratio, surtax_rate = _v(v.refund_ratio), _v(v.surtax_rate)
    pool, payable, refund, pools = 0.0, z[:], z[:], []
    for m in ms:
        refund[m] = ratio * pool if m > 0 else 0.0
        net = out_v[m] - in_v[m] - (pool - refund[m])
        payable[m] = max(0.0, net)
        pool = max(0.0, -net)
        pools.append(pool)
    refund[M] += ratio * pool  # a claim due after M is paid at M
    surtax = [surtax_rate * p for p in payable]
    vat_cash = [out_v[m] - in_v[m] - payable[m] + refund[m] - surtax[m] for m in ms]

    # subsidies (section 31): cash of their own, taxable where marked
    grants, taxable_grants = z[:], z[:]
    for sub in a.subsidies:
        line = z[:]
        if sub.kind == "capex_grant":
            base = sum(
                {"servers": servers, "network": network, "storage": storage, "facility": facility}[
                    k
                ]
                for k in sub.classes
            )
            lag = int(sub.lag_months or 0)
            if lag <= M:
                line[lag] = min(sub.share * base, sub.cap if sub.cap is not None else math.inf)
        elif sub.kind == "power_rebate":
            for m in range(1, M + 1):
                line[m] = sub.per_kwh * kwh[m] if year(m) <= sub.years else 0.0
        else:
            for m in range(1, M + 1):
                line[m] = sub.share_of_revenue * revenue[m] if year(m) <= sub.years else 0.0
        grants = [g + x for g, x in zip(grants, line, strict=True)]
        if sub.taxable:
            taxable_grants = [g + x for g, x in zip(taxable_grants, line, strict=True)]

    # tax by model year (month 0's taxable subsidies in year 1)
    result = [revenue[m] - opex[m] - dep[m] - surtax[m] + taxable_grants[m] for m in ms]
    taxable = [sum(result[12 * (y - 1) + 1 : 12 * y + 1]) for y in range(1, Y + 1)]
    taxable[0] += result[0]
    tax_rate = _v(a.finance.tax_rate)
    carry = a.finance.loss_carryforward_years
    tax_y = _tax(taxable, tax_rate, carry)
    tax = [tax_y[m // 12 - 1] if m and m % 12 == 0 else 0.0 for m in ms]

    fcf = [
        revenue[m] - opex[m] - tax[m] - capex_m[m] + vat_cash[m] + grants[m]
        + (terminal if m == M else 0.0)
        for m in ms
    ]  # fmt: skip

    # the discount rate the loan implies (section 32) and the loan (section 17, 21b)
    f = a.financing
    D, i_rate, coe = _v(f.debt_share), _v(f.interest_rate), _v(f.cost_of_equity)
    rate = D * i_rate * (1 - tax_rate) + (1 - D) * coe
    disc = [(1 + rate) ** (-m / 12) for m in ms]
    debt = D * capex
    r_m = i_rate / 12
    n_pay = 12 * int(f.term_years)
    payment = debt * r_m / (1 - (1 + r_m) ** -n_pay)
    balance, interest, principal, balances = debt, z[:], z[:], [debt]
    for m in range(1, M + 1):
        if m <= n_pay and balance > 0:
            interest[m] = balance * r_m
            principal[m] = balance if m == n_pay else payment - interest[m]
            balance -= principal[m]
        balances.append(balance)
    balloon = z[:]
    balloon[M] = balance
    interest_y = [sum(interest[12 * (y - 1) + 1 : 12 * y + 1]) for y in range(1, Y + 1)]
    tax_lev_y = _tax([x - i for x, i in zip(taxable, interest_y, strict=True)], tax_rate, carry)
    tax_lev = [tax_lev_y[m // 12 - 1] if m and m % 12 == 0 else 0.0 for m in ms]
    draw = [debt if m == 0 else 0.0 for m in ms]
    ecf = [
        fcf[m] + tax[m] - tax_lev[m] + draw[m] - interest[m] - principal[m] - balloon[m] for m in ms
    ]
    cfads = [revenue[m] - opex[m] - tax_lev[m] + vat_cash[m] + grants[m] for m in ms]
    dscr = []
    for y in range(1, Y + 1):
        months = range(12 * (y - 1) + 1, 12 * y + 1)
        ds = sum(interest[m] + principal[m] for m in months)
        if ds > 0:
            dscr.append(sum(cfads[m] for m in months) / ds)

    # metrics (sections 8, 14, 23, 31, 32)
    pv_cost = sum((capex_m[m] + opex[m]) * disc[m] for m in ms)
    pv_hours = sum(hours[m] * disc[m] for m in ms)
    cost_per_gpu_hour = pv_cost / pv_hours
    cum, low, cash = 0.0, 0.0, []
    for m in ms:
        cum += fcf[m] - (terminal if m == M else 0.0)
        low = min(low, cum)
        cash.append(cum)
    paid_back = [m for m in range(1, M + 1) if all(x >= 0 for x in cash[m:])]
    opex_y1 = sum(opex[1:13])
    return {
        "scale_class": "tens" if gpus <= 64 else "hundreds" if gpus <= 511 else "thousands",
        "gpus": gpus,
        "servers": units,
        "racks": racks,
        "it_kw": it_kw,
        "facility_mw": it_kw * _v(a.power.pue[t.cooling]) / 1000,
        "capex": capex,
        "capex_servers": servers,
        "capex_network": network,
        "capex_storage": storage,
        "capex_facility": facility,
        "network_share": network / hardware,
        "storage_tb": _v(t.storage.capacity_tb),
        "storage_write_gbps": _v(t.storage.write_gbps),
        "cooling": t.cooling,
        "rack_kw": _v(t.rack_kw),
        "opex_year1": opex_y1,
        "opex_full_year": opex_y1,  # every month of year 1 follows the purchase at month 0
        "opex_full_year_number": 1,
        "tco": capex + sum(opex),
        "gpu_hours": sum(hours),
        "tco_per_gpu_hour": (capex + sum(opex)) / sum(hours),
        "cost_per_gpu_hour": cost_per_gpu_hour,
        "revenue": sum(revenue),
        "contract_at_risk": sum(contract_raw) - sum(contract_rev),
        "realized_price": sum(revenue) / sum(hours),
        "npv": sum(x * d for x, d in zip(fcf, disc, strict=True)),
        "discount_rate": rate,
        "irr": irr(fcf),
        "payback_years": paid_back[0] / 12 if paid_back else math.nan,
        "roi": sum(fcf) / capex,
        "mtbf_hours": 1 / fph,
        "checkpoint_interval_hours": tau,
        "goodput": goodput,
        "cost_per_effective_gpu_hour": cost_per_gpu_hour / goodput,
        "cost_per_pflop_hour": pv_cost
        / (pv_hours * goodput * _v(rel.mfu) * _v(s.tflops_bf16) / 1000),
        "availability": avail,
        "peak_funding": max(0.0, -low),
        "equity_npv": sum(x * (1 + coe) ** (-m / 12) for m, x in enumerate(ecf)),
        "equity_irr": irr(ecf),
        "min_dscr": min(dscr) if dscr else math.nan,
        "debt_peak": max(balances),
        "vat_paid": sum(payable),
        "vat_credit_peak": max(pools),
        "surtax": sum(surtax),
        "subsidies": sum(grants),
        "site": "",  # no sites (methodology §29), no chip policy (§33)
        "feasible": True,
        "infeasible_reason": "",
    }

"""Tier-sheet blocks of spec v2's time and growth (sections 14-16, 19, 20).

A tier is a list of deployments (the first at the construction's end, each stage
at ``max(stage month, B)``) and a list of capex events (hardware of each
deployment at its month; the hall at month 0, and, without reserved headroom, an
extension at each stage's month). Each block is one function of the shared
:class:`~costmodel.report.workbook.tiercontext.Tier` context, writing rows by key:

- :func:`deployments`: per deployment its capex month, GPUs, servers, IT kW and
  capex by class (servers at the price of its month), then the facility events,
  then the in-service flag and ramp-up utilization rows;
- :func:`capex_totals`: the tier's totals (final cluster) from the deployments;
- :func:`capex_series`: capex by class at the months it is paid;
- :func:`in_service`: capacity in service month by month, what opex is paid on;
- :func:`depreciation_events`: each event depreciated from its in-service month;
- :func:`terminal`: terminal value (book, none or market) and its tax.

Cached values are the engine's (:mod:`costmodel.core.engine`), recomputed here
per deployment and per event with the engine's own functions.
"""

from __future__ import annotations

import numpy as np

from costmodel.core.finance import depreciation_annual
from costmodel.core.units import HOURS_PER_MONTH
from costmodel.inputs.schema import ASSET_CLASSES
from costmodel.report.workbook.bookvalue import book_value
from costmodel.report.workbook.fabricblock import fabric_rows
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.tiercontext import Tier

HW = ("servers", "network", "storage")
#: row key prefix of each class's capex per deployment
CAPEX_KEY = {"servers": "d_cs", "network": "d_cn", "storage": "d_cst", "facility": "d_cf"}


def engine_parts(x: Tier) -> None:
    """The engine's deployments, capex events and ramps of the tier (S = 1), from
    its schedules (:class:`costmodel.core.schedules.TierSchedules`)."""
    s = x.r.schedules
    x.deps = x.r.deployments
    x.events = s.events
    x.util = [d.utilization[0] for d in s.deployments]
    x.on = [d.in_service[0] for d in s.deployments]
    x.event_of = [(e.cls, e.deployment) for e in s.events]  # in the engine's order
    x.r_event_dep = [float(e.depreciation[0].sum()) for e in s.events]


def _v(a: np.ndarray) -> float:
    return float(np.asarray(a).reshape(-1)[0])


def deployments(x: Tier) -> None:
    """Spec 14-15: the deployments, the facility events, in service and ramp rows."""
    cs, cur = x.cs, x.cur
    cs.heading("Deployments (methodology §8.1: capex month, size, capex at its month)")
    cs.const("d_t0", "deployment 0: capex month = build months (whole, < M)", "month",
             "=ROUND({$build_months},0)", _v(x.deps[0]["month"]),
             "count")  # fmt: skip
    for i, d in enumerate(x.deps):
        n = f"deployment {i}"
        if i:
            stage = {f: x.inputs.tier_cells[(x.tier, f"stages.{i - 1}.{f}")]
                     for f in ("month", "gpus", "capacity_tb", "staff_fte")}  # fmt: skip
            ti = x.ti
            cs.const(f"d_month{i}", f"{n}: stage month (link)", "month", f"={stage['month']}",
                     ti[f"stage{i}_month"], "count", GREEN)  # fmt: skip
            cs.const(f"d_t{i}", f"{n}: capex month = max(stage month, build months)", "month",
                     f"=MAX({{$d_month{i}}},{{$d_t0}})", _v(d["month"]), "count")  # fmt: skip
            links = (("d_g", "GPUs added (link)", "GPUs", "gpus", "count"),
                     ("d_tb", "storage added (link)", "TB", "capacity_tb", "number"),
                     ("d_fte", "staff from its in-service month (link)", "FTE", "staff_fte",
                      "number"))  # fmt: skip
            for key, label, unit, f, kind in links:
                if f == "staff_fte" and "staff_fixed_fte" in ti:
                    continue  # written with the servers below (methodology §12.2)
                value = ti[f"stage{i}_{f}"]
                cs.const(f"{key}{i}", f"{n}: {label}", unit, f"={stage[f]}", value, kind, GREEN)
        else:
            cs.const("d_g0", f"{n}: GPUs", "GPUs", "={$gpus}", _v(d["gpus"]), "count")
            cs.const("d_tb0", f"{n}: storage", "TB", "={$storage_capacity_tb}",
                     x.ti["storage_capacity_tb"], "number")  # fmt: skip
        _deployment_capex(x, i, d, cur)
        if "staff_fixed_fte" in x.ti:
            servers = "+".join(f"{{$d_n{j}}}" for j in range(i + 1))
            cs.const(f"d_fte{i}", f"{n}: staff = fixed + per server x servers so far", "FTE",
                     f"={{$staff_fixed_fte}}+{{$staff_fte_per_server}}*({servers})",
                     _v(d["staff_fte"]), "number")  # fmt: skip
    _facility_events(x)
    for i in range(len(x.deps)):
        cs.series(f"d_on{i}", f"deployment {i}: flag, in service (month > capex month)", "flag",
                  f"=({{month}}>{{$d_t{i}}})*1", x.on[i], "flag")  # fmt: skip
        cs.series(f"d_u{i}", f"deployment {i}: utilization = util x min(1, months / ramp)",
                  "fraction", f"=IF({{$ramp_months}}>0,MIN(1,MAX(0,({{month}}-{{$d_t{i}}})"
                  f"/{{$ramp_months}})),{{d_on{i}}})*{{$utilization}}",
                  x.util[i], "pct2")  # fmt: skip


def _deployment_capex(x: Tier, i: int, d: dict, cur: str) -> None:
    """Servers, IT load and hardware capex of deployment ``i`` at its month."""
    n = f"deployment {i}"
    designed = "fabric_cost" in d
    network = (
        ("d_cn", "capex: network = fabric increment + per server x servers", x.cur,
         "", d["network"], "money")
        if designed else
        ("d_cn", "capex: network = s/(1-s) x (servers + storage)", cur,
         f"={{$network_share}}/(1-{{$network_share}})*({{$d_cs{i}}}+{{$d_cst{i}}})",
         d["network"], "money")
    )  # fmt: skip
    rows = (
        ("d_n", "servers = GPUs / GPUs per server", "servers",
         f"={{$d_g{i}}}/{{$gpus_per_server}}", d["servers_n"], "number"),
        ("d_kw", "IT load = servers x power x (1 + aux)", "kW",
         f"={{$d_n{i}}}*{{$server_power_kw}}*(1+power_aux_power_fraction)", d["it_kw"], "number"),
        ("d_cs", "capex: servers = n x price x (1-decline)^(t/12) (1 at t = 0)", cur,
         f"={{$d_n{i}}}*{{$server_price}}*(1-{{$server_price_decline}}*({{$d_t{i}}}>0))"
         f"^({{$d_t{i}}}/12)",
         d["servers"], "money"),
        ("d_cst", "capex: storage = TB x price per TB", cur,
         f"={{$d_tb{i}}}*{{$storage_price_per_tb}}", d["storage"], "money"),
        network,
        ("d_hw", "capex: hardware", cur, f"={{$d_cs{i}}}+{{$d_cn{i}}}+{{$d_cst{i}}}",
         d["hardware"], "money"),
    )  # fmt: skip
    for key, label, unit, formula, value, kind in rows:
        if key == "d_cn" and designed:  # the fabric block first (methodology §12.1)
            formula = fabric_rows(x, i, d)
        x.cs.const(f"{key}{i}", f"{n}: {label}", unit, formula, _v(value), kind)


def _facility_events(x: Tier) -> None:
    """Spec 15: the hall at month 0 for the final IT kW (reserved headroom) or the
    first deployment's; without reserve each stage extends it at its month, at the
    build cost plus the retrofit premium. Then each deployment's capex total."""
    cs, cur = x.cs, x.cur
    amounts = [e.cost for e in x.events if e.cls == "facility"]
    total_kw = "+".join(f"{{$d_kw{i}}}" for i in range(len(x.deps)))
    cs.const("d_cf0", "facility at month 0 = (final kW if reserved, else first) x cost",
             cur, f"=IF({{$reserve_headroom}}>0,{total_kw},{{$d_kw0}})*{{$build_cost_per_kw}}"
             "*{$build_flag}", _v(amounts[0]), "money")  # fmt: skip
    for i in range(1, len(x.deps)):
        cs.const(f"d_cf{i}", f"deployment {i}: facility extension = kW x cost x (1 + retrofit)",
                 cur, f"=(1-{{$reserve_headroom}})*{{$d_kw{i}}}*{{$build_cost_per_kw}}"
                 "*{$build_flag}*(1+facility_retrofit_premium)",
                 _v(amounts[i]), "money")  # fmt: skip
    for i, d in enumerate(x.deps):
        cs.const(f"d_capex{i}", f"deployment {i}: capex = hardware + facility", cur,
                 f"={{$d_hw{i}}}+{{$d_cf{i}}}", _v(d["hardware"] + amounts[i]),
                 "money")  # fmt: skip


def capex_totals(x: Tier) -> None:
    """Spec 4 and 16: the final cluster's servers, IT load, racks and capex by class
    (sums over the deployments)."""
    cs, met, cur = x.cs, x.met, x.cur
    cs.heading("Capex and capacity (final cluster, all deployments)")
    k = range(len(x.deps))

    def total(prefix: str) -> str:
        return "=" + "+".join(f"{{${prefix}{i}}}" for i in k)

    rows = (
        ("gpus_total", "GPUs (all deployments)", "GPUs", total("d_g"), met["gpus"], "count"),
        ("servers", "servers (all deployments)", "servers", total("d_n"), met["servers"],
         "number"),
        ("capex_servers", "capex: servers", cur, total("d_cs"), met["capex_servers"], "money"),
        ("capex_storage", "capex: storage", cur, total("d_cst"), met["capex_storage"], "money"),
        ("capex_network", "capex: network", cur, total("d_cn"), met["capex_network"], "money"),
        ("capex_hardware", "capex: hardware", cur,
         "={$capex_servers}+{$capex_network}+{$capex_storage}", met["capex_hardware"], "money"),
        ("it_kw", "IT load (all deployments)", "kW", total("d_kw"), met["it_kw"], "number"),
        ("servers_per_rack", "servers per rack = floor(rack kW / (server kW x (1 + aux)))",
         "servers", "=ROUNDDOWN({$rack_kw}/({$server_power_kw}*(1+power_aux_power_fraction))"
         "+1E-9,0)", met["servers_per_rack"], "count"),
        ("racks", "racks of whole servers = ceiling(servers / servers per rack)", "racks",
         "=IF({$servers_per_rack}=0,0,ROUNDUP({$servers}/{$servers_per_rack},0))",
         x.summary.loc[x.tier, "racks"], "count"),
        ("capex_facility", "capex: facility (month 0 and extensions)", cur, total("d_cf"),
         met["capex_facility"], "money"),
        ("capex_total", "capex: total", cur, "={$capex_hardware}+{$capex_facility}",
         met["capex"], "money"),
        ("capex_by_deployment", "capex: total of the deployments' capex", cur, total("d_capex"),
         met["capex"], "money"),
    )  # fmt: skip
    for key, label, unit, formula, value, kind in rows:
        cs.const(key, label, unit, formula, value, kind)


def capex_series(x: Tier) -> None:
    """Capex by asset class in the month it is paid: hardware at each deployment's
    month, the hall at month 0 and its extensions at their stage's month."""
    cs, r = x.cs, x.r
    cs.heading("Capex (in the month paid)")
    for cls in ASSET_CLASSES:
        terms = [f"{{${CAPEX_KEY[cls]}{i}}}*({{month}}={{$d_t{i}}})" for i in range(len(x.deps))]
        if cls == "facility":
            terms[0] = "{$d_cf0}*{inv}"
        cs.series(f"capex_{cls}_t", f"capex: {cls}", x.cur, "=" + "+".join(terms),
                  r.capex_months[cls][0], total=True)  # fmt: skip
    cs.series("capex_t", "capex: total", x.cur,
              "=" + "+".join(f"{{capex_{line}_t}}" for line in ASSET_CLASSES),
              r.flows["capex"][0], total=True, bold=True)  # fmt: skip


def in_service(x: Tier) -> None:
    """Spec 14: what is in service each month, the base of the opex lines: IT kW
    (flat and at the ramped utilization), GPUs, hardware, facility, GPUs sold, and
    the headcount (from month 1; a stage's from its in-service month)."""
    cs, cur = x.cs, x.cur
    cs.heading("In service (methodology §8.1: opex and revenue follow the deployments)")
    k = range(len(x.deps))
    d, on, u = x.deps, x.on, x.util
    fac = [e.cost for e in x.events if e.cls == "facility"]

    def total(term: str) -> str:
        return "=" + "+".join(term.format(i=i) for i in k)

    rows = (
        ("kw_on", "IT kW in service", "kW", total("{{$d_kw{i}}}*{{d_on{i}}}"),
         sum(_v(d[i]["it_kw"]) * on[i] for i in k), "number"),
        ("kw_used", "IT kW in use = sum of kW x load factor (methodology §11.5)", "kW",
         total("{{$d_kw{i}}}*{{k_lf{i}}}"), sum(_v(d[i]["it_kw"]) * x.load[i] for i in k),
         "number"),
        ("gpus_on", "GPUs in service", "GPUs", total("{{$d_g{i}}}*{{d_on{i}}}"),
         sum(_v(d[i]["gpus"]) * on[i] for i in k), "number"),
        ("gpus_sold", "GPUs sold = sum of GPUs x ramped utilization", "GPUs",
         total("{{$d_g{i}}}*{{d_u{i}}}"), sum(_v(d[i]["gpus"]) * u[i] for i in k), "number"),
        ("hw_on", "hardware capex in service", cur, total("{{$d_hw{i}}}*{{d_on{i}}}"),
         sum(_v(d[i]["hardware"]) * on[i] for i in k), "money"),
        ("fac_on", "facility capex in service", cur, total("{{$d_cf{i}}}*{{d_on{i}}}"),
         sum(_v(fac[i]) * on[i] for i in k), "money"),
    )  # fmt: skip
    for key, label, unit, formula, values, kind in rows:
        cs.series(key, label, unit, formula, values, kind)
    idle = x.ti["idle_fraction"]
    drawn = sum((idle * on[i] + (1 - idle) * x.load[i]) * _v(d[i]["it_kw"]) for i in k)
    cs.series("kw_drawn", "IT kW drawn = idle x kW in service + (1-idle) x kW in use", "kW",
              "={$idle_fraction}*{kw_on}+(1-{$idle_fraction})*{kw_used}",
              drawn, "number")  # fmt: skip
    fte = _v(d[0]["staff_fte"]) * x.ops
    cs.series("fte" if len(d) == 1 else "fte0", "staff: first team from month 1", "FTE",
              "={$d_fte0}*{ops}" if "staff_fixed_fte" in x.ti else "={$staff_fte}*{ops}",
              fte, "number")  # fmt: skip
    for i in range(1, len(d)):
        fte = np.where(on[i] > 0, _v(d[i]["staff_fte"]), fte)
        prev = "fte0" if i == 1 else f"fte{i - 1}"
        key = "fte" if i == len(d) - 1 else f"fte{i}"
        cs.series(key, f"staff: deployment {i}'s team from its in-service month", "FTE",
                  f"=IF({{d_on{i}}}=1,{{$d_fte{i}}},{{{prev}}})", fte, "number")  # fmt: skip


def _event_keys(cls: str, i: int) -> tuple[str, str, str]:
    """Row keys of an event: its cost, its capex month (for the in-service month
    ``t + 1``) and the suffix of its rows."""
    return f"{CAPEX_KEY[cls]}{i}", f"d_t{i}", f"{cls}{i}"


def depreciation_events(x: Tier) -> None:
    """Spec 6 and 14: each capex event depreciated by its class's method, asset
    year k = floor((month - in-service month) / 12) + 1 counted from the month
    after its capex month; the class's monthly charge is the sum over its events / 12."""
    cs, cur = x.cs, x.cur
    cs.heading("Depreciation per capex event (from its in-service month), book value by class")
    for j, e in enumerate(x.events):
        cls, i = x.event_of[j]
        cost, t, sfx = _event_keys(cls, i)
        life = x.config.depreciation_life_years[cls]
        method = x.config.depreciation_method[cls]
        k = np.floor((x.m - _v(e.in_service)) / 12) + 1
        kc = np.clip(k, 1, life)
        annual = depreciation_annual(_v(e.cost), x.ti[f"salvage_{cls}"], method, life)[0]
        on = (k >= 1) & (k <= life)
        cs.const(f"ev_s_{sfx}", f"{cls} of deployment {i}: salvage = cost x salvage", cur,
                 f"={{${cost}}}*dep_{cls}_salvage", _v(e.cost) * x.ti[f"salvage_{cls}"],
                 "money")  # fmt: skip
        cs.series(f"ev_k_{sfx}", f"{cls} of deployment {i}: asset year (from month t + 1)",
                  "year", f"=INT(({{month}}-{{${t}}}-1)/12)+1", k, "count")  # fmt: skip
        cs.series(f"ev_kc_{sfx}", f"{cls} of deployment {i}: asset year within 1..life", "year",
                  f"=MIN(MAX({{ev_k_{sfx}}},1),{{$life_{cls}}})", kc, "count")  # fmt: skip
        c, s, L, kk = f"{{${cost}}}", f"{{$ev_s_{sfx}}}", f"{{$life_{cls}}}", f"{{ev_kc_{sfx}}}"
        formula = (
            f"=CHOOSE({{$method_{cls}}},SLN({c},{s},{L}),SYD({c},{s},{L},{kk}),"
            f"VDB({c},{s},{L},{kk}-1,{kk}))*({{ev_k_{sfx}}}>=1)*({{ev_k_{sfx}}}<={L})"
        )
        cs.series(f"ev_dep_{sfx}", f"{cls} of deployment {i}: annual depreciation (method)",
                  cur, formula, annual[kc.astype(int) - 1] * on)  # fmt: skip
    for cls in ASSET_CLASSES:
        sfx = [x.event_of[j] for j in range(len(x.events)) if x.event_of[j][0] == cls]
        cs.series(f"dep_{cls}", f"{cls}: depreciation = sum of its events' annual / 12", cur,
                  "=(" + "+".join(f"{{ev_dep_{c}{i}}}" for c, i in sfx) + ")/12",
                  x.r.depreciation[cls][0], total=True)  # fmt: skip
        book_value(x, cls)
    cs.series("dep", "depreciation: total", cur,
              "=" + "+".join(f"{{dep_{c}}}" for c in ASSET_CLASSES),
              x.r.flows["depreciation"][0], total=True, bold=True)  # fmt: skip


def terminal(x: Tier) -> None:
    """Spec 7 and 19: the terminal value at M, book (net book value), none, or
    market (each event's cost x (1 - market decline)^((M - capex month) / 12));
    its gain is taxed in the tax block (methodology §11.9)."""
    cs, cur = x.cs, x.cur
    cs.heading("Terminal value (at month M)")
    values = []
    for j, e in enumerate(x.events):
        cls, i = x.event_of[j]
        cost, t, sfx = _event_keys(cls, i)
        when = "0" if (cls == "facility" and i == 0) else f"{{${t}}}"
        value = _v(e.market_value)
        values.append(value)
        cs.const(f"mv_{sfx}", f"market value at M: {cls} of deployment {i}", cur,
                 f"={{${cost}}}*(1-dep_{cls}_market_decline)^((model_months-{when})/12)",
                 value, "money")  # fmt: skip
    first, last = _event_keys(*x.event_of[0])[2], _event_keys(*x.event_of[-1])[2]
    cs.const("tv_market", "market value at M (sum of the events)", cur,
             f"=SUM({{$mv_{first}}}:{{$mv_{last}}})", sum(values), "money")  # fmt: skip
    nbv = "+".join(f"{{nbv_close_{c}}}" for c in ASSET_CLASSES)
    cs.series("terminal", "terminal value: book (NBV at M), none, or market value", cur,
              f"=(({nbv})*{{$terminal_flag}}+{{$tv_market}}*{{$market_flag}})*{{last}}",
              x.r.flows["terminal_value"][0], total=True)  # fmt: skip


def recomputations(x: Tier) -> None:
    """Horizon totals by another route (closed forms per deployment; SUMPRODUCT over
    the year row), compared on the Checks sheet with the totals of the rows."""
    cs, cur, M = x.cs, x.cur, x.model.months
    cs.heading("Independent recomputations of the horizon totals (compared on Checks)")
    tot = {k: float(np.sum(v[0])) for k, v in (*x.r.opex.items(), *x.r.flows.items())}
    R = x.ti["ramp_months"]
    for i, d in enumerate(x.deps):
        n = M - _v(d["month"])
        f = min(n, np.floor(R))
        sold = n if R <= 0 else f * (f + 1) / 2 / R + n - f
        fac = [e.cost for e in x.events if e.cls == "facility"][i]
        fixed = (
            (
                x.ti["maintenance_rate"] * _v(d["hardware"])
                + x.ti["software_per_gpu_year"] * _v(d["gpus"])
                + x.ti["insurance_rate"] * _v(d["hardware"] + fac)
            )
            * n
            / 12
        )
        rows = (
            (f"re_n{i}", f"deployment {i}: months in service = M - capex month", "months",
             f"=model_months-{{$d_t{i}}}", n, "count"),
            (f"re_f{i}", f"deployment {i}: whole ramp months within them", "months",
             f"=MIN({{$re_n{i}}},INT({{$ramp_months}}))", f, "count"),
            (f"re_sold{i}", f"deployment {i}: full-utilization months = f(f+1)/2R + n - f",
             "months", f"=IF({{$ramp_months}}>0,{{$re_f{i}}}*({{$re_f{i}}}+1)/2/{{$ramp_months}}"
             f"+{{$re_n{i}}}-{{$re_f{i}}},{{$re_n{i}}})", sold, "number"),
            (f"re_fix{i}", f"deployment {i}: maintenance + insurance + software", cur,
             f"=({{$maintenance_rate}}*{{$d_hw{i}}}+{{$insurance_rate}}*({{$d_hw{i}}}+{{$d_cf{i}}})"
             f"+{{$software_per_gpu_year}}*{{$d_g{i}}})*{{$re_n{i}}}/12", fixed, "money"),
        )  # fmt: skip
        for key, label, unit, formula, value, kind in rows:
            cs.const(key, label, unit, formula, value, kind)
    _recomputed_totals(x, tot)


def _recomputed_totals(x: Tier, tot: dict[str, float]) -> None:
    cs, cur = x.cs, x.cur
    k = range(len(x.deps))
    plus = lambda term: "+".join(term.format(i=i) for i in k)  # noqa: E731
    years = "{year:1}-1"
    rows = (
        ("re_gpu_hours", "ramped GPU-hours = GPUs x full months x util x availability x h",
         "GPU-h", f"=({plus('{{$d_g{i}}}*{{$re_sold{i}}}')})*{{$utilization}}*{{$availability}}"
         "*hours_per_month", tot["spot_hours"] + _displaced(x)),
        ("re_revenue", "spot revenue = price x sum of spot GPU-hours x price index", cur,
         f"={{$price_per_gpu_hour}}*SUMPRODUCT({{spot_hours:1}},"
         f"(1-{{$price_decline}}*({{year:1}}>1))^({years}))",
         tot["spot_revenue"]),
        ("re_electricity", "electricity = PUE x hours x price x sum of kW drawn x index", cur,
         "={$pue}*hours_per_month*power_price_per_kwh*SUMPRODUCT({$idle_fraction}*{kw_on:1}"
         f"+(1-{{$idle_fraction}})*{{kw_used:1}},(1+power_escalation)^({years}))",
         tot["electricity"]),
        ("re_colocation", "colocation = sum of IT kW x months in service x fee", cur,
         f"=({plus('{{$d_kw{i}}}*{{$re_n{i}}}')})*facility_colocation_per_kw_month"
         "*(1-{$build_flag})", tot["colocation"]),
        ("re_staff", "staff = cost / 12 x sum of FTE x staff index", cur,
         f"={{$staff_cost_per_fte}}/12*SUMPRODUCT({{fte:1}},(1+{{$staff_escalation}})^({years}))",
         tot["staff"]),
        ("re_fixed_opex", "maintenance + insurance + software (sum of deployments)", cur,
         f"={plus('{{$re_fix{i}}}')}", tot["maintenance"] + tot["insurance"] + tot["software"]),
        ("re_npv", "NPV = sum of FCF x (1 + r)^(-month/12)", cur,
         "=SUMPRODUCT({fcf:},(1+finance_discount_rate)^(-{month:}/12))", x.met["npv"]),
    )  # fmt: skip
    for key, label, unit, formula, value in rows:
        cs.const(key, label, unit, formula, value, "count" if unit == "GPU-h" else "money")


def _displaced(x: Tier) -> float:
    """The ramped GPU-hours a contract takes from spot over the horizon:
    ``sum_d GPUs_d sum_m u_d(m) s_d(m) x availability x H``."""
    hours = sum(_v(d["gpus"]) * float(np.sum(x.util[i] * x.contracted[i]))
                for i, d in enumerate(x.deps))  # fmt: skip
    return hours * x.met["availability"] * HOURS_PER_MONTH


def depreciation_recomputed(x: Tier) -> None:
    """Depreciation over the horizon in closed form per event: y = min((M - t) / 12,
    life) years in service, f = int(y) whole ones; SLN (c - s) y / L; SYD's
    arithmetic series over f years plus the part year; VDB over (0, f) plus the
    part year's VDB(f, f + 1). The class's total is the sum over its events."""
    cs, cur, M = x.cs, x.cur, x.model.months
    by_class: dict[str, list[str]] = {c: [] for c in ASSET_CLASSES}
    for j, e in enumerate(x.events):
        cls, i = x.event_of[j]
        cost, t, sfx = _event_keys(cls, i)
        by_class[cls].append(sfx)
        life = x.config.depreciation_life_years[cls]
        y = max(0.0, min((M - _v(e.month if j else x.deps[0]["month"])) / 12, life))
        f = float(np.floor(y))
        ann = {m: depreciation_annual(_v(e.cost), x.ti[f"salvage_{cls}"], m, life)[0]
               for m in ("sum_of_years", "double_declining")}  # fmt: skip
        part = {m: float(a[:int(f)].sum() + a[min(int(f), life - 1)] * (y - f))
                for m, a in ann.items()}  # fmt: skip
        c, s, L = f"{{${cost}}}", f"{{$ev_s_{sfx}}}", f"{{$life_{cls}}}"
        yy, ff = f"{{$re_y_{sfx}}}", f"{{$re_f_{sfx}}}"
        rows = (
            (f"re_y_{sfx}", "years in service within the horizon", "years",
             f"=MAX(0,MIN((model_months-{{${t}}})/12,{L}))", y, "factor"),
            (f"re_f_{sfx}", "whole years of them", "years", f"=INT({yy})", f, "count"),
            (f"re_syd_{sfx}", "sum of years over them", cur,
             f"=({c}-{s})*({ff}*{L}-{ff}*({ff}-1)/2)/({L}*({L}+1)/2)"
             f"+SYD({c},{s},{L},MIN({ff}+1,{L}))*({yy}-{ff})", part["sum_of_years"], "money"),
            (f"re_vdb_{sfx}", "double declining over them", cur,
             f"=IF({ff}=0,0,VDB({c},{s},{L},0,{ff}))"
             f"+VDB({c},{s},{L},MIN({ff},{L}-1),MIN({ff}+1,{L}))*({yy}-{ff})",
             part["double_declining"], "money"),
            (f"re_de_{sfx}", "depreciation of the method chosen", cur,
             f"=CHOOSE({{$method_{cls}}},({c}-{s})*{yy}/{L},{{$re_syd_{sfx}}},{{$re_vdb_{sfx}}})",
             float(x.r_event_dep[j]), "money"),
        )  # fmt: skip
        for key, label, unit, formula, value, kind in rows:
            cs.const(key, f"{cls} of deployment {i}: {label}", unit, formula, value, kind)
    for cls, sfx in by_class.items():
        cs.const(f"re_dep_{cls}", f"{cls}: depreciation over the horizon (sum of its events)",
                 cur, "=" + "+".join(f"{{$re_de_{s}}}" for s in sfx),
                 float(x.r.depreciation[cls][0].sum()), "money")  # fmt: skip

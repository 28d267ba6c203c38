"""Tier-sheet blocks of time and growth (methodology §8.1-8.3).

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
- :func:`terminal`: terminal value (book, none or market) and its tax;
- the closed forms the Checks sheet compares the totals with are in
  :mod:`~costmodel.report.workbook.recomputed`.

Cached values are the engine's (:mod:`costmodel.core.engine`), recomputed here
per deployment and per event with the engine's own functions.
"""

from __future__ import annotations

from costmodel.catalogue.items import CAPEX_CLASSES, HARDWARE_CLASSES, capex_column
from costmodel.report.workbook.bookvalue import book_value
from costmodel.report.workbook.fabricblock import fabric_rows
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.incomeblock import income_rows, income_terms
from costmodel.report.workbook.inputs import lead_fields
from costmodel.report.workbook.storageblock import storage_rows
from costmodel.report.workbook.tiercontext import Tier, scalar

#: the hardware classes in the order a deployment is sized: the network is sized on
#: the servers and the storage (a share of them, or its fabric), so it comes last
SIZED_ORDER = ("servers", "storage", "network")
#: row key prefix of each class's capex per deployment
CAPEX_KEY = {"servers": "d_cs", "network": "d_cn", "storage": "d_cst", "facility": "d_cf"}


def engine_parts(x: Tier) -> None:
    """The engine's deployments, capex events and ramps of the tier (S = 1), from
    its schedules (:class:`costmodel.core.schedules.TierSchedules`)."""
    s = x.r.schedules
    x.deps = x.r.deployments
    x.events = s.events
    x.event_of = [(e.cls, e.deployment) for e in s.events]  # in the engine's order


def deployments(x: Tier) -> None:
    """Methodology §8.1: the deployments, the facility events, in service and ramp rows."""
    cs, cur = x.cs, x.cur
    cs.heading("Deployments (methodology §8.1: capex month, size, capex at its month)")
    grid = "+{$site_grid_lead}" if "site_grid_lead" in cs.rows else ""
    build = "ROUND({$build_months},0)" + grid
    if "lead_months" in lead_fields(x.a):  # the server's supply lead time (§30.2)
        cs.const(
            "server_lead_months",
            "catalogue: supply lead time of the server (blank: none)",
            "months",
            "=SUMIFS(Srv_lead_months,Srv_id,{$server})",
            x.ti.get("lead_months", 0.0),
            "count",
        )
        build = f"MAX({build},ROUND({{$server_lead_months}},0))"
    cs.const(
        "d_t0",
        "deployment 0: capex month = build months (whole, < M), or the servers' lead",
        "month",
        "=" + build,
        scalar(x.deps[0]["month"]),
        "count",
    )
    for i, d in enumerate(x.deps):
        n = f"deployment {i}"
        if i:
            _stage_links(x, i, d)
        else:
            cs.const("d_g0", f"{n}: GPUs", "GPUs", "={$gpus}", scalar(d["gpus"]), "count")
        if not i and "storage_capacity_tb" in x.ti:  # storage in nodes: its own block
            cs.const(
                "d_tb0",
                f"{n}: storage",
                "TB",
                "={$storage_capacity_tb}",
                x.ti["storage_capacity_tb"],
                "number",
            )
        _deployment_capex(x, i, d, cur)
        if "staff_fixed_fte" in x.ti:
            servers = "+".join(f"{{$d_n{j}}}" for j in range(i + 1))
            cs.const(
                f"d_fte{i}",
                f"{n}: staff = fixed + per server x servers so far",
                "FTE",
                f"={{$staff_fixed_fte}}+{{$staff_fte_per_server}}*({servers})",
                scalar(d["staff_fte"]),
                "number",
            )
    _facility_events(x)
    _service_rows(x)


def _stage_links(x: Tier, i: int, d: dict) -> None:
    """Deployment ``i`` > 0, a stage: its month, GPUs, storage and staff linked
    from the stage table, and its capex month ``max(stage month, B)``."""
    cs, n = x.cs, f"deployment {i}"
    stage = {
        f: x.inputs.tier_cells[(x.tier, f"stages.{i - 1}.{f}")]
        for f in ("month", "gpus", "capacity_tb", "staff_fte")
    }
    ti = x.ti
    cs.const(
        f"d_month{i}",
        f"{n}: stage month (link)",
        "month",
        f"={stage['month']}",
        ti[f"stage{i}_month"],
        "count",
        GREEN,
    )
    cs.const(
        f"d_t{i}",
        f"{n}: capex month = max(stage month, build months)",
        "month",
        f"=MAX({{$d_month{i}}},{{$d_t0}})",
        scalar(d["month"]),
        "count",
    )
    links = (
        ("d_g", "GPUs added (link)", "GPUs", "gpus", "count"),
        ("d_tb", "storage added (link)", "TB", "capacity_tb", "number"),
        ("d_fte", "staff from its in-service month (link)", "FTE", "staff_fte", "number"),
    )
    for key, label, unit, f, kind in links:
        if f == "staff_fte" and "staff_fixed_fte" in ti:
            continue  # written with the servers in deployments (methodology §12.2)
        if f == "capacity_tb" and f"stage{i}_capacity_tb" not in ti:
            continue  # storage in nodes follows the GPUs (methodology §28.2)
        value = ti[f"stage{i}_{f}"]
        cs.const(f"{key}{i}", f"{n}: {label}", unit, f"={stage[f]}", value, kind, GREEN)


def _service_rows(x: Tier) -> None:
    """Per deployment: its in-service flag and its ramp-up utilization."""
    cs = x.cs
    for i in range(len(x.deps)):
        cs.series(
            f"d_on{i}",
            f"deployment {i}: flag, in service (month > capex month)",
            "flag",
            f"=({{month}}>{{$d_t{i}}})*1",
            x.rows.in_service_flags[i],
            "flag",
        )
        cs.series(
            f"d_u{i}",
            f"deployment {i}: utilization = util x min(1, months / ramp)",
            "fraction",
            f"=IF({{$ramp_months}}>0,MIN(1,MAX(0,({{month}}-{{$d_t{i}}})"
            f"/{{$ramp_months}})),{{d_on{i}}})*{{$utilization}}",
            x.rows.utilization_rows[i],
            "pct2",
        )


def _deployment_capex(x: Tier, i: int, d: dict, cur: str) -> None:
    """Servers, IT load and hardware capex of deployment ``i`` at its month."""
    n = f"deployment {i}"
    designed = "fabric_cost" in d
    network = (
        (
            "d_cn",
            "capex: network = fabric increment + per server x servers",
            x.cur,
            "",
            d["network"],
            "money",
        )
        if designed
        else (
            "d_cn",
            "capex: network = s/(1-s) x (servers + storage)",
            cur,
            f"={{$network_share}}/(1-{{$network_share}})*({{$d_cs{i}}}+{{$d_cst{i}}})",
            d["network"],
            "money",
        )
    )
    rows = (
        (
            "d_n",
            "servers = GPUs / GPUs per server",
            "servers",
            f"={{$d_g{i}}}/{{$gpus_per_server}}",
            d["servers_n"],
            "number",
        ),
        (
            "d_kw",
            "IT load = servers x power x (1 + aux)",
            "kW",
            f"={{$d_n{i}}}*{{$server_power_kw}}*(1+power_aux_power_fraction)",
            d["it_kw"],
            "number",
        ),
        (
            "d_cs",
            "capex: servers = n x price x (1-decline)^(t/12) (1 at t = 0)",
            cur,
            f"={{$d_n{i}}}*{{$server_price}}*(1-{{$server_price_decline}}*({{$d_t{i}}}>0))"
            f"^({{$d_t{i}}}/12)",
            d["servers"],
            "money",
        ),
        (
            "d_cst",
            "capex: storage = TB x price per TB",
            cur,
            f"={{$d_tb{i}}}*{{$storage_price_per_tb}}",
            d["storage"],
            "money",
        ),
        network,
        (
            "d_hw",
            "capex: hardware",
            cur,
            f"={{$d_cs{i}}}+{{$d_cn{i}}}+{{$d_cst{i}}}",
            d["hardware"],
            "money",
        ),
    )
    for key, label, unit, formula, value, kind in rows:
        if key == "d_cn" and designed:  # the fabric block first (methodology §12.1)
            formula = fabric_rows(x, i, d)
        if key == "d_cst" and "storage_nodes" in d:  # the storage block (§28.2)
            formula = storage_rows(x, i, d)
            label = "capex: storage = storage cost increment"
        x.cs.const(f"{key}{i}", f"{n}: {label}", unit, formula, scalar(value), kind)


def _facility_events(x: Tier) -> None:
    """Methodology §8.1: the hall at month 0 for the final IT kW (reserved headroom) or the
    first deployment's; without reserve each stage extends it at its month, at the
    build cost plus the retrofit premium. Then each deployment's capex total."""
    cs, cur = x.cs, x.cur
    amounts = x.rows.facility_costs
    total_kw = "+".join(f"{{$d_kw{i}}}" for i in range(len(x.deps)))
    cs.const(
        "d_cf0",
        "facility at month 0 = (final kW if reserved, else first) x cost",
        cur,
        f"=IF({{$reserve_headroom}}>0,{total_kw},{{$d_kw0}})*{{$build_cost_per_kw}}"
        "*{$build_flag}" + ("+{$site_grid_capex}" if "site_grid_capex" in cs.rows else ""),
        amounts[0],
        "money",
    )
    for i in range(1, len(x.deps)):
        cs.const(
            f"d_cf{i}",
            f"deployment {i}: facility extension = kW x cost x (1 + retrofit)",
            cur,
            f"=(1-{{$reserve_headroom}})*{{$d_kw{i}}}*{{$build_cost_per_kw}}"
            "*{$build_flag}*(1+facility_retrofit_premium)",
            amounts[i],
            "money",
        )
    for i in range(len(x.deps)):
        cs.const(
            f"d_capex{i}",
            f"deployment {i}: capex = hardware + facility",
            cur,
            f"={{$d_hw{i}}}+{{$d_cf{i}}}",
            x.rows.capex_by_deployment[i],
            "money",
        )


def capex_totals(x: Tier) -> None:
    """Methodology §3.1 and §8.1: the final cluster's servers, IT load, racks and capex by class
    (sums over the deployments)."""
    cs, met, cur = x.cs, x.met, x.cur
    cs.heading("Capex and capacity (final cluster, all deployments)")
    k = range(len(x.deps))

    def total(prefix: str) -> str:
        return "=" + "+".join(f"{{${prefix}{i}}}" for i in k)

    rows = (
        ("gpus_total", "GPUs (all deployments)", "GPUs", total("d_g"), met["gpus"], "count"),
        ("servers", "servers (all deployments)", "servers", total("d_n"), met["servers"], "number"),
        *(
            (
                capex_column(c),
                f"capex: {c}",
                cur,
                total(CAPEX_KEY[c]),
                met[capex_column(c)],
                "money",
            )
            for c in SIZED_ORDER
        ),
        (
            "capex_hardware",
            "capex: hardware",
            cur,
            "=" + "+".join("{$" + capex_column(c) + "}" for c in HARDWARE_CLASSES),
            met["capex_hardware"],
            "money",
        ),
        ("it_kw", "IT load (all deployments)", "kW", total("d_kw"), met["it_kw"], "number"),
        _per_rack(x),
        (
            "racks",
            "racks of whole servers = ceiling(servers / servers per rack)",
            "racks",
            "=IF({$servers_per_rack}=0,0,ROUNDUP({$servers}/{$servers_per_rack},0))",
            x.summary.loc[x.tier, "racks"],
            "count",
        ),
        (
            "capex_facility",
            "capex: facility (month 0 and extensions)",
            cur,
            total("d_cf"),
            met["capex_facility"],
            "money",
        ),
        (
            "capex_total",
            "capex: total",
            cur,
            "={$capex_hardware}+{$capex_facility}",
            met["capex"],
            "money",
        ),
        (
            "capex_by_deployment",
            "capex: total of the deployments' capex",
            cur,
            total("d_capex"),
            met["capex"],
            "money",
        ),
    )
    for key, label, unit, formula, value, kind in rows:
        cs.const(key, label, unit, formula, value, kind)


def capex_series(x: Tier) -> None:
    """Capex by asset class in the month it is paid: hardware at each deployment's
    month, the hall at month 0 and its extensions at their stage's month."""
    cs, r = x.cs, x.r
    cs.heading("Capex (in the month paid)")
    for cls in CAPEX_CLASSES:
        terms = [f"{{${CAPEX_KEY[cls]}{i}}}*({{month}}={{$d_t{i}}})" for i in range(len(x.deps))]
        if cls == "facility":
            terms[0] = "{$d_cf0}*{inv}"
        cs.series(
            f"capex_{cls}_t",
            f"capex: {cls}",
            x.cur,
            "=" + "+".join(terms),
            r.capex_months[cls][0],
            total=True,
        )
    cs.series(
        "capex_t",
        "capex: total",
        x.cur,
        "=" + "+".join(f"{{capex_{line}_t}}" for line in CAPEX_CLASSES),
        r.flows["capex"][0],
        total=True,
        bold=True,
    )


def in_service(x: Tier) -> None:
    """Methodology §8.1: what is in service each month, the base of the opex lines: IT kW
    (flat and at the ramped utilization), GPUs, hardware, facility, GPUs sold, and
    the headcount (from month 1; a stage's from its in-service month)."""
    cs, cur = x.cs, x.cur
    cs.heading("In service (methodology §8.1: opex and revenue follow the deployments)")
    k = range(len(x.deps))
    on = x.rows.in_service

    def total(term: str) -> str:
        return "=" + "+".join(term.format(i=i) for i in k)

    rows = (
        (
            "kw_on",
            "IT kW in service",
            "kW",
            total("{{$d_kw{i}}}*{{d_on{i}}}"),
            on["kw_on"],
            "number",
        ),
        (
            "kw_used",
            "IT kW in use = sum of kW x load factor (methodology §11.5)",
            "kW",
            total("{{$d_kw{i}}}*{{k_lf{i}}}"),
            on["kw_used"],
            "number",
        ),
        (
            "gpus_on",
            "GPUs in service",
            "GPUs",
            total("{{$d_g{i}}}*{{d_on{i}}}"),
            on["gpus_on"],
            "number",
        ),
        (
            "gpus_sold",
            "GPUs sold = sum of GPUs x ramped utilization",
            "GPUs",
            total("{{$d_g{i}}}*{{d_u{i}}}"),
            on["gpus_sold"],
            "number",
        ),
        (
            "hw_on",
            "hardware capex in service",
            cur,
            total("{{$d_hw{i}}}*{{d_on{i}}}"),
            on["hw_on"],
            "money",
        ),
        (
            "fac_on",
            "facility capex in service",
            cur,
            total("{{$d_cf{i}}}*{{d_on{i}}}"),
            on["fac_on"],
            "money",
        ),
    )
    for key, label, unit, formula, values, kind in rows:
        cs.series(key, label, unit, formula, values, kind)
    cs.series(
        "kw_drawn",
        "IT kW drawn = idle x kW in service + (1-idle) x kW in use",
        "kW",
        "={$idle_fraction}*{kw_on}+(1-{$idle_fraction})*{kw_used}",
        on["kw_drawn"],
        "number",
    )
    _headcount(x)


def _headcount(x: Tier) -> None:
    """The headcount month by month: the first team from month 1, each later
    deployment's team from its in-service month (the last one in service)."""
    cs, d, fte = x.cs, x.deps, x.rows.headcount
    cs.series(
        "fte" if len(d) == 1 else "fte0",
        "staff: first team from month 1",
        "FTE",
        "={$d_fte0}*{ops}" if "staff_fixed_fte" in x.ti else "={$staff_fte}*{ops}",
        fte[0],
        "number",
    )
    for i in range(1, len(d)):
        prev = "fte0" if i == 1 else f"fte{i - 1}"
        key = "fte" if i == len(d) - 1 else f"fte{i}"
        cs.series(
            key,
            f"staff: deployment {i}'s team from its in-service month",
            "FTE",
            f"=IF({{d_on{i}}}=1,{{$d_fte{i}}},{{{prev}}})",
            fte[i],
            "number",
        )


def event_keys(cls: str, i: int) -> tuple[str, str, str]:
    """Row keys of an event: its cost, its capex month (for the in-service month
    ``t + 1``) and the suffix of its rows."""
    return f"{CAPEX_KEY[cls]}{i}", f"d_t{i}", f"{cls}{i}"


def depreciation_events(x: Tier) -> None:
    """Methodology §3.3 and §8.1: each capex event depreciated by its class's method, asset
    year k = floor((month - in-service month) / 12) + 1 counted from the month
    after its capex month; the class's monthly charge is the sum over its events / 12."""
    cs, cur = x.cs, x.cur
    cs.heading("Depreciation per capex event (from its in-service month), book value by class")
    for j, (cls, i) in enumerate(x.event_of):
        cost, t, sfx = event_keys(cls, i)
        ev = x.model.rows(x.tier).event(j)
        k, kc = ev["asset_year"], ev["asset_year_clipped"]
        cs.const(
            f"ev_s_{sfx}",
            f"{cls} of deployment {i}: salvage = cost x salvage",
            cur,
            f"={{${cost}}}*dep_{cls}_salvage",
            ev["salvage"],
            "money",
        )
        cs.series(
            f"ev_k_{sfx}",
            f"{cls} of deployment {i}: asset year (from month t + 1)",
            "year",
            f"=INT(({{month}}-{{${t}}}-1)/12)+1",
            k,
            "count",
        )
        cs.series(
            f"ev_kc_{sfx}",
            f"{cls} of deployment {i}: asset year within 1..life",
            "year",
            f"=MIN(MAX({{ev_k_{sfx}}},1),{{$life_{cls}}})",
            kc,
            "count",
        )
        c, s, L, kk = f"{{${cost}}}", f"{{$ev_s_{sfx}}}", f"{{$life_{cls}}}", f"{{ev_kc_{sfx}}}"
        formula = (
            f"=CHOOSE({{$method_{cls}}},SLN({c},{s},{L}),SYD({c},{s},{L},{kk}),"
            f"VDB({c},{s},{L},{kk}-1,{kk}))*({{ev_k_{sfx}}}>=1)*({{ev_k_{sfx}}}<={L})"
        )
        cs.series(
            f"ev_dep_{sfx}",
            f"{cls} of deployment {i}: annual depreciation (method)",
            cur,
            formula,
            ev["annual"],
        )
    for cls in CAPEX_CLASSES:
        sfx = [x.event_of[j] for j in range(len(x.events)) if x.event_of[j][0] == cls]
        cs.series(
            f"dep_{cls}",
            f"{cls}: depreciation = sum of its events' annual / 12",
            cur,
            "=(" + "+".join(f"{{ev_dep_{c}{i}}}" for c, i in sfx) + ")/12",
            x.r.depreciation[cls][0],
            total=True,
        )
        book_value(x, cls)
    cs.series(
        "dep",
        "depreciation: total",
        cur,
        "=" + "+".join(f"{{dep_{c}}}" for c in CAPEX_CLASSES),
        x.r.flows["depreciation"][0],
        total=True,
        bold=True,
    )


def _per_rack(x: Tier) -> tuple[str, str, str, str, float, str]:
    """The servers per rack row: ``floor(rack kW / (server kW x (1 + aux)))``, or
    ``1 / racks_per_unit`` for a rack-scale unit (methodology §33) where the
    catalogue has that column."""
    spr = x.met["servers_per_rack"]
    whole = "ROUNDDOWN({$rack_kw}/({$server_power_kw}*(1+power_aux_power_fraction))+1E-9,0)"
    if "racks_per_unit" not in lead_fields(x.a):
        label = "servers per rack = floor(rack kW / (server kW x (1 + aux)))"
        return ("servers_per_rack", label, "servers", "=" + whole, spr, "count")
    n = "SUMIFS(Srv_racks_per_unit,Srv_id,{$server})"
    label = "servers per rack = 1 / racks per unit (rack-scale), else floor(rack kW / unit kW)"
    formula = f"=IF({n}>0,1/{n},{whole})"
    return ("servers_per_rack", label, "servers", formula, spr, "factor")


def terminal(x: Tier) -> None:
    """Methodology §3.5 and §8.3: the terminal value at M, book (net book value), none, or
    market (each event's cost x (1 - market decline)^((M - capex month) / 12));
    its gain is taxed in the tax block (methodology §11.9)."""
    cs, cur = x.cs, x.cur
    cs.heading("Terminal value (at month M)")
    for j, e in enumerate(x.events):
        cls, i = x.event_of[j]
        cost, t, sfx = event_keys(cls, i)
        when = "0" if (cls == "facility" and i == 0) else f"{{${t}}}"
        cs.const(
            f"mv_{sfx}",
            f"market value at M: {cls} of deployment {i}",
            cur,
            f"={{${cost}}}*(1-dep_{cls}_market_decline)^((model_months-{when})/12)",
            scalar(e.market_value),
            "money",
        )
    first, last = event_keys(*x.event_of[0])[2], event_keys(*x.event_of[-1])[2]
    cs.const(
        "tv_market",
        "market value at M (sum of the events)",
        cur,
        f"=SUM({{$mv_{first}}}:{{$mv_{last}}})",
        x.rows.market_value_total,
        "money",
    )
    income_rows(x)  # terminal_value: income (methodology §30.3)
    nbv = "+".join(f"{{nbv_close_{c}}}" for c in CAPEX_CLASSES)
    cs.series(
        "terminal",
        "terminal value: book (NBV at M), none, market or income value",
        cur,
        f"=(({nbv})*{{$terminal_flag}}+{{$tv_market}}*{{$market_flag}}"
        f"{income_terms(x)[0]})*{{last}}",
        x.r.flows["terminal_value"][0],
        total=True,
    )

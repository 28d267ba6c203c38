"""One calculation sheet per tier: the engine's computation as live formulas.

Blocks top to bottom: timeline and flags; tier inputs (green links to Inputs);
lookups; capex and capacity; reliability; then the time series: capex, opex,
revenue, depreciation with net-book-value corkscrews, EBIT, annual tax with the
loss-pool corkscrew, free cash flow, cumulative cash, discounting and payback
flags. Cached values are the engine's (``Model.results``), so the file reads
correctly before any recalculation.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from xlsxwriter.workbook import Workbook

from costmodel.core.model import Model
from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.inputs.schema import ASSET_CLASSES, DEPRECIATION_METHODS
from costmodel.report.workbook.grid import FIRST_COL, GREEN, CalcSheet, Styles
from costmodel.report.workbook.inputs import SERVER_FIELDS, InputsMap

HOURS = "hours_per_month"


def excel_serial(p: pd.Period) -> float:
    """Excel date serial of the last day of period ``p``."""
    return float((p.end_time.normalize() - pd.Timestamp("1899-12-30")).days)


def year_end_values(annual: np.ndarray, months: int) -> np.ndarray:
    """Annual values placed at each year's last month (12, 24, ...) of months 0..M."""
    out = np.zeros(months + 1)
    out[MONTHS_PER_YEAR::MONTHS_PER_YEAR] = annual
    return out


def write_tier_sheet(
    wb: Workbook, st: Styles, model: Model, tier: str, sheet_name: str, inputs: InputsMap
) -> CalcSheet:
    r = model.results[tier]
    ti = model.inputs[tier].values()
    a = model.assumptions
    t = a.tiers[tier]
    M = model.months
    ws = wb.add_worksheet(sheet_name)
    cs = CalcSheet(ws, sheet_name, M, st)
    ws.set_column(0, 0, 46)
    ws.set_column(1, 1, 12)
    ws.set_column(2, 3, 15)
    ws.set_column(4, 4, 2)
    ws.set_column(FIRST_COL, FIRST_COL + M, 12.5)
    ws.write_string(0, 0, f"Calculation: tier {tier}", st.title)
    ws.write_string(0, 2, "constant", st.header)
    ws.write_string(0, 3, "total", st.header)
    cs.row = 1

    m = np.arange(M + 1)
    year = -(-m // 12)
    ops = (m >= 1).astype(float)

    # ---- timeline (identical on every tier sheet)
    cs.series(
        "month", "Month (0 = investment date)", "month", "=COLUMNS({month@0}:{month})-1", m, "count"
    )
    cs.series(
        "period",
        "Month end",
        "date",
        "=EOMONTH(start,{month}-1)",
        [excel_serial(p) for p in model.periods],
        "date",
    )
    cs.series("year", "Operating year", "year", "=ROUNDUP({month}/12,0)", year, "count")
    cs.series("ops", "Flag: operating month", "flag", "=({month}>=1)*1", ops, "flag")
    cs.series("inv", "Flag: investment month", "flag", "=({month}=0)*1", 1 - ops, "flag")
    yearend = ((m % 12 == 0) & (m >= 1)).astype(float)
    cs.series(
        "yearend",
        "Flag: last month of an operating year",
        "flag",
        "=(MOD({month},12)=0)*{ops}",
        yearend,
        "flag",
    )
    last = (m == M).astype(float)
    cs.series(
        "last", "Flag: last month of the horizon", "flag", "=({month}=model_months)*1", last, "flag"
    )
    ws.freeze_panes(cs.row, FIRST_COL)

    # ---- tier inputs (links to the Inputs sheet)
    cs.heading("Tier inputs (links to Inputs)")
    text_links = (("server", t.server), ("cooling", t.cooling))
    for key, value in text_links:
        cs.const(key, key, "", f"={inputs.tier_cells[(tier, key)]}", value, "text", GREEN)
    links = (
        ("gpus", "gpus", "GPUs", "count"),
        ("network_share", "network.share", "fraction", "pct2"),
        ("storage_capacity_tb", "storage.capacity_tb", "TB", "number"),
        ("storage_price_per_tb", "storage.price_per_tb", "per TB", "money"),
        ("write_gbps", "storage.write_gbps", "GB/s", "number"),
        ("rack_kw", "rack_kw", "kW/rack", "number"),
        ("staff_fte", "staff_fte", "FTE", "number"),
        ("utilization", "operations.utilization", "fraction", "pct2"),
        ("maintenance_rate", "operations.maintenance_rate", "of hardware capex / yr", "pct2"),
        ("insurance_rate", "operations.insurance_rate", "of capex / yr", "pct2"),
        ("staff_cost_per_fte", "operations.staff_cost_per_fte", "per FTE-year", "money"),
        ("staff_escalation", "operations.staff_escalation", "per year", "pct2"),
        ("software_per_gpu_year", "operations.software_per_gpu_year", "per GPU-year", "money"),
        ("price_per_gpu_hour", "gpu_hour_value", "per GPU-hour", "money2"),
        ("price_decline", "revenue.price_decline", "per year", "pct2"),
        ("node_failures_per_day", "reliability.node_failures_per_day", "per server-day", "factor"),
        ("restart_hours", "reliability.restart_hours", "h", "number"),
        ("checkpoint_tb", "reliability.checkpoint_tb", "TB", "number"),
        ("mfu", "reliability.mfu", "fraction", "pct2"),
    )
    for key, path, unit, kind in links:
        label = (
            "value of a GPU-hour (rental or avoided cloud)" if path == "gpu_hour_value" else path
        )
        cs.const(key, label, unit, f"={inputs.tier_cells[(tier, path)]}", ti[key], kind, GREEN)

    # ---- lookups
    cs.heading("Lookups (server catalogue, cooling, depreciation, flags)")
    lookup_keys = {
        "gpus_per_server": "gpus_per_server",
        "price": "server_price",
        "power_kw": "server_power_kw",
        "idle_fraction": "idle_fraction",
        "gpu_memory_gb": "gpu_memory_gb",
        "tflops_bf16": "tflops_bf16",
    }
    for f in SERVER_FIELDS:
        key = lookup_keys[f]
        kind = "pct2" if f == "idle_fraction" else "number"
        cs.const(
            key, f"server {f}", "", f"=INDEX(Srv_{f},MATCH({{$server}},Srv_id,0))", ti[key], kind
        )
    cs.const(
        "pue",
        "PUE of the tier's cooling",
        "ratio",
        "=INDEX(Cool_pue,MATCH({$cooling},Cool_id,0))",
        ti["pue"],
    )
    cs.const(
        "build_cost_per_kw",
        "build cost of the cooling type",
        "per kW IT",
        "=INDEX(Cool_build_cost_per_kw,MATCH({$cooling},Cool_id,0))",
        ti["build_cost_per_kw"],
        "money",
    )
    max_rack = a.facility.max_rack_kw[t.cooling].value
    cs.const(
        "max_rack_kw",
        "max rack power of the cooling type",
        "kW/rack",
        "=INDEX(Cool_max_rack_kw,MATCH({$cooling},Cool_id,0))",
        max_rack,
    )
    cs.const(
        "build_flag",
        "Flag: build the hall (facility.mode = build)",
        "flag",
        '=(facility_mode="build")*1',
        ti["build_flag"],
        "flag",
    )
    cs.const(
        "terminal_flag",
        "Flag: terminal value = book",
        "flag",
        '=(terminal_value="book")*1',
        ti["terminal_flag"],
        "flag",
    )
    cs.const(
        "monthly_rate",
        "Monthly discount rate (1+r)^(1/12)-1",
        "per month",
        "=(1+finance_discount_rate)^(1/12)-1",
        (1 + ti["discount_rate"]) ** (1 / 12) - 1,
        "factor",
    )
    for cls in ASSET_CLASSES:
        idx = DEPRECIATION_METHODS.index(a.depreciation.__getattribute__(cls).method) + 1
        cs.const(
            f"method_{cls}",
            f"depreciation method index: {cls}",
            "1-3",
            f"=MATCH(dep_{cls}_method,Dep_methods,0)",
            idx,
            "count",
        )

    # ---- capex and capacity
    cs.heading("Capex and capacity (month 0)")
    met = {k: float(v[0]) for k, v in r.metrics.items()}
    cs.const(
        "servers",
        "servers = gpus / gpus_per_server",
        "servers",
        "={$gpus}/{$gpus_per_server}",
        met["servers"],
        "number",
    )
    cs.const(
        "capex_servers",
        "capex: servers",
        "money",
        "={$servers}*{$server_price}",
        met["capex_servers"],
        "money",
    )
    cs.const(
        "capex_storage",
        "capex: storage",
        "money",
        "={$storage_capacity_tb}*{$storage_price_per_tb}",
        met["capex_storage"],
        "money",
    )
    cs.const(
        "capex_network",
        "capex: network = share/(1-share) x (servers + storage)",
        "money",
        "={$network_share}/(1-{$network_share})*({$capex_servers}+{$capex_storage})",
        met["capex_network"],
        "money",
    )
    cs.const(
        "capex_hardware",
        "capex: hardware",
        "money",
        "={$capex_servers}+{$capex_network}+{$capex_storage}",
        met["capex_hardware"],
        "money",
    )
    cs.const(
        "it_kw",
        "IT load = servers x power x (1 + aux)",
        "kW",
        "={$servers}*{$server_power_kw}*(1+power_aux_power_fraction)",
        met["it_kw"],
    )
    cs.const(
        "racks",
        "racks = ceiling(IT kW / rack kW)",
        "racks",
        "=ROUNDUP({$it_kw}/{$rack_kw}-1E-9,0)",
        met["racks"],
        "count",
    )
    cs.const(
        "capex_facility",
        "capex: facility = IT kW x build cost (if building)",
        "money",
        "={$it_kw}*{$build_cost_per_kw}*{$build_flag}",
        met["capex_facility"],
        "money",
    )
    cs.const(
        "capex_total",
        "capex: total",
        "money",
        "={$capex_hardware}+{$capex_facility}",
        met["capex"],
        "money",
    )
    avg_it = met["it_kw"] * (ti["idle_fraction"] + (1 - ti["idle_fraction"]) * ti["utilization"])
    cs.const(
        "avg_it_kw",
        "average IT draw = IT kW x (idle + (1-idle) x utilization)",
        "kW",
        "={$it_kw}*({$idle_fraction}+(1-{$idle_fraction})*{$utilization})",
        avg_it,
    )

    # ---- reliability (spec 9)
    cs.heading("Reliability: failures, checkpoints, goodput")
    fph = met["failures_per_hour"]
    delta = met["checkpoint_write_hours"]
    tau = met["young_interval_hours"]
    write_waste = met["write_waste"]
    restart_waste = met["restart_waste"]
    cs.const(
        "fph",
        "cluster failures per hour = failures/day x servers / 24",
        "per h",
        "={$node_failures_per_day}*{$servers}/24",
        fph,
        "factor",
    )
    cs.const(
        "mtbf_hours",
        "cluster MTBF = 1 / failures per hour",
        "h",
        '=IF({$fph}=0,"",1/{$fph})',
        met["mtbf_hours"],
    )
    cs.const(
        "delta_h",
        "checkpoint write time = TB x 1000 / GB/s / 3600",
        "h",
        "={$checkpoint_tb}*1000/{$write_gbps}/3600",
        delta,
        "factor",
    )
    cs.const(
        "tau_h",
        "Young's interval sqrt(2 x write time x MTBF) (0 if no failures)",
        "h",
        "=IF({$fph}=0,0,SQRT(2*{$delta_h}/{$fph}))",
        tau,
        "factor",
    )
    cs.const(
        "checkpoint_interval_hours",
        "optimal checkpoint interval",
        "h",
        '=IF(OR({$fph}=0,{$delta_h}=0),"",{$tau_h})',
        met["checkpoint_interval_hours"],
    )
    cs.const(
        "write_waste",
        "waste: checkpoint writes = write time / interval",
        "fraction",
        "=IF(OR({$fph}=0,{$delta_h}=0),0,{$delta_h}/{$tau_h})",
        write_waste,
        "pct2",
    )
    cs.const(
        "restart_waste",
        "waste: lost work and restarts = (interval/2 + restart) / MTBF",
        "fraction",
        "=({$tau_h}/2+{$restart_hours})*{$fph}",
        restart_waste,
        "pct2",
    )
    cs.const(
        "goodput",
        "goodput = max(0, 1 - waste)",
        "fraction",
        "=IF({$fph}=0,1,MAX(0,1-{$write_waste}-{$restart_waste}))",
        met["goodput"],
        "pct2",
    )

    # ---- capex timeline
    cs.heading("Capex (month 0)")
    for line in ("servers", "network", "storage", "facility"):
        cs.series(
            f"capex_{line}_t",
            f"capex: {line}",
            "money",
            f"={{$capex_{line}}}*{{inv}}",
            r.capex[line][0] * (1 - ops),
            total=True,
        )
    cs.series(
        "capex_t",
        "capex: total",
        "money",
        "={capex_servers_t}+{capex_network_t}+{capex_storage_t}+{capex_facility_t}",
        met["capex"] * (1 - ops),
        total=True,
        bold=True,
    )

    # ---- opex
    cs.heading("Opex (monthly)")
    cs.series(
        "power_index",
        "electricity price index (1+escalation)^(year-1)",
        "index",
        "=(1+power_escalation)^({year}-1)*{ops}",
        r.flows["power_index"][0],
        "factor",
    )
    cs.series(
        "electricity",
        "electricity = avg IT kW x PUE x hours x price x index",
        "money",
        f"={{$avg_it_kw}}*{{$pue}}*{HOURS}*power_price_per_kwh*{{power_index}}",
        r.opex["electricity"][0],
        total=True,
    )
    cs.series(
        "colocation",
        "colocation = IT kW x fee (if colocating)",
        "money",
        "={$it_kw}*facility_colocation_per_kw_month*(1-{$build_flag})*{ops}",
        r.opex["colocation"][0],
        total=True,
    )
    cs.series(
        "staff_index",
        "staff cost index (1+escalation)^(year-1)",
        "index",
        "=(1+{$staff_escalation})^({year}-1)*{ops}",
        r.flows["staff_index"][0],
        "factor",
    )
    cs.series(
        "staff",
        "staff = FTE x cost per FTE x index / 12",
        "money",
        "={$staff_fte}*{$staff_cost_per_fte}*{staff_index}/12",
        r.opex["staff"][0],
        total=True,
    )
    cs.series(
        "maintenance",
        "maintenance = rate x hardware capex / 12",
        "money",
        "={$maintenance_rate}*{$capex_hardware}/12*{ops}",
        r.opex["maintenance"][0],
        total=True,
    )
    cs.series(
        "insurance",
        "insurance = rate x capex / 12",
        "money",
        "={$insurance_rate}*{$capex_total}/12*{ops}",
        r.opex["insurance"][0],
        total=True,
    )
    cs.series(
        "software",
        "software = per GPU-year x GPUs / 12",
        "money",
        "={$software_per_gpu_year}*{$gpus}/12*{ops}",
        r.opex["software"][0],
        total=True,
    )
    cs.series(
        "opex",
        "opex: total",
        "money",
        "={electricity}+{colocation}+{staff}+{maintenance}+{insurance}+{software}",
        r.flows["opex"][0],
        total=True,
        bold=True,
    )

    # ---- revenue
    cs.heading("Revenue")
    cs.series(
        "gpu_hours",
        "GPU-hours sold = GPUs x utilization x hours",
        "GPU-h",
        f"={{$gpus}}*{{$utilization}}*{HOURS}*{{ops}}",
        r.flows["gpu_hours"][0],
        "count",
        total=True,
    )
    cs.series(
        "price_index",
        "price index (1-decline)^(year-1)",
        "index",
        "=(1-{$price_decline})^({year}-1)*{ops}",
        r.flows["price_index"][0],
        "factor",
    )
    cs.series(
        "revenue",
        "revenue (or cloud cost avoided) = GPU-hours x price x index",
        "money",
        "={gpu_hours}*{$price_per_gpu_hour}*{price_index}",
        r.flows["revenue"][0],
        total=True,
        bold=True,
    )

    # ---- depreciation with corkscrews
    cs.heading("Depreciation and net book value, by asset class")
    for cls in ASSET_CLASSES:
        life = getattr(a.depreciation, cls).life_years
        dep = r.depreciation[cls][0]
        flag = ((year <= life) & (m >= 1)).astype(float)
        cs.series(
            f"dep_flag_{cls}",
            f"{cls}: flag, asset year within life",
            "flag",
            f"=({{year}}<=dep_{cls}_life)*{{ops}}",
            flag,
            "flag",
        )
        c, s, L = f"{{$capex_{cls}}}", f"{{$capex_{cls}}}*dep_{cls}_salvage", f"dep_{cls}_life"
        k = f"MIN(MAX({{year}},1),{L})"
        k0 = f"MIN(MAX({{year}}-1,0),{L})"
        formula = (
            f"=CHOOSE({{$method_{cls}}},SLN({c},{s},{L}),SYD({c},{s},{L},{k}),"
            f"VDB({c},{s},{L},{k0},{k}))*{{dep_flag_{cls}}}"
        )
        cs.series(
            f"dep_annual_{cls}",
            f"{cls}: annual depreciation of the asset year (SLN/SYD/VDB)",
            "money",
            formula,
            dep * 12,
        )
        cs.series(
            f"dep_{cls}",
            f"{cls}: depreciation = annual / 12",
            "money",
            f"={{dep_annual_{cls}}}/12",
            dep,
            total=True,
        )
        close = np.cumsum(r.capex[cls][0] * (1 - ops) - dep)
        opening = np.concatenate([[0.0], close[:-1]])
        cs.reserve(f"nbv_open_{cls}", f"nbv_add_{cls}", f"nbv_less_{cls}", f"nbv_close_{cls}")
        cs.series(
            f"nbv_open_{cls}",
            f"{cls}: net book value, opening",
            "money",
            f"={{nbv_close_{cls}<}}",
            opening,
        )
        cs.series(
            f"nbv_add_{cls}",
            f"{cls}: additions (capex)",
            "money",
            f"={{capex_{cls}_t}}",
            r.capex[cls][0] * (1 - ops),
        )
        cs.series(f"nbv_less_{cls}", f"{cls}: less depreciation", "money", f"={{dep_{cls}}}", dep)
        cs.series(
            f"nbv_close_{cls}",
            f"{cls}: net book value, closing",
            "money",
            f"={{nbv_open_{cls}}}+{{nbv_add_{cls}}}-{{nbv_less_{cls}}}",
            close,
            bold=True,
        )
    cs.series(
        "dep",
        "depreciation: total",
        "money",
        "=" + "+".join(f"{{dep_{c}}}" for c in ASSET_CLASSES),
        r.flows["depreciation"][0],
        total=True,
        bold=True,
    )

    # ---- EBIT and tax
    cs.heading("EBIT and tax (annual, paid in the year's last month; losses carried forward)")
    ebit = r.flows["ebit"][0]
    cs.series(
        "ebit",
        "EBIT = revenue - opex - depreciation",
        "money",
        "={revenue}-{opex}-{dep}",
        ebit,
        total=True,
    )
    ebit_y = year_end_values(r.annual["ebit"][0], M)
    cs.series(
        "ebit_year",
        "EBIT of the operating year (at its last month)",
        "money",
        "=SUMIFS({ebit:},{year:},{year})*{yearend}",
        ebit_y,
    )
    added = year_end_values(r.annual["loss_added"][0], M)
    used = year_end_values(r.annual["loss_used"][0], M)
    pool_close = np.cumsum(added - used)  # the pool changes only at year ends
    pool_open = np.concatenate([[0.0], pool_close[:-1]])
    cs.reserve("loss_open", "loss_added", "loss_used", "loss_close")
    cs.series("loss_open", "tax loss pool, opening", "money", "={loss_close<}", pool_open)
    cs.series("loss_added", "plus loss of the year", "money", "=MAX(-{ebit_year},0)", added)
    cs.series(
        "loss_used",
        "less loss used against profit",
        "money",
        "=MIN({loss_open},MAX({ebit_year},0))",
        used,
    )
    cs.series(
        "loss_close",
        "tax loss pool, closing",
        "money",
        "={loss_open}+{loss_added}-{loss_used}",
        pool_close,
        bold=True,
    )
    cs.series(
        "taxable",
        "taxable profit = max(EBIT of year, 0) - loss used",
        "money",
        "=MAX({ebit_year},0)-{loss_used}",
        np.maximum(ebit_y, 0) - used,
    )
    cs.series(
        "tax",
        "tax = tax rate x taxable profit",
        "money",
        "=finance_tax_rate*{taxable}",
        r.flows["tax"][0],
        total=True,
        bold=True,
    )

    # ---- cash flow
    cs.heading("Free cash flow, discounting, payback")
    nbv_sum = "+".join(f"{{nbv_close_{c}}}" for c in ASSET_CLASSES)
    cs.series(
        "terminal",
        "terminal value = net book value at month M (if book)",
        "money",
        f"=({nbv_sum})*{{last}}*{{$terminal_flag}}",
        r.flows["terminal_value"][0],
        total=True,
    )
    fcf = r.flows["fcf"][0]
    cs.series(
        "fcf",
        "free cash flow = revenue - opex - tax - capex + terminal",
        "money",
        "={revenue}-{opex}-{tax}-{capex_t}+{terminal}",
        fcf,
        total=True,
        bold=True,
    )
    cum = np.cumsum(fcf)
    cs.reserve("cum_fcf")
    cs.series("cum_fcf", "cumulative free cash flow", "money", "={cum_fcf<}+{fcf}", cum)
    df = r.flows["discount_factor"][0]
    cs.series(
        "discount",
        "discount factor (1+r_m)^-month",
        "factor",
        "=(1+{$monthly_rate})^(-{month})",
        df,
        "factor",
    )
    cs.series(
        "disc_fcf", "discounted free cash flow", "money", "={fcf}*{discount}", fcf * df, total=True
    )
    paid = ((cum >= 0) & (m >= 1)).astype(float)
    paid_any = np.maximum.accumulate(paid)
    first = paid_any - np.concatenate([[0.0], paid_any[:-1]])
    cs.reserve("paid_any")
    cs.series(
        "paid_any",
        "flag: cumulative cash has turned non-negative",
        "flag",
        "=MAX({paid_any<},({cum_fcf}>=0)*{ops})",
        paid_any,
        "flag",
    )
    cs.series(
        "payback_flag", "flag: payback month", "flag", "={paid_any}-{paid_any<}", first, "flag"
    )
    # print: A4 landscape, about a year of months per page, titles repeated
    ws.set_landscape()
    ws.set_paper(9)
    ws.set_print_scale(55)
    ws.repeat_rows(0, cs.rows["last"])
    ws.repeat_columns(0, 3)
    return cs

"""The independent recomputations of a tier sheet: horizon totals by another
route than the rows (closed forms per deployment and per capex event, SUMPRODUCT
over the year row), which the Checks sheet compares with the totals of the rows
(:mod:`~costmodel.report.workbook.recons`). Cached values are the engine's."""

from __future__ import annotations

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.core.units import HOURS_PER_MONTH
from costmodel.report.workbook.deployments import event_keys
from costmodel.report.workbook.tiercontext import HOURS, Tier, scalar


def recomputations(x: Tier) -> None:
    """Horizon totals by another route (closed forms per deployment; SUMPRODUCT over
    the year row), compared on the Checks sheet with the totals of the rows."""
    cs, cur, M = x.cs, x.cur, x.model.months
    cs.heading("Independent recomputations of the horizon totals (compared on Checks)")
    tot = {k: float(np.sum(v[0])) for k, v in (*x.r.opex.items(), *x.r.flows.items())}
    R = x.ti["ramp_months"]
    for i, d in enumerate(x.deps):
        n = M - scalar(d["month"])
        f = min(n, np.floor(R))
        sold = n if R <= 0 else f * (f + 1) / 2 / R + n - f
        fac = [e.cost for e in x.events if e.cls == "facility"][i]
        fixed = (
            (
                x.ti["maintenance_rate"] * scalar(d["hardware"])
                + x.ti["software_per_gpu_year"] * scalar(d["gpus"])
                + x.ti["insurance_rate"] * scalar(d["hardware"] + fac)
            )
            * n
            / 12
        )
        rows = (
            (
                f"re_n{i}",
                f"deployment {i}: months in service = M - capex month",
                "months",
                f"=model_months-{{$d_t{i}}}",
                n,
                "count",
            ),
            (
                f"re_f{i}",
                f"deployment {i}: whole ramp months within them",
                "months",
                f"=MIN({{$re_n{i}}},INT({{$ramp_months}}))",
                f,
                "count",
            ),
            (
                f"re_sold{i}",
                f"deployment {i}: full-utilization months = f(f+1)/2R + n - f",
                "months",
                f"=IF({{$ramp_months}}>0,{{$re_f{i}}}*({{$re_f{i}}}+1)/2/{{$ramp_months}}"
                f"+{{$re_n{i}}}-{{$re_f{i}}},{{$re_n{i}}})",
                sold,
                "number",
            ),
            (
                f"re_fix{i}",
                f"deployment {i}: maintenance + insurance + software",
                cur,
                f"=({{$maintenance_rate}}*{{$d_hw{i}}}+{{$insurance_rate}}*({{$d_hw{i}}}+{{$d_cf{i}}})"
                f"+{{$software_per_gpu_year}}*{{$d_g{i}}})*{{$re_n{i}}}/12",
                fixed,
                "money",
            ),
        )
        for key, label, unit, formula, value, kind in rows:
            cs.const(key, label, unit, formula, value, kind)
    _recomputed_totals(x, tot)


def _recomputed_totals(x: Tier, tot: dict[str, float]) -> None:
    cs, cur = x.cs, x.cur
    k = range(len(x.deps))
    plus = lambda term: "+".join(term.format(i=i) for i in k)  # noqa: E731
    years = "{year:1}-1"
    rows = (
        (
            "re_gpu_hours",
            "ramped GPU-hours = GPUs x full months x util x availability x h",
            "GPU-h",
            f"=({plus('{{$d_g{i}}}*{{$re_sold{i}}}')})*{{$utilization}}*{{$availability}}*{HOURS}",
            tot["spot_hours"] + _displaced(x),
        ),
        (
            "re_revenue",
            "spot revenue = price x sum of spot GPU-hours x price index",
            cur,
            f"={{$price_per_gpu_hour}}*SUMPRODUCT({{spot_hours:1}},"
            f"(1-{{$price_decline}}*({{year:1}}>1))^({years}))",
            tot["spot_revenue"],
        ),
        (
            "re_electricity",
            "electricity = PUE x hours x price x sum of kW drawn x index",
            cur,
            f"={{$pue}}*{HOURS}*power_price_per_kwh*SUMPRODUCT({{$idle_fraction}}*{{kw_on:1}}"
            f"+(1-{{$idle_fraction}})*{{kw_used:1}},(1+power_escalation)^({years}))",
            tot["electricity"],
        ),
        (
            "re_colocation",
            "colocation = sum of IT kW x months in service x fee",
            cur,
            f"=({plus('{{$d_kw{i}}}*{{$re_n{i}}}')})*{{$colocation_per_kw_month}}"
            "*(1-{$build_flag})",
            tot["colocation"],
        ),
        (
            "re_staff",
            "staff = cost / 12 x sum of FTE x staff index",
            cur,
            f"={{$staff_cost_per_fte}}/12*SUMPRODUCT({{fte:1}},(1+{{$staff_escalation}})^({years}))",
            tot["staff"],
        ),
        (
            "re_fixed_opex",
            "maintenance + insurance + software (sum of deployments)",
            cur,
            f"={plus('{{$re_fix{i}}}')}",
            tot["maintenance"] + tot["insurance"] + tot["software"],
        ),
        (
            "re_npv",
            "NPV = sum of FCF x (1 + r)^(-month/12)",
            cur,
            "=SUMPRODUCT({fcf:},(1+finance_discount_rate)^(-{month:}/12))",
            x.met["npv"],
        ),
    )
    for key, label, unit, formula, value in rows:
        cs.const(key, label, unit, formula, value, "count" if unit == "GPU-h" else "money")


def _displaced(x: Tier) -> float:
    """The ramped GPU-hours a contract takes from spot over the horizon:
    ``sum_d GPUs_d sum_m u_d(m) s_d(m) x availability x H``."""
    hours = sum(
        scalar(d["gpus"]) * float(np.sum(x.util[i] * x.contracted[i])) for i, d in enumerate(x.deps)
    )
    return hours * x.met["availability"] * HOURS_PER_MONTH


def depreciation_recomputed(x: Tier) -> None:
    """Depreciation over the horizon in closed form per event: y = min((M - t) / 12,
    life) years in service, f = int(y) whole ones; SLN (c - s) y / L; SYD's
    arithmetic series over f years plus the part year; VDB over (0, f) plus the
    part year's VDB(f, f + 1). The class's total is the sum over its events."""
    cs, cur = x.cs, x.cur
    by_class: dict[str, list[str]] = {c: [] for c in CAPEX_CLASSES}
    for j, (cls, i) in enumerate(x.event_of):
        cost, t, sfx = event_keys(cls, i)
        by_class[cls].append(sfx)
        part = x.model.rows(x.tier).event_over_horizon(j)
        y, f = part["years"], part["whole"]
        c, s, L = f"{{${cost}}}", f"{{$ev_s_{sfx}}}", f"{{$life_{cls}}}"
        yy, ff = f"{{$re_y_{sfx}}}", f"{{$re_f_{sfx}}}"
        rows = (
            (
                f"re_y_{sfx}",
                "years in service within the horizon",
                "years",
                f"=MAX(0,MIN((model_months-{{${t}}})/12,{L}))",
                y,
                "factor",
            ),
            (f"re_f_{sfx}", "whole years of them", "years", f"=INT({yy})", f, "count"),
            (
                f"re_syd_{sfx}",
                "sum of years over them",
                cur,
                f"=({c}-{s})*({ff}*{L}-{ff}*({ff}-1)/2)/({L}*({L}+1)/2)"
                f"+SYD({c},{s},{L},MIN({ff}+1,{L}))*({yy}-{ff})",
                part["sum_of_years"],
                "money",
            ),
            (
                f"re_vdb_{sfx}",
                "double declining over them",
                cur,
                f"=IF({ff}=0,0,VDB({c},{s},{L},0,{ff}))"
                f"+VDB({c},{s},{L},MIN({ff},{L}-1),MIN({ff}+1,{L}))*({yy}-{ff})",
                part["double_declining"],
                "money",
            ),
            (
                f"re_de_{sfx}",
                "depreciation of the method chosen",
                cur,
                f"=CHOOSE({{$method_{cls}}},({c}-{s})*{yy}/{L},{{$re_syd_{sfx}}},{{$re_vdb_{sfx}}})",
                float(x.r_event_dep[j]),
                "money",
            ),
        )
        for key, label, unit, formula, value, kind in rows:
            cs.const(key, f"{cls} of deployment {i}: {label}", unit, formula, value, kind)
    for cls, sfx in by_class.items():
        cs.const(
            f"re_dep_{cls}",
            f"{cls}: depreciation over the horizon (sum of its events)",
            cur,
            "=" + "+".join(f"{{$re_de_{s}}}" for s in sfx),
            float(x.r.depreciation[cls][0].sum()),
            "money",
        )

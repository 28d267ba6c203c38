"""The independent recomputations of a tier sheet: horizon totals by another
route than the rows (closed forms per deployment and per capex event, SUMPRODUCT
over the year row), which the Checks sheet compares with the totals of the rows
(:mod:`~costmodel.report.workbook.recons`). The opex lines' closed forms are the
catalogue's (:mod:`costmodel.catalogue.linechecks`); every cached value is the
model's second route (:class:`costmodel.core.closedforms.ClosedForms`)."""

from __future__ import annotations

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.catalogue.linechecks import SHEET_ROWS
from costmodel.report.workbook.deployments import event_keys
from costmodel.report.workbook.tiercontext import HOURS, Tier


def recomputations(x: Tier) -> None:
    """Horizon totals by another route (closed forms per deployment; SUMPRODUCT over
    the year row), compared on the Checks sheet with the totals of the rows."""
    cs, cur, ir = x.cs, x.cur, x.rows
    cs.heading("Independent recomputations of the horizon totals (compared on Checks)")
    for i in range(len(x.deps)):
        months = ir.service_months(i)
        rows = (
            (
                f"re_n{i}",
                f"deployment {i}: months in service = M - capex month",
                "months",
                f"=model_months-{{$d_t{i}}}",
                months["months"],
                "count",
            ),
            (
                f"re_f{i}",
                f"deployment {i}: whole ramp months within them",
                "months",
                f"=MIN({{$re_n{i}}},INT({{$ramp_months}}))",
                months["whole_ramp"],
                "count",
            ),
            (
                f"re_sold{i}",
                f"deployment {i}: full-utilization months = f(f+1)/2R + n - f",
                "months",
                f"=IF({{$ramp_months}}>0,{{$re_f{i}}}*({{$re_f{i}}}+1)/2/{{$ramp_months}}"
                f"+{{$re_n{i}}}-{{$re_f{i}}},{{$re_n{i}}})",
                months["sold"],
                "number",
            ),
        )
        for key, label, unit, formula, value, kind in rows:
            cs.const(key, label, unit, formula, value, kind)
        for form in SHEET_ROWS:
            p = form.per_deployment
            if p is not None:
                value = ir.closed_form_per_deployment(form, i)
                cs.const(
                    f"{p.key}{i}", p.label.format(i=i), cur, p.excel.format(i=i), value, "money"
                )
    _recomputed_totals(x)


def _recomputed_totals(x: Tier) -> None:
    cs, cur, ir = x.cs, x.cur, x.rows
    plus = lambda term: "+".join(term.format(i=i) for i in range(len(x.deps)))  # noqa: E731
    years = "{year:1}-1"
    rows = [
        (
            "re_gpu_hours",
            "ramped GPU-hours = GPUs x full months x util x availability x h",
            "GPU-h",
            f"=({plus('{{$d_g{i}}}*{{$re_sold{i}}}')})*{{$utilization}}*{{$availability}}*{HOURS}",
            ir.gpu_hours_closed,
        ),
        (
            "re_revenue",
            "spot revenue = price x sum of spot GPU-hours x price index",
            cur,
            f"={{$price_per_gpu_hour}}*SUMPRODUCT({{spot_hours:1}},"
            f"(1-{{$price_decline}}*({{year:1}}>1))^({years}))",
            ir.spot_revenue_closed,
        ),
    ]
    for form in SHEET_ROWS:
        rows.append((form.key, form.label, cur, form.excel(len(x.deps)), ir.closed_form(form)))
    rows.append(
        (
            "re_npv",
            "NPV = sum of FCF x (1 + r)^(-month/12)",
            cur,
            "=SUMPRODUCT({fcf:},(1+finance_discount_rate)^(-{month:}/12))",
            ir.npv_closed,
        )
    )
    for key, label, unit, formula, value in rows:
        cs.const(key, label, unit, formula, value, "count" if unit == "GPU-h" else "money")


def depreciation_recomputed(x: Tier) -> None:
    """Depreciation over the horizon in closed form per event: y = min((M - t) / 12,
    life) years in service, f = int(y) whole ones; SLN (c - s) y / L; SYD's
    arithmetic series over f years plus the part year; VDB over (0, f) plus the
    part year's VDB(f, f + 1). The class's total is the sum over its events."""
    cs, cur, ir = x.cs, x.cur, x.rows
    by_class: dict[str, list[str]] = {c: [] for c in CAPEX_CLASSES}
    for j, (cls, i) in enumerate(x.event_of):
        cost, t, sfx = event_keys(cls, i)
        by_class[cls].append(sfx)
        part = ir.event_over_horizon(j)
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
                ir.depreciation_closed(j),
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
            ir.depreciation_closed_total(cls),
            "money",
        )

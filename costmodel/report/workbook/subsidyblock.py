"""Subsidies in the workbook (methodology §11.13): their table on the Inputs sheet,
their block on a tier sheet and its reconciliations on the Checks sheet.

Inputs: one row per subsidy of the global list (``subsidies``) and of each tier's
own list (``tiers.<t>.subsidies``, which replaces the global one for that tier):
its rate (a capex grant's share of net capex, a power rebate per metered kWh, a
voucher's share of revenue), a grant's lag in months or the others' years, a
grant's cap (blank: none) and whether it is taxable, each a blue input. The kind
and a grant's asset classes are structure (rebuild the workbook to change them).

The tier sheet's block, live formulas of the tier's capex, kW drawn and revenue
rows and those Inputs cells:

- capex grant: due ``share x capex of its classes`` of month ``m - lag``; its
  running total; paid ``min(total, cap) - min(total - due, cap)`` (every month
  after M is outside the sheet: a payment due then is not received);
- power rebate: ``per kWh x kW drawn x PUE x hours`` in model years 1..years;
- voucher: ``share x revenue`` in model years 1..years.

``subsidies`` (their sum) enters the FCF and CFADS rows; ``subsidies_taxable``
(the taxable ones) the tax block's monthly result, month 0's in model year 1.
Cached values: the total rows the engine's (``TierResult.flows``), each
subsidy's row recomputed here from the engine's capex, revenue and the kW drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.inputs.grants import Subsidy
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.inputsmap import SOURCE_COL, InputsMap, Sheet, here
from costmodel.report.workbook.tiercontext import HOURS, Tier
from costmodel.report.workbook.validation import NON_NEGATIVE, validate

#: the column of each field on the Inputs sheet's subsidy table
RATE_COL, UNIT_COL, TERM_COL, CAP_COL, PATH_COL_S, TAX_COL = 1, 2, 3, 4, 5, 7
#: the rate of each kind: (field, unit (``{cur}``: the currency), number format)
RATE_OF = {
    "capex_grant": ("share", "fraction of net capex", "pct2"),
    "power_rebate": ("per_kwh", "{cur}/kWh metered (PUE included)", "money2"),
    "voucher": ("share_of_revenue", "fraction of revenue", "pct2"),
}
SHARE_RULE = {
    "validate": "decimal",
    "criteria": "between",
    "minimum": 0,
    "maximum": 1,
    "input_message": "A fraction in [0, 1].",
}
LAG_RULE = {
    "validate": "integer",
    "criteria": "between",
    "minimum": 0,
    "maximum": 360,
    "input_message": "Whole months from each capex event to the grant's payment.",
}
YEARS_RULE = {
    "validate": "integer",
    "criteria": "between",
    "minimum": 1,
    "maximum": 100,
    "input_message": "Whole model years from year 1 in which it is paid.",
}


def subsidy_lists(a: Any) -> list[tuple[str, str, tuple[Subsidy, ...]]]:
    """The subsidy lists the Inputs sheet writes: (scope, path, list), the global
    list (scope ``""``) if given, then each tier's own."""
    out = [("", "subsidies", tuple(a.subsidies))] if a.subsidies else []
    for t, tier in a.tiers.items():
        if tier.subsidies is not None:
            out.append((t, f"tiers.{t}.subsidies", tuple(tier.subsidies)))
    return out


def _classes(s: Subsidy) -> tuple[str, ...]:
    return tuple(s.classes or CAPEX_CLASSES)


def write_subsidy_inputs(s: Sheet, out: InputsMap) -> None:
    """The subsidy table of the Inputs sheet; each subsidy's cells are recorded in
    ``out.subsidy_cells[(scope, j)]`` by field."""
    lists = subsidy_lists(s.a)
    if not lists:
        return
    ws, st = s.ws, s.st
    s.section("Subsidies (methodology §11.13: cash of their own, not revenue, no VAT)")
    s.ws.set_row(s.row, 30)  # the headers wrap in their narrow columns
    s.head(
        "subsidy",
        "rate",
        "unit",
        "lag (months) or years",
        "cap (blank: none)",
        "path",
        "source",
        "taxable (TRUE: income of its year)",
    )
    for scope, path, subsidies in lists:
        for j, sub in enumerate(subsidies):
            r, keys = s.row, tuple(path.split(".")) + (str(j),)
            where = f"tier {scope}" if scope else "every tier without its own list"
            of = f"of {', '.join(_classes(sub))}; " if sub.kind == "capex_grant" else ""
            ws.write_string(r, 0, f"{sub.kind} {j + 1} ({of}{where})", st.wrap)
            ws.set_row(r, 30)
            field, unit, kind = RATE_OF[sub.kind]
            rate = float(getattr(sub, field))
            ws.write_number(r, RATE_COL, rate, st.input(kind))
            validate(ws, r, RATE_COL, field, SHARE_RULE if kind == "pct2" else NON_NEGATIVE)
            s.input_at((*keys, field), r, RATE_COL, rate)
            unit = unit.format(cur=s.cur)
            ws.write_string(r, UNIT_COL, unit, st.unit_wrap)
            cells = {"rate": f"Inputs!{here(r, RATE_COL)}"}
            if sub.kind == "capex_grant":
                term, term_field, rule = int(sub.lag_months or 0), "lag_months", LAG_RULE
                if sub.cap is None:
                    ws.write_blank(r, CAP_COL, None, st.input("money"))
                else:
                    ws.write_number(r, CAP_COL, float(sub.cap), st.input("money"))
                validate(ws, r, CAP_COL, "cap", NON_NEGATIVE)
                s.input_at((*keys, "cap"), r, CAP_COL, sub.cap)
                cells["cap"] = f"Inputs!{here(r, CAP_COL)}"
            else:
                term, term_field, rule = int(sub.years or 0), "years", YEARS_RULE
            ws.write_number(r, TERM_COL, term, st.input("count"))
            validate(ws, r, TERM_COL, term_field, rule)
            s.input_at((*keys, term_field), r, TERM_COL, term)
            cells["term"] = f"Inputs!{here(r, TERM_COL)}"
            ws.write_boolean(r, TAX_COL, sub.taxable, st.input("bool"))
            rule = {"validate": "list", "source": ["TRUE", "FALSE"]}
            validate(ws, r, TAX_COL, "taxable", {**rule, "input_message": "TRUE or FALSE."})
            s.input_at((*keys, "taxable"), r, TAX_COL, sub.taxable)
            cells["taxable"] = f"Inputs!{here(r, TAX_COL)}"
            ws.write_string(r, PATH_COL_S, f"{path}[{j}]", st.path)
            ws.write_string(r, SOURCE_COL, sub.source or sub.note or "", st.wrap)
            out.subsidy_cells[(scope, j)] = cells
            s.row += 1


def _scope(x: Tier) -> str:
    """The scope of the list tier ``x`` uses: its own, else the global one."""
    return x.tier if x.a.tiers[x.tier].subsidies is not None else ""


def subsidies_block(x: Tier) -> None:
    """The subsidy block of a tier sheet (see the module docstring); nothing for
    a tier without subsidies."""
    subs = tuple(x.config.subsidies or ())
    if not subs:
        return
    cs, cur, scope = x.cs, x.cur, _scope(x)
    cs.heading("Subsidies (methodology §11.13: cash of their own, taxable where marked)")
    for j, sub in enumerate(subs):
        cells = x.inputs.subsidy_cells[(scope, j)]
        n = f"subsidy {j + 1} ({sub.kind})"
        field, unit, kind = RATE_OF[sub.kind]
        unit = unit.format(cur=cur)
        rate = float(getattr(sub, field))
        cs.const(f"sb_rate{j}", f"{n}: rate", unit, f"={cells['rate']}", rate, kind, GREEN)
        term_label = "lag" if sub.kind == "capex_grant" else "years paid (model years 1..)"
        term = int(sub.lag_months or 0) if sub.kind == "capex_grant" else int(sub.years or 0)
        cs.const(
            f"sb_term{j}",
            f"{n}: {term_label}",
            "months" if sub.kind == "capex_grant" else "years",
            f"={cells['term']}",
            term,
            "count",
            GREEN,
        )
        cs.const(
            f"sb_tax{j}",
            f"{n}: taxable (1) or not (0)",
            "flag",
            f"=IF({cells['taxable']},1,0)",
            float(sub.taxable),
            "flag",
        )
        lines = x.rows.subsidy(sub)
        if sub.kind == "capex_grant":
            _grant_rows(x, j, n, sub, cells, lines)
        else:
            base = f"{{kw_drawn}}*{{$pue}}*{HOURS}" if sub.kind == "power_rebate" else "{revenue}"
            what = (
                "per kWh x kW drawn x PUE x hours"
                if sub.kind == "power_rebate"
                else ("share x revenue")
            )
            cs.series(
                f"sb{j}",
                f"{n}: {what}, in model years 1..years",
                cur,
                f"={{$sb_rate{j}}}*{base}*({{year}}<={{$sb_term{j}}})*{{ops}}",
                lines["paid"],
                total=True,
            )
        cs.totals[f"sb{j}"] = float(lines["paid"].sum())
    keys = range(len(subs))
    cs.series(
        "subsidies",
        "subsidies received: total (cash of their own, not revenue)",
        cur,
        "=" + "+".join(f"{{sb{j}}}" for j in keys),
        x.r.flows["subsidies"][0],
        total=True,
        bold=True,
    )
    cs.series(
        "subsidies_taxable",
        "subsidies taxable (income of their model year)",
        cur,
        "=" + "+".join(f"{{sb{j}}}*{{$sb_tax{j}}}" for j in keys),
        x.rows.subsidies_taxable,
        total=True,
    )


def _grant_rows(
    x: Tier, j: int, n: str, sub: Subsidy, cells: dict[str, str], lines: dict[str, np.ndarray]
) -> None:
    """A capex grant's rows: its cap, the capex of its classes, what is due after the
    lag, the running total and what is paid under the cap."""
    cs, cur = x.cs, x.cur
    cap = "" if sub.cap is None else float(sub.cap)
    cs.const(
        f"sb_cap{j}",
        f"{n}: cap of the running total (empty: none)",
        cur,
        f'=IF(ISBLANK({cells["cap"]}),"",{cells["cap"]})',
        cap,
        "money",
        GREEN,
    )
    classes = _classes(sub)
    cs.series(
        f"sb_base{j}",
        f"{n}: capex of {', '.join(classes)}",
        cur,
        "=" + "+".join(f"{{capex_{c}_t}}" for c in classes),
        lines["base"],
    )
    cs.series(
        f"sb_due{j}",
        f"{n}: due = share x that capex of month - lag",
        cur,
        f"=IF({{month}}>={{$sb_term{j}}},{{$sb_rate{j}}}"
        f"*INDEX({{sb_base{j}:}},1,{{month}}-{{$sb_term{j}}}+1),0)",
        lines["due"],
    )
    cs.reserve(f"sb_total{j}")
    cs.series(
        f"sb_total{j}",
        f"{n}: running total due",
        cur,
        f"={{sb_total{j}<}}+{{sb_due{j}}}",
        lines["total"],
    )
    cs.series(
        f"sb{j}",
        f"{n}: paid = min(total, cap) - min(total - due, cap)",
        cur,
        f"=IF(ISNUMBER({{$sb_cap{j}}}),MIN({{sb_total{j}}},{{$sb_cap{j}}})"
        f"-MIN({{sb_total{j}}}-{{sb_due{j}}},{{$sb_cap{j}}}),{{sb_due{j}}})",
        lines["paid"],
        total=True,
    )


def subsidy_checks(cs: Any, subsidies: tuple[Subsidy, ...], received: float) -> list[tuple]:
    """The Checks sheet's reconciliations of a tier's subsidies, each (label, model
    formula, independent formula, cached value) without "=": each subsidy's total
    against its closed form (a grant: ``min(cap, share x capex of its classes paid by
    M - lag)``; a rebate: ``per kWh x PUE x hours x kW drawn`` of its years; a
    voucher: ``share x revenue`` of its years), and the total row against the sum
    of the lines (cached: each subsidy's total as its block computed it, and
    ``received`` the total row's)."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    tot = lambda key: f"SUM({S(key, ':')})"  # noqa: E731
    out = []
    years = f"({S('year', ':')}<={{term}})*({S('month', ':')}>=1)"
    paid = [cs.totals[f"sb{j}"] for j in range(len(subsidies))]
    for j, sub in enumerate(subsidies):
        rate, term = S(f"sb_rate{j}"), S(f"sb_term{j}")
        if sub.kind == "capex_grant":
            cap = S(f"sb_cap{j}")
            paid_by = f"({S('month', ':')}<=model_months-{term})*1"
            due = f"{rate}*SUMPRODUCT({S(f'sb_base{j}', ':')},{paid_by})"
            form = f"MIN(IF(ISNUMBER({cap}),{cap},9E+307),{due})"  # no cap: the due
            label = "min(cap, share x capex of its classes paid by M - lag)"
        elif sub.kind == "power_rebate":
            kw = S("kw_drawn", ":")
            form = f"{rate}*{S('pue')}*{HOURS}*SUMPRODUCT({kw},{years.format(term=term)})"
            label = "per kWh x PUE x hours x kW drawn of its years"
        else:
            form = f"{rate}*SUMPRODUCT({S('revenue', ':')},{years.format(term=term)})"
            label = "share x revenue of its years"
        out.append((f"subsidy {j + 1} ({sub.kind}) = {label}", tot(f"sb{j}"), form, paid[j]))
    out.append(  # each line is checked against its closed form above
        (
            "subsidies received = sum of the subsidies' lines",
            tot("subsidies"),
            "+".join(tot(f"sb{j}") for j in range(len(subsidies))),
            received,
        )
    )
    return out

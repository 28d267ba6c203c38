"""Value-added tax in the workbook (methodology §24): the VAT inputs of the Inputs
sheet, the VAT block of each tier sheet and the rows and checks it adds.

Inputs: the output rate, the input rate of each capex class and opex line, the
surtax rate and the refund switch (1/0), each a blue cell with data validation;
without a ``vat`` section they are 0 (no VAT), and typing a rate adds it.

The tier sheet's block, as live formulas of the tier's revenue, capex and opex
rows and those Inputs cells: output VAT = rate x revenue; input VAT of each capex
class and opex line = its rate x the row; the credit pool corkscrew (opening =
last month's closing; payable = max(0, output - input - opening); the pool before
refund = max(0, input + opening - output); refund = the pool at each year end
when refunds are on; closing = the pool - refund); surtax = rate x payable; VAT
cash = output - input - payable + refund - surtax. The VAT cash enters the FCF
and CFADS rows, the monthly surtax the tax block's taxable result.
Cached values are the engine's (``TierResult.vat``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.inputs.forms import refund_mode
from costmodel.inputs.model import Model
from costmodel.inputs.schema import VAT_INPUT_KEYS, Quantity
from costmodel.inputs.vocabulary import input_label, input_unit
from costmodel.report.workbook.grid import GREEN, CalcSheet
from costmodel.report.workbook.inputsmap import PATH_COL, SOURCE_COL, Sheet, name_for
from costmodel.report.workbook.tiercontext import Tier
from costmodel.report.workbook.validation import validate

#: the VAT rates of the Inputs sheet, in order
RATE_PATHS = (
    "vat.output_rate",
    *(f"vat.input_rates.{k}" for k in VAT_INPUT_KEYS),
    "vat.surtax_rate",
)
REFUND_PATH = "vat.refund_credit"
RATIO_PATH = "vat.refund_ratio"
NO_VAT = "no vat section in the assumptions: no VAT (type a rate to add it)"


def vat_value(model_or_a, path: str) -> float:
    """The value the engine uses for the VAT input at ``path`` (0 without a ``vat``
    section, the refund ratio 1 as the Inputs sheet writes it; the refund switch as
    1/0)."""
    a = getattr(model_or_a, "assumptions", model_or_a)
    if a.vat is None:
        return float(path == RATIO_PATH)
    if path == REFUND_PATH:  # refunds on: annual (v3 refund_credit) or monthly
        return float(refund_mode(a.vat) != "none")
    obj = a.vat
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return float(obj.value)


def write_vat_inputs(s: Sheet) -> None:
    """The VAT section of the Inputs sheet (names ``vat_output_rate``,
    ``vat_input_rates_<key>``, ``vat_surtax_rate``, ``vat_refund_credit``)."""
    ws, st, a = s.ws, s.st, s.a
    s.section("Value-added tax (prices are VAT-exclusive; methodology §24)")
    s.head("input", "value", "unit", "", "", "path", "source")
    for path in (*RATE_PATHS, REFUND_PATH, RATIO_PATH):
        q = None if a.vat is None or path == REFUND_PATH else _quantity(a, path)
        if q is not None:
            r = s.quantity_row(path, q)
        else:
            r = s.row
            kind = "count" if path == REFUND_PATH else "pct2"
            ws.write_string(r, 0, input_label(path), st.label)
            value = vat_value(a, path)
            ws.write_number(r, 1, value, st.input(kind))
            validate(ws, r, 1, path)
            s.input_at(path, r, 1, value)
            ws.write_string(r, 2, input_unit(path, s.cur), st.unit_wrap)
            ws.write_string(r, PATH_COL, path, st.path)
            if a.vat is None:
                ws.write_string(r, SOURCE_COL, NO_VAT, st.wrap)
            s.row += 1
        s.define(name_for(path), r, 1)


def _quantity(a, path: str) -> Quantity:
    obj = a.vat
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _base_row(key: str) -> str:
    """The tier-sheet row an input rate applies to: a capex class's capex row or an
    opex line."""
    return f"capex_{key}_t" if key in CAPEX_CLASSES else key


def vat_block(x: Tier) -> None:
    """The VAT block of a tier sheet (see the module docstring)."""
    cs, v, cur = x.cs, x.r.vat, x.cur
    cs.heading("Value-added tax (methodology §24): output, input, credit pool, refund, surtax")
    consts = [("vat_out", "output VAT rate (on revenue)", "vat.output_rate")]
    consts += [
        (f"vat_in_{k}", f"input VAT rate: {k}", f"vat.input_rates.{k}") for k in VAT_INPUT_KEYS
    ]
    consts += [
        ("vat_surtax_rate", "surtax rate (of VAT paid)", "vat.surtax_rate"),
        ("vat_refund_on", "credit refunded (1/0)", REFUND_PATH),
        ("vat_refund_ratio", "share of the credit refunded (进项构成比例)", RATIO_PATH),
    ]
    for key, label, path in consts:
        kind = "count" if path == REFUND_PATH else "pct2"
        unit = "0/1" if path == REFUND_PATH else "fraction"
        value = vat_value(x.model, path)
        cs.const(key, label, unit, f"={name_for(path)}", value, kind, GREEN)
    monthly = (
        x.model.assumptions.vat is not None and refund_mode(x.model.assumptions.vat) == "monthly"
    )
    cs.const(
        "vat_refund_monthly",
        "refunds each month (1) or at year ends (0)",
        "0/1",
        '=IF(vat_refund="monthly",1,0)',
        float(monthly),
        "count",
    )
    cs.series(
        "vat_output",
        "output VAT = rate x revenue",
        cur,
        "={$vat_out}*{revenue}",
        v["output"][0],
        total=True,
    )
    for k in VAT_INPUT_KEYS:
        cs.series(
            f"vat_input_{k}",
            f"input VAT: {k} = rate x {k}",
            cur,
            f"={{$vat_in_{k}}}*{{{_base_row(k)}}}",
            v[f"input_{k}"][0],
        )
    cs.series(
        "vat_input",
        "input VAT: total",
        cur,
        "=" + "+".join(f"{{vat_input_{k}}}" for k in VAT_INPUT_KEYS),
        v["input"][0],
        total=True,
    )
    _pool(cs, x, cur)


def _pool(cs: CalcSheet, x: Tier, cur: str) -> None:
    """The credit pool corkscrew, payable, refund, surtax, VAT cash and the surtax
    of each year."""
    rows = _pool_rows(x)
    cs.reserve(*(row[0] for row in rows))
    for key, label, formula, values, tot in rows:
        cs.series(key, label, cur, formula, values, total=tot, bold=key == "vat_cash")
    cs.const(
        "vat_credit_peak",
        "largest input VAT credit (before refunds)",
        cur,
        "=MAX({vat_credit_pre:})",
        x.met["vat_credit_peak"],
        "money",
    )
    ir = x.model.rows(x.tier)
    surtax_y = ir.at_year_ends(ir.annual_sums("surtax")[1:])
    cs.series(
        "surtax_year",
        "surtax of the operating year (at its last month)",
        cur,
        "=SUMIFS({vat_surtax:},{year:},{year})*{yearend}",
        surtax_y,
    )


def _pool_rows(x: Tier) -> tuple[tuple[str, str, str, Any, bool], ...]:
    """The rows of the credit pool (key, label, formula, cached values, totalled):
    claim, payable, pool before refund, refund, closing pool, surtax, VAT cash."""
    v = x.r.vat
    rows = (
        (
            "vat_credit_open",
            "input VAT credit: opening (last month's closing)",
            "={vat_credit<}",
            v["credit_open"][0],
            False,
        ),
        (
            "vat_claim",
            "monthly refund claimed on last month's closing credit = ratio x opening",
            "={vat_credit_open}*{$vat_refund_ratio}*{$vat_refund_on}*{$vat_refund_monthly}",
            x.rows.vat_claim,
            True,
        ),
        (
            "vat_payable",
            "VAT payable = max(0, output - input - (opening credit - claim))",
            "=MAX(0,{vat_output}-{vat_input}-{vat_credit_open}+{vat_claim})",
            v["payable"][0],
            True,
        ),
        (
            "vat_credit_pre",
            "input VAT credit before refund = max(0, input + opening - claim - output)",
            "=MAX(0,{vat_input}+{vat_credit_open}-{vat_claim}-{vat_output})",
            v["credit_before_refund"][0],
            False,
        ),
        (
            "vat_refunded",
            "refund = claim + ratio x credit at a year end (annual) or at M (monthly)",
            "={vat_claim}+{vat_credit_pre}*{$vat_refund_ratio}*{$vat_refund_on}"
            "*IF({$vat_refund_monthly}=1,IF({month}=model_months,1,0),{yearend})",
            v["refund"][0],
            True,
        ),
        (
            "vat_credit",
            "input VAT credit: closing = before refund - (refund - claim)",
            "={vat_credit_pre}-{vat_refunded}+{vat_claim}",
            v["credit"][0],
            False,
        ),
        (
            "vat_surtax",
            "surtax = rate x VAT payable (an expense)",
            "={$vat_surtax_rate}*{vat_payable}",
            v["surtax"][0],
            True,
        ),
        (
            "vat_cash",
            "VAT cash = output - input - payable + refund - surtax",
            "={vat_output}-{vat_input}-{vat_payable}+{vat_refunded}-{vat_surtax}",
            v["vat_cash"][0],
            True,
        ),
    )
    return rows


def vat_checks(
    S: Callable[..., str], tot: Callable[[str], str], model: Model, t: str
) -> list[tuple[str, str, str, float]]:
    """The VAT reconciliations of tier ``t`` as (label, model formula, independent
    formula, engine value): VAT cash + surtax over the horizon = -credit left at M;
    the credit corkscrew every month; output and input VAT against the Inputs rates
    and the revenue, capex and opex totals; refunds only at year ends, and with
    refunds on no credit left at one."""
    v, totals = model.results[t].vat, model.rows(t).totals
    left = float(v["credit"][0][-1])
    corkscrew = (
        "vat_credit_open",
        "vat_input",
        "vat_output",
        "vat_payable",
        "vat_refunded",
        "vat_credit",
    )
    expr = "".join(f"{sign}{S(k, ':')}" for sign, k in zip("++-+--", corkscrew, strict=True))

    def rows(first: str, last: str) -> str:  # the rows first..last over the timeline
        return f"{S(first, ':').split(':')[0]}:{S(last, ':').split(':')[1]}"

    groups = [VAT_INPUT_KEYS[i : i + 3] for i in range(0, len(VAT_INPUT_KEYS), 3)]
    inputs = [
        (
            f"input VAT = rate x base: {', '.join(g)}",
            f"SUM({rows(f'vat_input_{g[0]}', f'vat_input_{g[-1]}')})",
            "+".join(f"{name_for(f'vat.input_rates.{k}')}*{tot(_base_row(k))}" for k in g),
            model.rows(t).total_of(*(f"vat_input_{k}" for k in g)),
        )
        for g in groups
    ]
    every = rows(f"vat_input_{VAT_INPUT_KEYS[0]}", f"vat_input_{VAT_INPUT_KEYS[-1]}")
    return [
        *inputs,
        (
            "input VAT total = sum of the classes and lines",
            tot("vat_input"),
            f"SUM({every})",
            totals["vat_input"],
        ),
        (
            "VAT cash over the horizon + surtax = -credit left at M",
            f"{tot('vat_cash')}+{tot('vat_surtax')}",
            f"-{S('vat_credit', '@M')}",
            -left,
        ),
        (
            "VAT credit: open + input - output + payable - refund = closing, every month",
            f"SQRT(SUMPRODUCT(({expr.lstrip('+')})^2))",
            "0",
            0.0,
        ),
        (
            "output VAT = output rate x revenue",
            tot("vat_output"),
            f"vat_output_rate*{tot('revenue')}",
            totals["vat_output"],
        ),
        *_refund_checks(S),
        (
            "VAT credit never negative (shortfall)",
            f"MIN(0,MIN({S('vat_credit_pre', ':')}))",
            "0",
            0.0,
        ),
    ]


def _refund_checks(S: Callable[..., str]) -> list[tuple[str, str, str, float]]:
    """Refunds at year ends only (annual timing); no credit left at a year end
    (annual, the whole credit); the credit left at M is ``1 - ratio`` of the pool
    before refund at M (refunds on; methodology §11.11)."""
    monthly = "vat_refund_monthly"
    no_refund = f"SUMPRODUCT({S('vat_refunded', ':')},1-{S('yearend', ':')})*(1-{S(monthly)})"
    ratio, on = name_for(RATIO_PATH), "vat_refund_credit"
    pre_m, credit_m = S("vat_credit_pre", "@M"), S("vat_credit", "@M")
    return [
        ("VAT credit refunded at year ends only (annual refunds)", no_refund, "0", 0.0),
        (
            "with annual refunds of the whole credit, none is left at a year end",
            f"SUMPRODUCT({S('vat_credit', ':')},{S('yearend', ':')})*{on}"
            f"*(1-{S(monthly)})*IF({ratio}=1,1,0)",
            "0",
            0.0,
        ),
        (
            "with refunds on, credit left at M = (1 - ratio) x credit before refund at M",
            f"({credit_m}-(1-{ratio})*{pre_m})*{on}",
            "0",
            0.0,
        ),
    ]


def vat_rules() -> list[tuple[str, str]]:
    """The VAT inputs' (path, defined name), for the Checks sheet's input rules."""
    return [(p, name_for(p)) for p in (*RATE_PATHS, REFUND_PATH, RATIO_PATH)]

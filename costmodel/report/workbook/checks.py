"""The Checks sheet: reconciliations and input checks that can fail, rolled into
``master_check`` on the Cover.

Two kinds of row, each with a status (OK/ERROR) and a fail flag (1 = fails):

- a reconciliation compares a model value (a row total, a Comparison cell) with
  an independent recomputation (a closed form on the tier sheet, a SUMPRODUCT
  over other rows); it fails when they differ by more than ``check_tolerance``
  times a scale;
- an input check tests a rule of methodology §2.4 (fractions in [0, 1], GPUs a multiple of
  the server size, rack kW within the cooling's kW limit, methods and modes from
  their lists, prices >= 0, the horizon unchanged since the build).

Every fail flag is wrapped in IFERROR, so an error value anywhere upstream (a
method typo that breaks a MATCH) makes the check fail instead of spreading
``#N/A``: the master check reads ERROR, never an error value.
docs/workbook.md lists what each check catches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.core import finance as fin
from costmodel.core.model import Model
from costmodel.core.units import HOURS_PER_MONTH
from costmodel.inputs.schema import ASSET_CLASSES
from costmodel.inputs.vocabulary import input_label
from costmodel.report.workbook.contracts import CONTRACT_LINKS
from costmodel.report.workbook.grid import BLACK, GREEN, CalcSheet, Styles, excel_value, protect
from costmodel.report.workbook.inputs import (
    COOLING_FIELDS,
    FINANCING,
    MODES,
    SCALARS,
    SERVER_FIELDS,
    financing_value,
    mode_value,
)
from costmodel.report.workbook.inputsmap import name_for
from costmodel.report.workbook.tier import DESIGN_LINKS, OPEX_LINES, TIER_LINKS
from costmodel.report.workbook.validation import condition, describe, rule_for
from costmodel.report.workbook.vatblock import vat_checks, vat_rules, vat_value

CHECK_TOLERANCE = 1e-6
COLS = ("check", "model value", "independent value / rule", "difference", "tolerance",
        "fails (1)", "status")  # fmt: skip


@dataclass
class Recon:
    """A reconciliation: ``model`` and ``independent`` formulas (without "="), their
    common value in the engine, the scale the tolerance is relative to."""

    label: str
    model: str
    independent: str
    value: float
    scale: str
    scale_value: float = 0.0


@dataclass
class Rule:
    """An input check: ``cond`` (a formula, true when the input is valid), the
    value shown and the rule in words."""

    label: str
    shown: str
    value: Any
    rule: str
    cond: str


@dataclass
class ChecksSheet:
    ws: Any
    st: Styles
    row: int = 5
    flags: list[str] = field(default_factory=list)

    def heading(self, text: str) -> int:
        self.ws.write_string(self.row, 0, text, self.st.h2)
        for c in range(1, len(COLS)):
            self.ws.write_blank(self.row, c, None, self.st.h2)
        self.row += 1
        return self.row

    def recon(self, c: Recon) -> None:
        ws, st, r = self.ws, self.st, self.row
        ws.write_string(r, 0, c.label, st.label)
        ws.write_formula(r, 1, f"={c.model}", st.cell("money2"), c.value)
        ws.write_formula(r, 2, f"={c.independent}", st.cell("money2"), c.value)
        b, cc, d, e = (xl_rowcol_to_cell(r, j) for j in (1, 2, 3, 4))
        ws.write_formula(r, 3, f"={b}-{cc}", st.cell("money2"), 0.0)
        tol = CHECK_TOLERANCE * max(1.0, c.scale_value)
        ws.write_formula(r, 4, f"=check_tolerance*MAX(1,{c.scale})", st.cell("money2"), tol)
        self._status(f"IFERROR((ABS({d})>{e})*1,1)")

    def rule(self, c: Rule) -> None:
        ws, st, r = self.ws, self.st, self.row
        ws.write_string(r, 0, c.label, st.label)
        if isinstance(c.value, str):
            ws.write_formula(r, 1, f"={c.shown}", st.cell("text"), c.value)
        else:
            ws.write_formula(r, 1, f"={c.shown}", st.cell("number"), float(c.value))
        ws.write_string(r, 2, c.rule, st.unit)
        cond = c.cond.replace("{B}", xl_rowcol_to_cell(r, 1))
        self._status(f"IFERROR(1-({cond})*1,1)")

    def _status(self, fails: str) -> None:
        ws, st, r = self.ws, self.st, self.row
        ws.write_formula(r, 5, f"={fails}", st.cell("flag"), 0)
        f = xl_rowcol_to_cell(r, 5)
        ws.write_formula(r, 6, f'=IF({f}=0,"OK","ERROR")', st.ok, "OK")
        self.flags.append(f)
        self.row += 1

    def subtotal(self, label: str, first: int) -> str:
        ws, st, r = self.ws, self.st, self.row
        ws.write_string(r, 0, label, st.label_bold)
        rng = f"{xl_rowcol_to_cell(first, 5)}:{xl_rowcol_to_cell(r - 1, 5)}"
        ws.write_formula(r, 5, f"=SUM({rng})", st.cell("count", BLACK, True), 0)
        cell = xl_rowcol_to_cell(r, 5, row_abs=True, col_abs=True)
        ws.write_formula(r, 6, f'=IF({xl_rowcol_to_cell(r, 5)}=0,"OK","ERROR")', st.ok, "OK")
        self.row += 2
        return f"Checks!{cell}"


def write_checks(
    wb: Workbook,
    st: Styles,
    model: Model,
    sheets: dict[str, CalcSheet],
    comp: dict[tuple[str, str], str],
) -> dict[str, str]:
    """Write the sheet; define ``master_check`` and ``checks_failing``; return the
    cell of each tier's failing-check count (and ``"inputs"``'s)."""
    ws = wb.add_worksheet("Checks")
    ws.set_column(0, 0, 62)
    ws.set_column(1, 2, 20)
    ws.set_column(3, 4, 14)
    ws.set_column(5, 6, 10)
    ws.write_string(0, 0, "Checks: reconciliations and input rules that must hold", st.title)
    ws.write_string(2, 0, "relative tolerance", st.label)
    ws.write_number(2, 1, CHECK_TOLERANCE, st.cell("factor"))
    wb.define_name("check_tolerance", "=Checks!$B$3")
    ws.write_string(3, 0, "horizon when the workbook was built (structure)", st.label)
    ws.write_number(3, 1, model.assumptions.horizon_years, st.cell("count"))
    for j, h in enumerate(COLS):
        ws.write_string(4, j, h, st.header)
    ck = ChecksSheet(ws, st)
    counts = {}
    first = ck.heading("Model-wide inputs")
    for rule in global_rules(model):
        ck.rule(rule)
    counts["inputs"] = ck.subtotal("failing: model-wide inputs", first)
    summary = model.summary()
    for t, cs in sheets.items():
        first = ck.heading(f"Tier {t}")
        vat = vat_recons(cs, model, t)
        for c in (*reconciliations(cs, model, comp, t), *money_recons(cs, model, comp, t), *vat):
            ck.recon(c)
        for rule in irr_rules(cs, model, summary, comp, t):
            ck.rule(rule)
        for rule in tier_rules(cs, model, t):
            ck.rule(rule)
        counts[t] = ck.subtotal(f"failing: tier {t}", first)
    r = ck.row
    ws.write_string(r, 0, "Number of failing checks", st.header)
    total = "+".join(c.split("!")[1] for c in counts.values())
    ws.write_formula(r, 5, f"={total}", st.cell("count", BLACK, True), 0)
    wb.define_name("checks_failing", f"=Checks!{xl_rowcol_to_cell(r, 5, True, True)}")
    ws.write_string(r + 1, 0, "Master check", st.header)
    ws.write_formula(r + 1, 6, '=IFERROR(IF(checks_failing=0,"OK","ERROR"),"ERROR")', st.ok, "OK")
    wb.define_name("master_check", f"=Checks!{xl_rowcol_to_cell(r + 1, 6, True, True)}")
    ws.conditional_format(5, 6, r + 1, 6, {"type": "cell", "criteria": "==",
                          "value": '"ERROR"', "format": st.error})  # fmt: skip
    _stamp(wb, ck, model, summary, comp, r + 3)
    ws.freeze_panes(5, 1)
    protect(ws)
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    return counts


def _totals(model: Model, t: str) -> dict[str, float]:
    """The engine's horizon totals of tier ``t`` (the cached values of the checks)."""
    r = model.results[t]
    v = {k: float(x[0].sum()) for k, x in (*r.flows.items(), *r.opex.items())}
    v |= {f"dep_{c}": float(r.depreciation[c][0].sum()) for c in ASSET_CLASSES}
    v |= {f"capex_{c}": float(r.capex[c][0]) for c in ASSET_CLASSES}
    v |= {k: float(r.annual[k][0].sum()) for k in ("loss_added", "loss_used", "loss_expired")}
    v |= {k: float(x[0].sum()) for k, x in r.debt.items()}
    v |= {k: float(r.metrics[k][0]) for k in ("equity_npv", "debt_peak")}
    v["capex"] = float(r.metrics["capex"][0])
    v["npv"] = float(r.metrics["npv"][0])
    v["loss_close"] = v["loss_added"] - v["loss_used"] - v["loss_expired"]
    v["taxable_income"] = float(r.annual["taxable_income"][0].sum())
    # the ramped GPU-hours (spot + what a contract takes from spot), methodology §11.5
    ramped = sum(float(np.asarray(d["gpus"]).reshape(-1)[0]) * float(s.utilization[0].sum())
                 for d, s in zip(r.deployments, r.schedules.deployments, strict=True))  # fmt: skip
    v["ramped_hours"] = ramped * float(r.metrics["availability"][0]) * HOURS_PER_MONTH
    return v


def reconciliations(
    cs: CalcSheet, model: Model, comp: dict[tuple[str, str], str], t: str
) -> list[Recon]:
    """Per tier: each total against an independent recomputation."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    tot = lambda key: f"SUM({S(key, ':')})"  # noqa: E731
    v = _totals(model, t)
    cap = f"ABS({S('capex_total')})"
    fixed = v["maintenance"] + v["insurance"] + v["software"]
    out = [
        Recon("capex timeline = capex lines", tot("capex_t"),
              "+".join(S(f"capex_{c}") for c in ASSET_CLASSES), v["capex"], cap),
        Recon("capex of the deployments = capex lines", S("capex_by_deployment"),
              S("capex_total"), v["capex"], cap),
        Recon("opex total = sum of its lines", tot("opex"),
              f"SUM({','.join(S(line, ':') for line in OPEX_LINES)})", v["opex"], cap),
        Recon("SG&A = SG&A share x revenue", tot("sga"), f"{S('sga_share')}*{tot('revenue')}",
              v["sga"], cap),
        Recon("electricity = kW drawn x PUE x hours x price x indices", tot("electricity"),
              S("re_electricity"), v["electricity"], cap),
        Recon("staff = FTE x cost x indices / 12", tot("staff"), S("re_staff"), v["staff"], cap),
        Recon("maintenance + insurance + software from their rates",
              f"{tot('maintenance')}+{tot('insurance')}+{tot('software')}",
              S("re_fixed_opex"), fixed, cap),
        Recon("colocation = IT kW x fee x months in service", tot("colocation"), S("re_colocation"),
              v["colocation"], cap),
        Recon("ramped GPU-hours = GPUs x ramped months x util x availability x hours",
              f"{tot('spot_hours')}+{tot('contract_displaced')}",
              S("re_gpu_hours"), v["ramped_hours"], S("re_gpu_hours")),
        Recon("spot revenue = spot GPU-hours x price x price index", tot("spot_revenue"),
              S("re_revenue"), v["spot_revenue"], cap),
        Recon("revenue = contract revenue + spot revenue", tot("revenue"),
              f"{tot('contract_revenue')}+{tot('spot_revenue')}", v["revenue"], cap),
        Recon("contract GPU-hours <= available GPU-hours (hours over)",
              f"SUMPRODUCT(({S('contract_hours', ':')}>{S('hours_available', ':')})*"
              f"({S('contract_hours', ':')}-{S('hours_available', ':')}))", "0", 0.0,
              S("re_gpu_hours")),
    ]  # fmt: skip
    for c in ASSET_CLASSES:
        out += [
            Recon(f"{c}: depreciation = closed form per capex event", tot(f"dep_{c}"),
                  S(f"re_dep_{c}"), v[f"dep_{c}"], cap),
            Recon(f"{c}: depreciation + closing book value = cost",
                  f"{tot(f'dep_{c}')}+{S(f'nbv_close_{c}', '@M')}", S(f"capex_{c}"),
                  v[f"capex_{c}"], cap),
            Recon(f"{c}: book value never below salvage (shortfall)",
                  f"MIN(0,MIN({S(f'nbv_above_{c}', ':1')}))",
                  "0", 0.0, cap),
        ]  # fmt: skip
    out += _cash_recons(S, tot, cap, comp, t, v)
    for c in out:
        hours = c.scale.endswith(S("re_gpu_hours"))
        c.scale_value = abs(v["ramped_hours"] if hours else v["capex"])
    return out


def _cash_recons(S, tot, cap: str, comp, t: str, v: dict[str, float]) -> list[Recon]:
    return [
        Recon("depreciation total = sum of asset classes", tot("dep"),
              "+".join(tot(f"dep_{c}") for c in ASSET_CLASSES), v["depreciation"], cap),
        Recon("EBIT = revenue - opex - depreciation", tot("ebit"),
              f"{tot('revenue')}-{tot('opex')}-{tot('dep')}", v["ebit"], cap),
        Recon("annual taxable income rows = monthly result for tax + terminal gain",
              tot("taxable_year"), f"{tot('taxable_m')}+{S('gain')}", v["taxable_income"], cap),
        *_loss_recons(S, tot, cap, "", "taxable_year", "tax", v["loss_close"], v["tax"]),
        *[_expensed_recon(S, tot, c, v, cap) for c in ASSET_CLASSES if c != "facility"],
        Recon("FCF - VAT cash = revenue - opex - tax - capex + terminal",
              f"{tot('fcf')}-{tot('vat_cash')}",
              f"{tot('revenue')}-{tot('opex')}-{tot('tax')}-{tot('capex_t')}+{tot('terminal')}",
              v["fcf"] - v["vat_cash"], cap),
        Recon("NPV (Comparison) = sum of FCF x (1+r)^(-t)", comp[(t, "npv")], S("re_npv"),
              v["npv"], cap),
        Recon("Comparison capex = tier sheet", comp[(t, "capex")], S("capex_total"), v["capex"],
              cap),
        Recon("Comparison revenue = tier sheet", comp[(t, "revenue")], tot("revenue"),
              v["revenue"], cap),
    ]  # fmt: skip


def _expensed_recon(S, tot, cls: str, v: dict[str, float], cap: str) -> Recon:
    """Tax depreciation of a class over the horizon: its capex in service by M
    (everything but month M's) when expensed, its book depreciation otherwise
    (methodology §11.7)."""
    capex = f"capex_{cls}_t"
    return Recon(f"{cls}: tax depreciation = capex in service by M (expensed) or book",
                 tot(f"tax_dep_{cls}"),
                 f'IF(dep_{cls}_tax_method="expensed",{tot(capex)}-{S(capex, "@M")},'
                 f"{tot(f'dep_{cls}')})", v[f"tax_depreciation_{cls}"], cap)  # fmt: skip


def _rss(S, keys: list[str], signs: str) -> str:
    """Root of the sum over months of the square of the rows ``keys`` added with
    ``signs`` (``"++--"``): 0 when the identity holds in every month."""
    expr = "".join(f"{sign}{S(k, ':')}" for sign, k in zip(signs, keys, strict=True))
    return f"SQRT(SUMPRODUCT(({expr.lstrip('+')})^2))"


def _loss_recons(S, tot, cap: str, p: str, base: str, tax: str, close: float,
                 tax_value: float) -> list[Recon]:  # fmt: skip
    """The loss corkscrew of ``base`` (unlevered ``p=""`` or levered ``"lev_"``)."""
    k = [f"{p}loss_{x}" for x in ("open", "added", "used", "expired", "close")]
    what = "levered loss pool" if p else "loss pool"
    return [
        Recon(f"{what}: open + added - used - expired = closing, every month",
              _rss(S, k, "++---"), "0", 0.0, cap),
        Recon(f"{what}: added - used - expired = closing at M",
              f"{tot(k[1])}-{tot(k[2])}-{tot(k[3])}", S(k[4], "@M"), close, cap),
        Recon(f"{what} never negative (shortfall)", f"MIN(0,MIN({S(k[4], ':')}))",
              "0", 0.0, cap),
        Recon("levered tax = rate x (positive levered taxable income - losses used)" if p else
              "tax = rate x (positive taxable income - losses used)", tot(tax),
              f'finance_tax_rate*(SUMIF({S(base, ":")},">0")-{tot(k[2])})', tax_value, cap),
    ]  # fmt: skip


def money_recons(cs: CalcSheet, model: Model, comp: dict[tuple[str, str], str],
                 t: str) -> list[Recon]:  # fmt: skip
    """Per tier (methodology §8.2-8.3): the debt corkscrew, the loan table against the
    draws, the vintage tables against their pools, levered tax, equity NPV."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    tot = lambda key: f"SUM({S(key, ':')})"  # noqa: E731
    v = _totals(model, t)
    r = model.results[t]
    cap = f"ABS({S('capex_total')})"
    k = ["debt_open", "debt_draw", "debt_cap", "debt_principal", "debt_balloon", "debt_close"]
    years = model.months // 12
    out = [
        Recon("debt: open + draw + capitalized - principal - balloon = closing, every month",
              _rss(S, k, "+++---"), "0", 0.0, cap),
        Recon("debt: principal + balloon = draws + capitalized interest",
              f"{tot('debt_principal')}+{tot('debt_balloon')}",
              f"{tot('debt_draw')}+{tot('debt_cap')}", v["principal"] + v["balloon"], cap),
        Recon("debt: loan table draws = debt share x capex timeline", S("loan_draws"),
              tot("debt_draw"), v["draw"], cap),
        Recon("debt: interest + principal paid = level payments x payments made",
              f"{tot('debt_interest')}+{tot('debt_principal')}", S("loan_payments"),
              v["interest"] + v["principal"], cap),
        Recon("debt: balance never negative (shortfall)", f"MIN(0,MIN({S('debt_before', ':')}))",
              "0", 0.0, cap),
    ]  # fmt: skip
    for p, what in (("", "loss pool"), ("lev_", "levered loss pool")):
        rem = f"{S(f'{p}lv_rem_1', '@M')}"
        last = f"{p}lv_rem_{years}"
        rng = f"{rem}:{cs.ref(last, '@M')}"
        close = float(r.annual["loss_pool_close" if not p else "levered_loss_close"][0][-1])
        out.append(Recon(f"{what} at M = sum of its vintage balances", S(f"{p}loss_close", "@M"),
                         f"SUM({rng})", close, cap))  # fmt: skip
    out += _loss_recons(S, tot, cap, "lev_", "taxable_year_lev", "tax_lev",
                        float(r.annual["levered_loss_close"][0][-1]),
                        float(r.flows["tax_levered"][0].sum()))  # fmt: skip
    out += [
        Recon("levered tax never negative (shortfall)", f"MIN(0,MIN({S('tax_lev', ':')}))", "0",
              0.0, cap),
        Recon("equity NPV (Comparison) = sum of ECF x (1+r_e)^(-t)", comp[(t, "equity_npv")],
              S("re_equity_npv"), v["equity_npv"], cap),
        Recon("peak debt (Comparison) = tier sheet", comp[(t, "debt_peak")],
              f"MAX({S('debt_before', ':')})", v["debt_peak"], cap),
    ]  # fmt: skip
    for c in out:
        c.scale_value = abs(v["capex"])
    return out


def vat_recons(cs: CalcSheet, model: Model, t: str) -> list[Recon]:
    """Per tier: the VAT block's reconciliations (:func:`vat_checks`)."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    tot = lambda key: f"SUM({S(key, ':')})"  # noqa: E731
    cap = f"ABS({S('capex_total')})"
    scale = abs(float(model.results[t].metrics["capex"][0]))
    return [Recon(*c, cap, scale) for c in vat_checks(S, tot, model, t)]


def irr_rules(
    cs: CalcSheet, model: Model, summary: pd.DataFrame, comp: dict[tuple[str, str], str], t: str
) -> list[Rule]:
    """The reported IRR and equity IRR are the root methodology §11.2 picks: NPV is
    positive at the monthly IRR - 1e-6 and negative or 0 at + 1e-6 (so NPV is 0
    within 1e-6 of it, and falls through 0 there; a root where NPV rises, or a
    hard-coded or stale IRR, fails). Shown: the sign of the NPV just below the root
    (well conditioned, unlike the NPV at the root itself, a cancellation)."""
    out = []
    for metric, flow, label in (("irr", "fcf", "IRR"), ("equity_irr", "ecf", "equity IRR")):
        irr = comp[(t, metric)]
        f0, f1 = cs.ref(flow, "@0", sheet=True), cs.ref(flow, ":1", sheet=True)
        rate = f"(1+{irr})^(1/12)-1"
        below = f'IF({irr}="",0,SIGN({f0}+NPV({rate}-1E-6,{f1})))'
        above = f"SIGN({f0}+NPV({rate}+1E-6,{f1}))"
        values = model.results[t].flows[flow][0]
        annual = float(summary.loc[t, metric])
        value = 0.0
        if annual == annual:  # not NaN
            below_root = fin.monthly_rate(annual) - 1e-6
            value = float(np.sign(fin.npv_at_monthly_rates(values, [below_root])[0]))
        cond = f'IF({irr}="",TRUE,AND({{B}}=1,{above}<=0))'
        out.append(Rule(f"{label} is a root where NPV falls: positive just below, not above",
                        below, value, "+1 below, <= 0 above", cond))  # fmt: skip
    return out


def tier_rules(cs: CalcSheet, model: Model, t: str) -> list[Rule]:
    """Per tier: the tier's inputs obey the rules of methodology §2.4."""
    S = lambda key: cs.ref(key, "$", sheet=True)  # noqa: E731
    ti = model.inputs[t].values()
    tier = model.assumptions.tiers[t]
    out = [
        Rule("server is in the catalogue", S("server"), tier.server, "from the list",
             f"ISNUMBER(MATCH({S('server')},Srv_id,0))"),
        Rule("cooling is a known type", S("cooling"), tier.cooling, "from the list",
             f"ISNUMBER(MATCH({S('cooling')},Cool_id,0))"),
        Rule("GPUs a positive multiple of GPUs per server", S("gpus"), tier.gpus,
             "multiple of GPUs per server",
             f"AND({S('gpus')}>=1,MOD({S('gpus')},{S('gpus_per_server')})=0)"),
        Rule("rack kW within the cooling's max rack kW (kW against kW)", S("rack_kw"),
             ti["rack_kw"], "<= max rack kW of the cooling",
             f"AND({S('rack_kw')}>0,{S('rack_kw')}<={S('max_rack_kw')})"),
    ]  # fmt: skip
    out += _stage_rules(S, model, t)
    if "fabric_radix" in ti:  # methodology §12.1
        n = model.inputs[t].config.stages
        last, final = f"f_e{n}", ti["gpus"] + sum(ti[f"stage{i}_gpus"] for i in range(1, n + 1))
        k = S("fabric_radix")
        out.append(Rule("fabric: switch radix an even number >= 2", k, ti["fabric_radix"],
                        "even, >= 2", f"AND({k}>=2,MOD({k},2)=0)"))  # fmt: skip
        out.append(Rule("fabric: the final endpoints fit 3 levels (k^3 / 4)", S(last),
                        final, "<= radix^3 / 4", f"{S(last)}<={k}^3/4"))  # fmt: skip
    for key, path, _, _ in (*TIER_LINKS, *DESIGN_LINKS, *CONTRACT_LINKS):
        optional = key in OPTIONAL_LINKS  # methodology §12: a share or a design
        if key == "gpus" or (optional and key not in ti):
            continue
        out.append(Rule(f"{input_label(path)}: {describe(path)}", S(key), ti.get(key, 0.0),
                        describe(path), condition(S(key), path)))  # fmt: skip
    return out


#: tier inputs one of two forms gives (network share or design, staff_fte or scaling)
OPTIONAL_LINKS = frozenset({"network_share", "staff_fte", *(k for k, *_ in DESIGN_LINKS)})


def _stage_rules(S, model: Model, t: str) -> list[Rule]:
    """Spec 15: the construction ends before the horizon; each stage after the
    construction, within the horizon, and whole servers of GPUs."""
    ti = model.inputs[t].values()
    build = S("build_months")
    # nothing is clipped (methodology §2.4): construction past the horizon is an error
    out = [Rule("construction ends before the horizon's end (an operating month left)", build,
                ti["build_months"], "round(build months) < M",
                f"ROUND({build},0)<model_months")]  # fmt: skip
    for i in range(1, model.inputs[t].config.stages + 1):
        month, gpus = S(f"d_month{i}"), S(f"d_g{i}")
        out += [
            Rule(f"stage {i}: month after the construction and before the horizon's end",
                 month, ti[f"stage{i}_month"], "build months < month < M",
                 f"AND(INT({month})={month},{month}>{S('build_months')},{month}<model_months)"),
            Rule(f"stage {i}: GPUs a positive multiple of GPUs per server", gpus,
                 ti[f"stage{i}_gpus"], "multiple of GPUs per server",
                 f"AND({gpus}>=1,MOD({gpus},{S('gpus_per_server')})=0)"),
        ]  # fmt: skip
    return out


def global_rules(model: Model) -> list[Rule]:
    """Model-wide inputs, the tables and the horizon."""
    a = model.assumptions
    out = []
    for section, key in SCALARS:
        path, name = f"{section}.{key}", f"{section}_{key}"
        out.append(Rule(f"{input_label(path)}: {describe(path)}", name,
                        getattr(getattr(a, section), key).value, describe(path),
                        condition(name, path)))  # fmt: skip
    for label, name, allowed in MODES:
        value = mode_value(a, name)
        ok = ",".join(f'{name}="{v}"' for v in allowed)
        out.append(Rule(f"{label}: {' or '.join(allowed)}", name, value, "from the list",
                        f"OR({ok})"))  # fmt: skip
    for cls in ASSET_CLASSES:
        d = getattr(a.depreciation, cls)
        fields = (
            ("method", "depreciation.method", d.method),
            ("life", "depreciation.life_years", d.life_years),
            ("salvage", "depreciation.salvage", d.salvage.value),
            ("market_decline", "depreciation.market_decline",
             d.market_decline.value if d.market_decline is not None else 0.0),
        )  # fmt: skip
        for suffix, path, value in fields:
            name = f"dep_{cls}_{suffix}"
            out.append(Rule(f"{cls}: {input_label(path)} {describe(path)}", name, value,
                            describe(path), condition(name, path)))  # fmt: skip
        allowed = ("book",) if cls == "facility" else ("book", "expensed")
        name = f"dep_{cls}_tax_method"
        out.append(Rule(f"{cls}: tax depreciation {' or '.join(allowed)}", name, d.tax_method,
                        "from the list", "OR(" + ",".join(f'{name}="{v}"' for v in allowed)
                        + ")"))  # fmt: skip
    out += financing_rules(model)
    for path, name in vat_rules():
        out.append(Rule(f"{input_label(path)}: {describe(path)}", name,
                        vat_value(model, path), describe(path), condition(name, path)))  # fmt: skip
    out += _table_rules(model)
    out.append(Rule("horizon unchanged since the build (structure)", "horizon_years",
                    a.horizon_years, "= built horizon", "horizon_years=Checks!$B$4"))  # fmt: skip
    return out


def financing_rules(model: Model) -> list[Rule]:
    """Financing and loss inputs (methodology §8.2-8.3): debt share and rates in [0, 1], term
    a whole number of years 1..30, carry-forward blank or a whole number >= 0."""
    out = []
    for path, blank_ok, _ in FINANCING:
        name = name_for(path)
        value = financing_value(model.assumptions, path)
        cond = condition(name, path)
        if blank_ok:
            cond = f"IF(ISBLANK({name}),TRUE,{cond})"
        rule = describe(path) + (" or blank" if blank_ok else "")
        out.append(Rule(f"{input_label(path)}: {rule}", f'IF(ISBLANK({name}),"",{name})',
                        "" if value is None else value, rule, cond))  # fmt: skip
    return out


def _table_rules(model: Model) -> list[Rule]:
    """Every cell of the server catalogue and cooling table obeys its rule."""
    out = []
    tables = [(f"Srv_{f}", f"servers.{f}", "server catalogue") for f in SERVER_FIELDS]
    tables += [(f"Cool_{f}", path, "cooling table") for f, path in COOLING_FIELDS]
    for name, path, what in tables:
        rule = rule_for(path)
        low = rule.get("minimum", rule.get("value", 0))
        crit = rule.get("criteria")
        bad = f'COUNTIF({name},"<{low}")' if crit != ">" else f'COUNTIF({name},"<={low}")'
        if crit == "between":
            bad += f'+COUNTIF({name},">{rule["maximum"]}")'
        # (whole numbers: a fractional GPUs per server breaks the tiers' multiple rule;
        # INT over a range needs an array formula in Gnumeric, so it is not tested here)
        out.append(Rule(f"{what}: {input_label(path)} {describe(path)} (cells breaking it)",
                        bad, 0, describe(path), f"{bad}=0"))  # fmt: skip
    return out


STAMP_METRICS = ("npv", "capex", "cost_per_gpu_hour")


def _unmoved(top: int, bottom: int, empty: list[int]) -> str:
    """The condition that the stamp's rows ``top..bottom`` (1-based) still hold their
    results at the build: ``sum (now - build)^2 <= tolerance^2 sum build^2``; a row
    without a result at the build (``empty``) is left out of the sums and must
    still have none (text in a sum is an error, which reads STALE)."""
    if not empty:
        b, c = f"$B${top}:$B${bottom}", f"$C${top}:$C${bottom}"
        return f"SUMPRODUCT(({c}-{b})^2)<=check_tolerance^2*SUMPRODUCT({b}^2)"
    rows = [x for x in range(top, bottom + 1) if x not in empty]
    moved = "+".join(f"($C${x}-$B${x})^2" for x in rows) or "0"
    size = "+".join(f"$B${x}^2" for x in rows) or "0"
    # NOT(OR(..)), not ISNUMBER(..)=0: Excel and Gnumeric compare a boolean with a
    # number as unequal, so FALSE=0 is FALSE there (LibreOffice coerces)
    appeared = ",".join(f"ISNUMBER($C${x})" for x in empty)
    return f"AND({moved}<=check_tolerance^2*({size}),NOT(OR({appeared})))"


def _stamp(
    wb: Workbook, ck: ChecksSheet, model: Model, summary: pd.DataFrame, comp: dict, r: int
) -> None:
    """Not a check: the headline results at the build (values) beside their live
    formulas; ``engine_results_status`` reads STALE once they differ, which marks
    the engine-valued sheets (Scenarios, Sensitivity, Monte Carlo) as out of date."""
    ws, st = ck.ws, ck.st
    ws.write_string(r, 0, "Stamp of the engine results (not a check)", st.h2)
    ws.write_string(r + 1, 0, "headline result", st.header)
    ws.write_string(r + 1, 1, "at the build", st.header)
    ws.write_string(r + 1, 2, "now", st.header)
    first = r = r + 2
    empty = []  # rows (1-based) without a result at the build (no denominator)
    for t in model.tiers:
        for metric in STAMP_METRICS:
            ws.write_string(r, 0, f"{metric}: {t}", st.label)
            value = excel_value(summary.loc[t, metric])  # empty when not finite
            ws.write(r, 1, value if value != "" else None, st.cell("money2", "#7F7F7F"))
            ws.write_formula(r, 2, f"={comp[(t, metric)]}", st.cell("money2", GREEN), value)
            if value == "":
                empty.append(r + 1)
            r += 1
    ws.write_string(r, 0, "engine results (Scenarios, Sensitivity, Monte Carlo)", st.label_bold)
    unmoved = _unmoved(first + 1, r, empty)
    ws.write_formula(r, 2, f'=IFERROR(IF({unmoved},"current","STALE"),"STALE")', st.ok, "current")
    wb.define_name("engine_results_status", f"=Checks!$C${r + 1}")

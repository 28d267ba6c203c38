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

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.inputs.designs import tier_design_parts
from costmodel.inputs.model import Model
from costmodel.inputs.vocabulary import input_label
from costmodel.report.workbook.contracts import CONTRACT_LINKS
from costmodel.report.workbook.designtable import design_value_name, form_paths
from costmodel.report.workbook.grid import BLACK, GREEN, CalcSheet, Styles, excel_value, protect
from costmodel.report.workbook.inputs import (
    FINANCING,
    MODES,
    SCALARS,
    SERVER_FIELDS,
    cooling_fields,
    financing_value,
    mode_value,
)
from costmodel.report.workbook.inputsmap import name_for
from costmodel.report.workbook.recons import Recon, money_recons, reconciliations, vat_recons
from costmodel.report.workbook.storageblock import NODE_LINKS
from costmodel.report.workbook.tier import DESIGN_LINKS, TIER_LINKS
from costmodel.report.workbook.validation import condition, describe, rule_for
from costmodel.report.workbook.vatblock import vat_rules, vat_value

CHECK_TOLERANCE = 1e-6
COLS = (
    "check",
    "model value",
    "independent value / rule",
    "difference",
    "tolerance",
    "fails (1)",
    "status",
)


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
    ws.conditional_format(
        5, 6, r + 1, 6, {"type": "cell", "criteria": "==", "value": '"ERROR"', "format": st.error}
    )
    _stamp(wb, ck, model, summary, comp, r + 3)
    ws.freeze_panes(5, 1)
    protect(ws)
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    return counts


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
        value = model.rows(t).irr_sign_below(metric)
        cond = f'IF({irr}="",TRUE,AND({{B}}=1,{above}<=0))'
        out.append(
            Rule(
                f"{label} is a root where NPV falls: positive just below, not above",
                below,
                value,
                "+1 below, <= 0 above",
                cond,
            )
        )
    return out


def tier_rules(cs: CalcSheet, model: Model, t: str) -> list[Rule]:
    """Per tier: the tier's inputs obey the rules of methodology §2.4."""
    S = lambda key: cs.ref(key, "$", sheet=True)  # noqa: E731
    ti = model.inputs[t].values()
    tier = model.assumptions.tiers[t]
    out = [
        Rule(
            "server is in the catalogue",
            S("server"),
            tier.server,
            "from the list",
            f"ISNUMBER(MATCH({S('server')},Srv_id,0))",
        ),
        Rule(
            "cooling is a known type",
            S("cooling"),
            tier.cooling,
            "from the list",
            f"ISNUMBER(MATCH({S('cooling')},Cool_id,0))",
        ),
        Rule(
            "GPUs a positive multiple of GPUs per server",
            S("gpus"),
            tier.gpus,
            "multiple of GPUs per server",
            f"AND({S('gpus')}>=1,MOD({S('gpus')},{S('gpus_per_server')})=0)",
        ),
        Rule(
            "rack kW within the cooling's max rack kW (kW against kW)",
            S("rack_kw"),
            ti["rack_kw"],
            "<= max rack kW of the cooling",
            f"AND({S('rack_kw')}>0,{S('rack_kw')}<={S('max_rack_kw')})",
        ),
    ]
    out += _stage_rules(S, model, t)
    out += _design_rules(S, model, t)
    if "fabric_radix" in ti:  # methodology §12.1
        n = model.inputs[t].config.stages
        last = f"f_e{n}"
        # the engine's final endpoints: the GPUs, or a unit's own count (methodology §33)
        final = float(np.ravel(model.results[t].deployments[-1]["fabric_endpoints"])[0])
        k = S("fabric_radix")
        out.append(
            Rule(
                "fabric: switch radix an even number >= 2",
                k,
                ti["fabric_radix"],
                "even, >= 2",
                f"AND({k}>=2,MOD({k},2)=0)",
            )
        )
        out.append(
            Rule(
                "fabric: the final endpoints fit 3 levels (k^3 / 4)",
                S(last),
                final,
                "<= radix^3 / 4",
                f"{S(last)}<={k}^3/4",
            )
        )
    nodes = tuple((k, p, u, "") for k, p, u in NODE_LINKS) if "storage_node_price" in ti else ()
    for key, path, _, _ in (*TIER_LINKS, *DESIGN_LINKS, *CONTRACT_LINKS, *nodes):
        optional = key in OPTIONAL_LINKS  # methodology §12: a share or a design
        if key == "gpus" or (optional and key not in ti):
            continue
        out.append(
            Rule(
                f"{input_label(path)}: {describe(path)}",
                S(key),
                ti.get(key, 0.0),
                describe(path),
                condition(S(key), path),
            )
        )
    return out


def _design_rules(S, model: Model, t: str) -> list[Rule]:
    """Methodology §28.1: the final GPUs within the design taken (a design that
    holds fewer is built beyond its limit), and the design taken gives the form of
    network and storage the tier sheet computes (a share or a fabric, nodes)."""
    a, ti = model.assumptions, model.inputs[t].values()
    parts = tier_design_parts(a, t)
    if not parts:
        return []
    key = a.tiers[t].design
    final = float(model.summary_rows()[t]["gpus"])
    out = [
        Rule(
            "design: the final GPUs within the largest cluster of the design taken",
            S("gpus_total"),
            final,
            "<= the design's max GPUs",
            f"{S('gpus_total')}<={S('design_max_gpus')}",
        )
    ]
    for path in form_paths(parts, "fabric_radix" in ti):
        out.append(
            Rule(
                f"design: the design taken gives {input_label(path)} (the form of this sheet)",
                S("design"),
                key,
                "given by the design",
                f"ISNUMBER(INDEX({design_value_name(path)},1,MATCH({S('design')},Design_key,0)))",
            )
        )
    return out


#: tier inputs one of two forms gives (network share or design, staff_fte or scaling)
OPTIONAL_LINKS = frozenset(
    {
        "network_share",
        "staff_fte",
        *(k for k, *_ in DESIGN_LINKS),
        "storage_capacity_tb",
        "storage_price_per_tb",
        "write_gbps",
    }
)


def _stage_rules(S, model: Model, t: str) -> list[Rule]:
    """Methodology §8.1: the construction ends before the horizon; each stage after the
    construction, within the horizon, and whole servers of GPUs."""
    ti = model.inputs[t].values()
    build = S("build_months")
    # nothing is clipped (methodology §2.4): construction past the horizon is an error
    out = [
        Rule(
            "construction ends before the horizon's end (an operating month left)",
            build,
            ti["build_months"],
            "round(build months) < M",
            f"ROUND({build},0)<model_months",
        )
    ]
    for i in range(1, model.inputs[t].config.stages + 1):
        month, gpus = S(f"d_month{i}"), S(f"d_g{i}")
        out += [
            Rule(
                f"stage {i}: month after the construction and before the horizon's end",
                month,
                ti[f"stage{i}_month"],
                "build months < month < M",
                f"AND(INT({month})={month},{month}>{S('build_months')},{month}<model_months)",
            ),
            Rule(
                f"stage {i}: GPUs a positive multiple of GPUs per server",
                gpus,
                ti[f"stage{i}_gpus"],
                "multiple of GPUs per server",
                f"AND({gpus}>=1,MOD({gpus},{S('gpus_per_server')})=0)",
            ),
        ]
    return out


def global_rules(model: Model) -> list[Rule]:
    """Model-wide inputs, the tables and the horizon."""
    a = model.assumptions
    out = []
    for section, key in SCALARS:
        path, name = f"{section}.{key}", f"{section}_{key}"
        given = getattr(getattr(a, section), key)  # wacc: the rate the financing implies
        if isinstance(given, dict):
            continue  # a rent by cooling: a column of the cooling table (§28.3)
        out.append(
            Rule(
                f"{input_label(path)}: {describe(path)}",
                name,
                model.discount_rate() if given == "wacc" else given.value,
                describe(path),
                condition(name, path),
            )
        )
    for label, name, allowed in MODES:
        value = mode_value(a, name)
        ok = ",".join(f'{name}="{v}"' for v in allowed)
        out.append(
            Rule(f"{label}: {' or '.join(allowed)}", name, value, "from the list", f"OR({ok})")
        )
    for cls in CAPEX_CLASSES:
        d = getattr(a.depreciation, cls)
        fields = (
            ("method", "depreciation.method", d.method),
            ("life", "depreciation.life_years", d.life_years),
            ("salvage", "depreciation.salvage", d.salvage.value),
            (
                "market_decline",
                "depreciation.market_decline",
                d.market_decline.value if d.market_decline is not None else 0.0,
            ),
        )
        for suffix, path, value in fields:
            name = f"dep_{cls}_{suffix}"
            out.append(
                Rule(
                    f"{cls}: {input_label(path)} {describe(path)}",
                    name,
                    value,
                    describe(path),
                    condition(name, path),
                )
            )
        allowed = ("book",) if cls == "facility" else ("book", "expensed")
        name = f"dep_{cls}_tax_method"
        out.append(
            Rule(
                f"{cls}: tax depreciation {' or '.join(allowed)}",
                name,
                d.tax_method,
                "from the list",
                "OR(" + ",".join(f'{name}="{v}"' for v in allowed) + ")",
            )
        )
    out += financing_rules(model)
    for path, name in vat_rules():
        out.append(
            Rule(
                f"{input_label(path)}: {describe(path)}",
                name,
                vat_value(model, path),
                describe(path),
                condition(name, path),
            )
        )
    out += _table_rules(model)
    out.append(
        Rule(
            "horizon unchanged since the build (structure)",
            "horizon_years",
            a.horizon_years,
            "= built horizon",
            "horizon_years=Checks!$B$4",
        )
    )
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
        out.append(
            Rule(
                f"{input_label(path)}: {rule}",
                f'IF(ISBLANK({name}),"",{name})',
                "" if value is None else value,
                rule,
                cond,
            )
        )
    return out


def _table_rules(model: Model) -> list[Rule]:
    """Every cell of the server catalogue and cooling table obeys its rule."""
    out = []
    tables = [(f"Srv_{f}", f"servers.{f}", "server catalogue") for f in SERVER_FIELDS]
    fields = cooling_fields(model.assumptions)
    tables += [(f"Cool_{f}", path, "cooling table") for f, path in fields]
    for name, path, what in tables:
        rule = rule_for(path)
        low = rule.get("minimum", rule.get("value", 0))
        crit = rule.get("criteria")
        bad = f'COUNTIF({name},"<{low}")' if crit != ">" else f'COUNTIF({name},"<={low}")'
        if crit == "between":
            bad += f'+COUNTIF({name},">{rule["maximum"]}")'
        # (whole numbers: a fractional GPUs per server breaks the tiers' multiple rule;
        # INT over a range needs an array formula in Gnumeric, so it is not tested here)
        out.append(
            Rule(
                f"{what}: {input_label(path)} {describe(path)} (cells breaking it)",
                bad,
                0,
                describe(path),
                f"{bad}=0",
            )
        )
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

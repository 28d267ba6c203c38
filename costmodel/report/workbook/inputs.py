"""The workbook's Inputs sheet: every assumption with label, unit, range, source.

Blue cells are inputs, each with data validation (lists for methods, modes,
cooling and server ids; ranges for fractions, rates and prices; whole numbers
where the schema says so) and an input message. Scalar inputs carry defined
names (``power_price_per_kwh``); tables (cooling types, depreciation, the server
catalogue) are named column ranges looked up with INDEX/MATCH, each range one
row longer than its table (a blank row) so that no engine sees a single-cell
range; tier inputs sit in a table with one column per tier, where a tier that
does not override a global input links to it. Every row shows a readable label
and a unit, with the dotted path of the assumption in its own column. Text from
the assumption files is always written as a string, never a formula.
``horizon_years`` is structure (the timeline's columns), not a live input.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from xlsxwriter.workbook import Workbook

from costmodel.catalogue.items import CAPEX_CLASSES, FACILITY_MODES
from costmodel.inputs.forms import refund_mode
from costmodel.inputs.params import CONTRACT_KEYS
from costmodel.inputs.schema import (
    DEPRECIATION_METHODS,
    Assumptions,
    Quantity,
    WholeNumber,
)
from costmodel.inputs.vocabulary import input_label, input_unit
from costmodel.report.workbook.designtable import write_design_table
from costmodel.report.workbook.grid import BLACK, Styles
from costmodel.report.workbook.inputsmap import (
    HEAD,
    PATH_COL,
    SHEET,
    SOURCE_COL,
    TIER_OVERRIDES,
    InputsMap,
    Sheet,
    dotted_attr,
    here,
    kind_for,
    name_for,
    quantity,
)
from costmodel.report.workbook.plan import PlanBook, PlanSheet, PlanStyles, SheetPlan, render
from costmodel.report.workbook.quotesblock import write_quotes
from costmodel.report.workbook.sitesblock import write_sites
from costmodel.report.workbook.subsidyblock import write_subsidy_inputs
from costmodel.report.workbook.tiertable import write_stages, write_tier_table
from costmodel.report.workbook.validation import validate
from costmodel.report.workbook.vatblock import write_vat_inputs

SCALARS = [
    ("finance", "discount_rate"),
    ("finance", "tax_rate"),
    ("power", "price_per_kwh"),
    ("power", "escalation"),
    ("power", "aux_power_fraction"),
    ("facility", "colocation_per_kw_month"),
    ("facility", "retrofit_premium"),
    *[(section, k) for section, keys in TIER_OVERRIDES.items() for k in keys],
]
CLOUD_FIELDS = ("cloud_on_demand_per_gpu_hour", "cloud_reserved_per_gpu_hour")
SERVER_FIELDS = (
    "gpus_per_server",
    "price",
    "power_kw",
    "idle_fraction",
    "gpu_memory_gb",
    "tflops_bf16",
    "price_decline",
)
COOLING_FIELDS = (
    ("pue", "power.pue"),
    ("build_cost_per_kw", "facility.build_cost_per_kw"),
    ("max_rack_kw", "facility.max_rack_kw"),
)
#: the text inputs chosen from a list: (label, defined name, allowed values)
MODES = (
    ("terminal value", "terminal_value", ("book", "none", "market", "income")),
    ("facility mode", "facility_mode", FACILITY_MODES),
    ("revenue mode", "revenue_mode", ("rental", "avoided_cloud")),
    ("cloud price term", "revenue_cloud_term", ("on_demand", "reserved")),
    ("loan rate convention", "financing_rate_convention", ("nominal", "effective")),
    ("VAT refund timing (when refunds are on)", "vat_refund", ("annual", "monthly")),
)
#: the dotted path of each text input of :data:`MODES`, by its defined name
MODE_PATHS = {
    "terminal_value": "terminal_value",
    "facility_mode": "facility.mode",
    "revenue_mode": "revenue.mode",
    "revenue_cloud_term": "revenue.cloud_term",
    "financing_rate_convention": "financing.rate_convention",
    "vat_refund": "vat.refund",
}
#: methodology §4: <=64, <=511, else
SCALE_CLASSES = ((1, "tens"), (65, "hundreds"), (512, "thousands"))


def mode_value(a: Assumptions, name: str) -> str:
    """The value of the text input with defined ``name`` (see :data:`MODES`)."""
    return {
        "terminal_value": a.terminal_value,
        "facility_mode": a.facility.mode,
        "revenue_mode": a.revenue.mode,
        "revenue_cloud_term": a.revenue.cloud_term,
        "financing_rate_convention": a.financing.rate_convention if a.financing else "nominal",
        "vat_refund": "monthly" if a.vat and refund_mode(a.vat) == "monthly" else "annual",
    }[name]


@dataclass
class InputsPlan:
    """The Inputs sheet's layout (:class:`~costmodel.report.workbook.plan.SheetPlan`)
    and where each input lands in it (:class:`InputsMap`), before anything is
    written."""

    sheet: SheetPlan
    map: InputsMap


def plan_inputs(
    a: Assumptions,
    tiers: list[str],
    value_of_gpu_hour: dict[str, float],
    discount_rate: float = float("nan"),
) -> InputsPlan:
    """Lay out the Inputs sheet of ``a``; ``value_of_gpu_hour`` is each tier's engine
    input ``price_per_gpu_hour`` (the cached value of the tier's "value used" row);
    ``discount_rate`` the engine's rate (the cached value of a ``wacc`` formula).
    Nothing is written: :func:`write_inputs` renders the plan, the importer reads
    where each input lands from it."""
    plan = SheetPlan(SHEET)
    ws, st = PlanSheet(plan), PlanStyles()
    for c, width in enumerate((46, 18, 30, 12, 12, 30, 60, 50)):
        ws.set_column(c, c, width)
    ws.freeze_panes(2, 1)
    ws.write_string(0, 0, "Inputs: every assumption of the model (blue = input)", st.title)
    s = Sheet(PlanBook(plan), ws, st, a)
    out = InputsMap()
    _model_block(s, out)
    _scalars(s, discount_rate)
    _financing(s)
    write_vat_inputs(s)
    write_subsidy_inputs(s, out)
    _cooling(s)
    write_sites(s)
    _depreciation(s)
    _servers(s)
    write_design_table(s)
    write_tier_table(s, tiers, value_of_gpu_hour, out)
    write_stages(s, tiers, out)
    write_quotes(s, out)
    _lists(s)
    _sources(s)
    out.cells = s.mark_inputs()
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(0, 1)
    return InputsPlan(plan, out)


def write_inputs(
    wb: Workbook,
    st: Styles,
    a: Assumptions,
    tiers: list[str],
    value_of_gpu_hour: dict[str, float],
    discount_rate: float = float("nan"),
) -> InputsMap:
    """Write the Inputs sheet: :func:`plan_inputs`, rendered on a new worksheet of
    ``wb`` with the formats of ``st``."""
    plan = plan_inputs(a, tiers, value_of_gpu_hour, discount_rate)
    render(plan.sheet, wb, st)
    return plan.map


def _model_block(s: Sheet, out: InputsMap) -> None:
    ws, st, a = s.ws, s.st, s.a
    s.section("Model")
    # the model name has no unit: its text runs on over the empty cells beside it
    rows = (
        ("model name", a.name, "model_name", ""),
        ("currency", a.currency, "model_currency", "ISO 4217 code"),
    )
    for label, value, defined, unit in rows:
        ws.write_string(s.row, 0, label, st.label)
        ws.write_string(s.row, 1, value, st.input("text"))
        validate(ws, s.row, 1, defined.split("_")[-1])
        s.input_at(defined.split("_")[-1], s.row, 1, value)
        if unit:
            ws.write_string(s.row, 2, unit, st.unit)
        s.define(defined, s.row, 1)
        s.row += 1
    for label, defined, allowed in MODES:
        value = mode_value(a, defined)
        ws.write_string(s.row, 0, label, st.label)
        ws.write_string(s.row, 1, value, st.input("text"))
        ws.write_string(s.row, 2, " | ".join(allowed), st.unit)
        rule = {"validate": "list", "source": list(allowed), "input_message": "From the list."}
        validate(ws, s.row, 1, defined, rule)
        s.input_at(MODE_PATHS[defined], s.row, 1, value)
        s.define(defined, s.row, 1)
        s.row += 1
    ws.write_string(s.row, 0, "first operating month", st.label)
    y, mth = (int(x) for x in a.start.split("-"))
    ws.write_datetime(s.row, 1, datetime(y, mth, 1), st.input("date"))
    ws.write_string(s.row, 2, "month", st.unit)
    rule = {
        "validate": "date",
        "criteria": ">=",
        "value": datetime(2000, 1, 1),
        "input_message": "The first day of a month.",
    }
    validate(ws, s.row, 1, "start", rule)
    s.input_at("start", s.row, 1, a.start)
    s.define("start", s.row, 1)
    s.row += 1
    ws.write_string(s.row, 0, "horizon (structure: rebuild the workbook to change)", st.label)
    ws.write_number(s.row, 1, a.horizon_years, st.cell("count", BLACK))
    ws.write_string(s.row, 2, "years", st.unit)
    ws.write_string(s.row, PATH_COL, "horizon_years", st.path)
    s.define("horizon_years", s.row, 1)
    out.horizon_cell = f"{SHEET}!{here(s.row, 1)}"
    s.row += 1
    constants = (
        (
            "months in the horizon (M)",
            "=horizon_years*12",
            12 * a.horizon_years,
            "months",
            "model_months",
        ),
        ("hours per month (8760 / 12; constant)", None, 730, "h", "hours_per_month"),
    )
    for label, formula, value, unit, defined in constants:
        ws.write_string(s.row, 0, label, st.label)
        if formula:
            ws.write_formula(s.row, 1, formula, st.cell("count", BLACK), value)
        else:
            ws.write_number(s.row, 1, value, st.cell("count", BLACK))
        ws.write_string(s.row, 2, unit, st.unit)
        s.define(defined, s.row, 1)
        s.row += 1


def _scalars(s: Sheet, discount_rate: float) -> None:
    s.section("Scalar inputs")
    s.head(*HEAD)
    for section, key in SCALARS:
        q = getattr(getattr(s.a, section), key)
        if isinstance(q, dict):
            continue  # a rent by cooling is a column of the cooling table (§28.3)
        if q == "wacc":  # methodology §11.10: a formula of the financing inputs
            r = s.quantity_row(f"{section}.{key}", *wacc_row(discount_rate))
        else:
            r = s.quantity_row(f"{section}.{key}", q)
        s.define(name_for(f"{section}.{key}"), r, 1)
    contract = s.a.revenue.contract
    for key in CONTRACT_KEYS if contract is not None else ():  # methodology §11.5, §11.12
        r = s.quantity_row(f"revenue.contract.{key}", getattr(contract, key))
        s.define(name_for(f"revenue.contract.{key}"), r, 1)


#: financing and loss inputs (methodology §8.2-8.3): (path, blank allowed, number format)
FINANCING = (
    ("financing.debt_share", False, "pct2"),
    ("financing.interest_rate", False, "pct2"),
    ("financing.term_years", False, "count"),
    ("financing.cost_of_equity", True, "pct2"),
    ("financing.min_dscr_covenant", True, "number"),
    ("finance.loss_carryforward_years", True, "count"),
)
NO_FINANCING = "no financing section in the assumptions: no debt (type a debt share to borrow)"


def financing_value(a: Assumptions, path: str) -> float | None:
    """The value the engine uses for a :data:`FINANCING` input (None: blank)."""
    if path == "finance.loss_carryforward_years":
        return a.finance.loss_carryforward_years
    f, key = a.financing, path.split(".")[1]
    if f is None:
        return {"debt_share": 0.0, "interest_rate": 0.0, "term_years": 1}.get(key)
    v = getattr(f, key)
    return v.value if isinstance(v, Quantity) else v


#: ``finance.discount_rate: wacc`` (methodology §11.10) on the Inputs sheet
WACC_FORMULA = (
    "=financing_debt_share*financing_interest_rate*(1-finance_tax_rate)"
    "+(1-financing_debt_share)*financing_cost_of_equity"
)


def wacc_row(rate: float) -> tuple[Quantity, str]:
    """The discount rate row of ``wacc``: its cached value ``rate`` (the engine's)
    and :data:`WACC_FORMULA`."""
    source = (
        "wacc: debt share x loan rate x (1 - tax rate) + (1 - debt share) x cost of "
        "equity (methodology §11.10)"
    )
    return Quantity(value=rate, source=source), WACC_FORMULA


def _financing(s: Sheet) -> None:
    """Debt financing and loss carry-forward; a blank cost of equity is the discount
    rate, a blank carry-forward period is unlimited, a blank covenant is none."""
    ws, st, a = s.ws, s.st, s.a
    s.section("Financing and tax losses (blank where allowed: see the unit)")
    s.head(*HEAD)
    blanks = {
        "financing.cost_of_equity": "blank: the discount rate",
        "financing.min_dscr_covenant": "blank: none (shown only, not enforced)",
        "finance.loss_carryforward_years": "blank: unlimited",
    }
    for path, _, kind in FINANCING:
        q = dotted_attr(a, path)
        if isinstance(q, Quantity):
            r = s.quantity_row(path, q)
        else:
            r = s.row
            value = financing_value(a, path)
            ws.write_string(r, 0, input_label(path), st.label)
            if value is None:
                ws.write_blank(r, 1, None, st.input(kind))
            else:
                ws.write_number(r, 1, value, st.input(kind))
            validate(ws, r, 1, path)
            s.input_at(path, r, 1, value)
            unit = input_unit(path, s.cur)
            ws.write_string(
                r, 2, f"{unit} ({blanks[path]})" if path in blanks else unit, st.unit_wrap
            )
            ws.write_string(r, PATH_COL, path, st.path)
            if a.financing is None and path.startswith("financing"):
                ws.write_string(r, SOURCE_COL, NO_FINANCING, st.wrap)
            ws.set_row(r, 30)
            s.row += 1
        s.define(name_for(path), r, 1)


def cooling_fields(a: Assumptions) -> tuple[tuple[str, str], ...]:
    """The cooling table's columns: PUE, build cost, rack limit and, when the rent
    is given by cooling (methodology §28.3), the rent of a hall."""
    rent = ("colocation_per_kw_month", "facility.colocation_per_kw_month")
    by_cooling = isinstance(a.facility.colocation_per_kw_month, dict)
    return (*COOLING_FIELDS, rent) if by_cooling else COOLING_FIELDS


def _cooling(s: Sheet) -> None:
    ws, st, a = s.ws, s.st, s.a
    fields = cooling_fields(a)
    s.section("Cooling types")
    s.head("cooling", *[input_label(f) for f, _ in fields])
    ws.write_string(s.row, 0, "unit", st.unit)
    for j, (_, path) in enumerate(fields):
        ws.write_string(s.row, 1 + j, input_unit(path, s.cur), st.unit)
    s.row += 1
    first = s.row
    for c in a.power.pue:
        ws.write_string(s.row, 0, c, st.input("text"))
        for j, (f, path) in enumerate(fields):
            table = getattr(a.power if path.startswith("power") else a.facility, f)
            if c in table:
                q = table[c]
                ws.write_number(s.row, 1 + j, q.value, st.input("number"))
                validate(ws, s.row, 1 + j, path)
                s.input_at((*path.split("."), c), s.row, 1 + j, q.value)
                s.sources.append((f"{path}.{c}", q, here(s.row, 1 + j)))
        s.row += 1
    # one blank row inside each named range: a single cooling type is still a range
    s.name_column("Cool_list", first, s.row - 1, 0)
    s.name_column("Cool_id", first, s.row, 0)
    for j, (f, _) in enumerate(fields):
        s.name_column(f"Cool_{f}", first, s.row, 1 + j)
    s.row += 1


def _depreciation(s: Sheet) -> None:
    ws, st, a = s.ws, s.st, s.a
    s.section("Depreciation by asset class")
    s.head(
        "asset class",
        "method",
        "useful life (years)",
        "salvage (fraction of cost)",
        "market value decline (1/yr; terminal value = market)",
    )
    for cls in CAPEX_CLASSES:
        d = getattr(a.depreciation, cls)
        ws.write_string(s.row, 0, cls, st.label)
        ws.write_string(s.row, 1, d.method, st.input("text"))
        validate(ws, s.row, 1, "depreciation.method")
        ws.write_number(s.row, 2, d.life_years, st.input("count"))
        validate(ws, s.row, 2, "depreciation.life_years")
        ws.write_number(s.row, 3, d.salvage.value, st.input("pct2"))
        validate(ws, s.row, 3, "depreciation.salvage")
        if d.market_decline is not None:
            ws.write_number(s.row, 4, d.market_decline.value, st.input("pct2"))
            s.sources.append(
                (f"depreciation.{cls}.market_decline", d.market_decline, here(s.row, 4))
            )
        else:  # blank: no decline, used only when the terminal value is market
            ws.write_blank(s.row, 4, None, st.input("pct2"))
        validate(ws, s.row, 4, "depreciation.market_decline")
        values = (
            d.method,
            d.life_years,
            d.salvage.value,
            d.market_decline.value if d.market_decline is not None else None,
        )
        for j, key in enumerate(("method", "life_years", "salvage", "market_decline")):
            s.input_at(("depreciation", cls, key), s.row, 1 + j, values[j])
        ws.write_string(s.row, PATH_COL, f"depreciation.{cls}", st.path)
        for suffix, col in (("method", 1), ("life", 2), ("salvage", 3), ("market_decline", 4)):
            s.define(f"dep_{cls}_{suffix}", s.row, col)
        s.sources.append((f"depreciation.{cls}.salvage", d.salvage, here(s.row, 3)))
        if isinstance(d.life_years, WholeNumber):  # its range and source (methodology §11.3)
            life = Quantity(value=int(d.life_years), **d.life_years.meta())
            s.sources.append((f"depreciation.{cls}.life_years", life, here(s.row, 2)))
        s.row += 1
    _tax_methods(s)


def _tax_methods(s: Sheet) -> None:
    """Tax depreciation per asset class (methodology §11.7): ``book`` or
    ``expensed`` (equipment only; the facility is always ``book``)."""
    ws, st, a = s.ws, s.st, s.a
    s.row += 1
    s.head("tax depreciation", "book or expensed (whole cost in its first year)")
    for cls in CAPEX_CLASSES:
        ws.write_string(s.row, 0, cls, st.label)
        method = getattr(a.depreciation, cls).tax_method
        ws.write_string(s.row, 1, method, st.input("text"))
        validate(ws, s.row, 1, f"{cls}.tax_method")
        s.input_at(f"depreciation.{cls}.tax_method", s.row, 1, method)
        ws.write_string(s.row, 2, "method", st.unit)
        ws.write_string(s.row, PATH_COL, f"depreciation.{cls}.tax_method", st.path)
        s.define(f"dep_{cls}_tax_method", s.row, 1)
        s.row += 1


def lead_fields(a: Assumptions) -> tuple[str, ...]:
    """The optional server keys some server of the catalogue sets, each a column of
    the catalogue then (blank: none): ``lead_months`` (supply lead time, methodology
    §30.2), ``racks_per_unit`` and ``fabric_endpoints_per_unit`` (a rack-scale unit,
    §33)."""
    keys = ("lead_months", "racks_per_unit", "fabric_endpoints_per_unit")
    return tuple(k for k in keys if any(getattr(v, k) is not None for v in a.servers.values()))


def _servers(s: Sheet) -> None:
    ws, st, a = s.ws, s.st, s.a
    s.section("Server catalogue (price and power per whole server)")
    fields = (*SERVER_FIELDS, *CLOUD_FIELDS, *lead_fields(a))
    s.head("server", *[input_label(f"servers.{f}") for f in fields], "label")
    ws.write_string(s.row, 0, "unit", st.unit)
    for j, f in enumerate(fields):
        ws.write_string(s.row, 1 + j, input_unit(f"servers.{f}", s.cur), st.unit)
    s.row += 1
    first = s.row
    for sid, srv in a.servers.items():
        ws.write_string(s.row, 0, sid, st.input("text"))
        for j, f in enumerate(fields):
            v = getattr(srv, f)
            if v is None:  # an optional input left blank (a cloud price): still an input
                ws.write_blank(s.row, 1 + j, None, st.input(kind_for(f)))
                validate(ws, s.row, 1 + j, f"servers.{f}")
                s.input_at(("servers", sid, f), s.row, 1 + j, None)
                continue
            q = quantity(v)
            kind = "count" if f == "gpus_per_server" else kind_for(f)
            ws.write_number(s.row, 1 + j, q.value if q else v, st.input(kind))
            validate(ws, s.row, 1 + j, f"servers.{f}")
            s.input_at(("servers", sid, f), s.row, 1 + j, q.value if q else v)
            if q:
                s.sources.append((f"servers.{sid}.{f}", q, here(s.row, 1 + j)))
        ws.write_string(s.row, 1 + len(fields), srv.label, st.text)
        s.row += 1
    s.name_column("Srv_list", first, s.row - 1, 0)
    s.name_column("Srv_id", first, s.row, 0)
    for j, f in enumerate(fields):
        s.name_column(f"Srv_{f}", first, s.row, 1 + j)
    s.row += 1


def _lists(s: Sheet) -> None:
    ws, st = s.ws, s.st
    s.section("Lists")
    s.head("depreciation methods (CHOOSE index 1, 2, 3)")
    first = s.row
    for m in DEPRECIATION_METHODS:
        ws.write_string(s.row, 0, m, st.text)
        s.row += 1
    s.name_column("Dep_methods", first, s.row - 1, 0)
    s.head("scale class (from this many GPUs)", "class")
    first = s.row
    for lo, name in SCALE_CLASSES:
        ws.write_number(s.row, 0, lo, st.cell("count", BLACK))
        ws.write_string(s.row, 1, name, st.text)
        s.row += 1
    s.name_column("Scale_min_gpus", first, s.row - 1, 0)
    s.name_column("Scale_class", first, s.row - 1, 1)


def _sources(s: Sheet) -> None:
    s.section("Sources of the table inputs above (values linked)")
    s.head(*HEAD)
    for path, q, cell in s.sources:
        s.quantity_row(path, q, f"={cell}")

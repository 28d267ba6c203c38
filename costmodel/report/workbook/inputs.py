"""The workbook's Inputs sheet: every assumption with unit, range, source and note.

Blue cells are inputs. Scalar inputs carry defined names (``power_price_per_kwh``);
tables (cooling types, depreciation, the server catalogue) are named column
ranges looked up with INDEX/MATCH; tier inputs sit in a table with one column
per tier, where a tier that does not override a global input links to it.
Text from the assumption files is always written as a string, never a formula.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook

from costmodel.inputs.params import _OVERRIDABLE
from costmodel.inputs.schema import ASSET_CLASSES, DEPRECIATION_METHODS, Assumptions, Quantity
from costmodel.report.workbook.grid import BLACK, BLUE, Styles

SHEET = "Inputs"

# kind of number format per scalar input
_PCT = {
    "discount_rate",
    "tax_rate",
    "escalation",
    "aux_power_fraction",
    "utilization",
    "maintenance_rate",
    "insurance_rate",
    "staff_escalation",
    "price_decline",
    "mfu",
    "share",
    "salvage",
    "idle_fraction",
}

SCALARS = [
    ("finance", "discount_rate"),
    ("finance", "tax_rate"),
    ("power", "price_per_kwh"),
    ("power", "escalation"),
    ("power", "aux_power_fraction"),
    ("facility", "colocation_per_kw_month"),
    *[("operations", k) for k in _OVERRIDABLE["operations"]],
    *[("revenue", k) for k in _OVERRIDABLE["revenue"]],
    *[("reliability", k) for k in _OVERRIDABLE["reliability"]],
]
CLOUD_FIELDS = ("cloud_on_demand_per_gpu_hour", "cloud_reserved_per_gpu_hour")
SERVER_FIELDS = (
    "gpus_per_server",
    "price",
    "power_kw",
    "idle_fraction",
    "gpu_memory_gb",
    "tflops_bf16",
)
COOLING_FIELDS = (
    ("pue", "power.pue", "ratio"),
    ("build_cost_per_kw", "facility.build_cost_per_kw", "CNY/kW"),
    ("max_rack_kw", "facility.max_rack_kw", "kW"),
)
TIER_FIELDS = (
    ("gpus", "GPUs", "count"),
    ("network.share", "network share of hardware capex", "fraction"),
    ("storage.capacity_tb", "storage capacity", "TB"),
    ("storage.price_per_tb", "storage price", "per TB"),
    ("storage.write_gbps", "storage write bandwidth", "GB/s"),
    ("rack_kw", "rack power", "kW/rack"),
    ("staff_fte", "infrastructure staff", "FTE"),
)
SCALE_CLASSES = ((1, "tens"), (65, "hundreds"), (512, "thousands"))  # spec 3: <=64, <=511, else


def text_lines(*texts: str, width: int = 60) -> int:
    """Lines a wrapped cell of ``width`` characters needs (CJK counts double)."""
    import unicodedata

    def w(t: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in t)

    return max([1, *(-(-w(t) // width) for t in texts if t)])


def name_for(path: str) -> str:
    """Defined name of a scalar input: ``power.price_per_kwh`` -> ``power_price_per_kwh``."""
    return path.replace(".", "_")


def kind_for(key: str) -> str:
    return "pct2" if key.split(".")[-1] in _PCT else "number"


@dataclass
class InputsMap:
    """Where each input landed: names for scalars, cells for the tier table."""

    tier_cells: dict[tuple[str, str], str] = field(
        default_factory=dict
    )  # (tier, key) -> Inputs!$C$9
    tier_columns: dict[str, int] = field(default_factory=dict)


def _dotted_attr(obj: Any, dotted: str) -> Any:
    """``obj.a.b`` for ``"a.b"``; None where a section along the way is None."""
    for part in dotted.split("."):
        obj = getattr(obj, part) if obj is not None else None
    return obj


def _q(x: Any) -> Quantity | None:
    return x if isinstance(x, Quantity) else None


def write_inputs(
    wb: Workbook, st: Styles, a: Assumptions, tiers: list[str], value_of_gpu_hour: dict[str, float]
) -> InputsMap:
    """Write the Inputs sheet; ``value_of_gpu_hour`` is each tier's engine input
    ``price_per_gpu_hour`` (the cached value of the tier's "value used" row)."""
    ws = wb.add_worksheet(SHEET)
    ws.set_column(0, 0, 44)
    ws.set_column(1, 1, 16)
    ws.set_column(2, 2, 26)
    ws.set_column(3, 4, 12)
    ws.set_column(5, 6, 60)
    ws.freeze_panes(2, 1)
    ws.write_string(0, 0, "Inputs: every assumption of the model (blue = input)", st.title)
    r = 1
    out = InputsMap()

    def define(name: str, row: int, col: int) -> None:
        wb.define_name(name, f"={SHEET}!{xl_rowcol_to_cell(row, col, row_abs=True, col_abs=True)}")

    def quantity_row(row: int, label: str, q: Quantity, kind: str, name: str | None) -> None:
        ws.write_string(row, 0, label, st.label)
        ws.write_number(row, 1, q.value, st.cell(kind, BLUE))
        ws.write_string(row, 2, q.unit or "", st.unit)
        if q.low is not None:
            ws.write_number(row, 3, q.low, st.cell(kind, BLACK))
        if q.high is not None:
            ws.write_number(row, 4, q.high, st.cell(kind, BLACK))
        ws.write_string(row, 5, q.source or "", st.wrap)
        ws.write_string(row, 6, q.note or "", st.wrap)
        ws.set_row(row, 15 * text_lines(q.source or "", q.note or ""))
        if name:
            define(name, row, 1)

    def head(row: int, *cols: str) -> None:
        for c, text in enumerate(cols):
            ws.write_string(row, c, text, st.header)

    # ---- model
    r += 1
    ws.write_string(r, 0, "Model", st.h1)
    r += 1
    texts = (
        ("name", a.name, "model_name"),
        ("currency", a.currency, "model_currency"),
        ("terminal_value (book | none)", a.terminal_value, "terminal_value"),
        ("facility.mode (build | colocation)", a.facility.mode, "facility_mode"),
        ("revenue.mode (rental | avoided_cloud)", a.revenue.mode, "revenue_mode"),
        ("revenue.cloud_term (on_demand | reserved)", a.revenue.cloud_term, "revenue_cloud_term"),
    )
    for label, value, defined in texts:
        ws.write_string(r, 0, label, st.label)
        ws.write_string(r, 1, value, st.cell("text", BLUE))
        define(defined, r, 1)
        r += 1
    ws.write_string(r, 0, "start (first operating month)", st.label)
    y, mth = (int(x) for x in a.start.split("-"))
    ws.write_datetime(r, 1, datetime(y, mth, 1), st.cell("date", BLUE))
    ws.write_string(r, 2, "month", st.unit)
    define("start", r, 1)
    r += 1
    ws.write_string(r, 0, "horizon_years", st.label)
    ws.write_number(r, 1, a.horizon_years, st.cell("count", BLUE))
    ws.write_string(r, 2, "years", st.unit)
    define("horizon_years", r, 1)
    r += 1
    ws.write_string(r, 0, "months in the horizon (M)", st.label)
    ws.write_formula(r, 1, "=horizon_years*12", st.cell("count", BLACK), 12 * a.horizon_years)
    ws.write_string(r, 2, "months", st.unit)
    define("model_months", r, 1)
    r += 1
    ws.write_string(r, 0, "hours per month (8760 / 12; constant)", st.label)
    ws.write_number(r, 1, 730, st.cell("count", BLACK))
    ws.write_string(r, 2, "h", st.unit)
    define("hours_per_month", r, 1)
    r += 2

    # ---- scalar inputs
    ws.write_string(r, 0, "Scalar inputs", st.h1)
    r += 1
    head(r, "input", "value", "unit", "low", "high", "source", "note")
    r += 1
    for section, key in SCALARS:
        q = getattr(getattr(a, section), key)
        quantity_row(r, f"{section}.{key}", q, kind_for(key), name_for(f"{section}.{key}"))
        r += 1
    r += 1

    # ---- tables with sources below each
    sources: list[tuple[str, Quantity, str]] = []  # (path, quantity, cell holding its value)

    def here(row: int, col: int) -> str:
        return xl_rowcol_to_cell(row, col, row_abs=True, col_abs=True)

    ws.write_string(r, 0, "Cooling types", st.h1)
    r += 1
    head(r, "cooling", *[f for f, _, _ in COOLING_FIELDS])
    r += 1
    cool = list(a.power.pue)
    first = r
    for c in cool:
        ws.write_string(r, 0, c, st.cell("text", BLUE))
        for j, (f, path, _) in enumerate(COOLING_FIELDS):
            table = getattr(a.power if path.startswith("power") else a.facility, f)
            if c in table:
                q = table[c]
                ws.write_number(r, 1 + j, q.value, st.cell("number", BLUE))
                sources.append((f"{path}.{c}", q, here(r, 1 + j)))
        r += 1
    _name_column(wb, "Cool_id", first, r - 1, 0)
    for j, (f, _, _) in enumerate(COOLING_FIELDS):
        _name_column(wb, f"Cool_{f}", first, r - 1, 1 + j)
    r += 1

    ws.write_string(r, 0, "Depreciation by asset class", st.h1)
    r += 1
    head(r, "asset class", "method", "life_years", "salvage")
    r += 1
    for cls in ASSET_CLASSES:
        d = getattr(a.depreciation, cls)
        ws.write_string(r, 0, cls, st.label)
        ws.write_string(r, 1, d.method, st.cell("text", BLUE))
        ws.write_number(r, 2, d.life_years, st.cell("count", BLUE))
        ws.write_number(r, 3, d.salvage.value, st.cell("pct2", BLUE))
        define(f"dep_{cls}_method", r, 1)
        define(f"dep_{cls}_life", r, 2)
        define(f"dep_{cls}_salvage", r, 3)
        sources.append((f"depreciation.{cls}.salvage", d.salvage, here(r, 3)))
        r += 1
    r += 1

    ws.write_string(r, 0, "Server catalogue (price and power per whole server)", st.h1)
    r += 1
    head(r, "server", *SERVER_FIELDS, *CLOUD_FIELDS, "label")
    r += 1
    first = r
    for sid, s in a.servers.items():
        ws.write_string(r, 0, sid, st.cell("text", BLUE))
        for j, f in enumerate(SERVER_FIELDS):
            v = getattr(s, f)
            q = _q(v)
            ws.write_number(r, 1 + j, q.value if q else v, st.cell(kind_for(f), BLUE))
            if q:
                sources.append((f"servers.{sid}.{f}", q, here(r, 1 + j)))
        for j, f in enumerate(CLOUD_FIELDS, start=1 + len(SERVER_FIELDS)):
            q = getattr(s, f)
            if q is not None:
                ws.write_number(r, j, q.value, st.cell("number", BLUE))
                sources.append((f"servers.{sid}.{f}", q, here(r, j)))
        ws.write_string(r, 1 + len(SERVER_FIELDS) + len(CLOUD_FIELDS), s.label, st.text)
        r += 1
    _name_column(wb, "Srv_id", first, r - 1, 0)
    for j, f in enumerate((*SERVER_FIELDS, *CLOUD_FIELDS)):
        _name_column(wb, f"Srv_{f}", first, r - 1, 1 + j)
    r += 1

    # ---- tiers
    ws.write_string(r, 0, "Tiers (one column per tier; black = linked to the global input)", st.h1)
    r += 1
    ws.write_string(r, 0, "tier", st.header)
    ws.write_string(r, 1, "unit", st.header)
    for j, t in enumerate(tiers):
        out.tier_columns[t] = 2 + j
        ws.write_string(r, 2 + j, t, st.header)
        ws.set_column(2 + j, 2 + j, 16)
    r += 1

    def tier_row(
        key: str,
        label: str,
        unit: str,
        cells: list[tuple[str, Any, str]],
        quantities: list[Quantity | None] | None = None,
    ) -> None:
        """One row of the tier table; a tier's own ``quantities`` (its inputs, not
        links to global ones) are listed with their sources below."""
        nonlocal r
        ws.write_string(r, 0, label, st.label)
        ws.write_string(r, 1, unit, st.unit)
        for j, (t, (how, value, kind)) in enumerate(zip(tiers, cells, strict=True)):
            c = out.tier_columns[t]
            if quantities is not None and quantities[j] is not None:
                sources.append((f"tiers.{t}.{key}", quantities[j], here(r, c)))
            if how == "text":
                ws.write_string(r, c, value, st.cell("text", BLUE))
            elif how == "input":
                ws.write_number(r, c, value, st.cell(kind, BLUE))
            else:  # a formula: a link to a named global input, or a lookup
                ws.write_formula(r, c, f"={how}", st.cell(kind, BLACK), value)
            out.tier_cells[(t, key)] = f"{SHEET}!{here(r, c)}"
        r += 1

    T = {t: a.tiers[t] for t in tiers}
    tier_row("label", "label", "", [("text", T[t].label or t, "") for t in tiers])
    tier_row("server", "server (catalogue id)", "", [("text", T[t].server, "") for t in tiers])
    tier_row("cooling", "cooling", "", [("text", T[t].cooling, "") for t in tiers])
    for key, label, unit in TIER_FIELDS:
        values = [_dotted_attr(T[t], key) for t in tiers]
        kind = kind_for(key) if key != "gpus" else "count"
        cells = [("input", _q(v).value if _q(v) else v, kind) for v in values]
        tier_row(key, label, unit, cells, [_q(v) for v in values])
    for section, keys in _OVERRIDABLE.items():
        glob = getattr(a, section)
        for key in keys:
            own = [_dotted_attr(T[t], f"{section}.{key}") for t in tiers]
            global_link = (name_for(f"{section}.{key}"), getattr(glob, key).value, kind_for(key))
            cells = [("input", q.value, kind_for(key)) if q else global_link for q in own]
            unit = getattr(glob, key).unit or ""
            tier_row(f"{section}.{key}", f"{section}.{key}", unit, cells, own)
    for key, default_name in (("mode", "revenue_mode"), ("cloud_term", "revenue_cloud_term")):
        cells = []
        for t in tiers:
            own = T[t].revenue
            mine = getattr(own, key) if own is not None else None
            value = mine or getattr(a.revenue, key)
            cells.append(("text", mine, "") if mine else (default_name, value, "text"))
        tier_row(f"revenue.{key}", f"revenue.{key}", "", cells)
    cells = []
    for t in tiers:
        mode_c = out.tier_cells[(t, "revenue.mode")]
        term_c = out.tier_cells[(t, "revenue.cloud_term")]
        server_c = out.tier_cells[(t, "server")]
        rental_c = out.tier_cells[(t, "revenue.price_per_gpu_hour")]
        cloud = {
            term: f"INDEX(Srv_cloud_{term}_per_gpu_hour,MATCH({server_c},Srv_id,0))"
            for term in ("on_demand", "reserved")
        }
        formula = (
            f'IF({mode_c}="avoided_cloud",IF({term_c}="reserved",{cloud["reserved"]},'
            f"{cloud['on_demand']}),{rental_c})"
        )
        cells.append((formula, value_of_gpu_hour[t], "money2"))
    tier_row(
        "gpu_hour_value",
        "value of a GPU-hour used (rental price, or cloud price if revenue.mode = avoided_cloud)",
        "per GPU-hour",
        cells,
    )
    for field_name, label in (
        ("network.fabric", "network fabric"),
        ("storage.kind", "storage"),
        ("scheduler", "scheduler"),
        ("description", "description"),
    ):
        tier_row(
            field_name,
            label,
            "",
            [("text", str(_dotted_attr(T[t], field_name)), "") for t in tiers],
        )
    r += 1

    # ---- lists used by lookups
    ws.write_string(r, 0, "Lists", st.h1)
    r += 1
    ws.write_string(r, 0, "depreciation methods (CHOOSE index 1, 2, 3)", st.header)
    r += 1
    first = r
    for m in DEPRECIATION_METHODS:
        ws.write_string(r, 0, m, st.text)
        r += 1
    _name_column(wb, "Dep_methods", first, r - 1, 0)
    ws.write_string(r, 0, "scale class (from this many GPUs)", st.header)
    r += 1
    first = r
    for lo, name in SCALE_CLASSES:
        ws.write_number(r, 0, lo, st.cell("count", BLACK))
        ws.write_string(r, 1, name, st.text)
        r += 1
    _name_column(wb, "Scale_min_gpus", first, r - 1, 0)
    _name_column(wb, "Scale_class", first, r - 1, 1)
    r += 1

    # ---- sources of table inputs
    ws.write_string(r, 0, "Sources of the table inputs above", st.h1)
    r += 1
    head(r, "input", "value", "unit", "low", "high", "source", "note")
    r += 1
    for path, q, cell in sources:
        ws.write_string(r, 0, path, st.label)
        ws.write_formula(r, 1, f"={cell}", st.cell(kind_for(path), BLACK), q.value)
        ws.write_string(r, 2, q.unit or "", st.unit)
        if q.low is not None:
            ws.write_number(r, 3, q.low, st.cell(kind_for(path), BLACK))
        if q.high is not None:
            ws.write_number(r, 4, q.high, st.cell(kind_for(path), BLACK))
        ws.write_string(r, 5, q.source or "", st.wrap)
        ws.write_string(r, 6, q.note or "", st.wrap)
        ws.set_row(r, 15 * text_lines(q.source or "", q.note or ""))
        r += 1
    ws.set_landscape()
    ws.set_paper(9)
    ws.fit_to_pages(1, 0)
    ws.repeat_rows(0, 1)
    return out


def _name_column(wb: Workbook, name: str, first: int, last: int, col: int) -> None:
    a = xl_rowcol_to_cell(first, col, row_abs=True, col_abs=True)
    b = xl_rowcol_to_cell(last, col, row_abs=True, col_abs=True)
    wb.define_name(name, f"={SHEET}!{a}:{b}")

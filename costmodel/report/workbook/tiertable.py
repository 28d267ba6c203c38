"""The tier table of the Inputs sheet: one column per tier, one row per tier input.

A tier that does not override a global input links to it (black); its own inputs
are blue with data validation. The first row is the tier's label built by formula
from the live GPU count and server id, so it cannot go stale."""

from __future__ import annotations

from typing import Any

from costmodel.core.units import scale_class
from costmodel.inputs.designs import design_is_auto, tier_design_parts
from costmodel.inputs.params import CONTRACT_KEYS
from costmodel.inputs.schema import Assumptions
from costmodel.inputs.sites import site_name
from costmodel.inputs.vocabulary import input_label, input_unit
from costmodel.report.workbook.designtable import design_formula, lookup, taken_values
from costmodel.report.workbook.grid import BLACK
from costmodel.report.workbook.inputsmap import (
    SHEET,
    TIER_FIELDS,
    TIER_OVERRIDES,
    InputsMap,
    Sheet,
    dotted_attr,
    here,
    kind_for,
    quantity,
)
from costmodel.report.workbook.validation import gpus_rule, validate

#: how a cell is written: ("text" | "input" | a formula without "=", value, number format)
Cell = tuple[str, Any, str]
#: the ways of writing a typed (blue) cell; any other is a formula
TYPED = ("text", "input")


def write_tier_table(
    s: Sheet, tiers: list[str], value_of_gpu_hour: dict[str, float], out: InputsMap
) -> None:
    ws, st, a = s.ws, s.st, s.a
    s.section("Tiers (one column per tier; black = linked to the global input)")
    ws.write_string(s.row, 0, "tier", st.header)
    ws.write_string(s.row, 1, "unit", st.header)
    path_col = 2 + len(tiers)
    for j, t in enumerate(tiers):
        out.tier_columns[t] = 2 + j
        ws.write_string(s.row, 2 + j, t, st.header)
        ws.set_column(2 + j, 2 + j, 18)
    ws.write_string(s.row, path_col, "path", st.header)
    s.row += 1
    T = {t: a.tiers[t] for t in tiers}
    rows = TierRows(s, tiers, out, path_col)
    label_row = s.row  # the live label, written once the GPUs and server rows exist
    s.row += 1
    designed = [t for t in tiers if T[t].design is not None]
    if designed:  # the design taken, written once the GPUs row exists
        design_row = s.row
        s.row += 1
        for t in designed:
            out.tier_cells[(t, "design")] = f"{SHEET}!{here(design_row, out.tier_columns[t])}"
    by_design = FromDesign(a, tiers, out)
    rows.add("label", [("text", T[t].label or t, "") for t in tiers])
    rows.add("server", [("text", T[t].server, "") for t in tiers])
    rows.add("cooling", by_design.cells("cooling", [("text", T[t].cooling, "") for t in tiers]))
    if a.sites:  # methodology §29: a live choice among the Sites block's names
        rows.add("site", [("text", site_name(a, t) or "", "") for t in tiers])
    for key in _tier_fields(T):
        values = [dotted_attr(T[t], key) for t in tiers]
        counts = ("gpus", "network.design.switch_radix", "storage.min_nodes")
        kind = "count" if key in counts else kind_for(key)
        cells = by_design.cells(key, [_typed(v, kind) for v in values])
        own = [quantity(v) if v is not None else None for v in values]
        rows.add(key, cells, by_design.own(key, own))
    for section, keys in TIER_OVERRIDES.items():
        glob = getattr(a, section)
        for key in keys:
            own = [dotted_attr(T[t], f"{section}.{key}") for t in tiers]
            g = getattr(glob, key)
            link = (key_name(section, key), g.value, kind_for(key))
            cells = [("input", q.value, kind_for(key)) if q else link for q in own]
            path = f"{section}.{key}"
            rows.add(path, by_design.cells(path, cells), by_design.own(path, own), g.unit)
    if designed:
        _design_row(s, designed, out, design_row, path_col)
    _contract_rows(rows, a, tiers)
    for key, default_name in (("mode", "revenue_mode"), ("cloud_term", "revenue_cloud_term")):
        cells = []
        for t in tiers:
            mine = getattr(T[t].revenue, key) if T[t].revenue is not None else None
            value = mine or getattr(a.revenue, key)
            cells.append(("text", mine, "") if mine else (default_name, value, "text"))
        rows.add(f"revenue.{key}", cells)
    rows.add(
        "gpu_hour_value",
        [(_value_formula(out, t), value_of_gpu_hour[t], "money2") for t in tiers],
        is_input=False,
    )
    for key in ("network.fabric", "storage.kind", "scheduler", "description"):
        rows.add(key, [("text", str(dotted_attr(T[t], key)), "") for t in tiers])
    _live_label(s, tiers, out, label_row, path_col)


class FromDesign:
    """The cells of the tier table a designed tier takes from its design: a lookup
    in the designs table by the tier's design taken (black), in place of a value."""

    def __init__(self, a: Assumptions, tiers: list[str], out: InputsMap):
        self.tiers, self.out = tiers, out
        self.taken = {t: taken_values(tier_design_parts(a, t)) for t in tiers}

    def cells(self, key: str, cells: list[Cell]) -> list[Cell]:
        out = []
        for t, (how, value, kind) in zip(self.tiers, cells, strict=True):
            path = self.taken[t].get(key)
            if path is None:
                out.append((how, value, kind))
                continue
            design = self.out.tier_cells[(t, "design")].split("!")[1]
            out.append((lookup(path, design), "" if value is None else value, kind or "text"))
        return out

    def own(self, key: str, quantities: list) -> list:
        """The tier's own quantities (sources listed): none where it takes the design's."""
        pairs = zip(self.tiers, quantities, strict=True)
        return [None if key in self.taken[t] else q for t, q in pairs]


def _design_row(s: Sheet, designed: list[str], out: InputsMap, r: int, path_col: int) -> None:
    """Row ``r``: the design each designed tier takes (methodology §28.1): under
    ``design: auto`` the scale class of its final GPUs, live; a named design as
    written."""
    ws, st, a = s.ws, s.st, s.a
    ws.write_string(r, 0, "Design taken (auto: the scale class of the final GPUs)", st.label)
    ws.write_string(r, 1, "design", st.unit)
    ws.write_string(r, path_col, "tiers.<tier>.design", st.path)
    for t in designed:
        c = out.tier_columns[t]
        key = a.tiers[t].design
        if design_is_auto(a, t):
            gpus = out.tier_cells[(t, "gpus")].split("!")[1]
            ws.write_formula(r, c, f"={design_formula(gpus, t)}", st.cell("text", BLACK), key)
        else:
            ws.write_string(r, c, key, st.text)


def _contract_rows(rows: TierRows, a: Assumptions, tiers: list[str]) -> None:
    """The contract of each tier (methodology §11.5): its own key (blue), else a link
    to the global ``revenue.contract`` (black), else 0 (no contract; type a share,
    price and months to sell under contract)."""
    glob = a.revenue.contract
    for key in CONTRACT_KEYS:
        cells: list[Cell] = []
        own = []
        for t in tiers:
            mine = a.tiers[t].revenue.contract if a.tiers[t].revenue is not None else None
            q = getattr(mine, key) if mine is not None else None
            g = getattr(glob, key) if glob is not None else None
            kind = kind_for(f"contract.{key}")
            if q is not None:
                cells.append(("input", q.value, kind))
            elif g is not None:
                cells.append((f"revenue_contract_{key}", g.value, kind))
            else:
                cells.append(("input", 0.0, kind))
            own.append(q)
        rows.add(f"revenue.contract.{key}", cells, own)


def _live_label(s: Sheet, tiers: list[str], out: InputsMap, r: int, path_col: int) -> None:
    """Row ``r``: "Hundreds (128x H800)" from the live GPU count and server id."""
    ws, st, a = s.ws, s.st, s.a
    ws.write_string(r, 0, input_label("live_label"), st.label)
    ws.write_string(r, 1, "text", st.unit)
    ws.write_string(r, path_col, "(formula)", st.path)
    for t in tiers:
        gpus = out.tier_cells[(t, "gpus")].split("!")[1]
        server = out.tier_cells[(t, "server")].split("!")[1]
        formula = (
            f'=PROPER(LOOKUP({gpus},Scale_min_gpus,Scale_class))&" ("&{gpus}&"x "'
            f'&UPPER({server})&")"'
        )
        tier = a.tiers[t]
        value = f"{scale_class(tier.gpus).capitalize()} ({tier.gpus}x {tier.server.upper()})"
        ws.write_formula(r, out.tier_columns[t], formula, st.cell("text", BLACK), value)


def key_name(section: str, key: str) -> str:
    return f"{section}_{key}"


def _value_formula(out: InputsMap, t: str) -> str:
    """The value of a GPU-hour: the rental price, or the avoided cloud price."""
    c = {
        k: out.tier_cells[(t, k)]
        for k in ("revenue.mode", "revenue.cloud_term", "server", "revenue.price_per_gpu_hour")
    }
    cloud = {
        term: f"SUMIFS(Srv_cloud_{term}_per_gpu_hour,Srv_id,{c['server']})"
        for term in ("on_demand", "reserved")
    }
    return (
        f'IF({c["revenue.mode"]}="avoided_cloud",IF({c["revenue.cloud_term"]}="reserved",'
        f"{cloud['reserved']},{cloud['on_demand']}),{c['revenue.price_per_gpu_hour']})"
    )


#: the inputs of a designed fabric and of staff_scaling (methodology §12)
DESIGN_FIELDS = tuple(
    f"network.design.{k}"
    for k in (
        "switch_radix",
        "switch_price",
        "optic_price",
        "oversubscription",
        "per_server",
        "rail_optimized",
    )
)
SCALING_FIELDS = ("staff_scaling.fixed_fte", "staff_scaling.fte_per_server")
#: the inputs of storage sized in nodes (methodology §28.2)
NODE_FIELDS = (
    *(f"storage.node.{k}" for k in ("capacity_tb", "write_gbps", "read_gbps", "price")),
    *(
        f"storage.{k}"
        for k in (
            "min_nodes",
            "min_capacity_tb",
            "capacity_tb_per_gpu",
            "write_gbps_per_gpu",
            "read_gbps_per_gpu",
            "capacity_price_per_tb",
        )
    ),
)


def _tier_fields(T: dict[str, Any]) -> tuple[str, ...]:
    """The tier table's numeric rows: the design and staff_scaling rows only when a
    tier gives them."""
    out = TIER_FIELDS
    if any(t.network.design is not None for t in T.values()):
        out += DESIGN_FIELDS
    if any(t.staff_scaling is not None for t in T.values()):
        out += SCALING_FIELDS
    if any(t.storage.node is not None for t in T.values()):
        out += NODE_FIELDS
    return out


def _typed(v: Any, kind: str) -> Cell:
    """A typed cell of the tier table; an input the tier does not give is empty text."""
    if v is None:
        return ("text", "", "")
    return ("input", quantity(v).value if quantity(v) else float(v), kind)


class TierRows:
    """Writes rows of the tier table and records where each tier's input landed."""

    def __init__(self, s: Sheet, tiers: list[str], out: InputsMap, path_col: int):
        self.s, self.tiers, self.out, self.path_col = s, tiers, out, path_col

    def add(
        self,
        key: str,
        cells: list[Cell],
        quantities: list | None = None,
        unit: str | None = None,
        is_input: bool = True,
    ) -> int:
        """One row; a tier's own ``quantities`` (not links) are listed with their
        sources at the bottom of the sheet. Each cell of an ``is_input`` row, a
        link to the global input included, is recorded as the input
        ``tiers.<tier>.<key>``."""
        s, ws, st = self.s, self.s.ws, self.s.st
        r = s.row
        ws.write_string(r, 0, input_label(key), st.label)
        ws.write_string(r, 1, input_unit(key, s.cur, unit), st.unit)
        ws.write_string(r, self.path_col, f"tiers.<tier>.{key}", st.path)
        for j, (t, (how, value, kind)) in enumerate(zip(self.tiers, cells, strict=True)):
            c = self.out.tier_columns[t]
            if quantities is not None and quantities[j] is not None:
                s.sources.append((f"tiers.{t}.{key}", quantities[j], here(r, c)))
            if how == "text":
                ws.write_string(r, c, value, st.input("text"))
                validate(ws, r, c, key)
            elif how == "input":
                ws.write_number(r, c, value, st.input(kind))
                self._validate_number(key, r, c)
            else:  # a formula: a link to a named global input, or a lookup
                ws.write_formula(r, c, f"={how}", st.cell(kind, BLACK), value)
            if is_input:
                s.input_at(("tiers", t, *key.split(".")), r, c, value, how not in TYPED)
            self.out.tier_cells[(t, key)] = f"{SHEET}!{here(r, c)}"
        s.row += 1
        return r

    def _validate_number(self, key: str, r: int, c: int) -> None:
        from xlsxwriter.utility import xl_rowcol_to_cell

        ws = self.s.ws
        if key == "gpus":
            t = self.tiers[c - 2]
            server = self.out.tier_cells[(t, "server")].split("!")[1]
            validate(ws, r, c, key, gpus_rule(xl_rowcol_to_cell(r, c), server))
        else:
            validate(ws, r, c, key)


STAGE_FIELDS = ("month", "gpus", "capacity_tb", "staff_fte")
#: short headers of the Stages table (the labels of labels.py are on the tier sheets)
STAGE_HEADS = ("capex month", "GPUs added", "storage added", "staff from in service")


def write_stages(s: Sheet, tiers: list[str], out: InputsMap) -> None:
    """Methodology §8.1: one row per later deployment of a tier (month, GPUs, storage, staff).
    A stage without its own staff links to the headcount before it (black). The
    month must be whole, after the tier's construction and within the horizon; the
    GPUs a whole multiple of the server's GPUs per server."""
    from xlsxwriter.utility import xl_rowcol_to_cell

    ws, st, a = s.ws, s.st, s.a
    s.section("Stages: later deployments of a tier (methodology §8.1; none = one deployment)")
    s.head("tier", "stage", *STAGE_HEADS, "path")
    ws.write_string(s.row, 0, "unit", st.unit)
    for j, f in enumerate(STAGE_FIELDS):
        ws.write_string(s.row, 2 + j, input_unit(f"stages.{f}", s.cur), st.unit)
    s.row += 1
    first = s.row
    for t in tiers:
        before = out.tier_cells[(t, "staff_fte")].split("!")[1]
        build = out.tier_cells[(t, "timeline.build_months")].split("!")[1]
        server = out.tier_cells[(t, "server")].split("!")[1]
        fte = a.tiers[t].staff_fte
        scaled = fte is None  # staff_scaling: the headcount follows the servers (§12.2)
        staff = 0.0 if scaled else (fte.value if quantity(fte) else float(fte))
        nodes = a.tiers[t].storage.node is not None  # storage follows the GPUs (§28.2)
        for i, stage in enumerate(a.tiers[t].stages):
            r = s.row
            ws.write_string(r, 0, t, st.label)
            ws.write_number(r, 1, i + 1, st.cell("count", BLACK))
            ws.write_string(r, 6, f"tiers.{t}.stages.{i}", st.path)
            for j, f in enumerate(STAGE_FIELDS):
                c, v = 2 + j, getattr(stage, f)
                cell = xl_rowcol_to_cell(r, c)
                keys = ("tiers", t, "stages", str(i), f)
                if f == "staff_fte" and scaled:
                    ws.write_string(r, c, "staff_scaling", st.unit)
                elif f == "capacity_tb" and nodes:
                    ws.write_string(r, c, "storage nodes", st.unit)
                elif f == "staff_fte" and v is None:
                    ws.write_formula(r, c, f"={before}", st.cell("number", BLACK), staff)
                    s.input_at(keys, r, c, staff, link=True)
                else:
                    q = quantity(v)
                    value = q.value if q else float(v)
                    staff = value if f == "staff_fte" else staff
                    kind = "number" if f == "capacity_tb" else "count"
                    ws.write_number(r, c, value, st.input(kind))
                    if q:
                        s.sources.append((f"tiers.{t}.stages.{i}.{f}", q, here(r, c)))
                    validate(ws, r, c, f"stages.{f}", _stage_rule(f, cell, build, server))
                    s.input_at(keys, r, c, value)
                out.tier_cells[(t, f"stages.{i}.{f}")] = f"{SHEET}!{here(r, c)}"
            before = here(r, 5)
            s.row += 1
    # the stages' GPUs by tier, for the design taken (one blank row inside the range)
    s.name_column("Stage_tier", first, s.row, 0)
    s.name_column("Stage_gpus", first, s.row, 3)
    s.row += 1


def _stage_rule(field: str, cell: str, build: str, server: str) -> dict[str, Any] | None:
    """The month after the construction and before the horizon's end; GPUs a
    multiple of the server's; others non-negative (the default rule)."""
    if field == "month":
        return {
            "validate": "custom",
            "value": f"=AND(INT({cell})={cell},{cell}>{build},{cell}<model_months)",
            "input_message": "Whole month after the construction ends, before the horizon's end.",
        }
    if field == "gpus":
        return gpus_rule(cell, server)
    return None

"""The designs table of the Inputs sheet (methodology §28.1): one column per scale
class, one row per value a design sets, each a blue input; and the lookups through
which a designed tier's column of the tier table takes those values.

A tier with ``design: auto`` takes the design of the scale class of its final GPUs:
its "design taken" cell is ``LOOKUP(GPUs + stage GPUs, Scale_min_gpus,
Scale_class)``, and every value it takes from its design (storage, cooling and so
PUE, build cost and rent, rack power, staff, MFU, the network's values) is
``INDEX(Design_<value>, 1, MATCH(design taken, Design_key, 0))``. An investor who
edits the GPUs across a class boundary therefore sees the design switch after a
recalculation. A value a design does not give (no capacity tier, a share where
another design has a fabric) is an empty cell; the lookup passes it on as empty
text, never as 0. The form of the build (a network share or a designed fabric)
is fixed when the workbook is written: a Checks row fails when the design taken
gives the other form.
"""

from __future__ import annotations

from typing import Any

from costmodel.inputs.vocabulary import input_label, input_unit
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.inputsmap import Sheet, dotted_attr, here, kind_for, quantity
from costmodel.report.workbook.tiercontext import Tier
from costmodel.report.workbook.validation import validate

#: the values of a design on the Inputs sheet (dotted path in the design), with the
#: part of the tier (``costmodel.inputs.designs.PARTS``) each belongs to
DESIGN_VALUES: tuple[tuple[str, str], ...] = (
    ("max_gpus", ""),
    ("cooling", "cooling"),
    ("rack_kw", "rack_kw"),
    ("staff_scaling.fixed_fte", "staff"),
    ("staff_scaling.fte_per_server", "staff"),
    ("mfu", "mfu"),
    ("network.share", "network"),
    ("network.design.switch_radix", "network"),
    ("network.design.switch_price", "network"),
    ("network.design.optic_price", "network"),
    ("network.design.oversubscription", "network"),
    ("network.design.per_server", "network"),
    ("network.design.rail_optimized", "network"),
    ("storage.node.capacity_tb", "storage"),
    ("storage.node.write_gbps", "storage"),
    ("storage.node.read_gbps", "storage"),
    ("storage.node.price", "storage"),
    ("storage.min_nodes", "storage"),
    ("storage.min_capacity_tb", "storage"),
    ("storage.capacity_tb_per_gpu", "storage"),
    ("storage.write_gbps_per_gpu", "storage"),
    ("storage.read_gbps_per_gpu", "storage"),
    ("storage.capacity_price_per_tb", "storage"),
)
#: labels of the values the input vocabulary does not name
OWN_LABELS = {
    "max_gpus": ("Design: largest cluster it holds", "GPUs"),
}
#: the tier table's key of a design value (the tier's MFU is reliability.mfu)
TIER_KEY = {"mfu": "reliability.mfu"}


def design_value_name(path: str) -> str:
    """The defined name of a design value's row: ``Design_storage_node_price``."""
    return "Design_" + path.replace(".", "_")


def _value(design: Any, path: str) -> Any:
    """A design's value at ``path`` as the Inputs sheet writes it: a number, text,
    1/0 for the rail flag, None where the design does not give it."""
    v = dotted_attr(design, path)
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    q = quantity(v)
    return q.value if q is not None else v


def write_design_table(s: Sheet) -> None:
    """The designs section: a header row of the design keys (``Design_key``) and one
    row per :data:`DESIGN_VALUES` (``Design_<value>``), each design's value a blue
    input recorded as ``designs.<key>.<path>``."""
    a, ws, st = s.a, s.ws, s.st
    if not a.designs:
        return
    keys = list(a.designs)
    s.section("Designs by scale class (methodology §28; a designed tier looks its values up here)")
    ws.write_string(s.row, 0, "design", st.header)
    ws.write_string(s.row, 1, "unit", st.header)
    for j, key in enumerate(keys):
        ws.write_string(s.row, 2 + j, key, st.header)
    # one empty column inside each named range: a single design is still a range
    last = 2 + len(keys)
    s.wb.define_name("Design_key", f"=Inputs!{here(s.row, 2)}:{here(s.row, last)}")
    s.row += 1
    for path, _ in DESIGN_VALUES:
        label, unit = OWN_LABELS.get(path, (input_label(path), input_unit(path, s.cur)))
        ws.write_string(s.row, 0, label, st.label)
        ws.write_string(s.row, 1, unit, st.unit)
        kind = "text" if path == "cooling" else _kind(path)
        for j, key in enumerate(keys):
            v = _value(a.designs[key], path)
            if v is None:
                continue
            c = 2 + j
            if kind == "text":
                ws.write_string(s.row, c, str(v), st.input("text"))
            else:
                ws.write_number(s.row, c, float(v), st.input(kind))
            validate(ws, s.row, c, path, _rule(path))
            s.input_at(("designs", key, *path.split(".")), s.row, c, v)
            q = quantity(dotted_attr(a.designs[key], path))
            if q is not None:
                s.sources.append((f"designs.{key}.{path}", q, here(s.row, c)))
        name = design_value_name(path)
        s.wb.define_name(name, f"=Inputs!{here(s.row, 2)}:{here(s.row, last)}")
        s.row += 1


def _kind(path: str) -> str:
    if path in ("max_gpus", "storage.min_nodes", "network.design.switch_radix"):
        return "count"
    if path == "network.design.rail_optimized":
        return "count"
    return kind_for(path)


def _rule(path: str) -> dict[str, Any] | None:
    if path == "network.design.rail_optimized":
        return {
            "validate": "list",
            "source": [0, 1],
            "input_message": "1: one leaf per rail per k/2 servers; 0: leaves from the endpoints.",
        }
    if path == "cooling":
        return {
            "validate": "list",
            "source": "=Cool_list",
            "input_message": "A cooling type of the cooling table.",
        }
    return None


def lookup(path: str, design_cell: str) -> str:
    """The formula (without ``=``) of the design's value at ``path`` for a tier whose
    design taken is in ``design_cell``: the value, or empty text where the design
    gives none."""
    v = f"INDEX({design_value_name(path)},1,MATCH({design_cell},Design_key,0))"
    if path == "cooling":
        return v
    return f'IF(ISNUMBER({v}),{v},"")'


def design_formula(gpus_cell: str, tier: str) -> str:
    """The design taken under ``design: auto``: the scale class of the tier's GPUs
    and its stages' GPUs (``Stage_tier``, ``Stage_gpus`` of the stages table)."""
    final = f'{gpus_cell}+SUMIFS(Stage_gpus,Stage_tier,"{tier}")'
    return f"LOOKUP({final},Scale_min_gpus,Scale_class)"


def design_inputs(x: Tier) -> None:
    """On a designed tier's sheet: the design taken (a link to Inputs) and the
    largest cluster it holds, for the Checks sheet."""
    cell = x.inputs.tier_cells.get((x.tier, "design"))
    key = x.t.design
    if cell is None or key is None:
        return
    top = _value(x.a.designs[key], "max_gpus")
    x.cs.const("design", "design taken", "design", f"={cell}", key, "text", GREEN)
    x.cs.const(
        "design_max_gpus",
        "largest cluster of the design taken",
        "GPUs",
        "=INDEX(Design_max_gpus,1,MATCH({$design},Design_key,0))",
        float(top),
        "count",
    )


def form_paths(parts: frozenset[str], fabric: bool) -> tuple[str, ...]:
    """The design values whose presence the sheet's form needs: the network's share
    or switch radix, and a storage node's price, for the parts taken from the design."""
    out = ()
    if "network" in parts:
        out += ("network.design.switch_radix" if fabric else "network.share",)
    if "storage" in parts:
        out += ("storage.node.price",)
    return out


def taken_values(parts: frozenset[str]) -> dict[str, str]:
    """The tier table's keys of the values a tier takes from its design (its
    ``parts``), each with its path in the design."""
    return {TIER_KEY.get(path, path): path for path, part in DESIGN_VALUES if part in parts}

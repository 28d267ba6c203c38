"""Staff: the FTE staffing each deployment times the cost per FTE and its yearly
index (methodology §3.2, §12.2)."""

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.item import Formula, Index, InputSpec, LineItem, Text

ITEM = LineItem(
    key="staff",
    kind="opex",
    label=Text("Staff", "人员"),
    noun=Text("staff", "人员"),
    colour="#2f5d8a",
    sheet_label="opex: staff",
    rule=Text(
        "staff = FTE × cost per FTE, escalating",
        "人员 = 人数 × 人均成本，逐年上涨",
    ),
    inputs=(
        InputSpec(
            "staff_cost_per_fte",
            "operations.staff_cost_per_fte",
            Text("Staff cost per FTE-year", "人均年成本"),
            "{cur}/FTE-year",
            "money",
            (20_000, 3_000_000),
        ),
        InputSpec(
            "staff_escalation",
            "operations.staff_escalation",
            Text("Staff cost growth a year", "人员成本年涨幅"),
            "1/yr",
            "pct",
        ),
    ),
    formula=Formula(
        Ref("fte") * Ref("staff_cost_per_fte") * Ref("staff_index") / Num(12),
        ("fte",),
        "staff = FTE x cost per FTE x index / 12",
        Index("staff_index", "staff_escalation", "staff cost index (1+escalation)^(year-1)"),
    ),
)

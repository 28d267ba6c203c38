"""Maintenance: a yearly rate on the hardware in service (methodology §3.2)."""

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.item import Formula, InputSpec, LineItem, Text

ITEM = LineItem(
    key="maintenance",
    kind="opex",
    margin=True,
    label=Text("Maintenance", "维保"),
    noun=Text("maintenance", "维保"),
    colour="#c4554d",
    sheet_label="opex: maintenance",
    rule=Text(
        "maintenance as a rate on hardware",
        "维保按硬件投资的比例计算",
    ),
    vat_label="维保",
    inputs=(
        InputSpec(
            "maintenance_rate",
            "operations.maintenance_rate",
            Text("Maintenance, share of hardware a year", "年维保费率"),
            "fraction of hardware capex/yr",
            "pct",
        ),
    ),
    formula=Formula(
        Ref("maintenance_rate") * Ref("hw_on") / Num(12),
        ("hw_on",),
        "maintenance = rate x hardware in service / 12",
    ),
)

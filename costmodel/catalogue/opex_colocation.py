"""Colocation: the rent per kW-month of the IT kW in service, when the tier rents
its hall (methodology §3.2, §28.3)."""

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.item import Formula, InputSpec, LineItem, Text

ITEM = LineItem(
    key="colocation",
    kind="opex",
    margin=True,
    label=Text("Colocation", "托管费"),
    noun=Text("colocation", "托管费"),
    colour="#8c8c8c",
    sheet_label="opex: colocation",
    rule=Text(
        "colocation rent per kW-month when renting",
        "租用托管时按每 kW 每月计托管费",
    ),
    vat_label="托管费",
    inputs=(
        InputSpec(
            "colocation_per_kw_month",
            "facility.colocation_per_kw_month",
            Text("Colocation per kW-month", "托管费（每千瓦每月）"),
            "{cur}/kW-month",
            "money",
            (20, 3_000),
        ),
    ),
    formula=Formula(
        Ref("kw_on") * Ref("colocation_per_kw_month") * (Num(1) - Ref("build_flag")),
        ("kw_on",),
        "colocation = IT kW in service x fee (if colocating)",
    ),
)

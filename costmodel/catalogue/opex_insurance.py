"""Insurance: a yearly rate on the hardware and the facility in service
(methodology §3.2)."""

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.item import Formula, InputSpec, LineItem, Text

ITEM = LineItem(
    key="insurance",
    kind="opex",
    label=Text("Insurance", "保险"),
    noun=Text("insurance", "保险"),
    colour="#6fb0b0",
    sheet_label="opex: insurance",
    rule=Text(
        "insurance as a rate on all capex",
        "保险按全部投资的比例计算",
    ),
    vat_label="保险",
    inputs=(
        InputSpec(
            "insurance_rate",
            "operations.insurance_rate",
            Text("Insurance, share of capex a year", "年保险费率"),
            "fraction of capex/yr",
            "pct",
        ),
    ),
    formula=Formula(
        Ref("insurance_rate") * (Ref("hw_on") + Ref("fac_on")) / Num(12),
        ("hw_on", "fac_on"),
        "insurance = rate x (hardware + facility in service) / 12",
    ),
)

"""Electricity: the kW drawn (idle share of every server in service, the rest by
the load factor) times PUE, hours, the price per kWh and its yearly index
(methodology §3.2, §8.1, §11.5)."""

from costmodel.catalogue.expr import Ref
from costmodel.catalogue.item import Formula, Index, InputSpec, LineItem, Text

ITEM = LineItem(
    key="electricity",
    kind="opex",
    margin=True,
    label=Text("Electricity", "电费"),
    noun=Text("electricity", "电费"),
    colour="#e0b12b",
    sheet_label="opex: electricity",
    rule=Text(
        (
            "electricity = average IT draw (idle share plus the busy shar"
            "e at the utilization) × PUE × hours × power price, escalating yearly"
        ),
        "电费 = 平均 IT 功率（空闲部分加按利用率计的负载部分）× PUE × 小时数 × 电价，逐年上涨",
    ),
    vat_label="电费",
    inputs=(
        InputSpec(
            "price_per_kwh",
            "power.price_per_kwh",
            Text("Electricity price per kWh", "电价（元/千瓦时）"),
            "{cur}/kWh",
            "decimal",
            (0.02, 2),
        ),
        InputSpec(
            "power_escalation",
            "power.escalation",
            Text("Electricity price growth a year", "电价年涨幅"),
            "1/yr",
            "pct",
        ),
    ),
    formula=Formula(
        Ref("kw_drawn")
        * Ref("pue")
        * Ref("hours_per_month")
        * Ref("price_per_kwh")
        * Ref("power_index"),
        ("kw_drawn",),
        "electricity = kW drawn x PUE x hours x price x index",
        Index("power_index", "power_escalation", "electricity price index (1+escalation)^(year-1)"),
    ),
)

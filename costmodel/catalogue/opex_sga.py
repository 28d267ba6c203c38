"""Selling, general and administrative costs: a share of revenue (methodology
§11.4); they carry no input VAT (§24)."""

from costmodel.catalogue.expr import Ref
from costmodel.catalogue.item import Formula, InputSpec, LineItem, Text

ITEM = LineItem(
    key="sga",
    kind="opex",
    label=Text("Selling, general and admin.", "销售及管理费用"),
    noun=Text("selling, general and administrative costs", "销售及管理费用"),
    colour="#b08a5a",
    sheet_label="opex: SG&A",
    rule=Text(
        "selling, general and administrative costs as a share of revenue",
        "销售及管理费用按收入的比例计算",
    ),
    inputs=(
        InputSpec(
            "sga_share",
            "operations.sga_share",
            Text(
                "Selling, general and administrative costs, share of revenue",
                "销售及管理费用占收入比例",
            ),
            "fraction of revenue",
            "pct",
        ),
    ),
    formula=Formula(
        Ref("sga_share") * Ref("revenue"),
        ("revenue",),
        "selling, general and administrative = share x revenue",
    ),
)

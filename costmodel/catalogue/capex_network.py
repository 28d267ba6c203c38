"""Network: the fabric of each deployment, a share of its hardware or a designed
fabric (methodology §8.1, §12), a hardware asset class."""

from costmodel.catalogue.item import InputSpec, LineItem, Text

ITEM = LineItem(
    key="network",
    kind="capex",
    label=Text("Network", "网络"),
    noun=Text("network equipment", "网络设备"),
    colour="#e08e2b",
    sheet_label="capex: network",
    vat_label="网络设备",
    hardware=True,
    inputs=(
        InputSpec(
            "salvage_network",
            "depreciation.network.salvage",
            Text("Network salvage value", "网络残值率"),
            "fraction of cost",
            "pct",
        ),
    ),
)

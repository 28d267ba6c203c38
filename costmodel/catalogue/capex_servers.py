"""Servers: the GPU servers of each deployment, bought at the price of their month
(methodology §8.1), a hardware asset class."""

from costmodel.catalogue.item import InputSpec, LineItem, Text

ITEM = LineItem(
    key="servers",
    kind="capex",
    label=Text("Servers", "服务器"),
    noun=Text("servers", "服务器"),
    colour="#2f5d8a",
    sheet_label="capex: servers",
    vat_label="服务器",
    hardware=True,
    inputs=(
        InputSpec(
            "salvage_servers",
            "depreciation.servers.salvage",
            Text("Server salvage value", "服务器残值率"),
            "fraction of cost",
            "pct",
        ),
    ),
)

"""Storage: bought by capacity, or sized in nodes by capacity and bandwidth
(methodology §8.1, §28.2), a hardware asset class."""

from costmodel.catalogue.item import InputSpec, LineItem, Text

ITEM = LineItem(
    key="storage",
    kind="capex",
    label=Text("Storage", "存储"),
    noun=Text("storage", "存储设备"),
    colour="#5aa36b",
    sheet_label="capex: storage",
    vat_label="存储",
    hardware=True,
    inputs=(
        InputSpec(
            "salvage_storage",
            "depreciation.storage.salvage",
            Text("Storage salvage value", "存储残值率"),
            "fraction of cost",
            "pct",
        ),
    ),
)

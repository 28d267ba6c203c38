"""Facility: the hall built at month 0 and its extensions per deployment (mode
build, methodology §8.1), an asset class that is not hardware."""

from costmodel.catalogue.item import InputSpec, LineItem, Text

#: the facility modes (``facility.mode``, methodology §3.1): build the hall, or rent
#: one, whose rent per kW-month is the colocation line
MODES: tuple[str, ...] = ("build", "colocation")
#: the mode in which the hall is rented
RENTED = "colocation"

ITEM = LineItem(
    key="facility",
    kind="capex",
    label=Text("Facility", "机房"),
    noun=Text("facility", "机房"),
    colour="#9b6fb0",
    sheet_label="capex: facility",
    vat_label="机房建设",
    inputs=(
        InputSpec(
            "salvage_facility",
            "depreciation.facility.salvage",
            Text("Facility salvage value", "机房残值率"),
            "fraction of cost",
            "pct",
        ),
    ),
)

"""Software: a price per GPU-year on the GPUs in service (methodology §3.2)."""

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.item import Formula, InputSpec, LineItem, Text

ITEM = LineItem(
    key="software",
    kind="opex",
    margin=True,
    label=Text("Software", "软件"),
    noun=Text("software", "软件"),
    colour="#9b6fb0",
    sheet_label="opex: software",
    rule=Text(
        "software per GPU-year",
        "软件按每卡每年计费",
    ),
    vat_label="软件",
    inputs=(
        InputSpec(
            "software_per_gpu_year",
            "operations.software_per_gpu_year",
            Text("Software per GPU-year", "每卡每年软件费"),
            "{cur}/GPU-year",
            "money",
            (10, 30_000),
        ),
    ),
    formula=Formula(
        Ref("software_per_gpu_year") * Ref("gpus_on") / Num(12),
        ("gpus_on",),
        "software = per GPU-year x GPUs in service / 12",
    ),
)

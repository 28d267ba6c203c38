"""The line items in their order: the lists everything else iterates.

The order of :data:`CAPEX_ITEMS` and :data:`OPEX_ITEMS` is the order of the
engine's columns, the workbook's rows, the charts' keys and the tables' rows.
"""

from __future__ import annotations

from costmodel.catalogue import (
    capex_facility,
    capex_network,
    capex_servers,
    capex_storage,
    opex_colocation,
    opex_electricity,
    opex_insurance,
    opex_maintenance,
    opex_sga,
    opex_software,
    opex_staff,
)
from costmodel.catalogue.item import InputSpec, LineItem

CAPEX_ITEMS: tuple[LineItem, ...] = (
    capex_servers.ITEM,
    capex_network.ITEM,
    capex_storage.ITEM,
    capex_facility.ITEM,
)
OPEX_ITEMS: tuple[LineItem, ...] = (
    opex_electricity.ITEM,
    opex_colocation.ITEM,
    opex_staff.ITEM,
    opex_maintenance.ITEM,
    opex_insurance.ITEM,
    opex_software.ITEM,
    opex_sga.ITEM,
)
#: every line item by key
ITEMS: dict[str, LineItem] = {i.key: i for i in (*CAPEX_ITEMS, *OPEX_ITEMS)}

#: the capex (asset) classes, each depreciated on its own (methodology §8.2)
CAPEX_CLASSES: tuple[str, ...] = tuple(i.key for i in CAPEX_ITEMS)
#: the capex classes bought with the servers of a deployment (hardware)
HARDWARE_CLASSES: tuple[str, ...] = tuple(i.key for i in CAPEX_ITEMS if i.hardware)
#: the capex classes that are not hardware (the facility)
BUILDING_CLASSES: tuple[str, ...] = tuple(i.key for i in CAPEX_ITEMS if not i.hardware)
#: the opex lines, in order
OPEX_LINES: tuple[str, ...] = tuple(i.key for i in OPEX_ITEMS)
#: the opex lines that are costs of a deployment's own margin in the income residual
#: (methodology §30)
MARGIN_LINES: tuple[str, ...] = tuple(i.key for i in OPEX_ITEMS if i.margin)
#: the opex lines that carry input VAT (methodology §24)
VAT_OPEX_LINES: tuple[str, ...] = tuple(i.key for i in OPEX_ITEMS if i.bears_vat)
#: the keys of ``vat.input_rates``: capex classes, then the opex lines with VAT
VAT_INPUT_KEYS: tuple[str, ...] = (*CAPEX_CLASSES, *VAT_OPEX_LINES)


#: the facility modes, and the one in which the hall is rented (its rent is a line)
FACILITY_MODES: tuple[str, ...] = capex_facility.MODES
RENTED_MODE: str = capex_facility.RENTED


def capex_column(key: str) -> str:
    """The summary's (and the tier sheet's) column of capex class ``key``."""
    return f"capex_{key}"


def label(key: str, lang: str = "en") -> str:
    """The item's name in a chart or a table, in ``lang``."""
    return ITEMS[key].label[lang]


def noun(key: str, lang: str = "en") -> str:
    """The item's name in a sentence, in ``lang``."""
    return ITEMS[key].noun[lang]


def colour(key: str) -> str:
    """The item's colour in the charts."""
    return ITEMS[key].colour


def labels(lang: str) -> dict[str, str]:
    """Every item's label in ``lang``, by key."""
    return {k: i.label[lang] for k, i in ITEMS.items()}


def colours() -> dict[str, str]:
    """Every item's colour, by key."""
    return {k: i.colour for k, i in ITEMS.items()}


def item_of_input(key: str) -> LineItem:
    """The line item that declares the input ``key``."""
    return next(i for i in ITEMS.values() if any(s.key == key for s in i.inputs))


def opex_rules(lang: str) -> str:
    """The opex lines' rules (``LineItem.rule``) as one sentence in ``lang``, in the
    lines' order."""
    if lang == "zh":
        return "；".join(i.rule.zh for i in OPEX_ITEMS if i.rule) + "。"
    text = "; ".join(i.rule.en for i in OPEX_ITEMS if i.rule) + "."
    return text[:1].upper() + text[1:]


def input_specs() -> tuple[InputSpec, ...]:
    """The inputs the items declare, with the input VAT rate of each item bearing
    VAT, in the items' order."""
    out: list[InputSpec] = []
    for item in ITEMS.values():
        out += item.inputs
    out += [i.vat_input for i in ITEMS.values() if i.vat_input is not None]
    return tuple(out)

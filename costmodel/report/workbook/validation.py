"""Data validation of input cells, from the rules of the schema (methodology §2.4): lists for
methods, modes, cooling and server ids; fractions in [0, 1]; non-negative prices,
sizes and powers; whole numbers where the schema wants integers. Each rule carries
an input message. The Checks sheet tests the same rules by formula, since data
validation does not stop a pasted value."""

from __future__ import annotations

from typing import Any

from costmodel.inputs.schema import VAT_INPUT_KEYS

FRACTION = {
    "validate": "decimal",
    "criteria": "between",
    "minimum": 0,
    "maximum": 1,
    "input_message": "A fraction between 0 and 1 (e.g. 0.08 for 8%).",
}
NON_NEGATIVE = {
    "validate": "decimal",
    "criteria": ">=",
    "value": 0,
    "input_message": "A number >= 0.",
}
#: leaf key -> rule (keys of the validation of methodology §2.4)
RULES: dict[str, dict[str, Any]] = {
    **dict.fromkeys(
        (
            "discount_rate",
            "tax_rate",
            "escalation",
            "aux_power_fraction",
            "utilization",
            "maintenance_rate",
            "insurance_rate",
            "staff_escalation",
            "price_decline",
            "mfu",
            "salvage",
            "idle_fraction",
            "refund_ratio",
        ),
        FRACTION,
    ),
    "share": {
        **FRACTION,
        "criteria": "between",
        "maximum": 0.999999,
        "input_message": "Network share of hardware capex, in [0, 1).",
    },
    "pue": {
        "validate": "decimal",
        "criteria": ">=",
        "value": 1,
        "input_message": "Power usage effectiveness, >= 1.",
    },
    "max_rack_kw": {
        "validate": "decimal",
        "criteria": ">",
        "value": 0,
        "input_message": "kW per rack the cooling type can remove, > 0.",
    },
    "gpus_per_server": {
        "validate": "integer",
        "criteria": ">=",
        "value": 1,
        "input_message": "Whole number of GPUs in one server.",
    },
    "life_years": {
        "validate": "integer",
        "criteria": "between",
        "minimum": 1,
        "maximum": 40,
        "input_message": "Whole years, 1 to 40.",
    },
    "method": {
        "validate": "list",
        "source": "=Dep_methods",
        "input_message": "straight_line, sum_of_years or double_declining.",
    },
    "server": {
        "validate": "list",
        "source": "=Srv_list",
        "input_message": "A server id of the catalogue.",
    },
    "cooling": {
        "validate": "list",
        "source": "=Cool_list",
        "input_message": "A cooling type of the cooling table.",
    },
    "site": {  # methodology §29: blank reads the global inputs
        "validate": "list",
        "source": "=Site_list",
        "ignore_blank": True,
        "input_message": "Blank, or a site of the Sites block.",
    },
    "build_months": {
        "validate": "integer",
        "criteria": ">=",
        "value": 0,
        "input_message": "Whole months from the investment date to first service.",
    },
    "reserve_headroom": {
        "validate": "integer",
        "criteria": "between",
        "minimum": 0,
        "maximum": 1,
        "input_message": "1: build the final hall at month 0; "
        "0: extend it at each stage (retrofit premium).",
    },
    "tax_method": {
        "validate": "list",
        "source": ["book", "expensed"],
        "input_message": "book: as the books; expensed: the whole cost in the "
        "year it enters service (equipment only).",
    },
    "facility.tax_method": {
        "validate": "list",
        "source": ["book"],
        "input_message": "book: buildings cannot be expensed.",
    },
    "market_decline": {
        **FRACTION,
        "maximum": 0.999999,
        "input_message": "Market value lost per year, in [0, 1).",
    },
}


TEXT = {
    "validate": "length",
    "criteria": "<=",
    "value": 255,
    "input_message": "Free text, shown in the workbook and memo; not used in formulas.",
}
RULES |= {
    "revenue.mode": {
        "validate": "list",
        "source": ["rental", "avoided_cloud"],
        "input_message": "rental or avoided_cloud.",
    },
    "cloud_term": {
        "validate": "list",
        "source": ["on_demand", "reserved"],
        "input_message": "on_demand or reserved.",
    },
    "currency": {
        "validate": "length",
        "criteria": "==",
        "value": 3,
        "input_message": "ISO 4217 currency code, e.g. CNY.",
    },
    **dict.fromkeys(("label", "name", "fabric", "kind", "scheduler", "description"), TEXT),
    "debt_share": {**FRACTION, "input_message": "Share of each capex month borrowed, in [0, 1]."},
    "interest_rate": {**FRACTION, "input_message": "Annual rate in [0, 1] (0.045 for 4.5%)."},
    "term_years": {
        "validate": "integer",
        "criteria": "between",
        "minimum": 1,
        "maximum": 30,
        "input_message": "Whole years, 1 to 30.",
    },
    "cost_of_equity": {
        **FRACTION,
        "input_message": "Annual rate in [0, 1]; blank: the discount rate.",
    },
    "loss_carryforward_years": {
        "validate": "integer",
        "criteria": ">=",
        "value": 0,
        "input_message": "Whole years >= 0; blank: unlimited.",
    },
    "sga_share": {
        **FRACTION,
        "input_message": "Selling, general and administrative costs as "
        "a fraction of revenue, in [0, 1].",
    },
    "contract.share": {
        **FRACTION,
        "input_message": "Share of each deployment's available "
        "GPU-hours sold take-or-pay, in [0, 1] (0: no contract).",
    },
    "contract.default_rate": {
        **FRACTION,
        "input_message": "Share of contracts that default in a year, in [0, 1] "
        "(0: none); defaulted hours are sold spot.",
    },
    "contract.escalation": {
        **FRACTION,
        "input_message": "Contract price rise a contract year, in [0, 1].",
    },
    "contract.months": {
        "validate": "integer",
        "criteria": "between",
        "minimum": 0,
        "maximum": 360,
        "input_message": "Whole months of contract from each "
        "deployment's first month in service (0: no contract).",
    },
}


VAT_RATE = {
    **FRACTION,
    "maximum": 0.999999,
    "input_message": "A VAT rate in [0, 1) (0.13 for 13%; 0: none).",
}
RULES |= {
    **dict.fromkeys(("vat.output_rate", "vat.surtax_rate"), VAT_RATE),
    **{f"input_rates.{k}": VAT_RATE for k in VAT_INPUT_KEYS},
    "refund_credit": {
        "validate": "integer",
        "criteria": "between",
        "minimum": 0,
        "maximum": 1,
        "input_message": "1: excess input VAT refunded at each year end; 0: not.",
    },
}


def rule_for(path: str) -> dict[str, Any]:
    """The validation of the input at dotted ``path`` (by its last two parts, then
    its last part; non-negative if not listed)."""
    parts = path.split(".")
    return RULES.get(".".join(parts[-2:]), RULES.get(parts[-1], NON_NEGATIVE))


def validate(ws: Any, row: int, col: int, path: str, rule: dict[str, Any] | None = None) -> None:
    """Attach the rule of ``path`` (or ``rule``) to one cell, with an input message."""
    options = dict(rule or rule_for(path))
    options.setdefault("input_title", path.split(".")[-1].replace("_", " ")[:32])
    options["error_type"] = "stop"
    ws.data_validation(row, col, row, col, options)


def gpus_rule(gpus_cell: str, server_cell: str) -> dict[str, Any]:
    """GPUs: a positive whole multiple of the server's GPUs per server (SUMIFS, not
    INDEX, so that a one-server catalogue works in every engine)."""
    per = f"SUMIFS(Srv_gpus_per_server,Srv_id,{server_cell})"
    return {
        "validate": "custom",
        "value": f"=AND({gpus_cell}>=1,INT({gpus_cell})={gpus_cell},MOD({gpus_cell},{per})=0)",
        "input_message": "A positive whole multiple of the server's GPUs per server.",
    }


def condition(ref: str, path: str) -> str:
    """A spreadsheet condition, true when the value at ``ref`` obeys the rule of
    ``path`` (the Checks sheet's form of the data validation)."""
    rule = rule_for(path)
    kind, crit = rule["validate"], rule.get("criteria")
    if kind == "list":
        return f"ISNUMBER(MATCH({ref},{rule['source'].lstrip('=')},0))"
    whole = f"INT({ref})={ref}," if kind == "integer" else ""
    if crit == "between":
        return f"AND({whole}{ref}>={rule['minimum']},{ref}<={rule['maximum']})"
    return f"AND({whole}{ref}{crit}{rule['value']})"


def describe(path: str) -> str:
    """The rule of ``path`` in words, for the Checks sheet."""
    rule = rule_for(path)
    kind, crit = rule["validate"], rule.get("criteria")
    if kind == "list":
        return "from the list"
    whole = "whole number " if kind == "integer" else ""
    if crit == "between":
        return f"{whole}in [{rule['minimum']}, {rule['maximum']:g}]"
    return f"{whole}{crit} {rule['value']}"

"""The opex lines' totals over the horizon by a second route (methodology §3.2):
closed forms per deployment and sums of the tier sheet's driver rows, which the
Checks sheet compares with the total of each line's monthly row.

Each is machinery written twice side by side: ``excel`` the tier sheet's formula
(row tokens of the sheet: ``{$key}`` a constant, ``{key:1}`` a row from month 1),
``value`` the same arithmetic on the model's quantities (``q``: the tier's inputs
by name, its rows from month 1 and its deployments' lists, built by
:class:`costmodel.core.closedforms.ClosedForms`). ``tests/core/test_closed_forms.py``
holds each value equal to the total of its lines, and the workbook's
recalculation in LibreOffice and Gnumeric holds each formula equal to its value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

#: the hours of a month on the tier sheet (8760 / 12, a defined name)
HOURS = "hours_per_month"


@dataclass(frozen=True)
class PerDeployment:
    """A closed form's row per deployment ``i``: ``key`` (the row is ``{key}{i}``),
    ``label`` and ``excel`` with ``{i}`` for the deployment, ``value(q, i)``."""

    key: str
    label: str
    excel: str
    value: Callable[[Mapping[str, Any], int], float]


@dataclass(frozen=True)
class ClosedForm:
    """The second route to the total of ``lines`` over the horizon.

    ``key`` is the tier sheet's row (None: the Checks sheet writes the formula
    itself, ``check_formula``); ``label`` its label; ``check`` the Checks sheet's
    label; ``excel(D)`` the formula for D deployments; ``value(q)`` its value;
    ``per_deployment`` a row per deployment it adds up, if any."""

    lines: tuple[str, ...]
    check: str
    value: Callable[[Mapping[str, Any]], float]
    key: str | None = None
    label: str = ""
    excel: Callable[[int], str] | None = None
    check_formula: Callable[[Callable[..., str], Callable[[str], str]], str] | None = None
    per_deployment: PerDeployment | None = None


def _plus(term: str, deployments: int) -> str:
    """``term`` (with ``{i}``) for each deployment, joined by ``+``."""
    return "+".join(term.format(i=i) for i in range(deployments))


def _indexed(row: Any, escalation: float, year: Any) -> float:
    """``SUMPRODUCT(row, (1 + escalation)^(year - 1))``."""
    return float(np.sum(np.asarray(row) * (1 + escalation) ** (np.asarray(year) - 1)))


ELECTRICITY = ClosedForm(
    lines=("electricity",),
    key="re_electricity",
    label="electricity = PUE x hours x price x sum of kW drawn x index",
    check="electricity = kW drawn x PUE x hours x price x indices",
    excel=lambda d: (
        f"={{$pue}}*{HOURS}*power_price_per_kwh*SUMPRODUCT({{$idle_fraction}}*{{kw_on:1}}"
        "+(1-{$idle_fraction})*{kw_used:1},(1+power_escalation)^({year:1}-1))"
    ),
    value=lambda q: (
        q["pue"]
        * q["hours"]
        * q["price_per_kwh"]
        * _indexed(
            q["idle_fraction"] * q["kw_on"] + (1 - q["idle_fraction"]) * q["kw_used"],
            q["power_escalation"],
            q["year"],
        )
    ),
)

COLOCATION = ClosedForm(
    lines=("colocation",),
    key="re_colocation",
    label="colocation = sum of IT kW x months in service x fee",
    check="colocation = IT kW x fee x months in service",
    excel=lambda d: (
        f"=({_plus('{{$d_kw{i}}}*{{$re_n{i}}}', d)})*{{$colocation_per_kw_month}}"
        "*(1-{$build_flag})"
    ),
    value=lambda q: (
        sum(kw * n for kw, n in zip(q["kw"], q["months_in_service"], strict=True))
        * q["colocation_per_kw_month"]
        * (1 - q["build_flag"])
    ),
)

STAFF = ClosedForm(
    lines=("staff",),
    key="re_staff",
    label="staff = cost / 12 x sum of FTE x staff index",
    check="staff = FTE x cost x indices / 12",
    excel=lambda d: (
        "={$staff_cost_per_fte}/12*SUMPRODUCT({fte:1},(1+{$staff_escalation})^({year:1}-1))"
    ),
    value=lambda q: (
        q["staff_cost_per_fte"] / 12 * _indexed(q["fte"], q["staff_escalation"], q["year"])
    ),
)


def _fixed(q: Mapping[str, Any], i: int) -> float:
    """Deployment ``i``'s maintenance, insurance and software over its months in
    service: ``(maintenance rate x hardware + insurance rate x (hardware +
    facility) + software per GPU-year x GPUs) x months / 12``."""
    hw = q["hardware"][i]
    return (
        (
            q["maintenance_rate"] * hw
            + q["software_per_gpu_year"] * q["gpus"][i]
            + q["insurance_rate"] * (hw + q["facility"][i])
        )
        * q["months_in_service"][i]
        / 12
    )


FIXED = ClosedForm(
    lines=("maintenance", "insurance", "software"),
    key="re_fixed_opex",
    label="maintenance + insurance + software (sum of deployments)",
    check="maintenance + insurance + software from their rates",
    excel=lambda d: "=" + _plus("{{$re_fix{i}}}", d),
    value=lambda q: sum(_fixed(q, i) for i in range(len(q["gpus"]))),
    per_deployment=PerDeployment(
        "re_fix",
        "deployment {i}: maintenance + insurance + software",
        "=({{$maintenance_rate}}*{{$d_hw{i}}}+{{$insurance_rate}}*({{$d_hw{i}}}+{{$d_cf{i}}})"
        "+{{$software_per_gpu_year}}*{{$d_g{i}}})*{{$re_n{i}}}/12",
        _fixed,
    ),
)

SGA = ClosedForm(
    lines=("sga",),
    check="SG&A = SG&A share x revenue",
    check_formula=lambda S, tot: f"{S('sga_share')}*{tot('revenue')}",
    value=lambda q: q["sga_share"] * q["revenue_total"],
)

#: the rows of the tier sheet, in its order
SHEET_ROWS: tuple[ClosedForm, ...] = (ELECTRICITY, COLOCATION, STAFF, FIXED)
#: the Checks sheet's reconciliations of the opex lines, in its order
CHECKS: tuple[ClosedForm, ...] = (SGA, ELECTRICITY, STAFF, FIXED, COLOCATION)

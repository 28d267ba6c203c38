"""The structural choices of one tier's computation (:class:`TierConfig`), the
modes among which the engine chooses (enums, not strings looked up), and a
subsidy as the engine reads it (:class:`Subsidy`, methodology §11.13).

These are the engine's own types: :mod:`costmodel.inputs.params` builds them from
validated assumptions, the engine reads their attributes, and nothing here
depends on how the inputs were written or checked. Each mode is a
:class:`enum.StrEnum` whose values are the words of the assumption files, so a
mode compares equal to its word (``TerminalValue.BOOK == "book"``) and prints
as it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import numpy as np


class TerminalValue(StrEnum):
    """What the tier is worth at the horizon (methodology §8.1, §30)."""

    BOOK = "book"  # the net book value
    MARKET = "market"  # each class's cost at its market decline
    INCOME = "income"  # the hardware's remaining margin, discounted
    NONE = "none"  # nothing


class DepreciationMethod(StrEnum):
    """Book depreciation of an asset class (methodology §8.1, §11.7)."""

    STRAIGHT_LINE = "straight_line"
    SUM_OF_YEARS = "sum_of_years"
    DOUBLE_DECLINING = "double_declining"


class RefundMode(StrEnum):
    """How the excess VAT input credit is refunded (methodology §11.6, §11.11)."""

    NONE = "none"  # carried forward, lost at the horizon
    ANNUAL = "annual"  # at each year end
    MONTHLY = "monthly"  # each month


class SubsidyKind(StrEnum):
    """The kinds of subsidy of methodology §11.13."""

    CAPEX_GRANT = "capex_grant"
    POWER_REBATE = "power_rebate"
    VOUCHER = "voucher"


@dataclass(frozen=True)
class Subsidy:
    """One subsidy (methodology §11.13): ``capex_grant`` (``share`` of the net
    capex of ``classes``, every class if None, paid ``lag_months`` after each capex
    event, the running total capped at ``cap``), ``power_rebate`` (``per_kwh`` of
    metered kWh in model years 1..``years``) or ``voucher`` (``share_of_revenue``
    of revenue in model years 1..``years``); ``taxable``: income of the model year
    it is received in."""

    kind: SubsidyKind
    share: float | None = None
    classes: tuple[str, ...] | None = None
    lag_months: int | None = None
    cap: float | None = None
    per_kwh: float | None = None
    years: int | None = None
    share_of_revenue: float | None = None
    taxable: bool = True

    @classmethod
    def of(cls, given: Any) -> Subsidy:
        """The engine's subsidy from any object with the same attributes (the
        validated entry of an assumption file)."""
        return cls(
            kind=SubsidyKind(given.kind),
            share=given.share,
            classes=None if given.classes is None else tuple(given.classes),
            lag_months=given.lag_months,
            cap=given.cap,
            per_kwh=given.per_kwh,
            years=given.years,
            share_of_revenue=given.share_of_revenue,
            taxable=bool(given.taxable),
        )


@dataclass(frozen=True)
class TierConfig:
    """The structural (not numeric) choices of one tier's computation: they set
    the shape of the arrays and the path the engine takes, so they are the same
    for every variant of one evaluation."""

    months: int
    depreciation_method: Mapping[str, DepreciationMethod]
    depreciation_life_years: Mapping[str, int]
    stages: int = 0
    loss_carryforward_years: int | None = None
    terminal_value: TerminalValue = TerminalValue.BOOK
    financed: bool = False
    #: asset classes whose tax depreciation is the whole cost at once (methodology §11.7)
    tax_expensed: frozenset[str] = frozenset()
    vat: bool = False  # a ``vat`` section (methodology §24)
    refund: RefundMode = RefundMode.NONE  # of the excess credit (methodology §11.6, §11.11)
    #: the tier's subsidies (its own list, else the global one; methodology §11.13)
    subsidies: tuple[Subsidy, ...] = ()

    @property
    def vat_refund(self) -> bool:
        """The excess credit is refunded (methodology §11.6)."""
        return self.vat and self.refund is not RefundMode.NONE

    @property
    def vat_refund_monthly(self) -> bool:
        """... each month rather than at each year end (methodology §11.11)."""
        return self.vat and self.refund is RefundMode.MONTHLY


def configured(config: TierConfig, values: Mapping[str, int]) -> TierConfig:
    """``config`` with whole-number inputs set to ``values`` (config key -> value):
    ``months`` given as years of horizon, ``life_years.<class>`` and
    ``loss_carryforward_years``; any other key is a ``KeyError``."""
    changes: dict[str, Any] = {}
    lives = dict(config.depreciation_life_years)
    for key, v in values.items():
        if key == "months":
            changes["months"] = 12 * int(v)
        elif key.startswith("life_years."):
            lives[key.split(".", 1)[1]] = int(v)
        elif key == "loss_carryforward_years":
            changes["loss_carryforward_years"] = int(v)
        else:
            raise KeyError(key)
    return replace(config, depreciation_life_years=lives, **changes)


#: servers per rack = floor(rack_kw / server kW + this), so 3 x 10 kW fit a 30 kW
#: rack despite rounding in the division (methodology §3.1)
RACK_FIT_EPSILON = 1e-9


def servers_per_rack(rack_kw: Any, server_kw: Any, aux_power_fraction: Any) -> Any:
    """``floor(rack_kw / (server_kw * (1 + aux_power_fraction)) + 1e-9)`` (methodology §3.1);
    works on floats and numpy arrays alike."""
    return np.floor(rack_kw / (server_kw * (1 + aux_power_fraction)) + RACK_FIT_EPSILON)

"""Value-added tax, PRC (methodology §24; docs/methodology.md §11.6): output and
input VAT, the credit pool with its year-end refund, the VAT payable, the surtax
and the VAT cash flow, month by month.

Every price of the inputs is VAT-exclusive, so VAT changes no line of the model
(opex, TCO and the cost per GPU-hour stay net): it adds the cash flow ``vat_cash``
to the free and equity cash flows and the expense ``surtax`` to the taxable income
of its year. The schedule is defined once, :func:`vat_lines`, from the monthly
revenue, opex per line and capex per class; the month-by-month evaluation passes
its own lines, the by-year one the same lines rebuilt from their coefficients
(:func:`vat_of_tier`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from costmodel.core import finance as fin
from costmodel.core.calendar import year_sums
from costmodel.core.finance import FloatArray
from costmodel.core.lines import monthly_line, operating_coefficients, opex_lines
from costmodel.core.result import VAT_INPUT_COLUMNS, VAT_LINES
from costmodel.core.timing import CapexEvent, Clock, col, monthly_capex, tier_shapes
from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.inputs.params import TierConfig
from costmodel.inputs.schema import ASSET_CLASSES, VAT_INPUT_KEYS, VAT_OPEX_LINES

#: the summary columns of VAT (methodology §24)
VAT_COLUMNS = ("vat_paid", "vat_credit_peak", "surtax")


def vat_lines(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    revenue: FloatArray,
    opex: Mapping[str, FloatArray],
    capex_months: Mapping[str, FloatArray],
) -> dict[str, FloatArray]:
    """The VAT schedule month by month (S, M+1) (methodology §24):

    - ``output_m = output_rate * revenue_m``;
    - ``input_<k>_m = input_rates[k] * capex_{k,m}`` for each capex class and
      ``input_rates[k] * opex_{k,m}`` for each opex line with VAT
      (:data:`VAT_INPUT_KEYS`), ``input_m`` their sum;
    - the credit pool, payable and refund of :func:`credit_pool`;
    - ``surtax_m = surtax_rate * payable_m``;
    - ``vat_cash_m = output_m - input_m - payable_m + refund_m - surtax_m``.

    Without a ``vat`` section every line is 0 (v2 numbers)."""
    shape = (q["gpus"].shape[0], config.months + 1)
    if not config.vat:
        zero = np.zeros(shape)
        zero.flags.writeable = False
        return dict.fromkeys((*VAT_LINES, *VAT_INPUT_COLUMNS), zero)
    base = {**{c: capex_months[c] for c in ASSET_CLASSES}, **{k: opex[k] for k in VAT_OPEX_LINES}}
    inputs = {
        f"input_{k}": np.broadcast_to(col(q[f"vat_input_{k}"]) * base[k], shape)
        for k in VAT_INPUT_KEYS
    }
    output = np.broadcast_to(col(q["vat_output_rate"]) * revenue, shape)
    input_m = np.broadcast_to(sum(inputs.values()), shape)
    pool = credit_pool(output, input_m, config.vat_refund)
    surtax = col(q["vat_surtax_rate"]) * pool["payable"]
    vat_cash = output - input_m - pool["payable"] + pool["refund"] - surtax
    return {
        "output": output,
        "input": input_m,
        **pool,
        "surtax": surtax,
        "vat_cash": vat_cash,
        **inputs,
    }


def credit_pool(output: FloatArray, input_m: FloatArray, refund: bool) -> dict[str, FloatArray]:
    """The input-credit pool (S, M+1) (methodology §24). With ``C_{-1} = 0``:
    ``net_m = output_m - input_m - C_{m-1}``, ``payable_m = max(0, net_m)``, the
    pool before refund ``max(0, -net_m)``; with ``refund``, at m = 12y (y >= 1) the
    pool is refunded (``refund_m`` = the pool, then ``C_m = 0``); without, the
    credit left at M is lost. ``credit_open_m = C_{m-1}``, ``credit_m = C_m``; the
    corkscrew ``credit = credit_open + input - output + payable - refund``."""
    out_t = np.ascontiguousarray(output.T)
    in_t = np.ascontiguousarray(input_m.T)
    names = ("credit_open", "payable", "credit_before_refund", "refund", "credit")
    rows = {k: np.zeros_like(out_t) for k in names}
    pool = np.zeros(out_t.shape[1])
    for m in range(out_t.shape[0]):
        rows["credit_open"][m] = pool
        net = out_t[m] - in_t[m] - pool
        rows["payable"][m] = np.maximum(0.0, net)
        pool = np.maximum(0.0, -net)
        rows["credit_before_refund"][m] = pool
        if refund and m > 0 and m % MONTHS_PER_YEAR == 0:
            rows["refund"][m] = pool
            pool = np.zeros_like(pool)
        rows["credit"][m] = pool
    return {k: np.ascontiguousarray(v.T) for k, v in rows.items()}


def vat_of_tier(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
) -> dict[str, FloatArray]:
    """:func:`vat_lines` of a tier from its inputs: revenue and opex month by month
    from their coefficients on the monthly shapes (:func:`operating_coefficients`,
    :func:`monthly_line`), capex per class at its months (:func:`monthly_capex`),
    the same lines the month-by-month evaluation computes."""
    clock = Clock(config.months)
    coefficients = operating_coefficients(q, deps, events, config.months // MONTHS_PER_YEAR)
    shapes = tier_shapes(q, deps, clock)
    revenue = monthly_line(coefficients["revenue"], shapes, clock)
    opex = opex_lines(coefficients, shapes, clock)
    return vat_lines(q, config, revenue, opex, monthly_capex(events, clock))


def surtax_by_year(vat: Mapping[str, FloatArray]) -> FloatArray:
    """(S, Y): the surtax of each model year (months 12(y-1)+1 .. 12y; month 0 has no
    revenue, so none), the expense that lowers the taxable income of its year."""
    return year_sums(vat["surtax"])


def vat_cash_by_year(vat: Mapping[str, FloatArray]) -> FloatArray:
    """(S, Y): the VAT cash of each model year (months 12(y-1)+1 .. 12y), the VAT
    in the year's CFADS."""
    return year_sums(vat["vat_cash"])


def vat_metrics(vat: Mapping[str, FloatArray]) -> dict[str, Callable[[], FloatArray]]:
    """The summary columns (S,), computed when read: ``vat_paid = sum_m
    payable_m``, ``vat_credit_peak = max_m`` of the pool before refunds, ``surtax
    = sum_m surtax_m``."""
    return {
        "vat_paid": lambda: vat["payable"].sum(axis=1),
        "vat_credit_peak": lambda: vat["credit_before_refund"].max(axis=1),
        "surtax": lambda: vat["surtax"].sum(axis=1),
    }


def no_vat_metrics(size: int) -> dict[str, FloatArray]:
    """The summary columns of VAT without a ``vat`` section: 0."""
    return dict.fromkeys(VAT_COLUMNS, np.zeros(size))


@dataclass(frozen=True)
class VatYears:
    """What the by-year evaluation reads of the VAT: the schedule (empty without a
    ``vat`` section), the surtax and VAT cash of each year (Y, S; 0 without), the
    VAT cash month by month (M+1, S; None without) and the summary columns."""

    lines: Mapping[str, FloatArray]
    surtax_y: FloatArray | float
    cash_y: FloatArray | float
    cash: FloatArray | None
    metrics: Mapping[str, FloatArray | Callable[[], FloatArray]]


def vat_by_year(
    q: Mapping[str, FloatArray],
    config: TierConfig,
    deps: list[dict[str, FloatArray]],
    events: list[CapexEvent],
) -> VatYears:
    """:class:`VatYears` of a tier: the schedule of :func:`vat_of_tier`, its surtax
    (:func:`surtax_by_year`) and VAT cash (:func:`vat_cash_by_year`) by year, years
    first."""
    if not config.vat:
        return VatYears({}, 0.0, 0.0, None, no_vat_metrics(q["gpus"].shape[0]))
    vat = vat_of_tier(q, config, deps, events)
    cash = np.ascontiguousarray(vat["vat_cash"].T)
    return VatYears(vat, surtax_by_year(vat).T, vat_cash_by_year(vat).T, cash, vat_metrics(vat))


def vat_present_value(vat: Mapping[str, FloatArray], discount: FloatArray) -> FloatArray:
    """(S,): ``sum_m vat_cash_m d(m)``, the VAT cash's share of the NPV
    (``discount``: (M+1, 1 or S), months first)."""
    return fin.present_value(vat["vat_cash"], discount.T)

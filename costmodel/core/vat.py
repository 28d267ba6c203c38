"""Value-added tax, PRC (methodology §24; docs/methodology.md §11.6): output and
input VAT, the credit pool with its year-end refund, the VAT payable, the surtax
and the VAT cash flow, month by month.

Every price of the inputs is VAT-exclusive, so VAT changes no line of the model
(opex, TCO and the cost per GPU-hour stay net): it adds the cash flow ``vat_cash``
to the free and equity cash flows and the expense ``surtax`` to the taxable income
of its year. The schedule is defined once, :func:`vat_lines`, from the monthly
revenue, opex per line and capex per class; everything after output and input
follows from their difference (:func:`vat_cash_lines`), which the by-year
evaluation takes from the same lines' coefficients, rated and summed before they
are read month by month (:func:`vat_net_coefficients`, :func:`vat_by_year`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from costmodel.catalogue.items import CAPEX_CLASSES, VAT_INPUT_KEYS, VAT_OPEX_LINES
from costmodel.core import finance as fin
from costmodel.core.calendar import year_sums
from costmodel.core.config import TierConfig
from costmodel.core.finance import FloatArray
from costmodel.core.lines import Coefficients, per_run, total
from costmodel.core.result import VAT_INPUT_COLUMNS, VAT_LINES
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent, Shapes, col, when
from costmodel.core.units import MONTHS_PER_YEAR

#: the summary columns of VAT (methodology §24)
VAT_COLUMNS = ("vat_paid", "vat_credit_peak", "surtax")


def vat_lines(
    q: TierParams,
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
    shape = (q.gpus.shape[0], config.months + 1)
    if not config.vat:
        zero = np.zeros(shape)
        zero.flags.writeable = False
        return dict.fromkeys((*VAT_LINES, *VAT_INPUT_COLUMNS), zero)
    base = {**{c: capex_months[c] for c in CAPEX_CLASSES}, **{k: opex[k] for k in VAT_OPEX_LINES}}
    inputs = {
        f"input_{k}": np.broadcast_to(col(q.vat_input[k]) * base[k], shape) for k in VAT_INPUT_KEYS
    }
    output = np.broadcast_to(col(q.vat_output_rate) * revenue, shape)
    input_m = np.broadcast_to(sum(inputs.values()), shape)
    return {
        "output": output,
        "input": input_m,
        **vat_cash_lines(q, config, output - input_m),
        **inputs,
    }


def vat_cash_lines(q: TierParams, config: TierConfig, net: FloatArray) -> dict[str, FloatArray]:
    """The lines of :func:`vat_lines` that follow from ``net_m = output_m - input_m``
    (S, M+1): the credit pool (:func:`credit_pool`), ``surtax_m = surtax_rate
    payable_m`` and ``vat_cash_m = net_m - payable_m + refund_m - surtax_m``."""
    ratio = q.vat_refund_ratio
    pool = credit_pool(net, config.vat_refund, ratio, config.vat_refund_monthly)
    surtax = col(q.vat_surtax_rate) * pool["payable"]
    return {**pool, "surtax": surtax, "vat_cash": net - pool["payable"] + pool["refund"] - surtax}


def credit_pool(
    net: FloatArray,
    refund: bool,
    ratio: FloatArray | None = None,
    monthly: bool = False,
) -> dict[str, FloatArray]:
    """The input-credit pool (S, M+1) of ``net = output - input`` VAT (methodology
    §11.6, §11.11). With ``C_{-1} = 0`` and ``d_m = net_m - C_{m-1}``: ``payable_m = max(0,
    d_m)``, the pool before refund ``max(0, -d_m)``; with ``refund``, at m = 12y (y >= 1) the
    pool is refunded (``refund_m`` = the pool, then ``C_m = 0``); without, the
    credit left at M is lost. ``credit_open_m = C_{m-1}``, ``credit_m = C_m``; the
    corkscrew ``credit = credit_open + input - output + payable - refund``.

    The pool before refund is that recursion solved in closed form
    (:func:`pool_before_refund`); payable and the pool are then read from it. A
    refund ``ratio`` (S,) other than 1, or ``monthly`` refunds, follow
    :func:`credit_pool_by_month`."""
    if refund and (monthly or (ratio is not None and np.any(np.asarray(ratio) != 1.0))):
        return credit_pool_by_month(net, np.ones(net.shape[0]) if ratio is None else ratio, monthly)
    before = pool_before_refund(-net, refund)
    months = before.shape[1]
    refunded = np.zeros_like(before)
    if refund:
        refunded[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR] = before[:, MONTHS_PER_YEAR::MONTHS_PER_YEAR]
    credit = before - refunded
    credit_open = np.zeros_like(before)
    credit_open[:, 1:months] = credit[:, : months - 1]
    payable = np.maximum(0.0, net - credit_open)
    return {
        "credit_open": credit_open,
        "payable": payable,
        "credit_before_refund": before,
        "refund": refunded,
        "credit": credit,
    }


def credit_pool_by_month(
    net: FloatArray, ratio: FloatArray, monthly: bool
) -> dict[str, FloatArray]:
    """:func:`credit_pool` month after month, refunding the share ``ratio`` (S,) of
    the pool (进项构成比例, methodology §11.11):

    - annual: at m = 12y, ``refund_m = ratio * B_m`` (``B_m`` the pool before refund),
      ``C_m = B_m - refund_m``;
    - monthly: the claim ``ratio * C_{m-1}`` on the pool at the end of month m - 1 is
      paid in month m and leaves the pool at its start, before the month's output and
      input are netted: ``d_m = net_m - (C_{m-1} - refund_m)``; the claim on the pool
      at the end of M is paid at M (``refund_M += ratio * B_M``).

    ``credit_open_m = C_{m-1}`` (before the claim), so the corkscrew of
    :func:`credit_pool` holds."""
    size, months = net.shape
    r = np.broadcast_to(np.asarray(ratio, dtype=float), (size,))
    net_t = np.ascontiguousarray(net.T)
    keys = ("credit_open", "payable", "credit_before_refund", "refund", "credit")
    lines = {k: np.zeros((months, size)) for k in keys}  # month-major: a month is a row
    opened, payable, before_refund, refund, credit = (lines[k] for k in keys)
    pool = opened[0]  # zeros
    none = np.zeros(size)
    d = np.empty(size)
    for m in range(months):
        claim = r * pool if monthly and m > 0 else none
        np.subtract(pool, claim, out=d)
        np.subtract(net_t[m], d, out=d)
        before = before_refund[m]
        np.maximum(0.0, np.negative(d, out=before), out=before)
        refunded = claim
        if monthly and m == months - 1:
            refunded = claim + r * before
        elif not monthly and m > 0 and m % MONTHS_PER_YEAR == 0:
            refunded = r * before
        opened[m] = pool
        np.maximum(0.0, d, out=payable[m])
        refund[m] = refunded
        np.subtract(before, np.subtract(refunded, claim), out=credit[m])
        pool = credit[m]
    return {k: np.ascontiguousarray(v.T) for k, v in lines.items()}  # (S, M+1) as before


def pool_before_refund(x: FloatArray, refund: bool) -> FloatArray:
    """(S, M+1): the pool ``B_m = max(0, C_{m-1} + x_m)`` of credit grown by ``x_m``
    (input minus output VAT) each month, with ``C_m = B_m`` except at a refund
    (``C_m = 0`` at m = 12y with ``refund``). Between refunds (a block of months
    starting at b from the pool ``C_{b-1}``), with ``T_m = sum_{j=b..m} x_j``:
    ``B_m = T_m - min(-C_{b-1}, min_{b<=j<=m} T_j)`` (the Lindley recursion in
    closed form). The first block starts at month 1 from ``B_0 = max(0, x_0)``;
    the blocks are the years (months 12(y-1)+1 .. 12y) with ``refund``, else one."""
    size, months = x.shape
    first = np.maximum(0.0, x[:, :1])
    rest = x[:, 1:]
    block = MONTHS_PER_YEAR if refund else max(rest.shape[1], 1)
    blocks = -(-rest.shape[1] // block)
    padded = np.zeros((size, blocks * block))
    padded[:, : rest.shape[1]] = rest
    t = np.cumsum(padded.reshape(size, blocks, block), axis=2)
    start = np.zeros((size, blocks, 1))
    start[:, :1, 0] = first
    low = np.minimum(-start, np.minimum.accumulate(t, axis=2))
    after = (t - low).reshape(size, blocks * block)[:, : rest.shape[1]]
    return np.concatenate([first, after], axis=1)


def vat_net_coefficients(q: TierParams, lines: Mapping[str, Coefficients]) -> Coefficients:
    """``output - input`` VAT of the operating lines as coefficients on the monthly
    shapes (:func:`operating_coefficients`): ``output_rate`` times the revenue's less
    ``input_rates[k]`` times each opex line's with VAT (:data:`VAT_OPEX_LINES`), the
    lines of :func:`vat_lines` summed before they are read month by month."""
    rated = [{k: c * q.vat_output_rate for k, c in lines["revenue"].items()}]
    rated += [
        {k: c * -q.vat_input[line] for k, c in lines[line].items()} for line in VAT_OPEX_LINES
    ]
    return total(rated)


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
    q: TierParams,
    config: TierConfig,
    lines: Mapping[str, Coefficients],
    shapes: Shapes,
    events: list[CapexEvent],
) -> VatYears:
    """:class:`VatYears` of variants that share their timing: ``net_m`` of
    :func:`vat_lines` from the coefficients of :func:`vat_net_coefficients` in each
    run of months (:func:`per_run`) less the input VAT of each capex event at its
    month, then :func:`vat_cash_lines`; its surtax (:func:`surtax_by_year`) and VAT
    cash (:func:`vat_cash_by_year`) by year, years first."""
    if not config.vat:
        return VatYears({}, 0.0, 0.0, None, no_vat_metrics(q.gpus.shape[0]))
    net = per_run(shapes, vat_net_coefficients(q, lines))[shapes.month_row]  # (M+1, S)
    for e in events:
        net[int(when(e.month)[0, 0])] -= q.vat_input[e.cls] * e.amount
    vat = vat_cash_lines(q, config, np.ascontiguousarray(net.T))
    cash = np.ascontiguousarray(vat["vat_cash"].T)
    return VatYears(vat, surtax_by_year(vat).T, vat_cash_by_year(vat).T, cash, vat_metrics(vat))


def vat_present_value(vat: Mapping[str, FloatArray], discount: FloatArray) -> FloatArray:
    """(S,): ``sum_m vat_cash_m d(m)``, the VAT cash's share of the NPV
    (``discount``: (M+1, 1 or S), months first)."""
    return fin.present_value(vat["vat_cash"], discount.T)

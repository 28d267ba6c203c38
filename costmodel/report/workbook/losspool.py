"""The tax loss pool of a tier sheet (methodology §3.4, §8.3, §11.9), as live
formulas: the loss corkscrew, taxable profit and tax, and the loss-vintage table
(:func:`loss_table`, for the unlevered tax and for the levered tax of
:mod:`money`); the tax due to the terminal gain (:func:`gain_tax`).

A loss of year v is added at the end of year v; a profit of year y uses vintages
v with ``v < y <= v + N`` oldest first (vintage v uses ``max(0, min(profit, S_v) -
S_(v-1))`` where ``S_v`` is the sum of the eligible opening balances of vintages
1..v); what is left of vintage v at the end of year ``v + N`` expires. ``N`` =
``loss_carryforward_years``; blank = unlimited (the horizon in months stands in
for it). Cached values are the engine's loss vintages
(:class:`costmodel.core.schedules.LossVintages`).
"""

from __future__ import annotations

import numpy as np

from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.report.workbook.grid import CONST_COL
from costmodel.report.workbook.tiercontext import Tier


def loss_years(x: Tier) -> float:
    """The carry-forward period the formulas use: N, or the horizon in months
    (longer than any loss can wait) when unlimited."""
    n = x.a.finance.loss_carryforward_years
    return float(x.model.months if n is None else n)


def _vintage_rows(x: Tier, levered: bool) -> dict[str, np.ndarray]:
    """The loss-vintage table's cached values (vintage x month) from the engine's
    vintages (:class:`costmodel.core.schedules.LossVintages`): balances, used,
    expired; and the table's eligible opening balances summed over vintages 1..v
    (``cum``), the running sums its formulas take the losses used from."""
    s = x.r.schedules
    v = s.levered_vintages if levered else s.vintages
    rem, used, exp = v.balance[0], v.used[0], v.expired[0]
    cum = x.model.rows(x.tier).loss_eligible_sums(levered)
    return {"rem": rem, "cum": cum, "used": used, "exp": exp}


def loss_table(
    x: Tier,
    p: str,
    base: str,
    tax_key: str,
    tax_values: np.ndarray,
    what: str,
) -> None:
    """Loss corkscrew (``{p}loss_open/added/used/expired/close``), taxable profit,
    tax (``tax_key``) and the loss-vintage table for the annual result in row
    ``base`` (at each year's last month)."""
    cs, M, cur = x.cs, x.model.months, x.cur
    years = M // MONTHS_PER_YEAR
    t = _vintage_rows(x, levered=bool(p))
    pool = x.rows.loss_pool(levered=bool(p))
    keys = [f"{p}loss_{k}" for k in ("open", "added", "used", "expired", "close")]
    rem, cum, usedk, expk = _vintage_keys(p, years)
    # layout: the corkscrew, taxable profit and tax, then the vintage table in groups
    # (balances, eligible sums, used, expired: each group a block of rows to SUM)
    cs.reserve(*keys, f"{p}taxable", tax_key, *rem, *cum, *usedk, *expk)
    rows = (
        ("open", f"{what} loss pool, opening", f"={{{p}loss_close<}}", pool["open"], False),
        ("added", "plus loss of the year", f"=MAX(-{{{base}}},0)", pool["added"], False),
        (
            "used",
            "less loss used against profit (oldest first)",
            f"=SUM({{{usedk[0]}}}:{{{usedk[-1]}}})",
            pool["used"],
            False,
        ),
        (
            "expired",
            "less loss expired (older than the carry-forward period)",
            f"=SUM({{{expk[0]}}}:{{{expk[-1]}}})",
            pool["expired"],
            False,
        ),
        (
            "close",
            f"{what} loss pool, closing",
            f"={{{p}loss_open}}+{{{p}loss_added}}-{{{p}loss_used}}-{{{p}loss_expired}}",
            pool["close"],
            True,
        ),
    )
    for key, label, formula, values, bold in rows:
        cs.series(f"{p}loss_{key}", label, cur, formula, values, bold=bold)
    lev = "levered " if p else ""
    cs.series(
        f"{p}taxable",
        f"{lev}taxable profit = max(result of year, 0) - loss used",
        cur,
        f"=MAX({{{base}}},0)-{{{p}loss_used}}",
        pool["taxable"],
    )
    cs.series(
        tax_key,
        f"{lev}tax = tax rate x taxable profit",
        cur,
        f"=finance_tax_rate*{{{p}taxable}}",
        tax_values,
        total=True,
        bold=True,
    )
    _vintage_table(x, p, base, what, t)


def _vintage_keys(p: str, years: int) -> tuple[list[str], list[str], list[str], list[str]]:
    """The rows of the vintage table, one per vintage 1..``years`` in each group:
    balances, eligible sums, used, expired."""
    vs = range(1, years + 1)
    rem, cum = [f"{p}lv_rem_{v}" for v in vs], [f"{p}lv_cum_{v}" for v in vs]
    return rem, cum, [f"{p}lv_used_{v}" for v in vs], [f"{p}lv_exp_{v}" for v in vs]


def _vintage_table(x: Tier, p: str, base: str, what: str, t: dict[str, np.ndarray]) -> None:
    """The loss-vintage table of :func:`loss_table` (rows reserved there), with the
    cached values ``t`` (:func:`_vintage_rows`): per vintage v, the eligible opening
    balances of vintages 1..v, the loss used, the loss expired and the balance."""
    cs, cur = x.cs, x.cur
    years = x.model.months // MONTHS_PER_YEAR
    vs = range(1, years + 1)
    rem, cum, usedk, expk = _vintage_keys(p, years)
    N = "{$loss_years}"
    for i, v in enumerate(vs):
        elig = f"({{year}}>{{${rem[i]}}})*({{year}}-{{${rem[i]}}}<={N})"
        prev = f"{{{cum[i - 1]}}}+" if i else ""
        cs.series(
            cum[i],
            f"{what} vintage {v}: eligible opening balances, vintages 1..{v}",
            cur,
            f"={prev}{{{rem[i]}<}}*{elig}",
            t["cum"][i],
        )
    for i, v in enumerate(vs):
        below = f"{{{cum[i - 1]}}}" if i else "0"
        cs.series(
            usedk[i],
            f"{what} vintage {v}: used",
            cur,
            f"={{yearend}}*MAX(0,MIN(MAX({{{base}}},0),{{{cum[i]}}})-{below})",
            t["used"][i],
        )
    new = "({{year}}={{${r}}})*{{{p}loss_added}}"
    for i, v in enumerate(vs):
        flag = f"({{year}}={{${rem[i]}}}+{N})*{{yearend}}"
        cs.series(
            expk[i],
            f"{what} vintage {v}: expired",
            cur,
            f"={flag}*({{{rem[i]}<}}+{new.format(r=rem[i], p=p)}-{{{usedk[i]}}})",
            t["exp"][i],
        )
    for i, v in enumerate(vs):
        r = cs.series(
            rem[i],
            f"{what} vintage {v}: balance (constant: its year)",
            cur,
            f"={{{rem[i]}<}}+{new.format(r=rem[i], p=p)}-{{{usedk[i]}}}-{{{expk[i]}}}",
            t["rem"][i],
        )
        cs.ws.write_number(r, CONST_COL, v, cs.styles.cell("count"))


def gain_tax(
    x: Tier, p: str, base: str, gain: str, tax_key: str, key: str, values: np.ndarray
) -> None:
    """The part of the tax at M due to the terminal gain (methodology §11.9): the tax
    at M less ``rate x (max(base - gain, 0) - min(max(base - gain, 0), eligible
    losses))``, the tax the year would pay without the gain (the eligible losses of
    the vintage table, ``{p}lv_cum_Y``, do not depend on the last year)."""
    years = x.model.months // MONTHS_PER_YEAR
    cum = f"{{{p}lv_cum_{years}}}"
    without = f"MAX({{{base}}}-{{${gain}}},0)"
    x.cs.series(
        key,
        "of which: tax on the terminal gain after losses (at M)",
        x.cur,
        f"=({{{tax_key}}}-finance_tax_rate*({without}-MIN({without},{cum})))*{{last}}",
        values,
        total=True,
    )


def loss_inputs(x: Tier) -> None:
    """The carry-forward period as a constant (blank input = unlimited)."""
    x.cs.const(
        "loss_years",
        "loss carry-forward years (blank input: unlimited = the horizon in months)",
        "years",
        "=IF(ISBLANK(finance_loss_carryforward_years),model_months,"
        "finance_loss_carryforward_years)",
        loss_years(x),
        "count",
    )

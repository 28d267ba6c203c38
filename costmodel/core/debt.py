"""Debt: the monthly loan schedule and its sums per model year."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from costmodel.core import finance as fin
from costmodel.core.discount import DISCOUNTED, Discount, sum_rows
from costmodel.core.finance import FloatArray
from costmodel.core.memo import memoized
from costmodel.core.result import DEBT_LINES
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import CapexEvent, Clock, col, when
from costmodel.core.units import (
    MONTHS_PER_YEAR,
)


@dataclass(frozen=True)
class LoanTerms:
    """The terms of a loan alone (the fields of :class:`TierParams` a loan reads):
    what a unit loan is computed from."""

    interest_rate: FloatArray
    loan_rate_nominal: FloatArray
    term_years: FloatArray
    debt_share: FloatArray


def loan_rate(q: TierParams | LoanTerms) -> FloatArray:
    """The monthly loan rate of each variant (:func:`finance.loan_monthly_rate`
    of the interest rate in its convention)."""
    return fin.loan_monthly_rate(q.interest_rate, q.loan_rate_nominal)


@dataclass(frozen=True)
class Loan:
    """One loan of :func:`loans`: drawn at month ``month`` by the variants ``rows``
    (a slice for all), ``draw`` (R,), first payment month ``first_payment`` (R,),
    the balance capitalized until then ``capitalized_balance`` (R,), the level
    ``payment`` (R,), the monthly rate, and its lines (R, M+1) of
    :data:`DEBT_LINES` (the balloon at M)."""

    month: int
    rows: slice | np.ndarray
    draw: FloatArray
    first_payment: FloatArray
    capitalized_balance: FloatArray
    payment: FloatArray
    monthly_rate: FloatArray
    lines: dict[str, FloatArray]


def loans(
    q: TierParams | LoanTerms,
    capex_m: FloatArray,
    build: FloatArray,
    clock: Clock,
    every_capex_month: bool = False,
) -> list[Loan]:
    """The loans of methodology §8.2: the capex of each month t is financed
    ``debt_share`` by a loan ``D`` drawn at t. With ``r = loan_rate(interest
    rate)``, first payment ``p = max(t, B) + 1`` and ``n = 12 term_years``:
    interest accrues from t + 1 and is capitalized until p (``b = D (1 + r)^(p - 1
    - t)``); then level payments ``P = b r / (1 - (1 + r)^-n)`` (``b / n`` at r =
    0), interest ``r`` x the opening balance, principal ``P - interest``; what is
    owed at M is repaid at M (balloon). One :class:`Loan` per month where some
    variant borrows, with the lines of those variants (``every_capex_month``: per
    month with capex, a loan of 0 where nothing is borrowed, as the workbook
    lays them out). Besides :data:`DEBT_LINES` a loan has ``owed_share`` (the
    share of b still owed after the month's payment, 0 before p) and ``paying``
    (1 in its payment months p .. p + n - 1)."""
    size, width = capex_m.shape
    r_all = np.broadcast_to(col(loan_rate(q)), (size, 1))
    term = np.asarray(q.term_years, dtype=float) * MONTHS_PER_YEAR
    n_all = np.broadcast_to(col(term), (size, 1))
    share = np.broadcast_to(col(q.debt_share), (size, 1))
    build_all = np.broadcast_to(np.asarray(build, dtype=float), (size,))
    if not np.any(share) and not every_capex_month:
        return []
    full_all = np.power(1.0 + r_all, n_all)
    out = []
    for t in range(width - 1):
        draw = share[:, 0] * capex_m[:, t]
        rows = np.flatnonzero(capex_m[:, t] > 0 if every_capex_month else draw)
        if rows.size == 0:
            continue
        # only the variants that borrow at t (the others' lines get exact zeros)
        at = slice(None) if rows.size == size else rows
        out.append(_loan(t, at, draw[at], r_all[at], n_all[at], full_all[at], build_all[at], clock))
    return out


def _loan(
    t: int,
    at: slice | np.ndarray,
    draw: FloatArray,
    r: FloatArray,
    n: FloatArray,
    full: FloatArray,
    build: FloatArray,
    clock: Clock,
) -> Loan:
    """The :class:`Loan` of ``draw`` (R,) at month t (:func:`loans`), rates ``r``,
    terms ``n`` and ``full = (1 + r)^n`` (R, 1), construction months ``build``."""
    m = clock.m
    growth = 1.0 + r
    d = col(draw)
    p = col(np.maximum(t, build) + 1)
    b = d * np.power(growth, p - 1 - t)
    k = m - p  # payments made before month m
    paying = (m >= p) & (k < n)
    if np.any(r > 0):
        left = np.where(r > 0, (full - np.power(growth, k)) / np.where(r > 0, full - 1, 1), 0)
        left_after = np.where(
            r > 0, (full - np.power(growth, k + 1)) / np.where(r > 0, full - 1, 1), 0
        )
    else:
        left = left_after = 0.0
    flat = r == 0
    left = np.where(flat, 1.0 - k / n, left)
    left_after = np.where(flat, 1.0 - (k + 1) / n, left_after)
    opening = b * left
    building = (m > t) & (m < p)
    accrued = d * np.power(growth, m - t)
    close = np.where(m == t, d, 0.0) + np.where(building, accrued, 0.0)
    close = close + np.where(paying, b * np.maximum(left_after, 0.0), 0.0)
    lines = {
        "draw": clock.at(t, draw),
        "capitalized_interest": np.where(building, accrued - d * np.power(growth, m - 1 - t), 0.0),
        "interest": np.where(paying, r * opening, 0.0),
        "principal": np.where(paying, b * (left - left_after), 0.0),
        "balance_close": close,
        "owed_share": np.where(m >= p, np.maximum(left_after, 0.0), 0.0),
        "paying": paying.astype(float),
    }
    payment = np.where(flat, b / n, b * r / np.where(flat, 1.0, 1.0 - 1.0 / full))[:, 0]
    return Loan(t, at, draw, p[:, 0], b[:, 0], payment, r[:, 0], _with_balloon(lines))


def _with_balloon(lines: dict[str, FloatArray]) -> dict[str, FloatArray]:
    """``lines`` with what is owed at M repaid at M (the balloon) and the opening
    balances (the closing balances of the month before)."""
    before = lines["balance_close"]  # closing balances before the balloon
    balloon = np.zeros_like(before)
    balloon[:, -1] = before[:, -1]
    close = before.copy()
    close[:, -1] = 0.0
    opening = np.zeros_like(before)
    opening[:, 1:] = before[:, :-1]
    return {**lines, "balloon": balloon, "balance_close": close, "balance_open": opening}


def debt_schedule(
    q: TierParams | LoanTerms, capex_m: FloatArray, build: FloatArray, clock: Clock
) -> dict[str, FloatArray]:
    """The tier's debt (S, M+1) per line of :data:`DEBT_LINES`: the sum of its
    :func:`loans`' lines."""
    size, width = capex_m.shape
    lines = {k: np.zeros((size, width)) for k in DEBT_LINES}
    for loan in loans(q, capex_m, build, clock):
        for k in DEBT_LINES:
            lines[k][loan.rows] += loan.lines[k]
    return lines


@memoized()
def unit_debt(
    months: int, draws: tuple[int, ...], build: int, rate: float, nominal: float, term: float
):
    """Loans of 1 drawn at each month of ``draws`` (:func:`debt_schedule`), as
    matrices over the draws T: net debt cash flow ``draw - interest - principal -
    balloon`` (M+1, T); interest and debt service per model year (Y, T); the
    balance (closing plus balloon) at the months where the total can peak (C, T):
    B and the draw months after it (before B balances only grow, after it they
    only fall between draws)."""
    clock = Clock(months)
    q1 = LoanTerms(
        interest_rate=np.array([rate]),
        loan_rate_nominal=np.array([nominal]),
        term_years=np.array([term]),
        debt_share=np.array([1.0]),
    )
    cols = []
    for t in draws:
        unit = np.zeros((1, months + 1))
        unit[0, t] = 1.0
        cols.append(debt_schedule(q1, unit, np.array([float(build)]), clock))
    peaks = [build] + [t for t in draws if t > build]

    def stack(f: Callable[[dict[str, FloatArray]], FloatArray]) -> FloatArray:
        return np.ascontiguousarray(np.concatenate([f(u) for u in cols], axis=0).T)

    out = (
        stack(lambda u: u["draw"] - u["interest"] - u["principal"] - u["balloon"]),
        stack(lambda u: clock.by_year(u["interest"])),
        stack(lambda u: clock.by_year(u["interest"] + u["principal"])),
        stack(lambda u: (u["balance_close"] + u["balloon"])[:, peaks]),
    )
    for arr in out:
        arr.flags.writeable = False
    return out


def debt_by_year(
    q: TierParams,
    draws: dict[int, FloatArray],
    build: int,
    months: int,
    equity: Discount,
    one_loan: bool,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, Callable[[], FloatArray]]:
    """Interest and debt service per model year (Y, S), the debt peak and the PV
    of the net debt flows at the cost of equity (``equity``) (S,), and ``net()``
    those flows month by month (M+1, S): with one rate and term for every variant, the draws (T, S)
    times the schedules of unit loans (:func:`unit_debt`), else :func:`_loans`."""
    rate, term = when(q.interest_rate), when(q.term_years)
    nominal = when(q.loan_rate_nominal)
    amounts = np.stack(list(draws.values()))  # (T, S)
    e_disc = equity.table(months)
    one = rate.shape[0] == term.shape[0] == nominal.shape[0] == 1
    if one_loan and one and rate[0, 0] >= 0:
        unit = (months, tuple(draws), build, *(float(v[0, 0]) for v in (rate, nominal, term)))
        net_u, interest_u, service_u, peak_u = unit_debt(*unit)

        def net() -> FloatArray:
            return _combine(net_u, amounts)

        return (
            _combine(interest_u, amounts),
            _combine(service_u, amounts),
            _combine(peak_u, amounts).max(axis=0),
            (_unit_pv(unit, equity) * amounts).sum(axis=0),
            net,
        )
    # rates or terms differ between variants
    loans = _loans(q, draws, build, months, e_disc)
    return loans["interest_y"], loans["service_y"], loans["peak"], loans["pv_net"], loans["net"]


def _loans(
    q: TierParams,
    draws: dict[int, FloatArray],
    build: int,
    months: int,
    e_disc: FloatArray,
) -> dict[str, FloatArray | Callable[[], FloatArray]]:
    """:func:`debt_schedule` for draws at months shared by every variant, rates and
    terms per variant: ``interest_y`` and ``service_y`` (interest + principal, the
    level payments) per model year (Y, S), ``pv_net`` (S,) the present value at
    ``e_disc`` (M+1, 1 or S) of the net debt flows (draw - service - balloon),
    ``net()`` those flows month by month (M+1, S), ``peak`` (S,) the highest
    balance (closing plus balloon), at B or a draw month after it (balances only
    grow before B and only fall between later draws).

    A loan ``b`` repaid from month p owes ``left(k) = (F - g^k) / (F - 1)`` of it
    after k payments (``g = 1 + r``, ``F = g^n``; ``1 - k / n`` at r = 0): the
    interest of its payments k0 .. k1 - 1 is ``r b (c F - sum_k g^k) / (F - 1)``
    (c = k1 - k0 payments), with the powers of g from one table of repeated
    products, and the PV of level payments is the payment times a sum of discount
    factors: no line is built month by month (when terms differ between variants,
    the sums come from running sums gathered per variant)."""
    size = next(iter(draws.values())).shape[0]
    lt = _loan_terms(q, size, months, e_disc)
    years = months // MONTHS_PER_YEAR
    interest_y = np.zeros((years, size))
    service_y = np.zeros((years, size))
    pv_net = np.zeros(size)
    peaks = [build] + [t for t in draws if t > build]
    peak = np.zeros((len(peaks), size))
    loans = []
    for t, d in draws.items():
        p = max(t, build) + 1  # first payment
        b = d * lt.powers[p - 1 - t]
        payment = np.where(lt.flat, b / lt.n, b * lt.r * lt.full / lt.denominator)
        pv_net += d * e_disc[t]
        if p <= months:
            pv_net -= payment * _payment_discount(lt, p, months, e_disc)
            _add_payments(lt, p, b, payment, interest_y, service_y)
        owed_at_end = d * lt.powers[months - t] if months < p else b * _owed(lt, months - p + 1)
        pv_net -= owed_at_end * e_disc[months]  # balloon
        loans.append((t, p, d, payment, owed_at_end))
        for i, c in enumerate(peaks):
            if c >= p:
                peak[i] += b * _owed(lt, c - p + 1)
            elif c >= t:
                peak[i] += d * lt.powers[c - t]

    def net() -> FloatArray:
        return _net_debt_flows(loans, lt.n, months, size)

    return {
        "interest_y": interest_y,
        "service_y": service_y,
        "pv_net": pv_net,
        "net": net,
        "peak": peak.max(axis=0),
    }


@dataclass(frozen=True)
class _LoanTerms:
    """Per variant (S,): monthly rate ``r``, term ``n`` in months, ``n_pay =
    ceil(n)`` payments, ``powers`` (top+1, S) ``g^k = (1 + r)^k`` by repeated
    products, ``full = F = g^n``, ``flat``: r = 0, ``denominator``: F - 1 (1 where
    flat); when terms differ (``one_term`` False), running sums ``power_sums[k] =
    sum_{j<k} g^j`` and ``disc_sums[m] = sum_{j<m} e_disc(j)`` (gathered at
    ``disc_rows``)."""

    rows: np.ndarray
    r: FloatArray
    n: FloatArray
    n_pay: np.ndarray
    one_term: bool
    powers: FloatArray
    full: FloatArray
    flat: np.ndarray
    any_flat: bool
    denominator: FloatArray
    power_sums: FloatArray | None = None
    disc_sums: FloatArray | None = None
    disc_rows: np.ndarray | None = None


def _loan_terms(q: TierParams, size: int, months: int, e_disc: FloatArray) -> _LoanTerms:
    """The :class:`_LoanTerms` of rates and terms ``q`` for ``size`` variants."""
    rows = np.arange(size)
    r = np.broadcast_to(loan_rate(q), (size,))
    n = np.broadcast_to(np.asarray(q.term_years, dtype=float) * MONTHS_PER_YEAR, (size,))
    n_pay = np.ceil(n).astype(np.intp)  # payments k = 0 .. n_pay - 1 (k < n)
    one_term = bool(np.all(n_pay == n_pay[0]))
    top = int(max(months, np.max(n))) + 1
    powers = np.empty((top + 1, size))  # (1 + r)^k, k = 0..top
    powers[0] = 1.0
    growth = 1.0 + r
    for k in range(1, top + 1):  # repeated products, row after row
        np.multiply(powers[k - 1], growth, out=powers[k])
    full = powers[n.astype(np.intp), rows]
    flat = r == 0
    denominator = np.where(flat, 1.0, full - 1.0)
    terms = _LoanTerms(
        rows, r, n, n_pay, one_term, powers, full, flat, bool(np.any(flat)), denominator
    )
    if one_term:
        return terms
    power_sums = np.empty((top + 2, size))  # sum_{j < k} (1 + r)^j, k = 0..top+1
    power_sums[0] = 0.0
    for k in range(top + 1):
        np.add(power_sums[k], powers[k], out=power_sums[k + 1])
    disc_sums = np.empty((months + 2, e_disc.shape[1]))  # sum_{j < m} e_disc(j)
    disc_sums[0] = 0.0
    for m in range(months + 1):
        np.add(disc_sums[m], e_disc[m], out=disc_sums[m + 1])
    disc_rows = rows if e_disc.shape[1] > 1 else np.zeros(size, dtype=np.intp)
    return replace(terms, power_sums=power_sums, disc_sums=disc_sums, disc_rows=disc_rows)


def _owed(lt: _LoanTerms, k: int) -> FloatArray:
    """(S,): share of the loan still owed after k payments (k <= top):
    ``(F - g^k) / (F - 1)``, ``1 - k / n`` at r = 0, 0 once k >= n."""
    owed = (lt.full - lt.powers[k]) / lt.denominator
    if lt.any_flat:
        owed = np.where(lt.flat, 1.0 - k / lt.n, owed)
    return np.where(k < lt.n, owed, 0.0)


def _payment_discount(lt: _LoanTerms, p: int, months: int, e_disc: FloatArray) -> FloatArray:
    """(S,): ``sum_m e_disc(m)`` over the paying months p .. min(p + n_pay, M+1) - 1
    (the PV of level payments of 1 from month p)."""
    if lt.one_term:  # (the usual case: sums of rows, not gathers)
        last = min(p + int(lt.n_pay[0]), months + 1)  # paying months p .. last - 1
        return sum_rows(e_disc[p:last])
    last = np.minimum(p + lt.n_pay, months + 1)
    return lt.disc_sums[last, lt.disc_rows] - lt.disc_sums[p, lt.disc_rows]


def _add_payments(
    lt: _LoanTerms,
    p: int,
    b: FloatArray,
    payment: FloatArray,
    interest_y: FloatArray,
    service_y: FloatArray,
) -> None:
    """Adds to the model years (Y, S) the service ``payment * c`` and interest
    ``r b (c F - sum_{k0 <= k < k1} g^k) / (F - 1)`` of a loan ``b`` repaid from
    month p, c = k1 - k0 of its payments falling in the year."""
    years = interest_y.shape[0]
    n_one = int(lt.n_pay[0])
    rate = lt.r * b / lt.denominator
    for y in range((p - 1) // MONTHS_PER_YEAR, years):
        k0 = max(MONTHS_PER_YEAR * y + 1, p) - p
        if lt.one_term:
            k1 = max(min(MONTHS_PER_YEAR * (y + 1) + 1 - p, n_one), k0)
            if k1 == k0:
                break
            c, sums = k1 - k0, lt.powers[k0:k1].sum(axis=0)
        else:
            k1 = np.minimum(MONTHS_PER_YEAR * (y + 1) + 1 - p, lt.n_pay)  # (S,)
            c = np.maximum(k1 - k0, 0)
            sums = lt.power_sums[np.maximum(k1, k0), lt.rows] - lt.power_sums[k0]
        service_y[y] += payment * c
        interest_y[y] += rate * (c * lt.full - sums)


def _net_debt_flows(
    loans: list[tuple[int, int, FloatArray, FloatArray, FloatArray]],
    n: FloatArray,
    months: int,
    size: int,
) -> FloatArray:
    """(M+1, S): ``draw(t) - payment [p <= m < p + n] - balloon [m = M]`` summed
    over the loans (t, p, draw, payment, balloon)."""
    out = np.zeros((months + 1, size))
    for t, p, d, payment, owed_at_end in loans:
        out[t] += d
        if p <= months:
            paying = np.arange(months + 1 - p, dtype=float)[:, None] < n
            out[p:] -= np.where(paying, payment, 0.0)
        out[months] -= owed_at_end
    return out


def _unit_pv(unit: tuple, equity: Discount) -> FloatArray:
    """Present values (T, 1 or S) of the net flows of the unit loans of
    :func:`unit_debt` ``(*unit)`` at the cost of equity, kept in
    :data:`DISCOUNTED` (tiers with the same draws share them)."""

    def compute() -> FloatArray:
        units, disc = unit_debt(*unit)[0], equity.table(unit[0])
        return np.stack([sum_rows(units[:, j, None] * disc) for j in range(units.shape[1])])

    return DISCOUNTED.get(("unit loans", unit, equity.key), compute)


def _combine(units: FloatArray, amounts: FloatArray) -> FloatArray:
    """``units @ amounts`` ((R, T) x (T, S)) by elementwise products, so that each
    variant's result does not depend on its position in the chunk."""
    out = units[:, 0, None] * amounts[0]
    for j in range(1, amounts.shape[0]):
        out += units[:, j, None] * amounts[j]
    return out


def debt_draws(q: TierParams, capex_at: dict[int, FloatArray]) -> dict[int, FloatArray]:
    """The debt drawn at each capex month, ``debt share * capex(m)`` (S,), for the
    months where some variant borrows."""
    drawn = {m: q.debt_share * a for m, a in capex_at.items()}
    return {m: d for m, d in drawn.items() if np.any(d)}


def borrowing_variants(q: TierParams, capex_at: dict[int, FloatArray]) -> np.ndarray:
    """(S,) bool: the variants that draw debt at some capex month."""
    drawn = list(debt_draws(q, capex_at).values())
    return np.any(np.stack(drawn) != 0, axis=0) if drawn else np.zeros(q.gpus.shape, bool)


def borrows(q: TierParams, capex_at: dict[int, FloatArray]) -> bool:
    """Whether any variant borrows (else ECF = FCF and the equity IRR is the IRR)."""
    return bool(debt_draws(q, capex_at))


def capitalized_events(
    q: TierParams, events: list[CapexEvent], build: FloatArray
) -> list[CapexEvent]:
    """The interest capitalized on each capex event's loan, as an asset of the
    event's class in service with it (methodology §11.8): the loan of month t,
    ``debt_share capex(t)``, has capitalized ``balance at its first payment - draw
    = D ((1 + r)^max(B - t, 0) - 1)`` (:func:`loans`: ``p - 1 - t = max(B - t,
    0)``), allocated to the month's events pro rata to their cost, so event e
    carries ``debt_share cost_e ((1 + r)^max(B - t_e, 0) - 1)``. Only events paid
    before B (the facility during construction) carry any; none without debt."""
    if not np.any(q.debt_share):
        return []
    growth = 1.0 + loan_rate(q)
    out = []
    for e in events:
        months = np.maximum(np.asarray(build, dtype=float) - e.month, 0.0)
        if not np.any(months):
            continue
        amount = q.debt_share * e.amount * (np.power(growth, months) - 1.0)
        out.append(CapexEvent(e.cls, amount, e.month, e.in_service))
    return out

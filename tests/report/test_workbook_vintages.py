"""The loss-vintage table's cached values, the engine's loss vintages
(:func:`costmodel.core.schedules.loss_vintages`, placed at the months), equal the
sheet formulas' rules applied one vintage and one month at a time."""

from __future__ import annotations

import numpy as np
import pytest

from costmodel.core.schedules import loss_vintages
from costmodel.core.timing import Clock


def one_at_a_time(base: np.ndarray, n: float, months: int) -> dict[str, np.ndarray]:
    """The rules of the vintage rows as the sheet's formulas state them, cell by cell:
    eligible opening balances summed oldest first, ``MAX(0, MIN(profit, S_v) -
    S_v-1)`` used at year ends, the loss of year v added to vintage v, what is left
    at the end of year v + N expired."""
    years = months // 12
    out = {k: np.zeros((years, months + 1)) for k in ("rem", "cum", "used", "exp")}
    for c in range(months + 1):
        year, yearend = -(-c // 12), float(c % 12 == 0 and c >= 1)
        added, profit = max(-base[c], 0.0), max(base[c], 0.0)
        below = 0.0
        for i in range(years):
            v = i + 1
            prev = out["rem"][i, c - 1] if c else 0.0
            elig = float(year > v and year - v <= n)
            cum = below + prev * elig
            used = yearend * max(0.0, min(profit, cum) - below)
            new = added if year == v else 0.0
            exp = float(year == v + n) * yearend * (prev + new - used)
            out["cum"][i, c], out["used"][i, c], out["exp"][i, c] = cum, used, exp
            out["rem"][i, c] = prev + new - used - exp
            below = cum
    return out


@pytest.mark.parametrize("seed", range(12))
def test_vintages_equal_the_rules_cell_by_cell(seed):
    rng = np.random.default_rng(seed)
    months = int(rng.choice([12, 36, 72, 120]))
    base = rng.normal(0, 1e6, months + 1) * (rng.random(months + 1) < 0.5)
    if seed % 3 == 0:
        base = np.round(base, -5)  # ties between profit and balances
    base[rng.random(months + 1) < 0.2] = -0.0
    base[np.arange(months + 1) % 12 != 0] = 0.0  # a year's result at its last month
    n = int(rng.choice([0, 1, 2, 5, months]))
    expected, got = one_at_a_time(base, float(n), months), engine_table(base, n, months)
    for k in ("rem", "used", "exp"):
        np.testing.assert_allclose(got[k], expected[k], rtol=1e-12, atol=1e-6, err_msg=k)


def engine_table(base: np.ndarray, n: int, months: int) -> dict[str, np.ndarray]:
    """The engine's vintages of the yearly results ``base[12 y]``, at the months."""
    taxable_y = base[12::12][None, :]
    v = loss_vintages(taxable_y, 0.25, n, Clock(months))
    return {"rem": v.balance[0], "used": v.used[0], "exp": v.expired[0]}


def test_a_loss_expires_after_n_years():
    """A loss of 100 in year 1, no profit after: it is gone at the end of year 1 + N."""
    months, n = 60, 2.0
    base = np.zeros(months + 1)
    base[12] = -100.0
    t = engine_table(base, int(n), months)
    assert t["rem"][0, 12] == 100.0 and t["rem"][0, 35] == 100.0
    assert t["exp"][0, 36] == 100.0 and t["rem"][0, 36] == 0.0

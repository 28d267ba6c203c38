"""The loss-vintage table's cached values (computed all vintages at once) equal the
formulas' rules applied one vintage and one month at a time, to the bit: the
cached values are written into the workbook, so a signed zero would change it."""

from __future__ import annotations

import numpy as np
import pytest

from costmodel.report.workbook.money import _vintages


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
    n = float(rng.choice([1, 2, 5, months]))
    expected, got = one_at_a_time(base, n, months), _vintages(base, n, months)
    for k, table in expected.items():
        assert np.array_equal(table.view(np.int64), got[k].view(np.int64)), k


def test_a_loss_expires_after_n_years():
    """A loss of 100 in year 1, no profit after: it is gone at the end of year 1 + N."""
    months, n = 60, 2.0
    base = np.zeros(months + 1)
    base[12] = -100.0
    t = _vintages(base, n, months)
    assert t["rem"][0, 12] == 100.0 and t["rem"][0, 35] == 100.0
    assert t["exp"][0, 36] == 100.0 and t["rem"][0, 36] == 0.0

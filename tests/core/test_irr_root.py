"""The IRR root (methodology §11.2): among the monthly rates in (-1, 10] at which NPV
changes sign from positive (lower rate) to negative (higher rate), the one nearest
0; the roots in that range are counted, so that several can be said so."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import costmodel as cm
from costmodel.core import irrsolve, irrtrace
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir

MONTHS = 72  # a 6-year horizon


def equity_flow_with_roots(i_rising: float, i_falling: float) -> np.ndarray:
    """A 6-year equity flow of the issue's shape: -100 at month 0, a level net cash
    c in months 1..72 and, at 72, a balloon of a 10-year loan repaid beyond what
    the terminal value brings (T < 0); c and T solved (2 x 2) so that NPV is 0 at
    both monthly rates given."""
    m = np.arange(1, MONTHS + 1)
    rows, rhs = [], []
    for i in (i_rising, i_falling):
        x = 1.0 / (1.0 + i)
        rows.append([np.sum(x**m), x**MONTHS])
        rhs.append(100.0)
    c, t = np.linalg.solve(np.array(rows), np.array(rhs))
    flow = np.r_[-100.0, np.full(MONTHS, c)]
    flow[-1] += t
    return flow


def roots_by_polynomial(flow: np.ndarray) -> list[tuple[float, float]]:
    """Independently of the solver: the real roots x > 0 of ``sum_m v_m x^m``
    (``numpy.roots``), as monthly rates ``i = 1/x - 1`` in (-1, 10], each with the
    sign of dNPV/di there (NPV(i) = p(1/(1+i)), dNPV/di = -p'(x) x^2)."""
    coefficients = flow[::-1]  # numpy.roots: highest power first
    out = []
    for z in np.roots(coefficients):
        if abs(z.imag) > 1e-9 or z.real <= 0:
            continue
        x = z.real
        i = 1.0 / x - 1.0
        if -1.0 < i <= 10.0:
            slope = -np.polyval(np.polyder(coefficients), x) * x * x
            out.append((i, float(np.sign(slope))))
    return sorted(out)


def npv_at_annual(flow: np.ndarray, rate: float) -> float:
    """NPV at an annual rate compounded monthly (methodology §1), by hand."""
    monthly = (1.0 + rate) ** (1.0 / 12.0) - 1.0
    return float(np.sum(flow * (1.0 + monthly) ** -np.arange(flow.size)))


class TestTheIssuesExample:
    """A 10-year loan on a 6-year horizon: the equity flow repays a balloon at M and
    has two roots, -37.9% a year (NPV rising through 0) and 59.6% (falling). v2
    reported -37.9% beside a positive equity NPV at a 12% cost of equity."""

    flow = equity_flow_with_roots(0.621 ** (1 / 12) - 1, 1.596 ** (1 / 12) - 1)

    def test_the_polynomial_has_the_two_roots(self):
        found = roots_by_polynomial(self.flow)
        assert len(found) == 2
        (rising, up), (falling, down) = found
        assert (1 + rising) ** 12 - 1 == pytest.approx(-0.379, abs=1e-9)
        assert (1 + falling) ** 12 - 1 == pytest.approx(0.596, abs=1e-9)
        assert (up, down) == (1.0, -1.0)
        assert abs(rising) < abs(falling)  # v2's "nearest 0 of any direction" took -37.9%

    def test_the_irr_is_the_falling_root_and_agrees_with_the_npv(self):
        (_, _), (falling, _) = roots_by_polynomial(self.flow)
        irr = irrsolve.irr_annual(self.flow)[0]
        assert irr == pytest.approx((1 + falling) ** 12 - 1, rel=1e-10)
        assert irr == pytest.approx(0.596, abs=1e-9)
        assert npv_at_annual(self.flow, 0.12) > 0  # the equity NPV at 12%
        assert irr > 0.12

    def test_two_roots_are_counted(self):
        assert irrsolve.irr_root_count(self.flow)[0] == 2
        assert irrsolve.irr_root_count(self.flow[None, :].repeat(3, axis=0)).tolist() == [2, 2, 2]

    def test_the_workbook_trace_brackets_the_same_root(self):
        trace = irrtrace.bisect_trace(self.flow, 60)
        assert trace.found
        assert trace.start == pytest.approx(irrsolve.irr_monthly(self.flow)[0], abs=1e-12)
        assert trace.sign_lo == 1.0  # NPV positive at the lower end


def test_a_flow_whose_npv_only_rises_has_no_irr():
    """Money received first and paid back later (a loan): NPV rises through 0 at
    its root, which is no rate of return."""
    flow = np.r_[100.0, np.full(12, -10.0)]
    assert roots_by_polynomial(flow)[0][1] == 1.0
    assert np.isnan(irrsolve.irr_monthly(flow)[0])
    assert irrsolve.irr_root_count(flow)[0] == 1


def test_one_root_flows_keep_their_irr():
    """An ordinary investment (one root, NPV falling through it) is unchanged:
    its IRR is the polynomial's one root."""
    flow = np.r_[-1000.0, np.full(36, 40.0)]
    ((i, slope),) = roots_by_polynomial(flow)
    assert slope == -1.0
    assert irrsolve.irr_monthly(flow)[0] == pytest.approx(i, rel=1e-12)
    assert irrsolve.irr_root_count(flow)[0] == 1


BANK = scenarios_dir() / "bank-loan.yaml"
#: a 10-year loan on the 6-year default: a balloon at M
BALLOON = {"financing.term_years": 10}
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(
    price=st.floats(8.0, 60.0),
    utilization=st.floats(0.2, 1.0),
    debt_share=st.floats(0.0, 0.9),
    term=st.sampled_from([3, 5, 10, 15]),
)
def test_an_irr_is_above_its_hurdle_exactly_when_its_npv_is_positive(
    price, utilization, debt_share, term
):
    """For every tier of the bundled default and of the financed overlay (a loan of
    up to 15 years on 6: a balloon), at generated prices, utilizations, debt shares
    and terms: ``irr > discount_rate`` exactly when ``npv > 0``, and ``equity_irr >
    cost_of_equity`` exactly when ``equity_npv > 0`` (an empty IRR is above no
    hurdle)."""
    over = {"revenue.price_per_gpu_hour": price, "operations.utilization": utilization}
    plain = cm.load_assumptions(overrides=over)
    bank = cm.load_assumptions(
        default_assumptions_dir(),
        BANK,
        overrides={**over, "financing.debt_share": debt_share, "financing.term_years": term},
    )
    for a in (plain, bank):
        model = cm.build(a)
        s, roots = model.summary(), model.irr_roots()
        for t in s.index:
            row = s.loc[t]
            # the rate the NPV is discounted at: the default's is the WACC of the
            # financing (methodology §11.10), the bank loan's below its cost of equity
            hurdle = row["discount_rate"]
            equity = a.financing.cost_of_equity.value if a.financing else hurdle
            for irr, npv, rate in (("irr", "npv", hurdle), ("equity_irr", "equity_npv", equity)):
                above = bool(row[irr] > rate)  # NaN: above nothing
                if abs(row[npv]) > 1e-6 * abs(row["capex"]):  # not a root itself
                    # with several roots NPV is positive only between two of them, so no
                    # single rate agrees with it at every hurdle: the memo says so beside
                    # the IRR (methodology §11.2); with one root they always agree
                    agree = above == (row[npv] > 0)
                    assert agree or roots[t][irr] >= 2, (t, irr, row[irr], row[npv])


def test_the_model_counts_the_roots_of_a_balloon_loan():
    """The default at a GPU-hour price of 30 with a 10-year loan: the equity flows of
    hundreds and thousands have two roots each (the balloon at M), the project's
    one; the reported equity IRR is the falling root, above the cost of equity
    where the equity NPV is positive."""
    a = cm.load_assumptions(
        default_assumptions_dir(), BANK, overrides={**BALLOON, "revenue.price_per_gpu_hour": 30}
    )
    model = cm.build(a)
    counts = model.irr_roots()
    s = model.summary()
    for t in ("hundreds", "thousands"):
        ecf = model.results[t].flows["ecf"][0]
        found = roots_by_polynomial(ecf)
        assert counts[t] == {"irr": 1, "equity_irr": len(found)} == {"irr": 1, "equity_irr": 2}
        falling = [i for i, slope in found if slope < 0]
        assert s.loc[t, "equity_irr"] == pytest.approx((1 + falling[0]) ** 12 - 1, rel=1e-9)
        cost = a.financing.cost_of_equity.value
        assert (s.loc[t, "equity_irr"] > cost) == (s.loc[t, "equity_npv"] > 0)


@pytest.mark.parametrize("runs", [None, (1, 71, 1)])
def test_a_root_near_minus_100_percent_a_month_converges_in_few_steps(runs):
    """-1 at month 0 and c at month 72 with c = 0.1^72: NPV(i) = -1 + c (1 + i)^-72
    is 0 at i = -0.9 a month (1 + i = c^(1/72)). Newton's method in x = 1/(1 + i)
    from x near 10 shrinks x by about 1/72 a step; the solver's steps on the
    reversed polynomial find it within 20 iterations."""
    c = 0.1**72
    flow = np.r_[-1.0, np.zeros(71), c] if runs is None else np.array([-1.0, 0.0, c])
    i = irrsolve.irr_monthly(flow[None, :], max_iter=20, runs=runs)[0]
    assert i == pytest.approx(-0.9, rel=1e-12)


def test_flows_whose_cumulative_sums_stay_at_or_below_0_have_no_irr():
    """-10, 5, -20: the sums from the front (-10, -5, -25) and from the back (-20,
    -15, -25) never exceed 0, so NPV = -10 + 5x - 20x^2 (x = 1/(1 + i)) is below 0
    at every rate (its discriminant 25 - 800 < 0): no IRR, and no search. The same
    test does not skip flows with a root: -10, 25, -10 has NPV 0 at x = 1/2 and 2,
    i = 1 (NPV falling through 0: the IRR) and i = -1/2 (rising)."""
    assert np.isnan(irrsolve.irr_monthly([[-10.0, 5.0, -20.0]])[0])
    assert irrsolve.irr_monthly([[-10.0, 25.0, -10.0]])[0] == pytest.approx(1.0, rel=1e-12)

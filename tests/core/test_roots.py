"""The bracketing root finder: IRR against textbook cases, numpy-financial and
LibreOffice Calc; brackets, the grid solver and the workbook's bisection trace."""

from __future__ import annotations

import numpy as np
import numpy_financial as npf
import pytest

from costmodel.core import irrsolve, irrtrace, roots


class TestIrr:
    def test_textbook_cases(self):
        # -100 then 110: 10% per period; -100, 0, 121: 10% per period
        assert irrsolve.irr_monthly([-100, 110])[0] == pytest.approx(0.1, rel=1e-12)
        assert irrsolve.irr_monthly([-100, 0, 121])[0] == pytest.approx(0.1, rel=1e-12)

    def test_matches_numpy_financial_on_ordinary_flows(self):
        flows = [-5000, 800, 1200, 1500, 1800, 900, 700]
        assert irrsolve.irr_monthly(flows)[0] == pytest.approx(npf.irr(flows), rel=1e-10)

    def test_matches_libreoffice_irr(self):
        # LibreOffice Calc IRR({-70000,12000,15000,18000,21000,26000}) = 0.0866309480365316
        flows = [-70000, 12000, 15000, 18000, 21000, 26000]
        assert irrsolve.irr_monthly(flows)[0] == pytest.approx(0.0866309480365316, rel=1e-10)
        # LibreOffice Calc IRR({-5000,800,1200,1500,1800,900,700}) = 0.102006017803933
        flows = [-5000, 800, 1200, 1500, 1800, 900, 700]
        assert irrsolve.irr_monthly(flows)[0] == pytest.approx(0.102006017803933, rel=1e-10)

    def test_no_sign_change_gives_nan(self):
        assert np.isnan(irrsolve.irr_monthly([100, 10, 10])[0])
        assert np.isnan(irrsolve.irr_monthly([-100, -10, 0])[0])
        assert np.isnan(irrsolve.irr_monthly([0, 0, 0])[0])

    def test_sign_change_without_root_gives_nan(self):
        # 100, -300, 250: NPV(x) = 100 - 300x + 250x^2 has no real root
        assert np.isnan(irrsolve.irr_monthly([100, -300, 250])[0])

    def test_several_roots_pick_the_one_nearest_zero(self):
        # (1 - 1.1x)(1 - 1.3x)(1 - 3x)... flows with roots at 10%, 30% and 200%:
        # polynomial in x = 1/(1+i) with roots x = 1/1.1, 1/1.3, 1/3
        roots_x = np.array([1 / 1.1, 1 / 1.3, 1 / 3.0])
        coeffs = np.poly(roots_x)[::-1]  # ascending powers of x
        irr = irrsolve.irr_monthly(coeffs)[0]
        assert irr == pytest.approx(0.1, rel=1e-9)
        # and a negative root nearer zero than the positive one wins
        roots_x = np.array([1 / 0.97, 1 / 1.2])  # -3% and +20%
        assert irrsolve.irr_monthly(np.poly(roots_x)[::-1])[0] == pytest.approx(-0.03, rel=1e-9)

    def test_two_roots_10_and_20_percent(self):
        # -100 + 230x - 132x^2 (x = 1/(1+i)) has roots at 10% and 20%; NPV rises
        # through 0 at 10% (NPV(0) = -2 < 0) and falls through 0 at 20%: the IRR is
        # the falling root (methodology §11.2), and two roots are counted
        flows = [-100, 230, -132]
        assert irrsolve.irr_monthly(flows)[0] == pytest.approx(0.2, rel=1e-9)
        assert irrsolve.irr_root_count(flows)[0] == 2

    def test_investment_after_a_zero_month(self):
        assert irrsolve.irr_monthly([0, -100, 110])[0] == pytest.approx(0.1, rel=1e-12)

    def test_vectorised_rows_are_independent(self):
        rows = np.array([[-100, 110, 0], [-100, 0, 121], [100, 10, 10]], dtype=float)
        out = irrsolve.irr_monthly(rows)
        np.testing.assert_allclose(out[:2], [0.1, 0.1])
        assert np.isnan(out[2])

    def test_a_72_month_project_takes_two_newton_passes(self, monkeypatch):
        """The start point interpolated through four grid rates and the stop that
        predicts the next (quadratic) step need two Horner passes for an
        ordinary 72-month project; the root equals numpy-financial's to 1e-12."""
        flows = np.r_[-2_000_000.0, np.full(6, -20_000.0), np.full(66, 45_000.0)]
        flows[12::12] -= 30_000.0  # tax at year ends
        passes = []
        horner = irrsolve._horner_t
        monkeypatch.setattr(irrsolve, "_horner_t", lambda v, x: passes.append(1) or horner(v, x))
        got = irrsolve.irr_monthly(flows)[0]
        assert got == pytest.approx(npf.irr(flows), rel=1e-12)
        assert len(passes) == 2

    def test_flows_given_per_run_of_months_give_the_irr_of_the_months(self):
        """``runs``: each of the runs[r] months of run r carries values[:, r]; the
        IRR equals the IRR of the same flows written out month by month (and
        numpy-financial's), rows without an IRR stay NaN."""
        runs = (1, 5, 1, 1, 1, 1, 1, 1, 11, 1, 11, 1, 23, 1, 13)
        capex, build, ramp, steady, tax = -2_000_000.0, -20_000.0, 30_000.0, 45_000.0, -60_000.0
        by_run = np.array(
            [
                [capex, build, build, ramp, ramp, ramp, ramp, ramp, steady, tax, steady,
                 tax, steady, tax, steady],
                [100.0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],  # no sign change: no IRR
                [50.0, -30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ]
        )  # fmt: skip
        months = np.repeat(by_run, runs, axis=1)
        assert months.shape[1] == sum(runs) == 73
        got = irrsolve.irr_monthly(by_run, runs=runs)
        want = irrsolve.irr_monthly(months)
        assert got[0] == pytest.approx(want[0], rel=1e-12)
        assert got[0] == pytest.approx(npf.irr(months[0]), rel=1e-12)
        assert np.isnan(got[1]) and np.isnan(want[1])
        # 50 then 5 x -30: NPV = 50 - 30 sum_(m=1..5) (1+i)^-m rises through 0 at its
        # one root (a loan taken, not an investment): no IRR (methodology §11.2)
        assert npf.irr(months[2]) == npf.irr(months[2])  # numpy-financial finds the root
        assert irrsolve.irr_root_count(by_run, runs=runs)[2] == 1
        assert np.isnan(got[2]) and np.isnan(want[2])
        assert irrsolve.irr_annual(by_run, runs=runs)[0] == pytest.approx((1 + want[0]) ** 12 - 1)
        for wrong in (runs[:-1], (0, *runs[1:])):  # a length per value, each at least 1
            with pytest.raises(ValueError, match="runs must give 15 lengths"):
                irrsolve.irr_monthly(by_run, runs=wrong)

    def test_horner_on_runs_equals_horner_on_the_months(self):
        """A run of L months of value v is v x^a (1 + x + ... + x^(L-1)): the
        polynomial, its derivative and the size of its terms equal those of the
        months written out (to rounding)."""
        rng = np.random.default_rng(4)
        runs = (1, 12, 3, 1, 7, 1, 2)
        values = rng.normal(size=(len(runs), 9))
        months = np.repeat(values, runs, axis=0)
        x = rng.uniform(0.8, 1.1, 9)
        p, dp = irrsolve._horner_runs_t(values, x.copy(), runs)
        np.testing.assert_allclose(p, irrsolve._horner_t(months, x.copy())[0], rtol=1e-12)
        np.testing.assert_allclose(dp, irrsolve._horner_t(months, x.copy())[1], rtol=1e-12)
        # written out: p(x) = sum_m v_m x^m, p'(x) = sum_m m v_m x^(m-1)
        m = np.arange(months.shape[0])[:, None]
        np.testing.assert_allclose(p, (months * x**m).sum(axis=0), rtol=1e-12)
        np.testing.assert_allclose(
            dp, (m * months * x ** np.maximum(m - 1, 0)).sum(axis=0), rtol=1e-12
        )
        signed, size = irrsolve._horner_runs_t(values, x.copy(), runs, absolute=True)
        np.testing.assert_allclose(signed, p, rtol=1e-12)
        np.testing.assert_allclose(size, (np.abs(months) * x**m).sum(axis=0), rtol=1e-12)

    def test_inverse_interpolation_through_four_points_is_exact_for_a_cubic(self):
        # x = 0.9 + 0.1 f - 0.02 f^2 + 0.003 f^3 at f = -2, -1, 1, 2: x(0) = 0.9
        fs = tuple(np.array([f]) for f in (-2.0, -1.0, 1.0, 2.0))
        xs = tuple(0.9 + 0.1 * f - 0.02 * f**2 + 0.003 * f**3 for f in fs)
        assert irrsolve._inverse_interpolation(xs, fs)[0] == pytest.approx(0.9, rel=1e-14)

    def test_annualize(self):
        assert irrsolve.irr_annual([-100, 101])[0] == pytest.approx(1.01**12 - 1)


def test_brackets_mark_sign_changes_and_single_zero_ends():
    f = np.array([[1.0, 2.0, -1.0, 0.0, 0.0, 3.0, np.nan, -2.0]])
    # 2 -> -1 changes sign; -1 -> 0 does; 0 -> 0 does not; 0 -> 3 does; NaN ends never
    assert roots.brackets(f)[0].tolist() == [False, True, True, False, True, False, False]


def test_first_bracket_finds_the_first_root_exact_zeros_included():
    grid = np.array([0.0, 1.0, 2.0, 3.0])
    # 1 -> 0 brackets the zero at grid point 1 (its upper end), before 0 -> -1
    b = roots.first_bracket(grid, [[1.0, 0.0, 0.0, -1.0]])
    assert [float(x[0]) for x in b] == [0.0, 1.0, 1.0, 0.0]
    assert roots.secant_root(*b)[0] == 1.0
    b = roots.first_bracket(grid, [[0.0, 0.0, 2.0, -1.0]])  # a zero at the first point
    assert [float(x[0]) for x in b] == [0.0, 0.0, 0.0, 0.0]
    lo, hi, *_ = roots.first_bracket(grid, [[1.0, 2.0, 3.0, 4.0]])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    b = roots.first_bracket(grid, [[1.0, 2.0, 3.0, 0.0]])  # a zero at the last point
    assert roots.secant_root(*b)[0] == 3.0


def test_solve_finds_known_roots_of_several_problems_in_one_call():
    calls = []

    def evaluate(points):
        calls.append(len(points))
        # problem 0: x^2 - 2 on [0, 2]; problem 1: 1 - x on [0, 10]; problem 2: no root
        return [points[0] ** 2 - 2, 1 - points[1], points[2] + 5]

    sol = roots.solve(evaluate, [0, 0, 0], [2, 10, 1])
    assert sol.root[0] == pytest.approx(2**0.5, rel=1e-12)
    assert sol.root[1] == pytest.approx(1.0, rel=1e-12)
    assert np.isnan(sol.root[2])
    assert set(calls) == {3}  # every round evaluates all problems together


def test_solve_stops_a_problem_whose_samples_lie_on_a_line():
    """A problem stops once the samples around its bracket (one before it to one
    after it) lie on one line: the secant of the bracket is then the root. A kink
    far from the bracket does not hold it back, a kink in it keeps it going; a
    solved problem gets no points, and the rounds end when every problem is solved."""
    sizes = []

    def evaluate(points):
        sizes.append([p.size for p in points])
        far = points[1] - 0.99 + 2.0 * np.maximum(points[1] - 1.3, 0.0)  # kink at 1.3
        near = points[2] - 1.01 + 2.0 * np.maximum(points[2] - 1.04, 0.0)  # kink at 1.04
        return [3.0 - 2.0 * points[0], far, near, points[3] ** 2 - 2.0]

    sol = roots.solve(evaluate, [0.0] * 4, [10.0, 2.0, 2.0, 2.0])
    assert sol.root[0] == pytest.approx(1.5, rel=1e-15)
    assert sol.root[1] == pytest.approx(0.99, rel=1e-15)
    assert sol.root[2] == pytest.approx(1.01, rel=1e-15)
    assert sol.root[3] == pytest.approx(2**0.5, rel=1e-12)
    # round 1: the line and the far kink ([0.9375, 1] on one piece with its
    # neighbours) stop; the bracket [1, 1.0625] holds the kink at 1.04, so round 2
    # samples it (step 1/512: the kink is then far); x^2 - 2 goes on until its
    # samples around the bracket are straight to 1e-12 (round 7)
    assert sizes[:3] == [[33, 33, 33, 33], [0, 0, 33, 33], [0, 0, 0, 33]]
    assert sizes[3:] == [[0, 0, 0, 33]] * 4
    only_lines = []
    roots.solve(lambda p: only_lines.append(1) or [1.0 - p[0]], [0.0], [4.0])
    assert only_lines == [1]  # solved in the first round: no further call


def test_a_kink_beside_the_bracket_keeps_the_search_going():
    """The kink at 1.07 lies in the interval after the bracket [1, 1.0625] of the
    root 1.01: the four samples around the bracket are off one line, so the search
    goes on (a kink in the next interval may bend the line into the bracket)."""
    sizes = []

    def evaluate(points):
        sizes.append([p.size for p in points])
        return [points[0] - 1.01 + 2.0 * np.maximum(points[0] - 1.07, 0.0)]

    sol = roots.solve(evaluate, [0.0], [2.0])
    assert sol.root[0] == pytest.approx(1.01, rel=1e-15)
    assert sizes == [[33], [33]]


def test_linear_is_a_line_to_its_tolerance():
    x = np.linspace(0.0, 1.0, 33)
    assert roots.linear(x, 1e6 * (x - 0.3))
    assert not roots.linear(x, 1e6 * (x - 0.3) + 1e-3 * (x == x[16]))  # 1e-9 off
    assert not roots.linear(x, np.where(x < 0.5, x, np.nan))


def test_bisect_trace_halves_the_bracket_nearest_zero():
    flows = np.array([-100.0, 0.0, 121.0])  # IRR 10% a month
    t = irrtrace.bisect_trace(flows, 60)
    assert t.found
    assert t.grid[t.chosen] <= 0.1 <= t.grid[t.chosen + 1]
    assert t.start == pytest.approx(0.1, rel=1e-12)
    widths = (t.hi - t.lo)[:30]  # before the bracket reaches the resolution of doubles
    np.testing.assert_allclose(widths[1:] / widths[:-1], 0.5, rtol=1e-6)
    np.testing.assert_allclose(t.npv, [npf.npv(r, flows) for r in t.grid], rtol=1e-12, atol=1e-9)


def test_bisect_trace_without_a_root():
    t = irrtrace.bisect_trace(np.array([100.0, 10.0, 10.0]), 10)
    assert not t.found and t.chosen == 0 and np.isnan(t.start)


def test_irr_trace_of_the_equity_cash_flow_finds_the_equity_irr():
    """Model.irr_trace traces the equity cash flow as it does the free cash flow
    (the workbook's IRR sheet uses both): its bisection lands on the engine's
    equity IRR, and an unknown flow name is refused."""
    import pytest

    import costmodel as cm
    from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir

    a = cm.load_assumptions(
        default_assumptions_dir(),
        scenarios_dir() / "bank-loan.yaml",
        overrides={"revenue.price_per_gpu_hour": 40.0},
    )
    model = cm.build(a)
    s = model.summary()
    for tier in model.tiers:
        trace = model.irr_trace(tier, 64, "ecf")
        assert trace.found
        assert (1 + trace.start) ** 12 - 1 == pytest.approx(s.loc[tier, "equity_irr"], abs=1e-9)
        assert model.irr_trace(tier, 64).start != trace.start  # not the project's flow
    with pytest.raises(ValueError, match="flow"):
        model.irr_trace(model.tiers[0], 4, "cfads")

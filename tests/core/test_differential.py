"""The engine's evaluations of one definition agree on generated cases.

:func:`costmodel.core.engine.run_tier` computes a tier whose variants share their
timing by year (:mod:`costmodel.core.byyear`: the operating lines' coefficients
times the year sums of their monthly shapes, debt from unit loans, depreciation
counted per model year); :func:`costmodel.core.engine.run_monthly` computes every
line month by month from the same coefficients and shapes. Hypothesis draws
assumption sets (horizon, construction, ramp, up to two stages, reserved or
retrofitted facility, a loan of any share, rate and term, each terminal value
mode, loss carry-forward, depreciation methods and tax methods, prices and
escalations, a take-or-pay contract and a selling-cost share, VAT with or without
refunds, methodology §11) and
every summary column, net book value, capex, opex line by year and the monthly FCF
of the two must agree to 1e-12
(relative, or of the column's largest value near 0). The same holds for
:func:`costmodel.core.byyear.run_by_draw` (variants of many timings, no debt: each
line by year on each variant's own shapes), run on each generated set with six
variants of their own construction, ramp, stage and contract months.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import costmodel as cm
from costmodel.core.engine import run_monthly, run_tier, tier_inputs
from costmodel.core.result import Lazy
from costmodel.core.tierparams import TierParams
from costmodel.core.timing import deployments
from costmodel.inputs.params import resolve_tier
from tests.paths import HAND

CLASSES = ("servers", "network", "storage", "facility")
METHODS = ("straight_line", "sum_of_years", "double_declining")
rates = st.floats(0.0, 0.15, allow_nan=False)
TAX_METHODS = ["book", "expensed"]


def contracts(draw, months: int) -> dict:
    """No contract, or a take-or-pay contract (methodology §11.5) of any share,
    price, length (shorter than, equal to or past the horizon, not a whole number
    of years) and escalation."""
    if not draw(st.booleans()):
        return {}
    length = draw(st.sampled_from([1, 7, 12, 25, months, months + 13]))
    return {
        "contract": {
            "share": draw(st.sampled_from([0.0, 0.3, 0.8, 1.0])),
            "price_per_gpu_hour": draw(st.floats(5.0, 400.0)),
            "months": length,
            "escalation": draw(st.sampled_from([0.0, 0.03, 0.1])),
            # a counterparty that may default (methodology §11.12): evaluated by draw
            "default_rate": draw(st.sampled_from([0.0, 0.0, 0.15])),
        }
    }


@st.composite
def overlays(draw) -> dict:
    """An overlay of the hand case (tests/data/hand.yaml) with its v2 features."""
    years = draw(st.integers(1, 5))
    months = 12 * years
    build = draw(st.integers(0, min(months - 1, 18)))
    later = st.integers(build + 1, months - 1) if build + 1 < months else st.nothing()
    stage_months = draw(st.lists(later, max_size=2, unique=True)) if build + 1 < months else []
    stages = [
        {
            "month": month,
            "gpus": 8 * draw(st.integers(1, 4)),
            "capacity_tb": draw(st.sampled_from([0.0, 50.0])),
        }
        for month in sorted(stage_months)
    ]
    depreciation = {
        c: {
            "method": draw(st.sampled_from(METHODS)),
            "life_years": draw(st.integers(1, 6)),
            "salvage": draw(st.sampled_from([0.0, 0.1])),
            "market_decline": draw(st.floats(0.0, 0.7)),
            # the one-off deduction (methodology §11.7): equipment only
            "tax_method": "book" if c == "facility" else draw(st.sampled_from(TAX_METHODS)),
        }
        for c in CLASSES
    }
    vat_rates = st.sampled_from([0.0, 0.06, 0.09, 0.13])
    vat_keys = (*CLASSES, "electricity", "colocation", "maintenance", "insurance", "software")
    vat = {
        "output_rate": draw(st.sampled_from([0.0, 0.06, 0.13, 0.5])),
        "input_rates": {k: draw(vat_rates) for k in vat_keys if draw(st.booleans())},
        "surtax_rate": draw(st.sampled_from([0.0, 0.12])),
        "refund_credit": draw(st.booleans()),
        # refunds each month and a share of the credit (methodology §11.11)
        **draw(st.sampled_from([{}, {"refund": "annual"}, {"refund": "monthly"}])),
        "refund_ratio": draw(st.sampled_from([1.0, 0.95])),
    }
    extra = sites_and_quotes(draw, months, build)
    quote = extra.pop("revenue", {})
    return {
        **({"vat": vat} if draw(st.booleans()) else {}),
        **extra,
        "schema_version": 2,
        "horizon_years": years,
        "terminal_value": draw(st.sampled_from(["book", "none", "market", "income"])),
        "timeline": {"build_months": build, "ramp_months": draw(st.sampled_from([0, 1.5, 6]))},
        "finance": {
            # the rate of the financing (methodology §11.10) or a given one
            "discount_rate": draw(st.one_of(rates, st.just("wacc"))),
            "tax_rate": draw(st.sampled_from([0.0, 0.15, 0.25])),
            "loss_carryforward_years": draw(st.sampled_from([None, 0, 1, 5])),
        },
        "financing": {
            "debt_share": draw(st.sampled_from([0.0, 0.3, 0.7])),
            "interest_rate": draw(st.sampled_from([0.0, 0.045, 0.12])),
            "term_years": draw(st.integers(1, 8)),
            "cost_of_equity": draw(rates),
            "rate_convention": draw(st.sampled_from(["nominal", "effective"])),
        },
        "power": {"escalation": draw(st.floats(0.0, 0.1))},
        "operations": {
            "utilization": draw(st.floats(0.1, 1.0)),
            "staff_escalation": draw(st.floats(0.0, 0.1)),
            "sga_share": draw(st.sampled_from([0.0, 0.04, 0.15])),
        },
        "revenue": {
            "price_per_gpu_hour": quote.get("price_per_gpu_hour", draw(st.floats(5.0, 400.0))),
            "price_decline": draw(st.floats(0.0, 0.3)),
            **contracts(draw, months),
        },
        "depreciation": depreciation,
        "tiers": {
            "small": {
                "reserve_headroom": draw(st.booleans()),
                "stages": stages,
                **designs(draw),
            }
        },
    }


def sites_and_quotes(draw, months: int, build: int) -> dict:
    """A site with a grid limit the hand case may exceed (0.033 MW of facility power
    at 16 GPUs), its lead time and price factor (methodology §29); quotes with
    ``as_of`` on the GPU-hour and server prices and a server lead time (§30)."""
    out: dict = {}
    if draw(st.booleans()):
        site = {
            "grid_mw": draw(st.sampled_from([0.0, 0.02, 1.0])),
            "grid_connection_per_mw": draw(st.sampled_from([0.0, 2_500_000.0])),
            "grid_lead_months": draw(st.integers(0, months - 1 - build)),
            "price_factor": draw(st.sampled_from([0.8, 1.0, 1.25])),
            "power": {"price_per_kwh": draw(st.sampled_from([0.38, 0.72]))},
        }
        out |= {"sites": {"hub": site}, "site": "hub"}
    if draw(st.booleans()):
        as_of = draw(st.sampled_from(["2025-03", "2026-11", "2027-04"]))
        price = draw(st.floats(5.0, 400.0))
        out["revenue"] = {"price_per_gpu_hour": {"value": price, "as_of": as_of}}
    if draw(st.booleans()):
        box = {"price": {"value": 1_000_000.0, "as_of": "2026-01"}, "price_decline": 0.2}
        box["lead_months"] = draw(st.integers(0, months - 1))
        out["servers"] = {"box": box}
    return out


def designs(draw) -> dict:
    """The network as a share, or a fabric design (methodology §12.1) of any radix
    (1 to 3 levels at hand.yaml's 16 GPUs and the stages'), and the staff as
    ``staff_fte`` or ``staff_scaling`` (§12.2)."""
    out: dict = {}
    if draw(st.booleans()):
        out["network"] = {
            "share": None,
            "design": {
                "switch_radix": draw(st.sampled_from([8, 16, 64])),
                "switch_price": draw(st.sampled_from([0.0, 20_000.0])),
                "optic_price": draw(st.sampled_from([0.0, 900.0])),
                "oversubscription": draw(st.sampled_from([1.0, 1.5, 3.0])),
                "per_server": draw(st.sampled_from([0.0, 4_000.0])),
            },
        }
    if draw(st.booleans()):
        out["staff_fte"] = None
        out["staff_scaling"] = {"fixed_fte": draw(st.sampled_from([0.0, 1.5])),
                                "fte_per_server": draw(st.sampled_from([0.0, 0.25]))}  # fmt: skip
    return out


#: columns in money: sums of flows, whose rounding is that of the flows they add
MONEY = {
    "npv",
    "equity_npv",
    "revenue",
    "tco",
    "opex_year1",
    "opex_full_year",
    "peak_funding",
    "debt_peak",
    "terminal_value",
    "terminal_tax",
    "pv_cost",
    "capex_hardware",
    "capex",
    "vat_paid",
    "vat_credit_peak",
    "surtax",
    "contract_at_risk",
}


def close(a, b, what: str, magnitude: float = 1.0) -> None:
    """Equal to rel 1e-12, or within 1e-12 of ``magnitude`` (the size of the terms
    the value adds: 1 for ratios, the tier's TCO and revenue for money)."""
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    ok = ~np.isnan(a)
    scale = max(np.max(np.abs(b[ok]), initial=0.0), magnitude)
    # assert_allclose is np.isclose with a message: checked here first, the
    # np.testing calls (and their message) only when it fails
    if np.array_equal(ok, ~np.isnan(b)) and np.isclose(a[ok], b[ok], 1e-12, 1e-12 * scale).all():
        return
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b), err_msg=what)
    np.testing.assert_allclose(a[ok], b[ok], rtol=1e-12, atol=1e-12 * scale, err_msg=what)


def both(a: cm.Assumptions):
    ti = resolve_tier(a, "small")
    by_year = run_tier(ti.params(), ti.config)
    q = tier_inputs(ti.params())
    monthly = run_monthly(q, ti.config, deployments(q, ti.config.stages, ti.config.months))
    return by_year, monthly


def test_the_comparison_fails_when_one_path_changes(monkeypatch, tmp_path):
    """A line changed in the by-year path only (its year sums of the revenue,
    read by the NPV, the revenue and the cost columns) is caught."""
    from costmodel.core import byyear

    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 2, "horizon_years": 2}))
    a = cm.load_assumptions(HAND, path)
    by_year, monthly = both(a)
    close(by_year.metrics["revenue"], monthly.metrics["revenue"], "revenue")  # same before
    original = byyear.year_sums
    monkeypatch.setattr(byyear, "year_sums", lambda c, h: original(c, h) * (1 + 1e-9))
    by_year, monthly = both(a)
    try:
        close(by_year.metrics["revenue"], monthly.metrics["revenue"], "revenue")
    except AssertionError:
        return
    raise AssertionError("a line changed in one path only went unnoticed")


def test_the_comparison_fails_when_one_path_drops_the_vat_cash(monkeypatch, tmp_path):
    """The VAT cash's present value left out of the by-year NPV only is caught."""
    from costmodel.core import byyear

    path = tmp_path / "case.yaml"
    overlay = {"schema_version": 2, "horizon_years": 2, "vat": {"output_rate": 0.06,
               "input_rates": {"servers": 0.13}, "surtax_rate": 0.12}}  # fmt: skip
    path.write_text(yaml.safe_dump(overlay))
    a = cm.load_assumptions(HAND, path)
    by_year, monthly = both(a)
    close(by_year.metrics["npv"], monthly.metrics["npv"], "npv", 1e6)  # same before
    monkeypatch.setattr(byyear, "vat_present_value", lambda vat, d: 0.0)
    by_year, monthly = both(a)
    try:
        close(by_year.metrics["npv"], monthly.metrics["npv"], "npv", 1e6)
    except AssertionError:
        return
    raise AssertionError("VAT cash left out of one path went unnoticed")


#: variants per generated case in the test of the evaluation by draw
TIMINGS = 6


def timing_variants(a: cm.Assumptions, seed: int) -> tuple[dict, object]:
    """The tier's inputs with :data:`TIMINGS` variants, each with its own
    construction, ramp and stage months and contract length: what a Monte Carlo
    of ranged timing evaluates by draw (:func:`costmodel.core.byyear.run_by_draw`)."""
    ti = resolve_tier(a, "small")
    values, months = ti.values(), ti.config.months
    rng = np.random.default_rng(seed)
    values["build_months"] = rng.permutation(np.arange(TIMINGS) % months).astype(float)
    values["ramp_months"] = rng.choice([0.0, 1.5, 4.0, 6.0], TIMINGS)
    for i in range(1, ti.config.stages + 1):
        values[f"stage{i}_month"] = rng.integers(0, months, TIMINGS).astype(float)
    if values.get("contract_months"):
        values["contract_months"] = rng.integers(1, months + 14, TIMINGS).astype(float)
    return TierParams.of(values), ti.config


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(overlay=overlays(), seed=st.integers(0, 2**16))
def test_fast_evaluations_equal_month_by_month(tmp_path_factory, overlay, seed):
    """Each generated set by year against month by month, then with variants of
    many timings, evaluated by draw (every line by year on each variant's own
    shapes), against month by month: every summary column, net book value, capex,
    opex line by year and the monthly FCF to 1e-12."""
    path = tmp_path_factory.mktemp("diff") / "case.yaml"
    path.write_text(yaml.safe_dump(overlay))
    a = cm.load_assumptions(HAND, path)
    by_year, monthly = both(a)
    assert monthly.monthly_fcf() is monthly.flows["fcf"]  # the monthly run's FCF is its flows'
    compare(by_year, monthly)
    values, config = timing_variants(a, seed)
    by_draw = run_tier(values, config)
    assert isinstance(by_draw.flows, Lazy)  # not evaluated month by month
    q = tier_inputs(values)
    compare(by_draw, run_monthly(q, config, deployments(q, config.stages, config.months)))


def compare(fast, monthly) -> None:
    """Every summary column, net book value, capex and opex line by year, and the
    monthly FCF of an evaluation ``fast`` against the monthly one, to 1e-12."""
    assert list(fast.metrics) == list(monthly.metrics)
    m = monthly.metrics
    money = float(np.max(m["tco"] + m["revenue"] + m["terminal_value"]))
    for name in fast.metrics:
        size = money if name in MONEY or name.startswith("capex_") else 1.0
        close(fast.metrics[name], monthly.metrics[name], name, size)
    for cls in CLASSES:
        close(fast.nbv[cls], monthly.nbv[cls], f"nbv {cls}", money)
        close(fast.capex[cls], monthly.capex[cls], f"capex {cls}", money)
    assert list(fast.opex_by_year) == list(monthly.opex_by_year)
    for line, years in monthly.opex_by_year.items():
        close(fast.opex_by_year[line], years, f"opex by year {line}", money)
    close(fast.monthly_fcf(), monthly.flows["fcf"], "monthly fcf", money)


def test_the_by_draw_comparison_fails_when_that_path_changes(monkeypatch, tmp_path):
    """A line's year sums changed in the evaluation by draw only (read by the
    revenue, the cost and the tax) is caught."""
    from costmodel.core import byyear

    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump({"schema_version": 2, "horizon_years": 2}))
    values, config = timing_variants(cm.load_assumptions(HAND, path), 1)
    q = tier_inputs(values)
    monthly = run_monthly(q, config, deployments(q, config.stages, config.months))
    compare(run_tier(values, config), monthly)  # the same before
    original = byyear._own_shape_sums
    scaled = lambda *args: tuple(x * (1 + 1e-9) for x in original(*args))  # noqa: E731
    monkeypatch.setattr(byyear, "_own_shape_sums", scaled)
    try:
        compare(run_tier(values, config), monthly)
    except AssertionError:
        return
    raise AssertionError("a line changed in the evaluation by draw only went unnoticed")


def test_a_variant_by_draw_does_not_depend_on_the_others(tmp_path):
    """Evaluated by draw, a variant's numbers are the same to the last digit among
    all the variants or among fewer (a Monte Carlo's chunks)."""
    path = tmp_path / "case.yaml"
    overlay = {"schema_version": 2, "horizon_years": 3, "terminal_value": "book",
               "vat": {"output_rate": 0.06, "input_rates": {"servers": 0.13},
                       "surtax_rate": 0.12, "refund_credit": True}}  # fmt: skip
    path.write_text(yaml.safe_dump(overlay))
    values, config = timing_variants(cm.load_assumptions(HAND, path), 3)
    values = replace(values, utilization=np.linspace(0.4, 0.9, TIMINGS))
    whole = run_tier(values, config).metrics
    part = values.mapped(lambda v: v[1:] if np.ndim(v) else v)  # still by draw
    fewer = run_tier(part, config).metrics
    for name in ("npv", "irr", "cost_per_gpu_hour", "capex", "revenue", "tco", "vat_paid"):
        np.testing.assert_array_equal(whole[name][1:], fewer[name], err_msg=name)

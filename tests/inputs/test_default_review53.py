"""The bundled default's figures that a domain review checked against their sources
(issue 53): each test recomputes a value from the source's own rule, written out
here, and holds the default to it."""

from __future__ import annotations

import re

import pytest

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.assumptions_doc import overlay_summary

#: Alibaba Cloud Lingjun node management fee, USD per GPU-day, billed on cumulative
#: steps (阶梯累计计费): (upper bound of the step, price)
STEPS = ((100, 1.5625), (500, 1.25), (1000, 0.9375), (float("inf"), 0.625))
USD = 7.02


def cumulative_fee_per_gpu_year(gpus: int) -> float:
    """The page's own rule: 600 GPUs = 100 x 1.5625 + 400 x 1.25 + 100 x 0.9375."""
    total, below = 0.0, 0
    for upper, price in STEPS:
        n = min(gpus, upper) - below
        if n <= 0:
            break
        total += n * price
        below = int(min(gpus, upper))
    return total / gpus * 365 * USD


@pytest.fixture(scope="module")
def a() -> cm.Assumptions:
    return cm.load_assumptions()


def test_the_pages_own_example():
    assert cumulative_fee_per_gpu_year(600) * 600 / 365 / USD == pytest.approx(
        100 * 1.5625 + 400 * 1.25 + 100 * 0.9375
    )


def test_software_fee_per_tier_is_the_cumulative_average(a):
    m = cm.build(a)
    for t in m.tiers:
        gpus = int(m.inputs[t].values()["gpus"])
        own = a.tiers[t].operations.software_per_gpu_year.value
        assert own == pytest.approx(cumulative_fee_per_gpu_year(gpus), rel=0.005), t
    assert a.operations.software_per_gpu_year.value == pytest.approx(
        cumulative_fee_per_gpu_year(1000), rel=0.005
    )


def test_residual_value_follows_the_rent_path(a):
    """methodology §30: the income residual a scenario may choose has an economic
    life with a source (the default keeps the market residual: with income its IRRs
    fall to about -100%)."""
    assert a.terminal_value == "market"
    life = a.depreciation.servers.economic_life_years
    assert life is not None and life.source and (life.low, int(life), life.high) == (5, 6, 7)


CENTRED = (
    "operations.maintenance_rate",
    "operations.sga_share",
    "designs.thousands.staff_scaling.fixed_fte",
    "designs.tens.staff_scaling.fixed_fte",
    "facility.colocation_per_kw_month.cold_plate",
    "revenue.contract.default_rate",
)


@pytest.mark.parametrize("path", CENTRED)
def test_the_base_is_the_middle_of_its_range(a, path):
    """A base at the mode of a lopsided triangular range sits away from the median
    of its draws; these inputs' values are the middle of their ranges (within 10% of
    the range), as their notes say."""
    from costmodel.analysis.risks import quantity_at

    q = quantity_at(a, path)
    assert q is not None and q.low is not None and q.high is not None
    middle = (q.low + q.high) / 2
    assert abs(q.value - middle) <= 0.1 * (q.high - q.low), (q.low, q.value, q.high)


def test_every_scenario_says_what_it_models():
    for file in sorted((default_assumptions_dir().parent / "scenarios").glob("*.yaml")):
        what = overlay_summary(file)
        assert len(what) > 20 and not what.endswith("."), file.name
        assert not re.search(r"\s{2}", what), file.name

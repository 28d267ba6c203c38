"""The second routes to a tier's totals (:mod:`costmodel.core.closedforms`, the
Checks sheet's independent side) equal the totals of the engine's rows on the
bundled default, every bundled scenario and the examples: two computations of
each quantity, one by the engine's coefficients on monthly shapes, one by the
closed formula."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import costmodel as cm
from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.catalogue.linechecks import CHECKS, SHEET_ROWS

SCENARIOS = sorted(
    p.stem for p in (Path(cm.__file__).parent.parent / "assumptions/scenarios").glob("*.yaml")
)
SOURCES = [
    "default",
    *(f"scenario:{s}" for s in SCENARIOS),
    "example:us-neocloud",
    "example:by-hand",
]


def build(source: str) -> cm.Model:
    return cm.build(["default", source] if source.startswith("scenario:") else source)


def close(a: float, b: float, scale: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(scale), 1.0)


@pytest.mark.parametrize("source", SOURCES)
def test_each_second_route_equals_the_total_of_its_rows(source):
    m = build(source)
    for t in m.tiers:
        ir, r = m.rows(t), m.results[t]
        tot, scale = ir.totals, abs(ir.totals["capex"])
        for check in CHECKS:
            assert close(ir.closed_form(check), ir.total_of(*check.lines), scale), (t, check.lines)
        assert close(ir.gpu_hours_closed, tot["ramped_hours"], tot["ramped_hours"]), t
        assert close(ir.spot_revenue_closed, tot["spot_revenue"], scale), t
        assert close(ir.npv_closed, float(r.metrics["npv"][0]), scale), t
        assert close(ir.contract_revenue_rebuilt, tot["contract_revenue"], scale), t
        for cls in CAPEX_CLASSES:
            assert close(ir.depreciation_closed_total(cls), tot[f"dep_{cls}"], scale), (t, cls)
        for sub in m.inputs[t].config.subsidies or ():
            paid = float(ir.subsidy(sub)["paid"].sum())
            assert close(ir.subsidy_closed(sub), paid, scale), (t, sub.kind)


def test_the_per_deployment_rows_add_up_to_their_closed_form():
    m = build("scenario:staged-growth")
    staged = 0
    for t in m.tiers:
        ir = m.rows(t)
        for form in SHEET_ROWS:
            if form.per_deployment is not None:
                parts = [
                    ir.closed_form_per_deployment(form, i)
                    for i in range(len(ir.result.deployments))
                ]
                staged += len(parts) > 1
                assert ir.closed_form(form) == pytest.approx(sum(parts), rel=1e-12)
    assert staged  # a tier of several deployments was checked


def test_the_ramped_months_in_closed_form_count_the_ramp():
    """With a ramp of R months, a deployment in service n >= R months sells R(R+1)/2R
    + n - R full months: the ramp's months count (1 + 2 + ... + R) / R."""
    m = cm.build()
    ir = m.rows(m.tiers[0])
    months = ir.service_months(0)
    ramp = m.inputs[m.tiers[0]].values()["ramp_months"]
    n = months["months"]
    assert 0 < ramp < n
    assert months["sold"] == pytest.approx(sum(min(1.0, k / ramp) for k in range(1, int(n) + 1)))
    util = ir.utilization_rows[0]
    assert months["sold"] * m.inputs[m.tiers[0]].values()["utilization"] == pytest.approx(
        float(np.sum(util))
    )

"""The rows that follow a tier's deployments (:mod:`costmodel.core.deploymentrows`),
which the workbook writes as cached values: each is checked against the engine's
own lines by an identity of the definitions written out here (the engine builds
its lines from coefficients on monthly shapes, not from these rows)."""

from __future__ import annotations

import numpy as np
import pytest

import costmodel as cm

H = 8760 / 12


@pytest.fixture(scope="module", params=["scenario:hub-subsidies", "scenario:tenant-default"])
def built(request):
    return cm.build(["default", request.param])


def tiers(model):
    return [(t, model.rows(t), model.results[t]) for t in model.tiers]


def test_hours_split_into_contract_and_spot(built):
    """Every month: spot hours + what the contract takes from spot = the GPUs sold x
    availability x hours; the contract hours are GPUs x share x availability x hours."""
    for _, rows, r in tiers(built):
        avail = float(r.metrics["availability"][0])
        sold = rows.in_service["gpus_sold"] * avail * H
        spot = r.flows["spot_hours"][0]
        assert np.allclose(spot + rows.contract_displaced, sold, rtol=1e-12, atol=1e-6)
        gpus = [float(d["gpus"][0]) for d in r.deployments]
        contract = sum(g * rows.contract(i)["share"] for i, g in enumerate(gpus)) * avail * H
        assert np.allclose(contract, r.flows["contract_hours"][0], rtol=1e-12, atol=1e-6)
        assert float(rows.contract_displaced.sum()) <= rows.ramped_gpu_hours * (1 + 1e-12)
        assert np.all(rows.hours_available >= r.flows["gpu_hours"][0] - 1e-6)


def test_metered_kwh_prices_to_the_electricity_line(built):
    """The metered kWh x the power price x its escalation of the model year is the
    engine's electricity line, month by month."""
    for t, rows, r in tiers(built):
        q = built.inputs[t].values()
        year = np.ceil(np.arange(built.months + 1) / 12)
        index = (1 + q["power_escalation"]) ** np.maximum(year - 1, 0)
        expected = r.opex["electricity"][0]
        assert np.allclose(rows.metered_kwh * q["price_per_kwh"] * index, expected, rtol=1e-12)
        on = rows.in_service
        idle = q["idle_fraction"]
        drawn = idle * on["kw_on"] + (1 - idle) * on["kw_used"]
        assert np.allclose(on["kw_drawn"], drawn, rtol=1e-12)


def test_the_subsidies_add_up_to_the_engine_line(built):
    for t, rows, r in tiers(built):
        subs = tuple(built.inputs[t].config.subsidies or ())
        total = sum((rows.subsidy(s)["paid"] for s in subs), np.zeros(built.months + 1))
        assert np.allclose(total, r.flows["subsidies"][0], rtol=1e-12, atol=1e-6)
        if not subs:
            assert rows.subsidies_taxable is None


def test_the_monthly_result_for_tax_sums_to_the_taxable_income(built):
    """Summed per model year (month 0 in year 1) with the terminal gain at M, the
    monthly result for tax is the engine's taxable income of each year."""
    for _, rows, r in tiers(built):
        result = rows.taxable_result
        years = [result[0] + result[1:13].sum()]
        years += [result[12 * y - 11 : 12 * y + 1].sum() for y in range(2, built.months // 12 + 1)]
        years[-1] += rows.terminal_gain
        expected = r.annual["taxable_income"][0]
        assert np.allclose(years, expected, rtol=1e-9, atol=1e-3 * abs(expected).max())
        nbv = sum(float(r.capex[c][0]) for c in r.capex) - rows.tax_depreciation.sum()
        assert rows.tax_book_value == pytest.approx(nbv, rel=1e-12)


def test_the_headcount_and_capex_per_deployment(built):
    """The headcount x the cost per FTE / 12 x the staff index is the engine's staff
    line; the deployments' capex adds up to the tier's."""
    for t, rows, r in tiers(built):
        q = built.inputs[t].values()
        year = np.ceil(np.arange(built.months + 1) / 12)
        index = (1 + q["staff_escalation"]) ** np.maximum(year - 1, 0)
        staff = rows.headcount[-1] * q["staff_cost_per_fte"] / 12 * index
        assert np.allclose(staff, r.opex["staff"][0], rtol=1e-12)
        capex = float(r.metrics["capex"][0])
        assert sum(rows.capex_by_deployment) == pytest.approx(capex, rel=1e-12)
        market = sum(float(e.market_value[0]) for e in r.schedules.events)
        assert rows.market_value_total == pytest.approx(market, rel=1e-12)

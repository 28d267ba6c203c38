"""The bundled default stays inside the seed's picture of the three scale tiers
(seed: compute-center-scale-tiers.zh.txt; METHODOLOGY.md section 13)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

import costmodel as cm
from costmodel.inputs.resources import scenarios_dir
from costmodel.inputs.schema import Quantity

A = cm.load_assumptions()
S = cm.build(A).summary()

# seed bands: build cost (CNY), rack power (kW), cooling, staff (FTE)
BANDS = {
    # 数百万到 1000 万元: several million to 10 million
    "tens": dict(capex=(2e6, 10e6), rack_kw=(8, 15), cooling="air", staff=(2, 3), gpus=(8, 64)),
    # 3000 万到 1 亿元: 30 to 100 million
    "hundreds": dict(capex=(30e6, 100e6), rack_kw=(15, 30), cooling="air", staff=(5, 10), gpus=(64, 511)),
    # 数亿到数十亿元: several hundred million to several billion; 数十人: dozens
    "thousands": dict(capex=(2e8, 1e10), rack_kw=(40, 80), cooling="cold_plate", staff=(20, 99),
                      gpus=(512, 100_000)),
}  # fmt: skip


def test_three_tiers_one_per_scale_class():
    assert list(S.index) == ["tens", "hundreds", "thousands"]
    assert list(S.scale_class) == ["tens", "hundreds", "thousands"]


@pytest.mark.parametrize("tier", list(BANDS))
def test_tier_inside_seed_bands(tier):
    band = BANDS[tier]
    t = A.tiers[tier]
    lo, hi = band["capex"]
    assert lo <= S.loc[tier, "capex"] <= hi
    lo, hi = band["rack_kw"]
    assert lo <= t.rack_kw.value <= hi
    assert t.cooling == band["cooling"]
    lo, hi = band["staff"]
    assert lo <= t.staff_fte.value <= hi
    lo, hi = band["gpus"]
    assert lo <= t.gpus <= hi


def test_thousands_network_is_20_to_30_percent_of_hardware():
    # 网络投资占硬件总成本的 20%–30%
    assert 0.20 <= S.loc["thousands", "network_share"] <= 0.30


def test_server_catalogue_has_the_seeds_cards():
    assert {"h800", "h100", "h20", "a800", "rtx4090"} <= set(A.servers)
    assert all(s.gpus_per_server == 8 for s in A.servers.values())


def _quantities(obj, path=""):
    if isinstance(obj, Quantity):
        yield path, obj
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _quantities(getattr(obj, name), f"{path}.{name}".lstrip("."))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _quantities(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _quantities(v, f"{path}[{i}]")


def test_every_default_figure_has_a_source_and_unit():
    # workloads are example tasks (sizes, deadlines), not cost figures
    figures = [(p, q) for p, q in _quantities(A) if not p.startswith("workloads")]
    assert len(figures) > 60
    missing = [p for p, q in figures if not q.source or not q.unit]
    assert missing == []


def test_key_drivers_have_ranges():
    drivers = [
        A.revenue.price_per_gpu_hour, A.revenue.price_decline, A.operations.utilization,
        A.power.price_per_kwh, A.operations.staff_cost_per_fte, A.finance.discount_rate,
        *[s.price for s in A.servers.values()], *A.power.pue.values(),
        *[t.network.share for t in A.tiers.values()],
    ]  # fmt: skip
    assert all(q.low is not None and q.high is not None for q in drivers)


@pytest.mark.parametrize("overlay", sorted(scenarios_dir().glob("*.yaml")), ids=lambda p: p.stem)
def test_every_scenario_overlay_layers_on_the_default(overlay):
    from costmodel.inputs.resources import default_assumptions_dir

    a = cm.load_assumptions(default_assumptions_dir(), overlay)
    s = cm.build(a).summary()
    assert list(s.index) == list(S.index)
    assert not s.equals(S)  # the overlay changes something

"""A memo says nothing about a metric that does not exist: with 100,000 GPUs a
whole-cluster job never finishes (goodput 0), so cost per effective GPU-hour and
the software-problem comparison are empty, and no 'nan' or 'inf' reaches the text;
nor with no GPU-hours sold (utilization 0: no levelized cost)."""

from __future__ import annotations

import math
import re

import pytest

import costmodel as cm
from costmodel.inputs.errors import AssumptionError

HUNDRED_THOUSAND = {
    "tiers.thousands.gpus": 100_000,
    "designs.thousands.max_gpus": 100_000,
    "designs.thousands.network.design.switch_radix": 128,
}


@pytest.mark.parametrize(
    ("overrides", "tier", "empty"),
    [
        # 100,000 GPUs need a fabric of radix 128 (3 levels of radix k hold k^3 / 4
        # endpoints: 65,536 at 64, 524,288 at 128), a design that holds them and a site
        # whose grid carries ~161 MW (the hub's campus at 200 MW; the default's leased
        # hall holds 8 MW: test_a_cluster_above_its_sites_grid_is_refused_by_name)
        (
            {
                **HUNDRED_THOUSAND,
                "tiers.thousands.site": "hub",
                "sites.hub.grid_mw": 200,
            },
            "thousands",
            "cost_per_effective_gpu_hour",
        ),
        # every tier, the tens tier's own utilization included
        (
            {"operations.utilization": 0, "tiers.tens.operations.utilization": 0},
            "tens",
            "cost_per_gpu_hour",
        ),
    ],
)
def test_no_nan_or_inf_in_either_memo(tmp_path, overrides, tier, empty):
    m = cm.build(cm.load_assumptions(overrides=overrides))
    assert math.isnan(m.summary().loc[tier, empty])
    for lang in ("en", "zh"):
        text = cm.write_memo(m, tmp_path / f"memo.{lang}.html", lang=lang).read_text()
        assert re.findall(r"\b(?:inf|nan|NaN|Infinity)\b", text) == []


def test_a_cluster_above_its_sites_grid_is_refused_by_name():
    # 100,000 H200 at 10.2 kW per 8 GPUs, 10% auxiliary power, PUE 1.15 (cold plate):
    # 12,500 x 10.2 x 1.1 x 1.15 / 1000 = 161.29 MW against the leased hall's 8 MW
    a = cm.load_assumptions()
    mw = 100_000 / 8 * 10.2 * (1 + a.power.aux_power_fraction.value) * 1.15 / 1000
    assert a.power.pue["cold_plate"].value == 1.15 and mw == pytest.approx(161.29, abs=0.01)
    with pytest.raises(AssumptionError) as err:
        cm.load_assumptions(overrides=HUNDRED_THOUSAND)
    text = str(err.value)
    assert "sites.east-t1.grid_mw = 8" in text and "25-sites.yaml" in text
    assert f"tier thousands needs {mw:.3f} MW of facility power" in text
    assert "choose a larger site or a smaller tier" in text

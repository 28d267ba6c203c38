"""Whole numbers and choices in the value-mapping form (methodology §2.2: every numeric input
may be a mapping), and the ranges of the time, growth and money inputs."""

from __future__ import annotations

import pytest
import yaml

import costmodel as cm
from tests.paths import HAND


def _load(tmp_path, overlay: dict) -> cm.Assumptions:
    path = tmp_path / "overlay.yaml"
    path.write_text(yaml.safe_dump(overlay))
    return cm.load_assumptions(HAND, path)


def test_whole_numbers_and_choices_accept_the_mapping_form(tmp_path):
    a = _load(
        tmp_path,
        {
            "horizon_years": {"value": 2, "source": "board decision"},
            "tiers": {"small": {"gpus": {"value": 24, "source": "vendor quote"}}},
            "depreciation": {"servers": {"method": {"value": "sum_of_years", "note": "tax"},
                                         "life_years": {"value": 4, "unit": "years"}}},
        },
    )  # fmt: skip
    assert a.horizon_years == 2
    assert a.tiers["small"].gpus == 24
    assert a.depreciation.servers.method == "sum_of_years"
    assert a.depreciation.servers.life_years == 4
    assert cm.build(a).summary().loc["small", "gpus"] == 24


@pytest.mark.parametrize(
    ("overlay", "path", "phrase"),
    [
        ({"tiers": {"small": {"gpus": {"value": 12.5}}}}, "tiers.small.gpus", "whole number"),
        ({"financing": {"debt_share": 1.5, "interest_rate": 0.05, "term_years": 5}},
         "financing.debt_share", "between 0 and 1"),
        ({"financing": {"debt_share": 0.5, "interest_rate": 0.05, "term_years": 31}},
         "financing.term_years", "30"),
        ({"depreciation": {"servers": {"market_decline": 1.0}}},
         "depreciation.servers.market_decline", "below 1"),
        ({"timeline": {"build_months": 2.5}}, "timeline.build_months", "whole number"),
    ],
)  # fmt: skip
def test_time_and_money_ranges_name_path_and_rule(tmp_path, overlay, path, phrase):
    with pytest.raises(cm.AssumptionError) as err:
        _load(tmp_path, {"schema_version": 2, **overlay})
    assert path in str(err.value) and phrase in str(err.value)

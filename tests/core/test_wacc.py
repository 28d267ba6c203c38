"""``finance.discount_rate: wacc`` (methodology §11.10): the rate worked by hand,
the NPV discounted at it, its rule, and the ``discount_rate`` column of every file."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

import costmodel as cm
from costmodel.inputs.errors import AssumptionError
from tests.paths import HAND

LOAN = {"debt_share": 0.6, "interest_rate": 0.05, "term_years": 5, "cost_of_equity": 0.12}


def _model(tmp_path, overlay: dict) -> cm.Model:
    path = tmp_path / f"o{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(yaml.safe_dump(overlay))
    return cm.build(cm.load_assumptions(HAND, path))


def test_the_wacc_by_hand_and_the_npv_discounted_at_it(tmp_path):
    """0.6 x 5% x (1 - 25%) + 0.4 x 12% = 2.25% + 4.8% = 7.05%; the NPV is the FCF
    discounted monthly at (1.0705)^(1/12) - 1."""
    m = _model(
        tmp_path, {"finance": {"discount_rate": "wacc", "tax_rate": 0.25}, "financing": LOAN}
    )
    assert m.summary().loc["small", "discount_rate"] == pytest.approx(0.0705, rel=1e-12)
    fcf = m.fcf("small")
    months = np.arange(fcf.size)
    npv = float(np.sum(fcf / 1.0705 ** (months / 12)))
    assert m.summary().loc["small", "npv"] == pytest.approx(npv, rel=1e-10)


def test_without_debt_the_wacc_is_the_cost_of_equity(tmp_path):
    m = _model(
        tmp_path,
        {
            "finance": {"discount_rate": "wacc", "tax_rate": 0.25},
            "financing": LOAN | {"debt_share": 0.0},
        },
    )
    assert m.summary().loc["small", "discount_rate"] == pytest.approx(0.12, rel=1e-12)


def test_a_given_rate_is_the_column(tmp_path):
    m = _model(tmp_path, {"finance": {"discount_rate": 0.08, "tax_rate": 0.25}})
    assert m.summary().loc["small", "discount_rate"] == 0.08
    assert m.discount_rate() == 0.08


@pytest.mark.parametrize(
    ("overlay", "message"),
    [
        ({"finance": {"discount_rate": "wacc", "tax_rate": 0.25}}, "give financing with"),
        (
            {
                "finance": {"discount_rate": "wacc", "tax_rate": 0.25},
                "financing": {k: v for k, v in LOAN.items() if k != "cost_of_equity"},
            },
            "give financing.cost_of_equity",
        ),
        (
            {"finance": {"discount_rate": "wac", "tax_rate": 0.25}},
            "must be a rate (e.g. 0.08) or wacc",
        ),
    ],
)
def test_wacc_without_what_it_weighs_is_a_clear_error(tmp_path, overlay, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(overlay))
    with pytest.raises(AssumptionError) as e:
        cm.load_assumptions(HAND, path)
    assert "finance.discount_rate" in str(e.value) and message in str(e.value)


def test_a_varied_loan_rate_moves_the_rate_of_its_variant(tmp_path):
    """The rate is derived in the engine from each variant's inputs: a loan rate of
    9% gives 0.6 x 9% x 0.75 + 4.8% = 8.85%."""
    from costmodel.core.engine import tier_inputs

    m = _model(
        tmp_path, {"finance": {"discount_rate": "wacc", "tax_rate": 0.25}, "financing": LOAN}
    )
    p = m.inputs["small"].params().varied({"interest_rate": np.array([0.05, 0.09])})
    np.testing.assert_allclose(tier_inputs(p).discount_rate, [0.0705, 0.0885], rtol=1e-12)

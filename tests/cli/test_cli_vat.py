"""The command line shows the VAT columns (methodology §24) of a model with a ``vat``
section: JSON equal to the API, and the labelled rows in the table."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from tests.paths import HAND

app = get_app()
runner = CliRunner()
VAT = {"vat": {"output_rate": 0.06, "input_rates": {"servers": 0.13}, "surtax_rate": 0.12,
               "refund_credit": True}, "horizon_years": 2}  # fmt: skip
COLUMNS = ("vat_paid", "vat_credit_peak", "surtax")


def test_summary_json_and_table_carry_the_vat_columns(tmp_path):
    overlay = tmp_path / "vat.yaml"
    overlay.write_text(yaml.safe_dump(VAT))
    result = runner.invoke(app, ["summary", str(HAND), str(overlay), "--format", "json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)["small"]
    want = cm.build(cm.load_assumptions(HAND, overlay)).summary().loc["small"]
    for col in COLUMNS:
        assert got[col] == pytest.approx(float(want[col]), rel=1e-9)
    assert got["vat_credit_peak"] > 0 and got["surtax"] > 0
    table = runner.invoke(app, ["summary", str(HAND), str(overlay)], env={"COLUMNS": "200"})
    assert table.exit_code == 0
    for label in ("VAT paid", "Peak VAT credit (cash tied up)", "VAT surtaxes"):
        assert label in table.output


def test_without_vat_the_columns_are_zero():
    result = runner.invoke(app, ["summary", str(HAND), "--format", "json"])
    got = json.loads(result.output)["small"]
    assert [got[c] for c in COLUMNS] == [0, 0, 0]

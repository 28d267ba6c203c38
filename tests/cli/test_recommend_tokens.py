"""``costmodel recommend``: the cost per million tokens beside the cost per
GPU-hour it comes from (methodology §27), in JSON and in the table."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app

runner = CliRunner()


def test_recommend_json_has_cost_per_million_tokens_for_every_inference_workload():
    result = runner.invoke(get_app(), ["recommend", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    a = cm.load_assumptions()
    s = cm.build(a).summary()
    kinds = {w.name: w for w in a.workloads}
    inference = [r for r in rows if kinds[r["workload"]].kind == "inference"]
    assert inference, "the default has an inference workload"
    assert len(rows) == len(a.workloads) * len(s)
    for r in rows:
        assert "cost_per_million_tokens" in r and "cost_per_gpu_hour" in r
        cost_h = float(s.loc[r["tier"], "cost_per_gpu_hour"])
        assert r["cost_per_gpu_hour"] == pytest.approx(cost_h, rel=1e-9)
        w = kinds[r["workload"]]
        if w.kind == "inference":
            tps = w.tokens_per_s_per_gpu.value
            want = cost_h * 1e6 / (tps * 3600)  # GPU-hour cost over the tokens it serves
            assert r["cost_per_million_tokens"] == pytest.approx(want, rel=1e-9)
        else:
            assert r["cost_per_million_tokens"] is None


def test_recommend_table_shows_the_cost_per_million_tokens():
    result = runner.invoke(get_app(), ["recommend"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    a = cm.load_assumptions()
    s = cm.build(a).summary()
    assert "CNY/M tokens" in result.stdout and "CNY/GPU-h" in result.stdout
    for w in a.workloads:
        if w.kind == "inference":
            for t in s.index:
                want = (
                    float(s.loc[t, "cost_per_gpu_hour"])
                    * 1e6
                    / (w.tokens_per_s_per_gpu.value * 3600)
                )
                assert f"{want:,.2f}" in result.stdout

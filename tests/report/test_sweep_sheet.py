"""The workbook's Sweep sheet (methodology §13): cached engine values marked as
such, one table per tier equal to the analysis, a native log-axis chart."""

from __future__ import annotations

import zipfile

import pytest


def test_sweep_sheet_holds_the_sweeps_and_a_log_chart(model, analysed_workbook):
    analysis, path, wb = analysed_workbook
    ws = wb["Sweep"]
    assert "Cached engine values, not formulas" in ws["A2"].value
    rows = list(ws.iter_rows(values_only=True))
    heads = [i for i, r in enumerate(rows) if r[0] == "GPUs"]
    assert len(heads) == len(model.tiers)
    for h, tier in zip(heads, model.tiers, strict=True):
        df = analysis.sweeps[tier]
        assert rows[h - 1][0].startswith(tier)
        body = rows[h + 1 : h + 1 + len(df)]
        for got, (_, want) in zip(body, df.iterrows(), strict=True):
            assert got[0] == want["gpus"] and got[2] == want["scale_class"]
            assert (got[9] or "") == want["change"]
            if not want["feasible"]:  # refused (a design's max_gpus, a site's grid): why
                assert got[6] is None and got[7] is None
                assert got[10] == want["infeasible_reason"] != ""
                continue
            assert got[6] == pytest.approx(want["cost_per_gpu_hour"], rel=1e-12)
            assert got[7] == pytest.approx(want["npv"], rel=1e-12)
            assert not got[10]
        own = [r for r in body if r[0] == df.attrs["first_gpus"]][0]
        assert own[6] == pytest.approx(model.summary().loc[tier, "cost_per_gpu_hour"], rel=1e-9)
    with zipfile.ZipFile(path) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    sweep = [c for c in charts if "Sweep!" in c]
    assert len(sweep) == 1 and '<c:logBase val="2"/>' in sweep[0]
    assert sweep[0].count("<c:ser>") == len(model.tiers)

"""The memo's section "Which scale fits which task": each inference task's cost per
million tokens beside the option's cost per GPU-hour (methodology §27), computed
here from the summary and the workload's throughput."""

from __future__ import annotations

import re

import pytest

import costmodel as cm
from costmodel.report.memo import numbers as f

# model, memos: tests/report/conftest.py


def _cells(html: str) -> dict[tuple[str, str], str]:
    """The tokens line of each fit cell, by (workload, tier)."""
    out = {}
    for row in re.finditer(r'<tr data-workload="(.*?)">(.*?)</tr>', html, flags=re.S):
        for c in re.finditer(
            r'data-tier="([^"]+)" data-fit="cell">.*?data-fit="tokens">(.*?)</div>',
            row.group(2),
            flags=re.S,
        ):
            out[(row.group(1), c.group(1))] = c.group(2)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memo_shows_cost_per_million_tokens(model, memos, lang):
    html = memos[lang]
    s = model.summary()
    rec = cm.recommend(model).attrs["recommended"]
    cells = _cells(html)
    services = [w for w in model.assumptions.workloads if w.kind == "inference"]
    assert services
    for w in services:
        tps = w.tokens_per_s_per_gpu.value  # default: 600 tokens/s per GPU
        for t in model.tiers:
            cost_h = float(s.loc[t, "cost_per_gpu_hour"])
            # a GPU-hour serves tps x 3,600 tokens: cost_h x 1e6 / (tps x 3,600)
            want = cost_h * 1e6 / (tps * 3600)
            cell = cells[(w.name, t)]
            assert f.price(want, lang, "CNY", "mtok") in cell
            assert f.price(cost_h, lang, "CNY") in cell
        # the sentence on the recommended option, with its unit
        r = rec[w.name]
        want = float(s.loc[r, "cost_per_gpu_hour"]) * 1e6 / (tps * 3600)
        number = f"{want:,.2f}"
        unit = "\u00a0per\u00a0million\u00a0tokens" if lang == "en" else "\u00a0元/百万\u00a0tokens"
        sentences = [li for li in re.findall(r"<li>(.*?)</li>", html, flags=re.S) if unit in li]
        assert len(sentences) == 1
        assert number + unit in sentences[0]
        assert f.price(float(s.loc[r, "cost_per_gpu_hour"]), lang, "CNY") in sentences[0]
    # no tokens line for a training task
    assert all(k[0] in {w.name for w in services} for k in cells)

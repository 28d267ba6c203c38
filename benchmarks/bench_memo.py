"""Memo speed on the bundled default: CPU seconds of writing the English and the
Chinese memo with an analysis computed beforehand (``analyze(model, draws=10_000)``:
tornado, break-even, build or rent, Monte Carlo; its own time is not the memo's),
against the target of issue 15 (both memos in 0.3 s of CPU, so that ``costmodel
build`` stays under 1.5 s), then each chart's time.

The first figure is a cold start after the imports: the template is compiled and
the model's numbers read for the first time. ``write_memos`` writes both languages
in one call, as ``costmodel build`` does.

Run: python benchmarks/bench_memo.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

import costmodel as cm
from costmodel.analysis.bundle import analyze
from costmodel.report.memo import analysis_charts, charts
from costmodel.report.memo.context import Facts
from costmodel.report.memo.render import write_memo, write_memos

TARGET_S = 0.3  # CPU seconds for the English and the Chinese memo together
LANGS = ("en", "zh")


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    model = cm.build(cm.load_assumptions())
    an = analyze(model, draws=10_000, seed=0)
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)

        def each() -> None:
            for lang in ("en", "zh"):
                write_memo(model, out / f"memo.{lang}.html", lang, analysis=an)

        cold = cpu(each)
        verdict = "ok" if cold < TARGET_S else "SLOW"
        print(f"write_memo en + zh, cold:  {cold:.3f} s CPU  [{verdict}, target < {TARGET_S} s]")
        print(f"write_memo en + zh, again: {cpu(each):.3f} s CPU")
        paths = {"en": out / "memo.html", "zh": out / "memo.zh.html"}
        both = cpu(lambda: write_memos(model, paths, analysis=an))
        print(f"write_memos (en, zh):      {both:.3f} s CPU")
    print("one chart, ms CPU (median of 20):  en      zh")
    for name, draw in _charts(model, an).items():
        ms = [
            statistics.median(cpu(partial(draw, lang)) for _ in range(20)) * 1e3 for lang in LANGS
        ]
        print(f"  {name:<28} {ms[0]:7.2f} {ms[1]:7.2f}")


def _charts(model: cm.Model, an) -> dict:
    x = Facts(model, "en", an)
    mc = an.monte_carlo
    draws = [mc.draws[t]["npv"].to_numpy(float) for t in model.tiers]
    q = [
        tuple(float(mc.summary.loc[t, f"npv_{p}"]) for p in ("p10", "p50", "p90"))
        for t in model.tiers
    ]
    rows = an.tornado[an.tornado["tier"] == model.tiers[0]].head(10)
    names = [str(t) for t in model.tiers]
    values = [0.01, 0.02, 0.03][: len(names)]
    return {
        "npv": lambda lang: charts.npv_chart(model, lang),
        "capex": lambda lang: charts.capex_chart(model, lang),
        "opex": lambda lang: charts.opex_chart(model, lang),
        "cash": lambda lang: charts.cash_chart(model, lang),
        "cost": lambda lang: charts.cost_chart(model, lang, x.prices, x.breakeven),
        "tornado": lambda lang: analysis_charts.tornado_chart(
            list(rows["input"]),
            list(rows["low"]),
            list(rows["high"]),
            list(rows["at_low"]),
            list(rows["at_high"]),
            float(rows.iloc[0]["base"]),
            lang,
            "CNY",
            "T",
        ),
        "Monte Carlo distribution": lambda lang: analysis_charts.npv_distribution_chart(
            names, draws, q, lang, "CNY", "MC"
        ),
        "failures": lambda lang: analysis_charts.failures_chart(
            names, values, values, [1e6] * len(names), [5e5] * len(names), lang
        ),
    }


if __name__ == "__main__":
    main()

"""Memo speed on the bundled default: build the model, then write the English
and the Chinese memo (break-even search, the SVG charts, template), first
without an analysis, then with one computed beforehand
(``costmodel.analysis.bundle.analyze``: tornado, break-even, build or rent, 10,000
Monte Carlo draws and two scenarios; its own time is printed but not part of
the memo's). Target: each memo under 3 s on a 2-core machine (import of
matplotlib included in the first).

Run: python benchmarks/bench_memo.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

t0 = time.perf_counter()
import costmodel as cm  # noqa: E402
from costmodel.analysis.bundle import analyze  # noqa: E402
from costmodel.inputs.resources import default_assumptions_dir  # noqa: E402
from costmodel.report.memo.render import write_memo  # noqa: E402

TARGET_S = 3.0


def timed(model, d: str, lang: str, tag: str, analysis=None) -> None:
    start = time.perf_counter()
    path = write_memo(model, Path(d) / f"memo.{tag}.{lang}.html", lang=lang, analysis=analysis)
    took = time.perf_counter() - start
    size = path.stat().st_size / 1024
    verdict = "ok" if took < TARGET_S else "SLOW"
    print(
        f"memo ({lang}, {tag}): {took:.2f} s, {size:,.0f} KiB  [{verdict}, target < {TARGET_S} s]"
    )


def main() -> None:
    print(f"import costmodel: {time.perf_counter() - t0:.2f} s")
    model = cm.build(cm.load_assumptions())
    scenarios = default_assumptions_dir().parent / "scenarios"
    with tempfile.TemporaryDirectory() as d:
        for lang in ("en", "zh", "en"):
            timed(model, d, lang, "no analysis")
        start = time.perf_counter()
        an = analyze(
            model,
            draws=10_000,
            seed=0,
            scenarios={
                "downside": scenarios / "downside.yaml",
                "upside": scenarios / "upside.yaml",
            },
        )
        print(f"analyze (not part of the memo): {time.perf_counter() - start:.2f} s")
        for lang in ("en", "zh", "en"):
            timed(model, d, lang, "with analysis", an)


if __name__ == "__main__":
    main()

"""Memo speed on the bundled default: build the model, then write the English
and the Chinese memo (break-even search, five SVG charts, template). Target:
each memo under 3 s on a 2-core machine (import of matplotlib included in the
first).

Run: python benchmarks/bench_memo.py
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

t0 = time.perf_counter()
import costmodel as cm  # noqa: E402
from costmodel.memo import write_memo  # noqa: E402

TARGET_S = 3.0


def main() -> None:
    print(f"import costmodel: {time.perf_counter() - t0:.2f} s")
    model = cm.build(cm.load_assumptions())
    with tempfile.TemporaryDirectory() as d:
        for lang in ("en", "zh", "en"):
            start = time.perf_counter()
            path = write_memo(model, Path(d) / f"memo.{lang}.html", lang=lang)
            took = time.perf_counter() - start
            size = path.stat().st_size / 1024
            verdict = "ok" if took < TARGET_S else "SLOW"
            print(
                f"memo ({lang}): {took:.2f} s, {size:,.0f} KiB  [{verdict}, target < {TARGET_S} s]"
            )


if __name__ == "__main__":
    main()

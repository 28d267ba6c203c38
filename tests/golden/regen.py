"""Golden tables of the bundled default: every summary metric and every annual
line item of every tier, as CSV with 10 significant digits, so that a change of
any number shows in review.

- ``default_summary.csv``: one row per summary metric, one column per tier;
- ``default_annual.csv``: one row per (tier, line item), one column per year.

``tests/test_golden.py`` rebuilds both and compares them with these files
(relative tolerance 1e-9). After a change that is meant to move numbers, write
them again and commit the diff with the change:

    python -m tests.golden.regen
"""

from __future__ import annotations

import csv
import io
import math
import numbers
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
FILES = ("default_summary.csv", "default_annual.csv")


def cell(value: object) -> str:
    """Text of one cell: 10 significant digits for a float, empty for NaN."""
    if isinstance(value, bool | str):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        return "" if math.isnan(v) else format(v, ".10g")
    return "" if value is None else str(value)


def tables() -> dict[str, list[list[str]]]:
    """The golden tables of the bundled default, as rows of cells (header first)."""
    import costmodel

    model = costmodel.build(costmodel.load_assumptions())
    summary = model.summary()
    tiers = list(summary.index)
    rows = [["metric", *tiers]]
    rows += [[col, *(cell(summary.at[t, col]) for t in tiers)] for col in summary.columns]
    annual: list[list[str]] = []
    for tier in tiers:
        df = model.annual(tier)
        if not annual:
            annual.append(["tier", "item", *(f"year {y}" for y in df.index)])
        annual += [[tier, item, *(cell(v) for v in df[item])] for item in df.columns]
    return dict(zip(FILES, (rows, annual), strict=True))


def to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def read(name: str) -> list[list[str]]:
    """The committed rows of golden file ``name``."""
    with open(GOLDEN / name, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def main() -> None:
    for name, rows in tables().items():
        (GOLDEN / name).write_text(to_csv(rows), encoding="utf-8")
        print(f"wrote {GOLDEN / name} ({len(rows) - 1} rows)")


if __name__ == "__main__":
    main()

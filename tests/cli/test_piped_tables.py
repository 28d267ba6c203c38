"""Each command's table, piped (not a terminal) at ``COLUMNS=80`` (and narrower),
shows every number of the API's table whole: no ``3,7…``, no dropped column.

The commands run in a fresh interpreter with stdout a pipe, as ``costmodel ...
> file`` would; the expected cells are the API's frames through the same
formatters the tables use.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache

import pytest

import costmodel as cm
from costmodel.analysis.buildrent import COLUMNS
from costmodel.cli.tables import BVR_TABLE
from costmodel.core.metrics import HEADLINE, METRICS
from costmodel.inputs.vocabulary import input_kind
from costmodel.report.format import cell, table_value
from tests.paths import ROOT

COLO = str(ROOT / "assumptions" / "scenarios" / "greenfield.yaml")


def piped(*argv: str, columns: int = 80) -> str:
    """stdout of ``costmodel *argv`` run with stdout a pipe and ``COLUMNS``."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": str(columns)}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run(
        [sys.executable, "-m", "costmodel", *argv],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", "no progress display or message when piped"
    return proc.stdout


def missing(text: str, cells: list[str]) -> list[str]:
    """The ``cells`` that do not appear whole (not as part of a longer number)."""
    lost = []
    for c in cells:
        if c in ("", "-"):
            continue
        if not re.search(rf"(?<![\d,.]){re.escape(c)}(?![\d,.%])", text):
            lost.append(c)
    return lost


def assert_fits(text: str, columns: int) -> None:
    """No line wider than the console and no ellipsis (a cut cell)."""
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= columns


@cache
def model() -> cm.Model:
    return cm.build(cm.load_assumptions())


@pytest.mark.parametrize("columns", [80, 40])
def test_summary_every_number_whole(columns):
    text = piped("summary", columns=columns)
    assert_fits(text, columns)
    s = model().summary()
    # the site and feasibility rows are shown where a tier has a site or is infeasible
    shown = [c for c in s.columns if c not in ("site", "feasible", "infeasible_reason")]
    cells = [table_value(s.at[t, c], METRICS[c].kind) for t in s.index for c in shown]
    assert missing(text, cells) == []
    irr = s["irr"].dropna()
    assert f"{irr.iloc[0] * 100:.1f}%" in text  # IRR as a percentage


def test_recommend_every_column_whole():
    text = piped("recommend")
    assert_fits(text, 80)
    df = cm.recommend(model())
    for col in ("GPUs", "floor", "days", "due", "use", "fits"):
        assert re.search(rf"\b{col}\b", text), col
    cells = []
    for _, r in df.iterrows():
        cells += [cell(r.gpus, "count"), cell(r.memory_floor_gpus, "count"),
                  cell(r.days_needed, "years"), cell(r.deadline_days, "years"),
                  f"{r.share_of_horizon:.2%}"]  # fmt: skip
    assert missing(text, cells) == []
    assert text.count("best") >= len(df.attrs["recommended"])


def test_compare_every_number_whole():
    text = piped("compare", "-s", f"colo={COLO}")
    assert_fits(text, 80)
    result = cm.compare(model(), {"colo": {"paths": [COLO]}})
    cells = [table_value(row[m], METRICS[m].kind) for _, row in result.wide.iterrows()
             for m in HEADLINE]  # fmt: skip
    assert missing(text, cells) == []


def test_build_vs_rent_every_number_whole():
    text = piped("build-vs-rent")
    assert_fits(text, 80)
    df = cm.build_vs_rent(model())[COLUMNS]
    cells = [table_value(df.at[t, c], k) for c, _, k in BVR_TABLE for t in df.index]
    assert missing(text, cells) == []


def test_montecarlo_every_number_whole_irr_in_percent():
    text = piped("montecarlo", "-n", "400", "--seed", "3")
    assert_fits(text, 80)
    s = cm.monte_carlo(model(), n=400, seed=3).summary
    cells = []
    for stat in s.columns:
        kind = "money" if stat.startswith("npv") else "money_per_hour"
        kind = "pct" if stat.startswith(("irr", "p_npv")) else kind
        cells += [cell(s.at[t, stat], kind) for t in s.index]
    assert missing(text, cells) == []
    assert re.search(r"IRR, P50 \(median\) .*-\d+\.\d%", text)


def test_sensitivity_every_number_whole_no_residue_no_skipped_list():
    text = piped("sensitivity")
    assert_fits(text, 80)
    tor = cm.tornado(model())
    cells = []
    for tier in model().tiers:
        for _, r in tor[tor["tier"] == tier].head(12).iterrows():
            k = "pct" if input_kind(r["input"]) == "pct" else "number"
            cells += [cell(r["low"], k), cell(r["high"], k), cell(r["swing"], "millions")]
    be = cm.break_even(model())
    cells += [cell(v, "pct") for v in be["utilization"]]
    cells += [cell(v, "money_per_hour") for v in be["price_per_gpu_hour"]]
    assert missing(text, cells) == []
    assert "e-" not in text  # no solver residue such as 7.858e-10
    assert "servers.h100.price" not in text and "--verbose" in text
    verbose = piped("sensitivity", "--verbose", columns=200)
    assert "servers.h100.price" in verbose


@pytest.mark.parametrize("width", [120, 80, 50, 30, 12])
def test_layout_keeps_every_cell_whole_at_any_width(width):
    from io import StringIO

    from rich.console import Console

    from costmodel.cli.tables import show, summary_grid

    grid = summary_grid(model().summary_rows(), "title", "CNY")
    buf = StringIO()
    show(grid, Console(file=buf, width=width, color_system=None))
    text = buf.getvalue()
    assert "…" not in text
    numbers = [c for row in grid.rows for c in row[2:] if any(ch.isdigit() for ch in c)]
    assert missing(text, numbers) == []
    if width <= 30:
        assert "GPUs: " in text or "  tens: " in text  # one block per row

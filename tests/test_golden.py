"""The bundled default reproduces the committed golden tables (tests/golden).

A difference fails with the list of cells that moved. If the change is meant,
regenerate them (``python -m tests.golden.regen``) and commit the new CSVs.
"""

from __future__ import annotations

import math

import pytest

from tests.golden.regen import FILES, read, tables

REL = 1e-9
ABS = 1e-9
REGEN = "if the change is intended: python -m tests.golden.regen, and commit the CSVs"


def differences(want: list[list[str]], got: list[list[str]]) -> list[str]:
    """Cells of ``got`` that differ from ``want``: numbers beyond the tolerance,
    anything else as text; rows are matched by their labels."""
    if want[0] != got[0]:
        return [f"header {got[0]} instead of {want[0]}"]
    labels = 2 if want[0][0] == "tier" else 1
    old = {tuple(r[:labels]): r for r in want[1:]}
    new = {tuple(r[:labels]): r for r in got[1:]}
    out = [f"row {k} is gone" for k in old if k not in new]
    out += [f"row {k} is new" for k in new if k not in old]
    for key in (k for k in new if k in old):
        for col, a, b in zip(want[0][labels:], old[key][labels:], new[key][labels:], strict=True):
            if not same(a, b):
                out.append(f"{'/'.join(key)} {col}: {a or 'empty'} -> {b or 'empty'}")
    return out


def same(a: str, b: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    return math.isclose(x, y, rel_tol=REL, abs_tol=ABS)


@pytest.fixture(scope="module")
def current() -> dict[str, list[list[str]]]:
    return tables()


@pytest.mark.parametrize("name", FILES)
def test_default_equals_the_golden_table(name, current):
    moved = differences(read(name), current[name])
    assert not moved, f"{name}: {len(moved)} cells moved ({REGEN}):\n" + "\n".join(moved[:40])


def test_the_comparison_catches_a_moved_number(current):
    rows = [list(r) for r in current["default_summary.csv"]]
    npv = next(r for r in rows if r[0] == "npv")
    npv[1] = repr(float(npv[1]) * (1 + 1e-8))
    rows[1][2] = "x"
    moved = differences(current["default_summary.csv"], rows)
    assert len(moved) == 2 and any(m.startswith("npv ") for m in moved)
    assert differences(current["default_annual.csv"], current["default_annual.csv"][:-1]) == [
        f"row {tuple(current['default_annual.csv'][-1][:2])} is gone"
    ]

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
    anything else as text; rows are matched by their labels, columns by name."""
    labels = 2 if want[0][0] == "tier" else 1
    if want[0][:labels] != got[0][:labels]:
        return [f"header {got[0]} instead of {want[0]}"]
    old_cols, new_cols = want[0][labels:], got[0][labels:]
    out = [f"column {c!r} is gone" for c in old_cols if c not in new_cols]
    out += [f"column {c!r} is new" for c in new_cols if c not in old_cols]
    old = {tuple(r[:labels]): dict(zip(old_cols, r[labels:], strict=True)) for r in want[1:]}
    new = {tuple(r[:labels]): dict(zip(new_cols, r[labels:], strict=True)) for r in got[1:]}
    out += [f"row {k} is gone" for k in old if k not in new]
    out += [f"row {k} is new" for k in new if k not in old]
    for key in (k for k in new if k in old):
        for col in (c for c in new_cols if c in old_cols):
            a, b = old[key][col], new[key][col]
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
    annual = current["default_annual.csv"]
    assert differences(annual, annual[:-1]) == [f"row {tuple(annual[-1][:2])} is gone"]
    wider = [[*r, f"year {len(r) - 2}" if i == 0 else "1"] for i, r in enumerate(annual)]
    assert differences(annual, wider) == [f"column {wider[0][-1]!r} is new"]

"""The scripts in examples/ run and print what the API computes."""

from __future__ import annotations

import subprocess
import sys

import costmodel as cm
from tests.paths import ROOT


def run(script: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return proc.stdout


def test_compare_tiers():
    out = run("compare_tiers.py")
    s = cm.build(cm.load_assumptions()).summary()
    best = (s.npv / s.capex).idxmax()
    assert f"best NPV per CNY of capex: {best}" in out
    assert f"{s.loc[best, 'npv']:,.0f} CNY" in out
    for tier in s.index:
        assert f"{s.loc[tier, 'capex']:,.2f}" in out


def test_layer_scenario():
    out = run("layer_scenario.py")
    from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir

    colo = cm.build(
        cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "greenfield.yaml")
    ).summary()
    base = cm.build(cm.load_assumptions()).summary()
    for tier in base.index:
        assert f"{colo.loc[tier, 'npv'] - base.loc[tier, 'npv']:+,.0f} CNY" in out
    assert "power 0.95" in out

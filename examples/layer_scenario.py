"""Layer a scenario overlay and a one-off override on the bundled default.

Run: python examples/layer_scenario.py
Compares the base case (a leased park hall) with building the hall, and with a
higher electricity price, tier by tier.
"""

from __future__ import annotations

import pandas as pd

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir, scenarios_dir


def main() -> None:
    base = cm.load_assumptions()
    built = cm.load_assumptions(default_assumptions_dir(), scenarios_dir() / "greenfield.yaml")
    dear_power = cm.load_assumptions(overrides={"power.price_per_kwh": 0.95})

    rows = {}
    for name, a in {"base": base, "greenfield": built, "power 0.95": dear_power}.items():
        s = cm.build(a).summary()
        for tier in s.index:
            rows[(name, tier)] = s.loc[tier, ["capex", "opex_year1", "cost_per_gpu_hour", "npv"]]
    table = pd.DataFrame(rows).T
    table.index.names = ["scenario", "tier"]
    print(table.to_string(float_format=lambda x: f"{x:,.2f}"))

    delta = table.loc["greenfield", "npv"] - table.loc["base", "npv"]
    print("\nNPV change from building the hall instead of leasing it:")
    print(delta.map(lambda x: f"{x:+,.0f} CNY").to_string())


if __name__ == "__main__":
    main()

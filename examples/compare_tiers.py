"""Compare the scale tiers of the bundled default: which one earns its capital?

Run: python examples/compare_tiers.py
Prints each tier's capex, levelized cost per GPU-hour, NPV, IRR and payback,
then the tier with the highest NPV per unit of capex.
"""

from __future__ import annotations

import costmodel as cm


def main() -> None:
    model = cm.build(cm.load_assumptions())
    s = model.summary()
    cols = ["gpus", "capex", "cost_per_gpu_hour", "npv", "irr", "payback_years"]
    print(s[cols].to_string(float_format=lambda x: f"{x:,.2f}"))

    npv_per_capex = s["npv"] / s["capex"]
    best = npv_per_capex.idxmax()
    print(f"\nbest NPV per CNY of capex: {best} ({npv_per_capex[best]:+.3f})")

    # the schedules reproduce the summary: NPV is the sum of discounted free cash flow
    cf = model.cash_flow(best)
    print(f"{best}: sum of discounted FCF = {cf['discounted_fcf'].sum():,.0f} CNY")
    year1 = model.opex(best).loc[1:12].drop(columns=["period", "total"]).sum()
    print(f"{best}: year-1 opex by line item\n{year1.round(0).to_string()}")


if __name__ == "__main__":
    main()

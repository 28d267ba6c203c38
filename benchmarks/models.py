"""The models the benchmarks run, in one place: the bundled default, the default
with a stage on the hundreds tier, construction and ramp months and a bank loan
(``staged-financed``), and the default with its timing ranged, a stage and 60%
debt (``timing-ranged``); and ``tiers(n, years)``, the default's tiers repeated at
growing GPU counts (the wide models of the workbook and scaling benchmarks).

Import from a benchmark script run as ``python benchmarks/NAME.py`` (its folder
is on ``sys.path``).
"""

from __future__ import annotations

from pathlib import Path

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir

#: the bundled default with stages and debt (issue 11's benchmark model)
STAGED_FINANCED = """\
schema_version: 2
timeline: {build_months: 6, ramp_months: 6}
financing: {debt_share: 0.6, interest_rate: 0.045, term_years: 5}
tiers:
  hundreds:
    stages: [{month: 18, gpus: 64, capacity_tb: 400}]
"""


#: the spec-v2 inputs of the bundled default (assumptions/default/85-time-and-money.yaml,
#: copied from its draft): timing, financing and residual-value inputs, ranged
TIME_AND_MONEY = """\
schema_version: 2
terminal_value: market
timeline:
  build_months: {value: 6, low: 4, high: 12, unit: months}
  ramp_months: {value: 6, low: 3, high: 12, unit: months}
finance:
  loss_carryforward_years: 5
financing:
  debt_share: {value: 0.0, unit: fraction}
  interest_rate: {value: 0.045, low: 0.035, high: 0.09, unit: 1/yr}
  term_years: 5
  cost_of_equity: {value: 0.12, low: 0.10, high: 0.18, unit: 1/yr}
  min_dscr_covenant: {value: 1.2, unit: x}
facility:
  retrofit_premium: {value: 0.30, low: 0.15, high: 0.60, unit: fraction}
servers:
  h200:
    price_decline: {value: 0.15, low: 0.05, high: 0.30, unit: fraction per year}
depreciation:
  servers: {market_decline: {value: 0.30, low: 0.20, high: 0.45, unit: fraction per year}}
  network: {market_decline: {value: 0.25, unit: fraction per year}}
  storage: {market_decline: {value: 0.30, unit: fraction per year}}
  facility: {market_decline: {value: 0.05, unit: fraction per year}}
reliability:
  repair_hours: {value: 24, low: 4, high: 72, unit: hours}
tiers:
  tens:
    timeline: {build_months: {value: 2, unit: months}}
  thousands:
    timeline: {build_months: {value: 12, low: 9, high: 18, unit: months}}
"""

#: a stage on the hundreds tier and 60% debt on top of the default with timing ranged
STAGED_DEBT = """\
schema_version: 2
financing: {debt_share: 0.6}
tiers:
  hundreds:
    stages: [{month: 18, gpus: 64, capacity_tb: 400}]
"""

MODELS = ("default", "staged-financed", "timing-ranged")


def load(name: str, folder: Path) -> cm.Assumptions:
    """Model ``name`` of ``MODELS`` (overlays written to ``folder``)."""
    if name == "default":
        return cm.load_assumptions()
    if name == "staged-financed":
        overlay = folder / "staged-financed.yaml"
        overlay.write_text(STAGED_FINANCED)
        return cm.load_assumptions(default_assumptions_dir(), overlay)
    files = [default_assumptions_dir()]
    if not (default_assumptions_dir() / "85-time-and-money.yaml").exists():
        files.append(folder / "85-time-and-money.yaml")
        files[-1].write_text(TIME_AND_MONEY)
    files.append(folder / "staged-debt.yaml")
    files[-1].write_text(STAGED_DEBT)
    return cm.load_assumptions(*files)


def tiers(n: int, years: int | None = None) -> cm.Assumptions:
    """The default with ``n`` tiers: its three repeated, option i at (1 + i // 3)
    times its GPUs; ``years`` sets the horizon."""
    a = cm.load_assumptions()
    base = list(a.tiers.values())
    data = a.model_dump(exclude_none=True)
    data["tiers"] = {
        f"option_{i + 1}": base[i % 3]
        .model_copy(update={"gpus": base[i % 3].gpus * (1 + i // 3)})
        .model_dump(exclude_none=True)
        for i in range(n)
    }
    if years is not None:
        data["horizon_years"] = years
    return cm.Assumptions.model_validate(data)

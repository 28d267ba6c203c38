"""The residual value from income on a tier sheet (methodology §30.3), written when
the model's terminal value is ``income``: per deployment d, beside each formula,

- ``R_d = MAX(0, t_d + 12 x economic life - M)``, the months of life left after M;
- ``margin_d``, its revenue less the catalogue's margin lines (``MARGIN_LINES``) and
  the cost of insuring its hardware in month M: with one deployment a live formula
  of the sheet's lines in month M (the rate on the hardware alone); with stages the
  engine's figure (:meth:`costmodel.inputs.model.Model.residual`), as the sheet's lines
  are the sums over the deployments;
- the annuity ``x (1 - x^R_d) / (1 - x)``, ``x = (1 - price decline)^(1/12) / (1 +
  monthly rate)`` (``R_d`` where ``x = 1``), and ``V_d = MAX(0, margin_d) x annuity``.

``tv_income`` is the sum of the ``V_d`` and the facility's market value (its events'
rows of the market block); the terminal value, its gain and the levered gain read it
through ``income_flag``.
"""

from __future__ import annotations

from costmodel.catalogue.items import MARGIN_LINES, item_of_input, noun
from costmodel.report.workbook.tiercontext import Tier


def _margin_words() -> str:
    """The end of the margin row's label with one deployment: the item whose rate
    its formula reads on the hardware and the last margin line, by their catalogue
    nouns."""
    insured = item_of_input("insurance_rate").noun["en"]
    return f"{insured} of its hardware, {noun(MARGIN_LINES[-1])})"


#: the monthly factor of the annuity: a month's price decline over a month's discount
X = "((1-{$price_decline})^(1/12)/(1+{$monthly_rate}))"


def income_terms(x: Tier) -> tuple[str, str]:
    """``(terminal term, gain flag)`` for the formulas of the terminal value and the
    gains: ``"+{$tv_income}*{$income_flag}"`` and ``"({$market_flag}+{$income_flag})"``
    with an income residual; ``""`` and ``"{$market_flag}"`` without."""
    if "tv_income" not in x.cs.rows:
        return "", "{$market_flag}"
    return "+{$tv_income}*{$income_flag}", "({$market_flag}+{$income_flag})"


def income_rows(x: Tier) -> None:
    """The block of the module docstring; nothing unless the terminal value is income."""
    if x.config.terminal_value != "income":
        return
    cs, cur, dc = x.cs, x.cur, x.a.depreciation.servers
    table = x.model.residual(x.tier)
    cs.heading("Residual value from income (methodology §30.3)")
    flag = '=(terminal_value="income")*1'
    cs.const("income_flag", "Flag: terminal value = income", "flag", flag, 1.0, "flag")
    own = dc.economic_life_years
    years = float(getattr(own, "value", own)) if own is not None else float(dc.life_years)
    cs.const(
        "econ_life",
        "economic life of the servers"
        + (" (depreciation.servers.economic_life_years)" if own else " = their useful life"),
        "years",
        f"={years!r}" if own is not None else "=dep_servers_life",
        years,
        "count",
    )
    one = len(x.deps) == 1
    for i, row in table.iterrows():
        cs.const(
            f"ir_r{i}",
            f"deployment {i}: months of life left after M = MAX(0, t + 12 x life - M)",
            "months",
            f"=MAX(0,{{$d_t{i}}}+12*{{$econ_life}}-model_months)",
            float(row["remaining_months"]),
            "count",
        )
        margin = (
            "={revenue@M}"
            + "".join(f"-{{{line}@M}}" for line in MARGIN_LINES)
            + "-{$insurance_rate}*{$d_hw0}/12"
            if one
            else f"={float(row['margin'])!r}"
        )
        cs.const(
            f"ir_m{i}",
            f"deployment {i}: margin in month M (revenue - power, rent, upkeep, "
            + (_margin_words() if one else "... : the engine's)"),
            cur,
            margin,
            float(row["margin"]),
            "money",
        )
        r, f = f"{{$ir_r{i}}}", X
        cs.const(
            f"ir_a{i}",
            f"deployment {i}: annuity = x (1 - x^R) / (1 - x), x = (1 - decline)^(1/12) / (1 + r)",
            "months",
            f"=IF(ABS({f}-1)<1E-15,{r},{f}*(1-{f}^{r})/(1-{f}))",
            float(row["annuity"]),
            "factor",
        )
        cs.const(
            f"ir_v{i}",
            f"deployment {i}: value from income = MAX(0, margin) x annuity",
            cur,
            f"=MAX(0,{{$ir_m{i}}})*{{$ir_a{i}}}",
            float(row["value"]),
            "money",
        )
    facility = [f"{{$mv_facility{i}}}" for cls, i in x.event_of if cls == "facility"]
    values = "+".join(f"{{$ir_v{i}}}" for i in range(len(table)))
    cs.const(
        "tv_income",
        "value from income at M = sum of the deployments + the facility at market",
        cur,
        f"={values}" + "".join(f"+{f}" for f in facility),
        float(x.r.flows["terminal_value"][0][-1]),
        "money",
    )

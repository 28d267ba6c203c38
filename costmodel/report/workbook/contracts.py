"""Contracted capacity and revenue on a tier sheet (methodology §11.5): the
tier's contract (links to Inputs), per deployment its contract months, the share
sold take-or-pay, the contract price of its contract year and the load factor of
the power it draws; then the hours and revenue, contracted and spot.

Cached values are the engine's lines (``TierResult.flows``); the per-deployment
rows are the flags and factors those lines are made of.
"""

from __future__ import annotations

from typing import Any

from costmodel.inputs.vocabulary import input_label
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.tiercontext import HOURS, Tier

#: the contract's inputs: (row key, Inputs key, unit, number format)
CONTRACT_LINKS = (
    ("contract_share", "revenue.contract.share", "fraction", "pct2"),
    ("contract_price_per_gpu_hour", "revenue.contract.price_per_gpu_hour", "{cur}/GPU-h", "money2"),
    ("contract_months", "revenue.contract.months", "months", "count"),
    ("contract_escalation", "revenue.contract.escalation", "per contract year", "pct2"),
    ("contract_default_rate", "revenue.contract.default_rate", "per year", "pct2"),
)


def contract(x: Tier) -> None:
    """Methodology §11.5, §11.12: the contract's inputs and, per deployment d with
    capex month t_d, the flag of its contract months ``t_d < m <= t_d + months``,
    the share sold under contract ``s_d(m) = share x flag x S_d(m)`` with the
    contract's survival ``S_d(m) = (1 - default_rate)^((m - t_d - 1) / 12)`` (the
    defaulted share is sold spot with the ramp), the price of its contract year
    ``floor((m - t_d - 1) / 12)`` and the load factor ``s_d(m) + (1 - s_d(m))
    u_d(m)``."""
    cs = x.cs
    cs.heading("Contracted capacity (methodology §11.5: take-or-pay, no ramp)")
    _contract_inputs(x)
    for i in range(len(x.deps)):
        k = x.rows.contract(i)
        n = f"deployment {i}"
        rows = (
            (
                f"k_on{i}",
                f"{n}: flag, contract months (t < month <= t + contract months)",
                "flag",
                f"=({{month}}>{{$d_t{i}}})*({{month}}<={{$d_t{i}}}+{{$contract_months}})",
                k["window"],
                "flag",
            ),
            (
                f"k_s{i}",
                f"{n}: share sold under contract = share x flag x survival"
                " (1 - default rate)^((month - t - 1) / 12)",
                "fraction",
                # no 0^0 (#NUM! in Excel and Gnumeric) in the contract's first month
                f"={{$contract_share}}*{{k_on{i}}}*IF({{month}}-{{$d_t{i}}}-1<=0,1,"
                f"(1-{{$contract_default_rate}})^(({{month}}-{{$d_t{i}}}-1)/12))",
                k["share"],
                "pct2",
            ),
            (
                f"k_p{i}",
                f"{n}: contract price: price x (1+esc)^year, or value x index",
                x.money("GPU-h"),
                f"={{k_on{i}}}*IF({{$contract_at_hour_value}}=1,"
                "{$price_per_gpu_hour}*{price_index},"
                f"{{$contract_price_per_gpu_hour}}"
                f"*(1+{{$contract_escalation}})^INT(MAX(0,{{month}}-{{$d_t{i}}}-1)/12))",
                k["price"],
                "money2",
            ),
            (
                f"k_lf{i}",
                f"{n}: load factor = contract share + (1 - share) x utilization",
                "fraction",
                f"={{k_s{i}}}+(1-{{k_s{i}}})*{{d_u{i}}}",
                k["load"],
                "pct2",
            ),
        )
        for key, label, unit, formula, values, kind in rows:
            cs.series(key, label, unit, formula, values, kind)


def _contract_inputs(x: Tier) -> None:
    """The contract's links to Inputs, the flag of the ``avoided_cloud`` mode (every
    contracted hour then at the GPU-hour's value times the spot price index) and the
    spot price index ``(1 - decline)^(year - 1)``."""
    cs, ti = x.cs, x.ti
    for key, path, unit, kind in CONTRACT_LINKS:
        cell = x.inputs.tier_cells[(x.tier, path)]
        cs.const(
            key,
            input_label(path),
            unit.format(cur=x.cur),
            f"={cell}",
            ti.get(key, 0.0),
            kind,
            GREEN,
        )
    mode_cell = x.inputs.tier_cells[(x.tier, "revenue.mode")]
    cs.const(
        "contract_at_hour_value",
        "contract at the GPU-hour's value (1: mode avoided_cloud)",
        "flag",
        f'=IF({mode_cell}="avoided_cloud",1,0)',
        ti.get("contract_at_hour_value", 0.0),
        "flag",
    )
    cs.series(
        "price_index",
        "spot price index (1-decline)^(year-1)",
        "index",
        # the base is 1 in year 1 (and at month 0): no 0^0 (#NUM! in Excel, Gnumeric)
        # nor 0^-1 when the decline is 1
        "=IF({ops}=1,(1-{$price_decline}*({year}>1))^({year}-1),0)",
        x.r.flows["price_index"][0],
        "factor",
    )


def revenue(x: Tier) -> None:
    """Methodology §3.4 and §11.5: GPU-hours available, contracted and spot; the
    price index; revenue (or cloud cost avoided) contracted and spot. ``gpu_hours =
    contract + spot``, ``revenue = contract + spot revenue``."""
    cs, cur, f = x.cs, x.cur, x.r.flows
    cs.heading("Revenue (contracted and spot)")
    for key, label, unit, formula, values, kind, tot in (*_hour_rows(x), *_revenue_rows(x)):
        cs.series(key, label, unit, formula, values, kind, total=tot)
    cs.series(
        "revenue",
        "revenue = contract + spot revenue",
        cur,
        "={contract_revenue}+{spot_revenue}",
        f["revenue"][0],
        total=True,
        bold=True,
    )
    _revenue_without_default(x)
    contract_rebuilt(x)


def _total(x: Tier, term: str) -> str:
    """``term`` (a row of deployment ``{i}``) summed over the deployments, times
    availability and hours per month."""
    k = range(len(x.deps))
    return "(" + "+".join(term.format(i=i) for i in k) + f")*{{$availability}}*{HOURS}"


def _hour_rows(x: Tier) -> tuple[tuple[str, str, str, str, Any, str, bool], ...]:
    """Rows (key, label, unit, formula, cached values, format, totalled) of the
    GPU-hours available, under contract, sold spot, taken from spot by the
    contract, and sold in all."""
    f, total = x.r.flows, lambda term: _total(x, term)
    return (
        (
            "hours_available",
            "GPU-hours available = GPUs in service x availability x hours",
            "GPU-h",
            "=" + total("{{$d_g{i}}}*{{d_on{i}}}"),
            x.rows.hours_available,
            "count",
            False,
        ),
        (
            "contract_hours",
            "GPU-hours under contract = GPUs x contract share x availability x hours",
            "GPU-h",
            "=" + total("{{$d_g{i}}}*{{k_s{i}}}"),
            f["contract_hours"][0],
            "count",
            True,
        ),
        (
            "spot_hours",
            "GPU-hours sold spot = GPUs x utilization x (1 - contract share) x"
            " availability x hours",
            "GPU-h",
            "=" + total("{{$d_g{i}}}*{{d_u{i}}}*(1-{{k_s{i}}})"),
            f["spot_hours"][0],
            "count",
            True,
        ),
        (
            "contract_displaced",
            "ramped GPU-hours the contract takes from spot",
            "GPU-h",
            "=" + total("{{$d_g{i}}}*{{d_u{i}}}*{{k_s{i}}}"),
            x.rows.contract_displaced,
            "count",
            True,
        ),
        (
            "gpu_hours",
            "GPU-hours sold = contract + spot",
            "GPU-h",
            "={contract_hours}+{spot_hours}",
            f["gpu_hours"][0],
            "count",
            True,
        ),
    )


def _revenue_rows(x: Tier) -> tuple[tuple[str, str, str, str, Any, str, bool], ...]:
    """Rows (as :func:`_hour_rows`) of the contracted and spot revenue (the spot
    price index is a row of :func:`contract`, whose contract prices read it)."""
    f, cur, total = x.r.flows, x.cur, lambda term: _total(x, term)
    return (
        (
            "contract_revenue",
            "contract revenue = GPUs x contract share x contract price x availability x hours",
            cur,
            "=" + total("{{$d_g{i}}}*{{k_s{i}}}*{{k_p{i}}}"),
            f["contract_revenue"][0],
            "money",
            True,
        ),
        (
            "spot_revenue",
            "spot revenue (or cloud cost avoided) = spot hours x price x index",
            cur,
            "={spot_hours}*{$price_per_gpu_hour}*{price_index}",
            f["spot_revenue"][0],
            "money",
            True,
        ),
    )


def at_risk_formula(cs: Any) -> str:
    """Methodology §11.12, the Comparison's ``contract_at_risk`` of tier sheet
    ``cs``: the contract revenue without default less the contract revenue row; 0
    when the default rate is 0 (an exact 0, not the rounding of a difference)."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    return (
        f"=IF({S('contract_default_rate')}=0,0,"
        f"{S('contract_revenue_raw')}-SUM({S('contract_revenue', ':')}))"
    )


def _revenue_without_default(x: Tier) -> None:
    """The contract revenue without default (methodology §11.12): GPUs x share x the
    contract price row, summed over months and deployments, x availability x hours."""
    raw = "+".join(f"{{$d_g{i}}}*SUM({{k_p{i}:}})" for i in range(len(x.deps)))
    x.cs.const(
        "contract_revenue_raw",
        "contract revenue without default = GPUs x share x contract price x availability x hours",
        x.cur,
        f"=({raw})*{{$contract_share}}*{{$availability}}*{HOURS}",
        x.rows.contract_revenue_raw,
        "money",
    )


def contract_rebuilt(x: Tier) -> None:
    """Methodology §11.5, §11.12: the contract revenue over the horizon rebuilt from
    the inputs alone, not from the contract rows (the Checks sheet compares it with
    their total): per deployment d, the window x survival ``[t_d < m <= t_d +
    months] S_d(m)`` and the price, ``price x (1 + escalation)^floor((m - t_d - 1) /
    12)`` or, in mode ``avoided_cloud``, the GPU-hour's value x ``(1 - decline)^(year
    - 1)``; then ``sum_d GPUs_d x SUMPRODUCT(window x survival, price) x share x
    availability x hours``."""
    cs = x.cs
    for i in range(len(x.deps)):
        dt, rebuilt = f"{{$d_t{i}}}", x.rows.contract_rebuilt(i)
        cs.series(
            f"re_kw{i}",
            f"deployment {i} rebuilt: contract months x survival",
            "fraction",
            f"=({{month}}>{dt})*({{month}}<={dt}+{{$contract_months}})*IF({{month}}-{dt}-1<=0,1,"
            f"(1-{{$contract_default_rate}})^(({{month}}-{dt}-1)/12))",
            rebuilt["kept"],
            "factor",
        )
        cs.series(
            f"re_kp{i}",
            f"deployment {i} rebuilt: price (escalated, or cloud price x index)",
            x.money("GPU-h"),
            "=IF({$contract_at_hour_value}=1,{$price_per_gpu_hour}"
            "*(1-{$price_decline}*({year}>1))^({year}-1),{$contract_price_per_gpu_hour}"
            f"*(1+{{$contract_escalation}})^INT(MAX(0,{{month}}-{dt}-1)/12))",
            rebuilt["price"],
            "money2",
        )
    terms = "+".join(
        f"{{$d_g{i}}}*SUMPRODUCT({{re_kw{i}:}},{{re_kp{i}:}})" for i in range(len(x.deps))
    )
    cs.const(
        "re_contract_revenue",
        "contract revenue rebuilt = GPUs x share x the rows above x availability x hours",
        x.cur,
        f"=({terms})*{{$contract_share}}*{{$availability}}*{HOURS}",
        x.rows.contract_revenue_rebuilt,
        "money",
    )

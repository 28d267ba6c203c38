"""The money rows of a tier sheet (methodology §8.2, §8.3): debt, levered tax with expiring
losses, equity cash flow and cover ratios, as live formulas.

Blocks (each a function of the shared :class:`~costmodel.report.workbook.tiercontext.Tier`):

- :func:`debt`: one loan per month with capex (methodology §8.2; methodology 8, choice 4).
  The loans are found from the capex timeline alone (``capex_t``): a running count
  of capex months, and loan j is drawn in the month where the count reaches j
  (``MATCH``), so they follow capex months wherever the timeline puts them. Loan
  j: draw ``D = debt_share x capex`` at t, first payment ``p = max(t, B) + 1``,
  balance ``b = D (1+r)^(p-1-t)`` at p-1 (interest capitalized), level payment
  ``P``, closing balance in closed form, interest = r x opening balance,
  principal = P - interest. The corkscrew sums the loans; what is owed at M is
  the balloon.
- :func:`levered_tax`: EBIT of the year less interest paid in it, with its own
  loss table.
- :func:`equity`: ECF = FCF + draw - interest - principal - balloon + tax -
  levered tax, its discount factor at the cost of equity (the discount rate when
  blank), CFADS, debt service and DSCR per year, minimum DSCR.

Cached values are the engine's: its results, and per loan its loan schedule
(:attr:`costmodel.core.schedules.TierSchedules.loans`).
"""

from __future__ import annotations

import numpy as np

from costmodel.core.units import MONTHS_PER_YEAR
from costmodel.report.workbook.grid import GREEN, year_end_values
from costmodel.report.workbook.incomeblock import income_terms
from costmodel.report.workbook.losspool import loss_table
from costmodel.report.workbook.tiercontext import Tier


def build_month(x: Tier) -> tuple[str, float]:
    """Construction months B (formula, engine value): the first deployment's capex
    month, after which the loans start paying. The one place that knows where the
    timeline keeps B."""
    if "d_t0" in x.cs.rows:  # the live timeline (methodology §8.1): deployment 0's capex month
        return "={$d_t0}", _b(x)
    return "={month@0}", _b(x)


def _b(x: Tier) -> float:
    return float(np.asarray(x.r.deployments[0]["month"])[0]) if x.r.deployments else 0.0


# ----------------------------------------------------------------------------- debt


def capex_months(x: Tier) -> list[int]:
    """The engine's months with capex (one loan each)."""
    capex = x.r.flows["capex"][0]
    return [int(m) for m in np.flatnonzero(capex[:-1] > 0)]


def loan_slots(x: Tier) -> int:
    """Loans the sheet provides: one per possible capex month (the facility at 0,
    the first deployment at B, one per stage)."""
    return 2 + len(x.t.stages)


def debt_inputs(x: Tier) -> None:
    """Financing constants: links to Inputs and the monthly rate, term and B."""
    cs, ti = x.cs, x.ti
    cs.heading("Debt (methodology §8.2): one loan per capex month, level payments, balloon at M")
    rates = x.r.schedules.rates
    r, growth = float(rates["interest"][0]), float(rates["interest_term_growth"][0])
    n = MONTHS_PER_YEAR * ti["term_years"]
    formula, b = build_month(x)
    rows = (
        (
            "debt_share",
            "debt share of each capex month",
            "fraction",
            "=financing_debt_share",
            ti["debt_share"],
            "pct2",
            GREEN,
        ),
        (
            "interest_rate",
            "interest rate (annual)",
            "1/yr",
            "=financing_interest_rate",
            ti["interest_rate"],
            "pct2",
            GREEN,
        ),
        (
            "debt_rate",
            "monthly interest rate: i / 12 (nominal) or (1+i)^(1/12)-1 (effective)",
            "per month",
            '=IF(financing_rate_convention="nominal",{$interest_rate}/12,'
            "(1+{$interest_rate})^(1/12)-1)",
            r,
            "factor",
            None,
        ),
        (
            "term_months",
            "term: level monthly payments = 12 x term years",
            "months",
            "=12*financing_term_years",
            n,
            "count",
            None,
        ),
        (
            "term_growth",
            "(1 + monthly rate)^payments",
            "factor",
            "=(1+{$debt_rate})^{$term_months}",
            growth,
            "factor",
            None,
        ),
        (
            "debt_build",
            "construction months B (first payment at max(t, B) + 1)",
            "months",
            formula,
            b,
            "count",
            None,
        ),
    )
    for key, label, unit, f, value, kind, colour in rows:
        cs.const(key, label, unit, f, value, kind, *([colour] if colour else []))
    count = x.model.rows(x.tier).capex_count
    cs.reserve("capex_count")
    cs.series(
        "capex_count",
        "capex months so far (running count)",
        "count",
        "={capex_count<}+({capex_t}>0)",
        count,
        "count",
    )


def _loan_values(x: Tier, j: int) -> dict[str, np.ndarray | float]:
    """Loan j's constants and rows (the cached values), from the engine's loan of
    the j-th capex month (:func:`costmodel.core.debt.loans`); a slot beyond the
    capex months holds no loan (drawn at M, first payment M + 1, nothing owed)."""
    M = x.model.months
    n = float(MONTHS_PER_YEAR * x.ti["term_years"])
    loans = x.r.schedules.loans
    if j > len(loans):
        zero = np.zeros(M + 1)
        return {
            "t": float(M),
            "d": 0.0,
            "p": max(float(M), _b(x)) + 1,
            "b": 0.0,
            "pmt": 0.0,
            "n": n,
            "left": zero,
            "close": zero,
            "cap": zero,
            "pay": zero,
            "int": zero,
            "prin": zero,
        }
    loan = loans[j - 1]
    lines = {k: v[0] for k, v in loan.lines.items()}
    return {
        "t": float(loan.month),
        "d": float(loan.draw[0]),
        "p": float(loan.first_payment[0]),
        "b": float(loan.capitalized_balance[0]),
        "pmt": float(loan.payment[0]),
        "n": n,
        "left": lines["owed_share"],
        "close": lines["balance_close"] + lines["balloon"],
        "cap": lines["capitalized_interest"],
        "pay": lines["paying"],
        "int": lines["interest"],
        "prin": lines["principal"],
    }


def loans(x: Tier) -> None:
    """Loan j (j = 1..slots): drawn in the month where the capex count reaches j
    (no such month: no loan, amount 0)."""
    cs, cur = x.cs, x.cur
    for j in range(1, loan_slots(x) + 1):
        v = _loan_values(x, j)
        L = f"loan {j}:"
        consts = (
            (
                "t",
                f"{L} draw month t (where the count of capex months reaches {j})",
                "month",
                f"=IFERROR(MATCH({j},{{capex_count:}},0)-1,model_months)",
                v["t"],
                "count",
            ),
            (
                "d",
                f"{L} draw D = debt share x capex of month t",
                cur,
                f"=IF({{capex_count@M}}>={j},{{$debt_share}}*INDEX({{capex_t:}},1,{{$loan{j}_t}}+1),0)",
                v["d"],
                "money",
            ),
            (
                "p",
                f"{L} first payment month p = max(t, B) + 1",
                "month",
                f"=MAX({{$loan{j}_t}},{{$debt_build}})+1",
                v["p"],
                "count",
            ),
            (
                "b",
                f"{L} balance at p - 1 = D (1+r)^(p-1-t) (interest capitalized)",
                cur,
                f"={{$loan{j}_d}}*(1+{{$debt_rate}})^({{$loan{j}_p}}-1-{{$loan{j}_t}})",
                v["b"],
                "money",
            ),
            (
                "pmt",
                f"{L} level payment = b r / (1 - (1+r)^-n) (b / n if r = 0)",
                cur,
                f"=IF({{$debt_rate}}=0,{{$loan{j}_b}}/{{$term_months}},{{$loan{j}_b}}*{{$debt_rate}}"
                f"/(1-(1+{{$debt_rate}})^(-{{$term_months}})))",
                v["pmt"],
                "money2",
            ),
        )
        for key, label, unit, formula, value, kind in consts:
            cs.const(f"loan{j}_{key}", label, unit, formula, value, kind)
        _loan_rows(x, j, v)


def _loan_rows(x: Tier, j: int, v: dict) -> None:
    cs, cur = x.cs, x.cur
    c = lambda k: f"{{$loan{j}_{k}}}"  # noqa: E731
    k = f"({{month}}-{c('p')}+1)"
    rate, g = "{$debt_rate}", "{$term_growth}"
    left = (
        f"=IF({rate}=0,MAX(0,1-{k}/{{$term_months}}),MAX(0,({g}-(1+{rate})^{k})/({g}-1)))"
        f"*({{month}}>={c('p')})"
    )
    L = f"loan {j}:"
    rows = (
        ("left", f"{L} share of b still owed after the month's payment", left, v["left"], "factor"),
        (
            "pay",
            f"{L} flag: payment month (p .. p + n - 1)",
            f"=({{month}}>={c('p')})*({{month}}-{c('p')}<{{$term_months}})",
            v["pay"],
            "flag",
        ),
        (
            "cap",
            f"{L} interest capitalized = r x opening (t < month < p)",
            f"={{loan{j}_close<}}*{rate}*({{month}}>{c('t')})*({{month}}<{c('p')})",
            v["cap"],
            "money",
        ),
        (
            "int",
            f"{L} interest paid = r x opening (payment months)",
            f"={{loan{j}_close<}}*{rate}*{{loan{j}_pay}}",
            v["int"],
            "money",
        ),
        (
            "prin",
            f"{L} principal = payment - interest",
            f"=({c('pmt')}-{{loan{j}_int}})*{{loan{j}_pay}}",
            v["prin"],
            "money",
        ),
        (
            "close",
            f"{L} closing balance (closed form, before any balloon)",
            f"=({{month}}>={c('t')})*({{month}}<{c('p')})*{c('d')}*(1+{rate})^({{month}}-{c('t')})"
            f"+{c('b')}*{{loan{j}_left}}",
            v["close"],
            "money",
        ),
    )
    cs.reserve(*(f"loan{j}_{row[0]}" for row in rows))  # in this order, before any is written
    for key, label, formula, values, kind in rows:
        cs.series(f"loan{j}_{key}", label, cur if kind == "money" else kind, formula, values, kind)


def corkscrew(x: Tier) -> None:
    """The debt corkscrew: opening + draw + capitalized interest - principal -
    balloon = closing; the balloon repays at M what the loans still owe."""
    cs, r, cur = x.cs, x.r, x.cur
    d = r.debt
    js = range(1, loan_slots(x) + 1)
    total = lambda k: "=" + "+".join(f"{{loan{j}_{k}}}" for j in js)  # noqa: E731
    before = d["balance_close"][0] + d["balloon"][0]
    rows = (
        ("debt_open", "debt: opening balance", "={debt_close<}", d["balance_open"][0], False),
        (
            "debt_draw",
            "debt: draws = debt share x capex",
            "={$debt_share}*{capex_t}",
            d["draw"][0],
            True,
        ),
        (
            "debt_cap",
            "debt: interest capitalized",
            total("cap"),
            d["capitalized_interest"][0],
            True,
        ),
        ("debt_interest", "debt: interest paid", total("int"), d["interest"][0], True),
        ("debt_principal", "debt: principal repaid", total("prin"), d["principal"][0], True),
        (
            "debt_before",
            "debt: balance owed before the balloon (sum of the loans)",
            total("close"),
            before,
            False,
        ),
        (
            "debt_balloon",
            "debt: balloon at M (what is still owed)",
            "={debt_before}*{last}",
            d["balloon"][0],
            True,
        ),
        (
            "debt_close",
            "debt: closing balance",
            "={debt_before}-{debt_balloon}",
            d["balance_close"][0],
            False,
        ),
    )
    cs.reserve(*(row[0] for row in rows))
    for key, label, formula, values, tot in rows:
        cs.series(key, label, cur, formula, values, total=tot, bold=key == "debt_close")
    cs.const(
        "debt_peak",
        "peak debt = largest balance owed before the balloon",
        cur,
        "=MAX({debt_before:})",
        x.met["debt_peak"],
        "money",
    )
    cs.const(
        "loan_draws",
        "draws of the loan table (sum of D)",
        cur,
        "=" + "+".join(f"{{$loan{j}_d}}" for j in js),
        float(d["draw"][0].sum()),
        "money",
    )
    _loan_payments(x)


def _loan_payments(x: Tier) -> None:
    """The level payments each loan makes within the horizon, and their sum (the
    loan table's side of the reconciliation of interest + principal paid)."""
    cs, cur = x.cs, x.cur
    js = range(1, loan_slots(x) + 1)
    for j in js:
        cs.const(
            f"loan{j}_paid",
            f"loan {j}: payments within the horizon = payment x min(n, M - p + 1)",
            cur,
            f"={{$loan{j}_pmt}}*MIN({{$term_months}},MAX(0,model_months-{{$loan{j}_p}}+1))",
            x.rows.loan_paid_within(j - 1),
            "money",
        )
    cs.const(
        "loan_payments",
        "level payments made within the horizon (all loans)",
        cur,
        "=" + "+".join(f"{{$loan{j}_paid}}" for j in js),
        x.rows.totals["debt_service"],
        "money",
    )


def debt(x: Tier) -> None:
    """The debt (methodology §8.2): constants, the loan table, the corkscrew."""
    debt_inputs(x)
    loans(x)
    corkscrew(x)


# ----------------------------------------------------------------------------- levered tax


def levered_tax(x: Tier) -> None:
    """Levered tax (methodology §8.2, §11.8): the taxable income of the year less the
    interest paid in it and the tax depreciation of the interest capitalized on the
    hall's loan (the only capex paid before B, so the only loan that capitalizes;
    it depreciates with the hall, so its charge is the hall's times capitalized /
    cost), whose tax book value at M also lowers the terminal gain; its own loss
    table."""
    cs, r, cur = x.cs, x.r, x.cur
    cs.heading("Levered tax (taxable income - interest paid, losses carried forward on their own)")
    ir = x.model.rows(x.tier)
    interest_y = ir.at_year_ends(ir.annual_sums("interest")[1:])
    cs.series(
        "interest_year",
        "interest paid in the operating year (at its last month)",
        cur,
        "=SUMIFS({debt_interest:},{year:},{year})*{yearend}",
        interest_y,
    )
    cap_dep = r.flows["tax_depreciation_capitalized_interest"][0]
    hall = "{$d_cf0}"
    capitalized = float(r.debt["capitalized_interest"][0].sum())  # the hall's loan only
    cs.const(
        "cap_int",
        "interest capitalized on the hall's loan = debt share x hall cost x ((1+r)^B - 1)",
        cur,
        f"={{$debt_share}}*{hall}*((1+{{$debt_rate}})^{{$debt_build}}-1)",
        capitalized,
        "money",
    )
    cs.series(
        "cap_dep",
        "tax depreciation of capitalized interest = hall's x capitalized / cost",
        cur,
        f"=IF({hall}=0,0,{{ev_dep_facility0}}/12*{{$cap_int}}/{hall})",
        cap_dep,
        total=True,
    )
    cs.series(
        "taxable_year_lev",
        "levered taxable income = taxable income - interest paid - "
        "capitalized interest's tax depreciation (its tax book value off the gain at M)",
        cur,
        "={taxable_year}-{interest_year}-SUMIFS({cap_dep:},{year:},{year})*{yearend}"
        f"-({{$cap_int}}-SUM({{cap_dep:}}))*{income_terms(x)[1]}*{{last}}",
        x.rows.loss_pool(levered=True)["base"],
    )
    loss_table(x, "lev_", "taxable_year_lev", "tax_lev", r.flows["tax_levered"][0], "levered")


# ----------------------------------------------------------------------------- equity


def equity(x: Tier) -> None:
    """Equity cash flow, its discounting at the cost of equity, CFADS, debt
    service, DSCR per year and the minimum."""
    cs, cur, f = x.cs, x.cur, x.r.flows
    cs.heading("Equity cash flow and cover (methodology §8.2)")
    grants = "subsidies" in cs.rows  # methodology §11.13
    rows = (
        (
            "cfads",
            "CFADS = revenue - opex - levered tax + VAT cash" + (" + subsidies" if grants else ""),
            "={revenue}-{opex}-{tax_lev}+{vat_cash}" + ("+{subsidies}" if grants else ""),
            f["cfads"][0],
            True,
        ),
        (
            "debt_service",
            "debt service = interest + principal (balloon excluded)",
            "={debt_interest}+{debt_principal}",
            f["debt_service"][0],
            True,
        ),
        (
            "ecf",
            "equity cash flow = FCF + draw - interest - principal - balloon + tax - levered tax",
            "={fcf}+{debt_draw}-{debt_interest}-{debt_principal}-{debt_balloon}+{tax}-{tax_lev}",
            f["ecf"][0],
            True,
        ),
    )
    for key, label, formula, values, tot in rows:
        cs.series(key, label, cur, formula, values, total=tot, bold=key == "ecf")
    cs.const(
        "equity_rate",
        "monthly cost of equity (the discount rate if blank)",
        "per month",
        "=(1+IF(ISBLANK(financing_cost_of_equity),finance_discount_rate,"
        "financing_cost_of_equity))^(1/12)-1",
        float(x.r.schedules.rates["cost_of_equity"][0]),
        "factor",
    )
    edf = f["equity_discount_factor"][0]
    cs.series(
        "equity_discount",
        "equity discount factor (1+r_e)^-month",
        "factor",
        "=(1+{$equity_rate})^(-{month})",
        edf,
        "factor",
    )
    cs.series(
        "disc_ecf",
        "discounted equity cash flow",
        cur,
        "={ecf}*{equity_discount}",
        f["ecf"][0] * edf,
        total=True,
    )
    _cover(x)
    cs.const(
        "re_equity_npv",
        "equity NPV = sum of ECF x (1 + cost of equity)^(-month/12)",
        cur,
        "=SUMPRODUCT({ecf:},(1+IF(ISBLANK(financing_cost_of_equity),finance_discount_rate,"
        "financing_cost_of_equity))^(-{month:}/12))",
        x.met["equity_npv"],
        "money",
    )


def _cover(x: Tier) -> None:
    """CFADS and debt service of each operating year (at its last month), the DSCR
    of the years with debt service, and its minimum."""
    cs, r, M, cur = x.cs, x.r, x.model.months, x.cur
    ann = r.annual
    cfads_y, ds_y = year_end_values(ann["cfads"][0], M), year_end_values(ann["debt_service"][0], M)
    dscr = np.full(M + 1, np.nan)
    dscr[MONTHS_PER_YEAR::MONTHS_PER_YEAR] = ann["dscr"][0]
    rows = (
        (
            "cfads_year",
            "CFADS of the operating year (at its last month)",
            "=SUMIFS({cfads:},{year:},{year})*{yearend}",
            cfads_y,
            cur,
        ),
        (
            "ds_year",
            "debt service of the operating year",
            "=SUMIFS({debt_service:},{year:},{year})*{yearend}",
            ds_y,
            cur,
        ),
        (
            "dscr",
            "DSCR = CFADS / debt service (years with debt service)",
            '=IF({ds_year}>0,{cfads_year}/{ds_year},"")',
            dscr,
            "ratio",
        ),
    )
    for key, label, formula, values, unit in rows:
        cs.series(key, label, unit, formula, values, "number" if unit == "ratio" else "money")
    cs.const(
        "min_dscr",
        "minimum DSCR (empty without debt service)",
        "ratio",
        '=IF(COUNT({dscr:})=0,"",MIN({dscr:}))',
        x.met["min_dscr"],
        "number",
    )

"""The reconciliations of a tier on the Checks sheet (:mod:`checks`): each total
of the tier sheet against an independent recomputation (a closed form on the
tier sheet, a sum of other rows, a Comparison cell), with the engine's value as
the cached value of both. A reconciliation fails when the two differ by more
than ``check_tolerance`` times its scale (the tier's capex, or its ramped
GPU-hours)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from costmodel.catalogue.items import CAPEX_CLASSES
from costmodel.catalogue.linechecks import CHECKS
from costmodel.inputs.model import Model
from costmodel.report.workbook.grid import CalcSheet
from costmodel.report.workbook.subsidyblock import subsidy_checks
from costmodel.report.workbook.tier import OPEX_LINES
from costmodel.report.workbook.vatblock import vat_checks


@dataclass
class Recon:
    """A reconciliation: ``model`` and ``independent`` formulas (without "="), their
    common value in the engine, the scale the tolerance is relative to."""

    label: str
    model: str
    independent: str
    value: float
    scale: str
    scale_value: float = 0.0


def _totals(model: Model, t: str) -> dict[str, float]:
    """The model's horizon totals of tier ``t`` (the cached values of the checks:
    :attr:`costmodel.core.closedforms.ClosedForms.totals`), a copy."""
    return dict(model.rows(t).totals)


def _refs(cs: CalcSheet) -> tuple[Callable[..., str], Callable[[str], str], str]:
    """The references a tier's reconciliations are written with: ``S(key, kind)``,
    a cell or range of the tier sheet named with its sheet (:meth:`CalcSheet.ref`);
    ``tot(key)``, the row's total over the timeline; and ``cap``, the scale of a
    check of money, ``ABS(capex_total)``."""
    S = lambda key, kind="$": cs.ref(key, kind, sheet=True)  # noqa: E731
    tot = lambda key: f"SUM({S(key, ':')})"  # noqa: E731
    return S, tot, f"ABS({S('capex_total')})"


def reconciliations(
    cs: CalcSheet, model: Model, comp: dict[tuple[str, str], str], t: str
) -> list[Recon]:
    """Per tier: each total against an independent recomputation (opex, revenue,
    each asset class, cash and the Comparison sheet); a check of GPU-hours is
    scaled by the ramped GPU-hours, every other one by the capex."""
    S, tot, cap = _refs(cs)
    v = _totals(model, t)
    v["subsidy_rows"] = float("subsidies" in cs.rows)
    out = [*_opex_recons(S, tot, cap, v, model, t), *_revenue_recons(S, tot, cap, v)]
    for c in CAPEX_CLASSES:
        out += _asset_recons(S, tot, cap, v, c)
    out += _cash_recons(S, tot, cap, comp, t, v)
    subsidies = tuple(model.inputs[t].config.subsidies or ())
    if subsidies:  # methodology §11.13
        out += [Recon(*c, cap) for c in subsidy_checks(cs, subsidies, v["subsidies"])]
    for c in out:
        hours = c.scale.endswith(S("re_gpu_hours"))
        c.scale_value = abs(v["ramped_hours"] if hours else v["capex"])
    return out


def _opex_recons(S, tot, cap: str, v: dict[str, float], model: Model, t: str) -> list[Recon]:
    """Capex against its lines and deployments; opex against its lines and each
    line against its closed form (:data:`costmodel.catalogue.linechecks.CHECKS`)."""
    out = [
        Recon(
            "capex timeline = capex lines",
            tot("capex_t"),
            "+".join(S(f"capex_{c}") for c in CAPEX_CLASSES),
            v["capex"],
            cap,
        ),
        Recon(
            "capex of the deployments = capex lines",
            S("capex_by_deployment"),
            S("capex_total"),
            v["capex"],
            cap,
        ),
        Recon(
            "opex total = sum of its lines",
            tot("opex"),
            f"SUM({','.join(S(line, ':') for line in OPEX_LINES)})",
            v["opex"],
            cap,
        ),
    ]
    for c in CHECKS:
        lines = "+".join(tot(line) for line in c.lines)
        independent = S(c.key) if c.check_formula is None else c.check_formula(S, tot)
        total = model.rows(t).total_of(*c.lines)  # the cells add these SUMs
        out.append(Recon(c.check, lines, independent, total, cap))
    return out


def _revenue_recons(S, tot, cap: str, v: dict[str, float]) -> list[Recon]:
    """GPU-hours and revenue against their closed forms and parts; contracted
    GPU-hours within those available."""
    return [
        Recon(
            "ramped GPU-hours = GPUs x ramped months x util x availability x hours",
            f"{tot('spot_hours')}+{tot('contract_displaced')}",
            S("re_gpu_hours"),
            v["ramped_hours"],
            S("re_gpu_hours"),
        ),
        Recon(
            "spot revenue = spot GPU-hours x price x price index",
            tot("spot_revenue"),
            S("re_revenue"),
            v["spot_revenue"],
            cap,
        ),
        Recon(
            "contract revenue = its inputs rebuilt (share, months, price and escalation,"
            " or cloud price and index; survival)",
            tot("contract_revenue"),
            S("re_contract_revenue"),
            v["contract_revenue"],
            cap,
        ),
        Recon(
            "revenue = contract revenue + spot revenue",
            tot("revenue"),
            f"{tot('contract_revenue')}+{tot('spot_revenue')}",
            v["revenue"],
            cap,
        ),
        Recon(
            "contract GPU-hours <= available GPU-hours (hours over)",
            f"SUMPRODUCT(({S('contract_hours', ':')}>{S('hours_available', ':')})*"
            f"({S('contract_hours', ':')}-{S('hours_available', ':')}))",
            "0",
            0.0,
            S("re_gpu_hours"),
        ),
    ]


def _asset_recons(S, tot, cap: str, v: dict[str, float], c: str) -> list[Recon]:
    """Asset class ``c``: depreciation against its closed form per capex event,
    depreciation + closing book value against cost, book value above salvage."""
    return [
        Recon(
            f"{c}: depreciation = closed form per capex event",
            tot(f"dep_{c}"),
            S(f"re_dep_{c}"),
            v[f"dep_{c}"],
            cap,
        ),
        Recon(
            f"{c}: depreciation + closing book value = cost",
            f"{tot(f'dep_{c}')}+{S(f'nbv_close_{c}', '@M')}",
            S(f"capex_{c}"),
            v[f"capex_{c}"],
            cap,
        ),
        Recon(
            f"{c}: book value never below salvage (shortfall)",
            f"MIN(0,MIN({S(f'nbv_above_{c}', ':1')}))",
            "0",
            0.0,
            cap,
        ),
    ]


def _cash_recons(S, tot, cap: str, comp, t: str, v: dict[str, float]) -> list[Recon]:
    """Depreciation, EBIT, taxable income, the loss pool and tax, tax depreciation
    of expensed classes, FCF, and the Comparison sheet's NPV, capex and revenue."""
    return [
        Recon(
            "depreciation total = sum of asset classes",
            tot("dep"),
            "+".join(tot(f"dep_{c}") for c in CAPEX_CLASSES),
            v["depreciation"],
            cap,
        ),
        Recon(
            "EBIT = revenue - opex - depreciation",
            tot("ebit"),
            f"{tot('revenue')}-{tot('opex')}-{tot('dep')}",
            v["ebit"],
            cap,
        ),
        Recon(
            "annual taxable income rows = monthly result for tax + terminal gain",
            tot("taxable_year"),
            f"{tot('taxable_m')}+{S('gain')}",
            v["taxable_income"],
            cap,
        ),
        *_loss_recons(S, tot, cap, "", "taxable_year", "tax", v["loss_close"], v["tax"]),
        *[_expensed_recon(S, tot, c, v, cap) for c in CAPEX_CLASSES if c != "facility"],
        _fcf_recon(S, tot, cap, v),
        Recon(
            "NPV (Comparison) = sum of FCF x (1+r)^(-t)",
            comp[(t, "npv")],
            S("re_npv"),
            v["npv"],
            cap,
        ),
        Recon(
            "Comparison capex = tier sheet", comp[(t, "capex")], S("capex_total"), v["capex"], cap
        ),
        Recon(
            "Comparison revenue = tier sheet",
            comp[(t, "revenue")],
            tot("revenue"),
            v["revenue"],
            cap,
        ),
    ]


def _fcf_recon(S, tot, cap: str, v: dict[str, float]) -> Recon:
    """FCF less its cash lines of their own (VAT, subsidies where a tier has them)
    against its operating parts."""
    grants = v["subsidy_rows"] > 0
    return Recon(
        "FCF - VAT cash"
        + (" - subsidies" if grants else "")
        + " = revenue - opex - tax - capex + terminal",
        f"{tot('fcf')}-{tot('vat_cash')}" + (f"-{tot('subsidies')}" if grants else ""),
        f"{tot('revenue')}-{tot('opex')}-{tot('tax')}-{tot('capex_t')}+{tot('terminal')}",
        v["fcf_before_own_cash"],
        cap,
    )


def _expensed_recon(S, tot, cls: str, v: dict[str, float], cap: str) -> Recon:
    """Tax depreciation of a class over the horizon: its capex in service by M
    (everything but month M's) when expensed, its book depreciation otherwise
    (methodology §11.7)."""
    capex = f"capex_{cls}_t"
    return Recon(
        f"{cls}: tax depreciation = capex in service by M (expensed) or book",
        tot(f"tax_dep_{cls}"),
        f'IF(dep_{cls}_tax_method="expensed",{tot(capex)}-{S(capex, "@M")},{tot(f"dep_{cls}")})',
        v[f"tax_depreciation_{cls}"],
        cap,
    )


def _rss(S, keys: list[str], signs: str) -> str:
    """Root of the sum over months of the square of the rows ``keys`` added with
    ``signs`` (``"++--"``): 0 when the identity holds in every month."""
    expr = "".join(f"{sign}{S(k, ':')}" for sign, k in zip(signs, keys, strict=True))
    return f"SQRT(SUMPRODUCT(({expr.lstrip('+')})^2))"


def _tax_rate(S) -> str:
    """The tier's tax rate: its site's row where the model has sites (methodology
    §29), else the global input."""
    try:
        return S("site_tax_rate")
    except KeyError:
        return "finance_tax_rate"


def _loss_recons(
    S, tot, cap: str, p: str, base: str, tax: str, close: float, tax_value: float
) -> list[Recon]:
    """The loss corkscrew of ``base`` (unlevered ``p=""`` or levered ``"lev_"``)."""
    k = [f"{p}loss_{x}" for x in ("open", "added", "used", "expired", "close")]
    what = "levered loss pool" if p else "loss pool"
    return [
        Recon(
            f"{what}: open + added - used - expired = closing, every month",
            _rss(S, k, "++---"),
            "0",
            0.0,
            cap,
        ),
        Recon(
            f"{what}: added - used - expired = closing at M",
            f"{tot(k[1])}-{tot(k[2])}-{tot(k[3])}",
            S(k[4], "@M"),
            close,
            cap,
        ),
        Recon(f"{what} never negative (shortfall)", f"MIN(0,MIN({S(k[4], ':')}))", "0", 0.0, cap),
        Recon(
            "levered tax = rate x (positive levered taxable income - losses used)"
            if p
            else "tax = rate x (positive taxable income - losses used)",
            tot(tax),
            f'{_tax_rate(S)}*(SUMIF({S(base, ":")},">0")-{tot(k[2])})',
            tax_value,
            cap,
        ),
    ]


def money_recons(
    cs: CalcSheet, model: Model, comp: dict[tuple[str, str], str], t: str
) -> list[Recon]:
    """Per tier (methodology §8.2-8.3): the debt corkscrew, the loan table against the
    draws, the vintage tables against their pools, levered tax, equity NPV; each
    scaled by the capex."""
    S, tot, cap = _refs(cs)
    v = _totals(model, t)
    v["subsidy_rows"] = float("subsidies" in cs.rows)
    out = [*_debt_recons(S, tot, cap, v), *_vintage_recons(cs, model, t)]
    out += _loss_recons(
        S,
        tot,
        cap,
        "lev_",
        "taxable_year_lev",
        "tax_lev",
        v["levered_loss_close"],
        v["tax_levered"],
    )
    out += [
        Recon(
            "levered tax never negative (shortfall)",
            f"MIN(0,MIN({S('tax_lev', ':')}))",
            "0",
            0.0,
            cap,
        ),
        Recon(
            "equity NPV (Comparison) = sum of ECF x (1+r_e)^(-t)",
            comp[(t, "equity_npv")],
            S("re_equity_npv"),
            v["equity_npv"],
            cap,
        ),
        Recon(
            "peak debt (Comparison) = tier sheet",
            comp[(t, "debt_peak")],
            f"MAX({S('debt_before', ':')})",
            v["debt_peak"],
            cap,
        ),
    ]
    for c in out:
        c.scale_value = abs(v["capex"])
    return out


def _debt_recons(S, tot, cap: str, v: dict[str, float]) -> list[Recon]:
    """The debt corkscrew every month; repayments against draws and capitalized
    interest; the loan table's draws and payments; the balance never negative."""
    k = ["debt_open", "debt_draw", "debt_cap", "debt_principal", "debt_balloon", "debt_close"]
    return [
        Recon(
            "debt: open + draw + capitalized - principal - balloon = closing, every month",
            _rss(S, k, "+++---"),
            "0",
            0.0,
            cap,
        ),
        Recon(
            "debt: principal + balloon = draws + capitalized interest",
            f"{tot('debt_principal')}+{tot('debt_balloon')}",
            f"{tot('debt_draw')}+{tot('debt_cap')}",
            v["repaid"],
            cap,
        ),
        Recon(
            "debt: loan table draws = debt share x capex timeline",
            S("loan_draws"),
            tot("debt_draw"),
            v["draw"],
            cap,
        ),
        Recon(
            "debt: interest + principal paid = level payments x payments made",
            f"{tot('debt_interest')}+{tot('debt_principal')}",
            S("loan_payments"),
            v["debt_service"],
            cap,
        ),
        Recon(
            "debt: balance never negative (shortfall)",
            f"MIN(0,MIN({S('debt_before', ':')}))",
            "0",
            0.0,
            cap,
        ),
    ]


def _vintage_recons(cs: CalcSheet, model: Model, t: str) -> list[Recon]:
    """Each loss pool (unlevered, levered) at M against the sum of its vintages'
    balances."""
    S, _, cap = _refs(cs)
    r = model.results[t]
    years = model.months // 12
    out = []
    for p, what in (("", "loss pool"), ("lev_", "levered loss pool")):
        rem = f"{S(f'{p}lv_rem_1', '@M')}"
        last = f"{p}lv_rem_{years}"
        rng = f"{rem}:{cs.ref(last, '@M')}"
        close = float(r.annual["loss_pool_close" if not p else "levered_loss_close"][0][-1])
        out.append(
            Recon(
                f"{what} at M = sum of its vintage balances",
                S(f"{p}loss_close", "@M"),
                f"SUM({rng})",
                close,
                cap,
            )
        )
    return out


def vat_recons(cs: CalcSheet, model: Model, t: str) -> list[Recon]:
    """Per tier: the VAT block's reconciliations (:func:`vat_checks`)."""
    S, tot, cap = _refs(cs)
    scale = abs(float(model.results[t].metrics["capex"][0]))
    return [Recon(*c, cap, scale) for c in vat_checks(S, tot, model, t)]

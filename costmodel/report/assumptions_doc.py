"""``docs/assumptions.md``, generated from the assumptions and the model built on them.

Every figure on the page is read from the loaded assumptions (values, ranges, units,
sources and notes), from the model built on them or from the bundled scenario
overlays layered on them, so the page cannot fall behind the files. The prose says
how to read the figures; it holds no number of its own.

Write the page with::

    python -m costmodel.report.assumptions_doc > docs/assumptions.md

``tests/report/test_assumptions_doc.py`` fails while the committed page differs from
:func:`render` of the bundled default.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from costmodel.analysis.breakeven import break_even
from costmodel.analysis.workloads import recommend
from costmodel.inputs.loader import layer, load_assumptions
from costmodel.inputs.model import Model, build
from costmodel.inputs.params import resolve_tier
from costmodel.inputs.resources import scenarios_dir
from costmodel.inputs.schema import Assumptions

COMMAND = "python -m costmodel.report.assumptions_doc > docs/assumptions.md"
EMPTY = "–"
COLUMNS = ("path", "value", "low", "high", "unit", "source", "note")
#: keys of a quantity or a named entry that describe a value rather than set one
DESCRIPTIVE = {"source", "note", "unit", "label", "description", "low", "high", "dist", "sd"}


#: what each bundled overlay does, in words; its figures come from the file itself
def overlay_summary(file: Path) -> str:
    """What an overlay models: the first sentence of its header comment after
    ``NAME.yaml --`` (every scenario file opens so), or empty without one."""
    lines = []
    for line in file.read_text(encoding="utf-8").splitlines():
        text = line.lstrip("#").strip()
        if not line.startswith("#") or (lines and not text):
            break
        lines.append(text)
    text = " ".join(lines)
    head = f"{file.name} --"
    if not text.startswith(head):
        return ""
    text = text[len(head) :].strip()
    end = re.search(r"\.(\s+(?=[A-Z])|$)", text)
    return text[: end.start()] if end else text


# ----------------------------------------------------------------------------- numbers


def _empty(v: Any) -> bool:
    return v is None or (isinstance(v, float) and not math.isfinite(v))


def number(v: Any) -> str:
    """An input as written: thousands separators, up to 6 significant digits."""
    if _empty(v):
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if not isinstance(v, int | float):
        return str(v)
    if isinstance(v, int) or (v.is_integer() and abs(v) < 1e15):
        return f"{int(v):,}"
    return f"{v:,.6g}" if abs(v) >= 1000 else f"{v:.6g}"


def money(v: Any) -> str:
    return EMPTY if _empty(v) else f"{v:,.0f}"


def millions(v: Any) -> str:
    return EMPTY if _empty(v) else f"{v / 1e6:,.2f}M"


def price(v: Any) -> str:
    return EMPTY if _empty(v) else f"{v:,.2f}"


def pct(v: Any, digits: int = 1) -> str:
    return EMPTY if _empty(v) else f"{v * 100:.{digits}f}%"


def span(values: Sequence[float], fmt: Any = price) -> str:
    """``a`` or ``a-b``: the range of the finite ``values``."""
    finite = [v for v in values if not _empty(v)]
    if not finite:
        return EMPTY
    lo, hi = fmt(min(finite)), fmt(max(finite))
    return lo if lo == hi else f"{lo}-{hi}"


def _cell(v: Any) -> str:
    return " ".join(number(v).split()).replace("|", "\\|")


def _value(x: Any) -> Any:
    """The value of a quantity, or ``x`` itself."""
    return getattr(x, "value", x)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], right: int = 0) -> list[str]:
    """A Markdown table; the columns from ``right`` on are right-aligned (0: none)."""
    align = ["---" if i < right or not right else "---:" for i in range(len(head))]
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    return out + ["| " + " | ".join(r) + " |" for r in rows]


# ----------------------------------------------------------------------------- figures


def leaves(node: Any, path: str = "") -> Iterator[dict[str, Any]]:
    """A row (``COLUMNS``) for every number under ``node`` (dumped assumptions): a
    ``{value: ...}`` quantity with its range, unit, source and note, or a bare number."""
    if isinstance(node, dict):
        if "value" in node and isinstance(node["value"], int | float):
            yield {"path": path, **{k: node.get(k) for k in COLUMNS if k != "path"}}
            return
        for key, value in node.items():
            yield from leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from leaves(value, f"{path}[{i}]")
    elif isinstance(node, int | float) and not isinstance(node, bool):
        yield {"path": path, "value": node}


def figures(a: Assumptions) -> list[str]:
    """Every numeric input of ``a``, one table per top-level section."""
    data = a.model_dump(mode="json", exclude_none=True)
    out = [
        "## Every figure",
        "",
        "Every numeric input of the default as the model reads it, after merging and",
        "validation (defaults of the schema included), grouped by section.",
    ]
    sections: dict[str, list[dict[str, Any]]] = {}
    for section, node in data.items():
        if section != "schema_version":  # top-level numbers go under `model`
            nested = isinstance(node, list) or (isinstance(node, dict) and "value" not in node)
            group = section if nested else "model"
            sections.setdefault(group, []).extend(leaves(node, section))
    for section, rows in sorted(sections.items(), key=lambda kv: kv[0] != "model"):
        if rows:
            out += ["", f"### `{section}`", ""]
            out += _table(COLUMNS, [[_cell(r.get(c)) for c in COLUMNS] for r in rows])
    return out


def settings(a: Assumptions) -> list[str]:
    """The choices of the default that are words, not numbers (outside the catalogue)."""
    data = a.model_dump(mode="json", exclude_none=True)
    found = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key not in DESCRIPTIVE:
                    walk(value, f"{path}.{key}" if path else key)
        elif isinstance(node, str | bool):
            found.append(f"`{path}` {number(node)}")

    for section in ("terminal_value", "facility", "revenue", "depreciation", "financing"):
        walk(data.get(section), section)
    return found


def estimates(a: Assumptions) -> list[str]:
    """Paths of the inputs whose source is an estimate or a judgement."""
    data = a.model_dump(mode="json", exclude_none=True)
    found = []
    for section, node in data.items():
        for row in leaves(node, section):
            source = str(row.get("source") or "").lower()
            if source.startswith(("estimate", "what-if", "judgement")):
                found.append(row["path"])
    return found


# ----------------------------------------------------------------------------- the default


def tiers_table(a: Assumptions, model: Model) -> list[str]:
    rows = []
    summary = model.summary_rows()
    for name, tier in a.tiers.items():
        v = resolve_tier(a, name).values()
        s = summary[name]
        rows.append(
            [
                f"`{name}`",
                number(s["gpus"]),
                f"`{tier.server}`",
                f"{number(s['servers'])} / {number(s['racks'])}",
                f"{tier.cooling}",
                number(v["rack_kw"]),
                _staff(v, s["servers"]),
                pct(s["network_share"], 0) + ("" if "network_share" in v else " (design)"),
                number(s["storage_tb"]),
                number(v["build_months"]),
                _contract(v),
                pct(v["utilization"], 0),
                price(v["price_per_gpu_hour"]),
            ]
        )
    head = (
        "tier",
        "GPUs",
        "server",
        "servers / racks",
        "cooling",
        "kW per rack",
        "staff (FTE)",
        "network share",
        "storage (TB)",
        "build months",
        "contract (share, months, price)",
        "spot utilization",
        f"spot price ({a.currency}/GPU-h)",
    )
    return _table(head, rows, right=5)


def _staff(v: Mapping[str, Any], servers: float) -> str:
    """The first deployment's headcount: ``staff_fte``, or with ``staff_scaling``
    ``fixed + per server x servers`` (methodology §12.2), with its terms."""
    if "staff_fte" in v:
        return number(v["staff_fte"])
    fte = v["staff_fixed_fte"] + v["staff_fte_per_server"] * servers
    return (
        f"{number(round(fte, 2))} ({number(v['staff_fixed_fte'])} + "
        f"{number(v['staff_fte_per_server'])} x {number(servers)})"
    )


def _contract(v: Mapping[str, Any]) -> str:
    """The take-or-pay contract's terms (methodology §11.5), or "spot only"."""
    share = v.get("contract_share", 0.0)
    if not share:
        return "spot only"
    return (
        f"{pct(share, 0)}, {number(v['contract_months'])}, "
        f"{price(v['contract_price_per_gpu_hour'])}"
    )


def servers_table(a: Assumptions) -> list[str]:
    used = {t.server for t in a.tiers.values()}
    rows = []
    for sku, s in a.servers.items():
        p = s.price
        rows.append(
            [
                f"`{sku}`" + (" (default)" if sku in used else ""),
                s.label or "",
                f"{number(p.value)} [{number(p.low)}-{number(p.high)}]",
                number(_value(s.power_kw)),
                number(_value(s.gpu_memory_gb)),
                number(_value(s.tflops_bf16)),
                price(_value(s.cloud_on_demand_per_gpu_hour)),
                price(_value(s.cloud_reserved_per_gpu_hour)),
            ]
        )
    head = (
        "SKU",
        "server",
        f"price ({a.currency}/server) [low-high]",
        "kW",
        "GB per GPU",
        "dense BF16 TFLOPS per GPU",
        "cloud on-demand",
        "cloud reserved",
    )
    return _table(head, rows)


#: rows of the result table: (label, summary column, format)
RESULT_ROWS = (
    ("IT load (kW)", "it_kw", lambda v: f"{v:,.1f}"),
    ("Capex", "capex", money),
    ("Opex, year 1", "opex_year1", money),
    ("Opex, first full operating year", "opex_full_year", money),
    (
        "First full operating year (model year)",
        "opex_full_year_number",
        lambda v: EMPTY if _empty(v) else f"{int(v):d}",
    ),
    ("TCO, nominal", "tco", money),
    ("Levelized cost per GPU-hour", "cost_per_gpu_hour", price),
    ("Realized price per GPU-hour (contract and spot)", "realized_price", price),
    ("Cost per effective GPU-hour", "cost_per_effective_gpu_hour", price),
    ("NPV", "npv", money),
    ("IRR", "irr", pct),
    ("Payback (years)", "payback_years", lambda v: EMPTY if _empty(v) else f"{v:.1f}"),
    ("Peak funding", "peak_funding", money),
    ("Network share of hardware", "network_share", lambda v: pct(v, 1)),
    ("VAT paid", "vat_paid", money),
    ("Peak VAT credit (cash tied up)", "vat_credit_peak", money),
    ("Cluster MTBF (hours)", "mtbf_hours", lambda v: f"{v:,.1f}"),
    ("Goodput", "goodput", pct),
    ("Availability", "availability", lambda v: pct(v, 2)),
)


def results_table(a: Assumptions, model: Model, be: Mapping[str, Mapping[str, float]]) -> list[str]:
    summary = model.summary_rows()
    names = list(summary)
    rows = [[label, *(fmt(summary[t][col]) for t in names)] for label, col, fmt in RESULT_ROWS]
    rows.append(["Break-even price, year 1", *(price(be[t]["price_per_gpu_hour"]) for t in names)])
    rows.append(["Break-even utilization", *(pct(be[t]["utilization"]) for t in names)])
    head = (f"metric ({a.currency})", *(f"{t} ({number(summary[t]['gpus'])} GPUs)" for t in names))
    return _table(head, rows, right=1)


def reading(a: Assumptions, model: Model, be: Mapping[str, Mapping[str, float]]) -> list[str]:
    """What the figures above say, in sentences whose numbers are the model's."""
    summary = model.summary_rows()
    names = list(summary)
    rate = model.discount_rate()
    negative = [t for t in names if summary[t]["npv"] < 0]
    tiers = {t: resolve_tier(a, t).values() for t in names}
    servers = {t: a.servers[a.tiers[t].server] for t in names}
    sold = [tiers[t]["price_per_gpu_hour"] for t in names]
    reserved = [_value(servers[t].cloud_reserved_per_gpu_hour) for t in names]
    on_demand = [_value(servers[t].cloud_on_demand_per_gpu_hour) for t in names]
    cost = [summary[t]["cost_per_gpu_hour"] for t in names]
    verdict = (
        "every tier has a negative NPV"
        if len(negative) == len(names)
        else f"{len(negative)} of {len(names)} tiers have a negative NPV"
        if negative
        else "every tier has a positive NPV"
    )
    signed = [t for t in names if tiers[t].get("contract_share", 0.0)]
    contracts = (
        "; contracts for "
        + ", ".join(
            f"{pct(tiers[t]['contract_share'], 0)} of the {t} tier's hours at "
            f"{price(tiers[t]['contract_price_per_gpu_hour'])}"
            for t in signed
        )
        if signed
        else ""
    )
    realized = [summary[t]["realized_price"] for t in names]
    out = [
        f"- At the default spot prices ({span(sold)} {a.currency} per GPU-hour, against the "
        f"clouds' reserved {span(reserved)} and on-demand {span(on_demand)} for the same "
        f"servers{contracts}; realized {span(realized)} over the horizon) and "
        f"{span([tiers[t]['utilization'] for t in names], lambda v: pct(v, 0))} "
        "of the spot hours sold, "
        f"{verdict} at the {pct(rate, 0)} discount rate.",
        "- The year-1 price at which NPV is zero is "
        + ", ".join(f"{price(be[t]['price_per_gpu_hour'])} ({t})" for t in names)
        + f" {a.currency} per GPU-hour.",
    ]
    no_util = [t for t in names if _empty(be[t]["utilization"])]
    if no_util:
        out.append(
            "- No utilization up to 100% brings NPV to zero at the default price for: "
            + ", ".join(no_util)
            + "."
        )
    above = max(cost) > max(reserved)
    out.append(
        f"- The levelized cost per GPU-hour ({span(cost)} {a.currency}) is "
        + ("above" if above else "within or below")
        + f" the clouds' reserved price ({span(reserved)}): "
        + (
            "renting the same steady load is cheaper than building it (`build-vs-rent.yaml`)."
            if above
            else "building can beat renting a steady load (`build-vs-rent.yaml`)."
        )
    )
    if len(negative) == len(names):
        out.append(
            "- This agrees with the reports the default rests on (the sources of "
            "`operations.utilization` and of the cloud prices), which describe Chinese GPU "
            "rental centres as distressed assets: a new build needs scarcity pricing "
            "(`upside.yaml`), a cheaper cost of capital or captive use to pay off."
        )
    return out


def workloads_table(a: Assumptions, model: Model) -> list[str]:
    """Each workload of the default: the days it needs on each tier against its
    deadline, and the tier :func:`costmodel.analysis.workloads.recommend` picks."""
    table = recommend(model)
    names = list(a.tiers)
    rows = []
    for workload in dict.fromkeys(table.index.get_level_values(0)):
        part = table.loc[workload]
        days = []
        for t in names:
            r = part.loc[t]
            fits = (
                ""
                if r["feasible"]
                else " (too little memory)"
                if not r["meets_memory"]
                else " (too slow)"
            )
            d = r["days_needed"]
            days.append((EMPTY if _empty(d) else f"{d:,.1f}" if d >= 1 else f"{d:.2g}") + fits)
        deadline = part["deadline_days"].iloc[0]
        chosen = [t for t in names if part.loc[t, "recommended"]]
        rows.append(
            [
                workload,
                str(part["kind"].iloc[0]),
                EMPTY if _empty(deadline) else number(deadline),
                *days,
                ", ".join(chosen) or EMPTY,
            ]
        )
    head = ("workload", "kind", "deadline (days)", *(f"days on {t}" for t in names), "tier")
    return _table(head, rows)


# ----------------------------------------------------------------------------- scenarios


def _set_paths(node: Any, path: str = "") -> Iterator[str]:
    """The dotted paths an overlay sets: quantities, scalars and removed entries."""
    if isinstance(node, dict):
        if "value" in node:
            yield path
            return
        for key, value in node.items():
            if key not in DESCRIPTIVE and key != "schema_version" and not key.endswith("_zh"):
                yield from _set_paths(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _set_paths(value, f"{path}[{i}]")
    else:
        yield path


def _lookup(data: Any, path: str) -> Any:
    for part in path.replace("[", ".[").split("."):
        if part.startswith("["):
            data = data[int(part[1:-1])] if isinstance(data, list) else None
        else:
            data = data.get(part) if isinstance(data, dict) else None
    return data.get("value") if isinstance(data, dict) and "value" in data else data


def _overlay(base: Assumptions, file: Path) -> tuple[str, dict[str, float]]:
    """What ``file`` sets (each path with its value in the layered assumptions) and
    the NPV per tier of the layered model."""
    raw = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    layered = layer(base, file)
    data = layered.model_dump(mode="json")
    sets = []
    for path in _set_paths(raw):
        value = _lookup(data, path)
        sets.append(f"`{path}` {'removed' if value is None else number(value)}")
    npv = {t: row["npv"] for t, row in build(layered).summary_rows().items()}
    return "; ".join(sets), npv


def scenarios_table(a: Assumptions, directory: Path) -> list[str]:
    names = list(a.tiers)
    rows = []
    for file in sorted(directory.glob("*.yaml")):
        sets, npv = _overlay(a, file)
        what = overlay_summary(file)
        rows.append(
            [
                f"`{file.name}`",
                what,
                sets,
                *(millions(npv[t]) if t in npv else EMPTY for t in names),
            ]
        )
    head = ("overlay", "what it models", "what it sets", *(f"NPV {t}" for t in names))
    return _table(head, rows, right=3)


# ----------------------------------------------------------------------------- prose


def intro(a: Assumptions) -> list[str]:
    return [
        "# The bundled default: figures, sources and reasoning",
        "",
        f"<!-- generated by `{COMMAND}`; do not edit by hand -->",
        "",
        f"The bundled default (`assumptions/default/*.yaml`, merged in name order) is "
        f"*{a.name}*: a build starting {a.start} over {a.horizon_years} years, in "
        f"{a.currency}, at the three scales of the domain source (tens, hundreds and "
        "thousands of GPUs). This page lists what the default assumes, what the model "
        "makes of it, and every figure with its range, unit, source and reasoning. The "
        "YAML files are the authority: every number here is read from them or from the "
        f"model built on them (`{COMMAND}`; a test fails while the committed page differs).",
        "",
        "How to read the sources:",
        "",
        '- "seed:" quotes the domain source, a Chinese practitioner\'s note on compute '
        "centres at the three scales (GPU counts, rack power, cooling, network, storage, "
        "team size, failure rates and MFU).",
        '- "estimate" or "judgement" means no publication was found; the note gives the '
        "arithmetic and what the judgement rests on. Those figures are listed under "
        "[What remains uncertain](#what-remains-uncertain).",
        "- Where a source is in USD, the note converts at the rate it states; the schema "
        "has no exchange-rate input.",
        "- `tests/inputs/test_defaults.py` checks rules between the figures and their "
        "sources (for example that no tier sells above the on-demand cloud price of its "
        "own GPU), so a value that drifts from its evidence fails a test.",
    ]


def _rate_words(a: Assumptions) -> str:
    """The discount rate as the files give it: a rate, or the WACC of the financing
    (methodology §11.10) with the cost of equity it rests on."""
    rate = a.finance.discount_rate
    if rate != "wacc":
        return f"{pct(_value(rate), 0)} in all"
    coe = a.financing.cost_of_equity if a.financing is not None else None
    if coe is None:
        return "the WACC of the financing"
    return f"the WACC of the financing, with a cost of equity of {pct(coe.value, 0)}"


def uncertain(a: Assumptions) -> list[str]:
    tiers = list(a.tiers)
    skus = sorted({a.tiers[t].server for t in tiers})
    s = a.servers[skus[0]]
    util = _value(a.operations.utilization)
    out = [
        "## What remains uncertain",
        "",
        "In order of their weight on NPV:",
        "",
        f"1. **Rental and cloud prices of the `{skus[0]}` in China over the horizon.** "
        "No mainland cloud publishes an hourly price for it (sold by quote); the default "
        f"derives on-demand {price(_value(s.cloud_on_demand_per_gpu_hour))} and reserved "
        f"{price(_value(s.cloud_reserved_per_gpu_hour))} {a.currency} per GPU-hour from the "
        "contract level of the previous generation (see their notes). If capacity stays "
        "scarce, `upside.yaml` is the better guess.",
        f"2. **Utilization of the spot capacity** ({pct(util, 0)}, range "
        f"{pct(a.operations.utilization.low, 0)}-{pct(a.operations.utilization.high, 0)}) "
        "and the anchor tenants' contracts: no Chinese operator publishes GPU-hours sold; "
        "the spot figure sits between the idle centres and the best-run fleets of the "
        "sources, and the contracted share is a judgement of who signs before a cluster "
        "commissions.",
        f"3. **Server price** ({number(s.price.value)} {a.currency}, range "
        f"{number(s.price.low)}-{number(s.price.high)}): few quotes, and access still "
        "needs licences and prepayment.",
        f"4. **The equity part of the discount rate** ({_rate_words(a)}): the debt part "
        "follows the loan prime rate plus a spread; the cost of equity is judgement.",
        "5. **The park hall's lease per kW-month** (and, in `greenfield.yaml`, the build "
        "cost per kW): no published wholesale price for AI-density halls in China; the "
        "value is derived from retail cabinet quotes less the metered power.",
        "6. **Exchange rate**: the notes convert USD sources at one stated rate; the schema "
        "has no exchange-rate input.",
        "",
        "Figures whose source is an estimate, a judgement or a what-if:",
        "",
    ]
    return out + [", ".join(f"`{p}`" for p in estimates(a)) + "."]


def correlations_table(a: Assumptions) -> list[str]:
    """The pairs of ranged inputs the Monte Carlo draws together (methodology §9.1),
    or the sentence that there are none."""
    head = ["## Correlated draws (`correlations`)", ""]
    if not a.correlations:
        return head + [
            "None: the Monte Carlo draws every ranged input independently of the others."
        ]
    rows = [[f"`{c.a}`", f"`{c.b}`", f"{c.rho:g}", c.source] for c in a.correlations]
    return (
        head
        + [
            "The Monte Carlo draws these pairs together through a Gaussian copula "
            "(methodology §9.1); rho is the correlation of their standard normals:",
            "",
        ]
        + _table(["a", "b", "rho", "source"], rows, right=0)
    )


# ----------------------------------------------------------------------------- the page


def render(a: Assumptions | None = None, scenarios: Path | None = None) -> str:
    """The Markdown of ``docs/assumptions.md`` for ``a`` (the bundled default if None)
    and the overlays in ``scenarios`` (the bundled ones if None) layered on it."""
    a = a if a is not None else load_assumptions()
    model = build(a)
    be = break_even(model).to_dict(orient="index")
    rate = pct(model.discount_rate(), 0)
    out = intro(a)
    out += ["", "## The default tiers", ""] + tiers_table(a, model)
    out += [
        "",
        "The tiers keep the domain source's profiles (GPU counts, rack power, cooling, team "
        "size, network, storage); the server is one that can be bought new for the build. "
        "Each tier's inputs and their sources are under [Every figure](#every-figure).",
        "",
        "## Hardware: the server catalogue",
        "",
    ]
    out += servers_table(a)
    out += [
        "",
        "Prices per whole server (GPUs, CPUs, memory, NICs, local NVMe); cloud prices in "
        f"{a.currency} per GPU-hour. SKUs no default tier uses stay in the catalogue for "
        "scenarios and `--set tiers.<tier>.server=<sku>`; their notes say whether they can "
        "still be bought.",
        "",
        "Settings that are words: " + "; ".join(settings(a)) + ".",
        "",
        "## What the default says",
        "",
        f"`costmodel summary` on the default (NPV and IRR at the {rate} discount rate; break-"
        "even: the year-1 price or the utilization at which NPV is zero, all else as "
        "assumed):",
        "",
    ]
    out += results_table(a, model, be) + [""] + reading(a, model, be)
    out += [
        "",
        "## Scenario overlays (`assumptions/scenarios/`)",
        "",
        "Each overlay holds only what it changes; layered on the default "
        "(`costmodel summary default assumptions/scenarios/FILE`) it gives these NPVs:",
        "",
    ]
    out += scenarios_table(a, scenarios or scenarios_dir())
    out += [
        "",
        "## Workloads (`workloads`)",
        "",
        "The tasks the default sizes against the tiers (memory floor, days against the "
        "deadline) and the tier `costmodel recommend` picks for each (methodology §5b):",
        "",
    ]
    out += workloads_table(a, model)
    out += [""] + correlations_table(a)
    out += [""] + figures(a) + [""] + uncertain(a)
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print :func:`render` of the bundled default (``COMMAND``)."""
    if argv if argv is not None else sys.argv[1:]:
        print(f"usage: {COMMAND}", file=sys.stderr)
        return 2
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

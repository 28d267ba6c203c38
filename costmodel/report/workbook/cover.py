"""The Cover: what the model is, its headline results per tier as live links to the
Comparison sheet, the master check, and where the assumptions came from (file
names only, never a directory of the machine that wrote the file)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from costmodel.analysis.financing import uses_debt
from costmodel.core.metrics import METRICS, metric_unit
from costmodel.inputs.loader import assumption_files, fingerprint
from costmodel.inputs.model import Model
from costmodel.inputs.provenance import changed_inputs
from costmodel.inputs.resources import assumptions_dir
from costmodel.inputs.title import model_title
from costmodel.report.workbook.grid import BLACK, BLUE, GREEN, KIND_FORMAT, Styles, excel_value

if TYPE_CHECKING:
    from costmodel.analysis.bundle import Analysis

#: labels of the Cover that the importer (:mod:`costmodel.report.importer`) reads
FINGERPRINT_LABEL = "Assumption fingerprint (SHA-256)"
FILES_LABEL = "Assumption files"
CHANGES_LABEL = "Inputs changed in a workbook (notes of the overlay)"
#: the Cover's headline rows (those present in the summary), in order
COVER_METRICS = ("npv", "irr", "peak_funding", "cost_per_gpu_hour", "capex", "payback_years")
#: added when debt is used (methodology §8.2): equity return and cover
FINANCED_METRICS = ("equity_irr", "equity_npv", "min_dscr", "debt_peak")
CONVENTIONS = (
    ("Sign convention", "Costs are positive in schedules; in cash flow, outflows are negative."),
    (
        "Timing",
        "Month 0 is the investment date; capex falls in the months it is paid "
        "(construction and each deployment stage: the capex rows of each tier sheet); "
        "operating months 1..M; cash at month end; tax paid in each operating year's last month.",
    ),
    ("Units", "Money in the model currency; power kW; energy kWh; 730 hours per month."),
)


def conventions(sheets: list[str], tier_sheets: list[str]) -> tuple[tuple[str, str], ...]:
    """The Cover's conventions; the "Sheets" line names only the sheets present, in
    the workbook's order, the tier sheets as one item."""
    shown: list[str] = []
    for name in sheets:
        if name not in tier_sheets:
            shown.append(name)
        elif not any(s.startswith("one calculation sheet") for s in shown):
            shown.append(f"one calculation sheet per tier ({', '.join(tier_sheets)})")
    return (*CONVENTIONS, ("Sheets", " > ".join(shown) + "."))


def file_names(files: list[str]) -> list[str]:
    """Assumption files without the machine's directories: a bundled file as
    ``bundled default: 00-model.yaml``, others relative to their common folder."""
    if not files:
        return ["(built in code)"]
    bundled = assumptions_dir().resolve()
    paths = [Path(f).resolve() for f in files]
    outside = [p for p in paths if not p.is_relative_to(bundled)]
    common = Path(*_common_parts(outside)) if len(outside) > 1 else None
    out = []
    for p in paths:
        if p.is_relative_to(bundled):
            rel = p.relative_to(bundled)
            out.append(f"bundled {rel.parent.as_posix()}: {rel.name}")
        elif common is not None and p.parent != common:
            out.append(p.relative_to(common).as_posix())
        else:
            out.append(p.name)
    return out


def _common_parts(paths: list[Path]) -> list[str]:
    parts = [p.parent.parts for p in paths]
    out = []
    for group in zip(*parts, strict=False):
        if len(set(group)) != 1:
            break
        out.append(group[0])
    return out or ["/"]


def write_cover(
    ws: Any,
    st: Styles,
    model: Model,
    created: datetime,
    comp: dict[tuple[str, str], str],
    analysis: Analysis | None = None,
    sheets: tuple[list[str], list[str]] = ([], []),
) -> None:
    """The Cover; ``sheets``: the names of the workbook's sheets and of its tier
    sheets (for its "Sheets" line)."""
    a = model.assumptions
    n = len(model.tiers)
    ws.set_column(0, 0, 36)
    ws.set_column(1, max(n, 2), 20)
    ws.write_string(0, 0, "GPU compute center scale options: investor model", st.title)
    rows = (
        ("Model", model_title(a)),
        ("Generated", created.strftime("%Y-%m-%d %H:%M")),
        ("Currency", a.currency),
        ("Horizon", f"{a.horizon_years} years from {a.start} (month 0 = investment date)"),
        (FINGERPRINT_LABEL, fingerprint(a)),
    )
    r = 2
    for k, v in rows:
        ws.write_string(r, 0, k, st.label_bold)
        ws.write_string(r, 1, v, st.text)
        r += 1
    ws.write_string(r, 0, "Master check", st.label_bold)
    ws.write_formula(r, 1, "=master_check", st.ok, "OK")
    ws.conditional_format(
        r, 1, r, 1, {"type": "cell", "criteria": "==", "value": '"ERROR"', "format": st.error}
    )
    ws.write_formula(r, 2, "=checks_failing", st.cell("count"), 0)
    ws.write_string(r, 3, "failing checks (see Checks)", st.unit)
    r = _headline(ws, st, model, comp, r + 2)
    r = _recommended(ws, st, analysis, r)
    r = _files_and_conventions(ws, st, model, r, sheets)
    ws.set_paper(9)
    ws.set_landscape()
    ws.fit_to_pages(1, 1)


def _headline(ws: Any, st: Styles, model: Model, comp: dict, r: int) -> int:
    """Headline results per tier: green links to the Comparison sheet."""
    ws.write_string(r, 0, "Headline results (live links to Comparison)", st.h1)
    r += 1
    ws.write_string(r, 0, "metric", st.header)
    for j, t in enumerate(model.tiers):
        ws.write_string(r, 1 + j, t, st.header)
    ws.write_string(r, 1 + len(model.tiers), "unit", st.header)
    r += 1
    summary = model.summary()
    carried = {m for _, m in comp}
    financed = uses_debt(model.assumptions)
    metrics = COVER_METRICS + (FINANCED_METRICS if financed else ())
    for metric in (m for m in metrics if m in carried):
        meta = METRICS[metric]
        ws.write_string(r, 0, meta.label, st.label)
        for j, t in enumerate(model.tiers):
            fmt = st.cell(KIND_FORMAT[meta.kind], GREEN)
            value = excel_value(summary.loc[t, metric])
            ws.write_formula(r, 1 + j, f"={comp[(t, metric)]}", fmt, value)
        unit = metric_unit(metric, model.assumptions.currency)
        if metric == "payback_years":
            unit += " (empty: not within the horizon)"
        ws.write_string(r, 1 + len(model.tiers), unit, st.unit)
        r += 1
    if financed:
        r = _covenant(ws, st, model, comp, r)
    return r + 1


def _covenant(ws: Any, st: Styles, model: Model, comp: dict, r: int) -> int:
    """The minimum DSCR against the covenant input (shown, not enforced)."""
    f = model.assumptions.financing
    cov = f.min_dscr_covenant.value if f is not None and f.min_dscr_covenant else None
    ws.write_string(r, 0, "Minimum DSCR covenant (input)", st.label)
    ws.write_formula(
        r,
        1,
        '=IF(ISBLANK(financing_min_dscr_covenant),"",financing_min_dscr_covenant)',
        st.cell("number", GREEN),
        excel_value(cov),
    )
    ws.write_string(r, 1 + len(model.tiers), "x (blank: none)", st.unit)
    r += 1
    ws.write_string(r, 0, "Minimum DSCR against the covenant", st.label)
    summary = model.summary()
    for j, t in enumerate(model.tiers):
        dscr = comp[(t, "min_dscr")]
        value = summary.loc[t, "min_dscr"]
        shown = "" if cov is None or value != value else ("meets" if value >= cov else "BELOW")
        formula = (
            f'=IF(OR({dscr}="",ISBLANK(financing_min_dscr_covenant)),"",'
            f'IF({dscr}>=financing_min_dscr_covenant,"meets","BELOW"))'
        )
        ws.write_formula(r, 1 + j, formula, st.cell("text"), shown)
    ws.write_string(r, 1 + len(model.tiers), "meets / BELOW (not enforced)", st.unit)
    return r + 1


def _recommended(ws: Any, st: Styles, analysis: Analysis | None, r: int) -> int:
    """The analysis's recommended tier per workload (engine values at the build)."""
    if analysis is None or analysis.recommend is None or analysis.recommend.empty:
        return r
    ws.write_string(r, 0, "Recommended tier per workload (engine, at the build's inputs)", st.h1)
    r += 1
    ws.write_string(r, 0, "status (STALE once an input moved a result)", st.unit)
    ws.write_formula(r, 1, "=engine_results_status", st.ok, "current")
    ws.conditional_format(
        r, 1, r, 1, {"type": "cell", "criteria": "==", "value": '"STALE"', "format": st.error}
    )
    r += 1
    rec = analysis.recommend
    chosen = rec[rec["recommended"]] if "recommended" in rec else rec.iloc[0:0]
    for workload, tier in chosen.index:
        ws.write_string(r, 0, str(workload), st.label)
        ws.write_string(r, 1, str(tier), st.text)
        r += 1
    return r + 1


def _files_and_conventions(
    ws: Any, st: Styles, model: Model, r: int, sheets: tuple[list[str], list[str]]
) -> int:
    ws.write_string(r, 0, FILES_LABEL, st.h1)
    r += 1
    for f in file_names(assumption_files(model.assumptions)):
        ws.write_string(r, 1, f, st.text)
        r += 1
    r += 1
    changes = changed_inputs(model.assumptions)
    if changes:  # a scenario imported from an investor's workbook says where it came from
        ws.write_string(r, 0, CHANGES_LABEL, st.h1)
        r += 1
        for path, note in changes:
            ws.write_string(r, 0, path, st.label)
            ws.write_string(r, 1, note, st.text)
            r += 1
        r += 1
    ws.write_string(r, 0, "Conventions", st.h1)
    r += 1
    for k, v in conventions(*sheets):
        ws.write_string(r, 0, k, st.label)
        ws.write_string(r, 1, v, st.text)
        r += 1
    r += 1
    ws.write_string(r, 0, "Colour legend", st.h1)
    r += 1
    for colour, text in (
        (BLUE, "Blue: input (change these)"),
        (BLACK, "Black: calculation"),
        (GREEN, "Green: link to another sheet"),
    ):
        ws.write_number(r, 0, 1234.5, st.cell("number", colour))
        ws.write_string(r, 1, text, st.text)
        r += 1
    return r

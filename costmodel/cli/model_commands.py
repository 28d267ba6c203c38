"""``costmodel build | summary | recommend | validate | init | schema`` (methodology §10)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from costmodel.analysis.defaults import DEFAULT_DRAWS, DEFAULT_SEED, MAX_DRAWS
from costmodel.cli.app import (
    ExampleOpt,
    Format,
    FormatOpt,
    PathsArg,
    QuietOpt,
    SetOpt,
    Steps,
    StrictOpt,
    UsageError,
    app,
    built,
    check_out_dir,
    emit,
    guard,
    load,
    out,
    usage_error,
    with_example,
    write_text,
    writing,
)


class Lang(str, Enum):
    en = "en"
    zh = "zh"
    both = "both"


MEMO_NAMES = {"en": "memo.html", "zh": "memo.zh.html"}


StudyTierOpt = Annotated[
    str,
    typer.Option(
        "--study-tier",
        help="Also run the study of this tier (P(NPV > 0) by site and size) for the memo and "
        "the workbook.",
    ),
]
StudySitesOpt = Annotated[
    str, typer.Option("--study-sites", help="The study's sites, a,b,... (default: as assumed).")
]
StudyGpusOpt = Annotated[
    str, typer.Option("--study-gpus", help="The study's GPU counts, A:B or N,N,...")
]


@app.command("build")
def build_cmd(
    paths: PathsArg = None,
    out_dir: Annotated[Path, typer.Option("-o", "--out", help="Output directory.")] = Path("out"),
    set_: SetOpt = None,
    strict: StrictOpt = False,
    lang: Annotated[
        Lang, typer.Option(help="Memo language: en (memo.html), zh (memo.zh.html) or both.")
    ] = Lang.both,
    template_dir: Annotated[
        Path | None, typer.Option(help="Directory of memo templates that replace the bundled ones.")
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            "-s",
            help="NAME=PATH[,PATH]: also compare this overlay (repeatable; scenario:NAME).",
        ),
    ] = None,
    set_for: Annotated[
        list[str] | None,
        typer.Option(
            "--set-for",
            help="NAME:dotted.path=value: override one input in scenario NAME only (repeatable).",
        ),
    ] = None,
    draws: Annotated[
        int,
        typer.Option("--draws", "-n", min=0, max=MAX_DRAWS, help="Monte Carlo draws (0: none)."),
    ] = DEFAULT_DRAWS,
    seed: Annotated[int, typer.Option(help="Monte Carlo seed.")] = DEFAULT_SEED,
    study_tier: StudyTierOpt = "",
    study_sites: StudySitesOpt = "",
    study_gpus: StudyGpusOpt = "",
    quiet: QuietOpt = False,
    example: ExampleOpt = None,
) -> None:
    """Build the model; write OUT/model.xlsx (live-formula workbook) and the memo;
    with --study-tier, the study of that tier in both."""

    def run() -> None:
        from costmodel.cli.compare import parse_scenarios
        from costmodel.cli.tables import show, summary_grid
        from costmodel.core.metrics import HEADLINE
        from costmodel.inputs.model import require_finite
        from costmodel.report.memo.render import model_name, write_memos
        from costmodel.report.output import output_set
        from costmodel.report.workbook.book import write_workbook

        _check_folders(out_dir, template_dir)
        with Steps(quiet) as steps:
            steps.step("model")
            # invalid input stops here: nothing is written
            a, model = built(with_example(paths, example), set_, strict)
            require_finite(model)  # inputs too large to compute with, before the analysis
            overlays = parse_scenarios(scenario, set_for) if scenario or set_for else None
            what = f", {draws:,} Monte Carlo draws" if draws else ""
            steps.step(f"analysis (tornado, break-even{what})")
            study = _study_request(a, study_tier, study_sites, study_gpus)
            if study is not None:
                steps.step(f"study of {study_tier}")
            analysis = _analyzed(model, draws=draws, seed=seed, scenarios=overlays, study=study)
            langs = ["en", "zh"] if lang is Lang.both else [lang.value]
            # all files or none replace the previous set; a failure to write names the folder
            with writing(out_dir), output_set(out_dir) as stage:
                steps.step("workbook")
                written = [write_workbook(model, stage / "model.xlsx", analysis=analysis)]
                steps.step(f"memo ({', '.join(langs)})")
                memos = {code: stage / MEMO_NAMES[code] for code in langs}
                written += write_memos(model, memos, template_dir, analysis)
        for p in written:
            out().print(f"wrote {out_dir / p.name}", highlight=False)
        if lang is Lang.zh:  # the table in the language of the memo written
            title = f"{model_name(model, 'zh')}（{a.currency}）"
            show(summary_grid(model.summary_rows(), title, a.currency, HEADLINE, "zh"), out())
        else:
            show(summary_grid(model.summary_rows(), a.name, a.currency, HEADLINE), out())

    guard(run)


def _study_request(a: Any, tier: str, sites: str, gpus: str) -> dict[str, Any] | None:
    """The study ``build`` was asked for (None: no ``--study-tier``); a usage error
    for an unknown tier or study options without one."""
    if not tier:
        if sites or gpus:
            raise UsageError("--study-sites and --study-gpus need --study-tier")
        return None
    if tier not in a.tiers:
        raise UsageError(f"--study-tier {tier!r}: choose one of {', '.join(a.tiers)}")
    names = [s.strip() for s in sites.split(",") if s.strip()] or None
    return {"tier": tier, "sites": names, "gpus": gpus or None}


MetricsOpt = Annotated[
    str | None,
    typer.Option(
        "--metrics",
        "-m",
        help="Comma-separated metrics to show, in that order (e.g. npv,irr,payback_years; "
        "the names are the CSV headers); default: all.",
    ),
]
UnitsOpt = Annotated[
    bool | None,
    typer.Option(
        "--units/--no-units",
        help="CSV: a row of units under the header (the default; --no-units drops it). "
        'JSON: a top-level "units" object beside the tiers, only with --units (the '
        "default JSON is {tier: {metric: value}}).",
        show_default=False,
    ),
]


def _check_folders(out_dir: Path, template_dir: Path | None) -> None:
    """``-o`` must be a folder or not exist (:func:`check_out_dir`), ``--template-dir``
    name a folder: exit 2 before anything is computed."""
    check_out_dir(out_dir)
    if template_dir is not None and not template_dir.is_dir():
        what = "is not a folder" if template_dir.exists() else "no such folder"
        usage_error(f"--template-dir {template_dir}: {what} (give a folder of memo templates)")


def _analyzed(model: Any, **options: Any) -> Any:
    """``analyze(model, **options)``; inputs whose sweep is not finite at its larger
    sizes are refused by name (nothing written), as
    :func:`~costmodel.inputs.model.require_finite` refuses the tiers' own."""
    from costmodel.analysis.bundle import analyze
    from costmodel.analysis.sweep import nonfinite_sweeps
    from costmodel.inputs.errors import AssumptionError

    analysis = analyze(model, **options)
    if problems := nonfinite_sweeps(model, analysis.sweeps or {}):
        raise AssumptionError(problems)
    return analysis


@app.command()
def summary(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    fmt: FormatOpt = Format.table,
    example: ExampleOpt = None,
    metrics: MetricsOpt = None,
    units: UnitsOpt = None,
) -> None:
    """Print each tier's capex, opex, TCO, cost per GPU-hour, NPV, IRR and payback."""

    def run() -> None:
        from costmodel.core.metrics import machine_unit, pick_metrics
        from costmodel.core.result import SUMMARY_COLUMNS
        from costmodel.report.format import (
            UNITS_ROW,
            by_index,
            csv_text,
            whole_counts,
            with_units_row,
        )

        columns = list(SUMMARY_COLUMNS)
        if metrics is not None:
            try:
                columns = pick_metrics(metrics, columns)
            except ValueError as e:
                usage_error(f"--metrics {metrics}: {e}")
        a, model = built(with_example(paths, example), set_, strict)
        unit_of = {c: machine_unit(c, a.currency) for c in columns}

        def table() -> None:  # from the plain rows: printing needs no pandas
            from costmodel.cli.tables import show, summary_grid
            from costmodel.inputs.title import site_label

            where = f"{site_label(a)}, " if site_label(a) else ""  # the default site (§29)
            title = f"{a.name} ({where}{a.currency}, {a.horizon_years} years from {a.start})"
            show(summary_grid(model.summary_rows(), title, a.currency, columns), out())
            out().print(
                "Empty cells (-): no IRR root, no payback within the horizon, no denominator, "
                "no full operating year within the horizon, or a result too large to compute.",
                style="dim",
            )

        def doc() -> dict:
            tiers = by_index(whole_counts(model.summary()[columns]))
            if not units:  # the shape scripts read: {tier: {metric: value}}
                return tiers
            if UNITS_KEY in tiers:
                usage_error(
                    f"a tier is named {UNITS_KEY!r}, the key of the units object: "
                    "leave out --units for the bare {tier: {metric: value}}"
                )
            return {UNITS_KEY: unit_of, **tiers}

        def csv() -> str:
            text = csv_text(whole_counts(model.summary()[columns]))
            keep = units is None or units  # a units row unless --no-units
            return with_units_row(text, [UNITS_ROW, *unit_of.values()]) if keep else text

        emit(fmt, doc, csv, table)

    guard(run)


#: the top-level key of the units object in ``summary -f json``
UNITS_KEY = "units"


@app.command("recommend")
def recommend_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
    fmt: FormatOpt = Format.table,
) -> None:
    """Size each workload on each tier and recommend the cheapest tier that fits."""

    def run() -> None:
        from costmodel.analysis.workloads import recommend
        from costmodel.report.format import csv_text, records

        a, model = built(paths, set_, strict)
        df = recommend(model)
        chosen = df.attrs["recommended"]

        def table() -> None:
            from costmodel.cli.tables import recommend_grid, show

            show(recommend_grid(df, f"{a.name}: which scale fits which task", a.currency), out())
            out().print(
                "floor: GPUs needed for memory; days: training time on all the tier's "
                "GPUs; due: deadline; use: share of the tier's horizon GPU-hours; fits: "
                "best = recommended (the cheapest TCO that fits); /GPU-h: the tier's "
                "levelized cost per GPU-hour; /M tokens (inference): that cost x 1e6 / "
                "(tokens/s per GPU x 3600)",
                style="dim",
            )
            for w, t in chosen.items():
                out().print(f"{w}: {t or 'no tier fits'}", highlight=False)

        emit(
            fmt,
            lambda: {"recommended": chosen, "rows": records(df.reset_index())},
            lambda: csv_text(df),
            table,
        )

    guard(run)


@app.command()
def validate(
    paths: PathsArg = None,
    set_: SetOpt = None,
    strict: StrictOpt = False,
) -> None:
    """Check assumption files; print what they define or every problem found."""

    def run() -> None:
        a = load(paths, set_, strict)
        tiers = ", ".join(f"{k} ({t.gpus} x {t.server})" for k, t in a.tiers.items())
        out().print(
            f"ok: {a.name}: {len(a.tiers)} tiers: {tiers}; {len(a.servers)} servers in catalogue",
            highlight=False,
        )

    guard(run)


@app.command()
def init(
    directory: Annotated[
        Path, typer.Argument(help="Directory to create with editable assumption files.")
    ],
    force: Annotated[bool, typer.Option(help="Overwrite files that already exist.")] = False,
    example: ExampleOpt = None,
) -> None:
    """Copy the bundled default assumption files (and scenario overlays) to DIRECTORY;
    with --example NAME, the bundled example model NAME instead."""

    def run() -> None:
        import shutil

        from costmodel.inputs.resources import default_assumptions_dir, example_dir, scenarios_dir
        from costmodel.report import output

        if example is None:
            sources = sorted(default_assumptions_dir().glob("*.yaml"))
            scen = sorted(scenarios_dir().glob("*.yaml"))
        else:
            try:
                sources = sorted(example_dir(example).glob("*.yaml"))
            except FileNotFoundError as exc:
                usage_error(str(exc))
            scen = []  # the scenario overlays are written for the China default
        targets = [directory / f.name for f in sources] + [
            directory / "scenarios" / f.name for f in scen
        ]
        if directory.exists() and not directory.is_dir():
            usage_error(f"{directory} is a file; give a directory to create")
        clash = [str(t) for t in targets if t.exists()]
        if clash and not force:
            usage_error(
                f"{directory} already exists and holds {len(clash)} of the files init writes "
                f"(e.g. {clash[0]}); add --force to overwrite them, or give a new directory"
            )
        for src, dst in zip([*sources, *scen], targets, strict=True):
            dst.parent.mkdir(parents=True, exist_ok=True)
            output.write_with(dst, lambda tmp, s=src: shutil.copyfile(s, tmp))
        message = (
            f"wrote {len(sources)} assumption files and {len(scen)} scenario overlays "
            f"to {directory}\ntry: costmodel summary {directory}"
        )
        if scen:
            message += (
                f"\n or: costmodel summary {directory} {directory / 'scenarios' / scen[0].name}"
            )
        out().print(
            message,
            highlight=False,
        )

    guard(run)


@app.command()
def schema(
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")
    ] = None,
) -> None:
    """Print the JSON Schema of assumption files (for editor autocompletion)."""

    def run() -> None:
        import json

        from costmodel.inputs.fields import json_schema
        from costmodel.report import output as files

        text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
        if output is not None and output.is_dir():
            usage_error(f"-o {output}: is a directory; give a file name, e.g. {output}/schema.json")
        if output is None:
            write_text(text)
        else:
            files.write_text(output, text)

    guard(run)


@app.command("scenarios")
def scenarios_cmd() -> None:
    """List the bundled scenario overlays, one line each: NAME and what it changes.
    Name one anywhere a path is taken as scenario:NAME, e.g.
    costmodel compare -s greenfield=scenario:greenfield."""

    def run() -> None:
        from costmodel.inputs.resources import (
            SCENARIO_PREFIX,
            scenario_description,
            scenario_names,
            scenario_path,
        )

        names = scenario_names()
        width = max((len(SCENARIO_PREFIX + n) for n in names), default=0)
        lines = [
            f"{SCENARIO_PREFIX + n:<{width}}  {scenario_description(scenario_path(n))}"
            for n in names
        ]
        write_text("".join(line + "\n" for line in lines))

    guard(run)

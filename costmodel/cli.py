"""Command line: ``costmodel build|summary|recommend|validate|init|schema`` (spec
12), plus the analysis commands registered from :mod:`costmodel.cli_analysis`
(sensitivity, montecarlo) and :mod:`costmodel.cli_compare` (compare,
build-vs-rent).

Exit status: 0 on success, 2 on invalid input (message on stderr, nothing
written), 1 on any other error.
"""

from __future__ import annotations

import json
import math
import shutil
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from . import atomic
from .analysis import DEFAULT_DRAWS, DEFAULT_SEED, analyze
from .cli_analysis import register as register_analysis
from .cli_common import (
    Format,
    FormatOpt,
    PathsArg,
    SetOpt,
    _guard,
    _load,
    app,
    out,
    summary_records,
    summary_table,
)
from .cli_compare import register as register_compare
from .errors import AssumptionError, Problem
from .memo import write_memo
from .metrics import HEADLINE, format_value
from .model import build
from .resources import default_assumptions_dir, scenarios_dir
from .schema import json_schema
from .workbook import write_workbook


class Lang(str, Enum):
    en = "en"
    zh = "zh"
    both = "both"


@app.command("build")
def build_cmd(
    paths: PathsArg = None,
    out_dir: Annotated[Path, typer.Option("-o", "--out", help="Output directory.")] = Path("out"),
    set_: SetOpt = None,
    lang: Annotated[
        Lang, typer.Option(help="Memo language: en (memo.html), zh (memo.zh.html) or both.")
    ] = Lang.both,
    template_dir: Annotated[
        Path | None, typer.Option(help="Directory of memo templates that replace the bundled ones.")
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario", "-s", help="NAME=PATH[,PATH]: also compare this overlay (repeatable)."
        ),
    ] = None,
    draws: Annotated[
        int, typer.Option("--draws", "-n", min=0, help="Monte Carlo draws (0: none).")
    ] = DEFAULT_DRAWS,
    seed: Annotated[int, typer.Option(help="Monte Carlo seed.")] = DEFAULT_SEED,
) -> None:
    """Build the model; write OUT/model.xlsx (live-formula workbook) and the memo."""

    def run() -> None:
        from .cli_compare import parse_scenarios

        a = _load(paths, set_)  # invalid input stops here: nothing is written
        model = build(a)
        overlays = parse_scenarios(scenario) if scenario else None
        analysis = analyze(model, draws=draws, seed=seed, scenarios=overlays)
        written = [write_workbook(model, out_dir / "model.xlsx", analysis=analysis)]
        langs = ["en", "zh"] if lang is Lang.both else [lang.value]
        for code in langs:
            name = "memo.html" if code == "en" else "memo.zh.html"
            written.append(
                write_memo(
                    model, out_dir / name, lang=code, template_dir=template_dir, analysis=analysis
                )
            )
        for p in written:
            out.print(f"wrote {p}", highlight=False)
        out.print(summary_table(model.summary()[list(HEADLINE)], a.name, a.currency))

    _guard(run)


@app.command()
def summary(
    paths: PathsArg = None,
    set_: SetOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Print each tier's capex, opex, TCO, cost per GPU-hour, NPV, IRR and payback."""

    def run() -> None:
        a = _load(paths, set_)
        df = build(a).summary()
        if fmt is Format.json:
            sys.stdout.write(json.dumps(summary_records(df), indent=2, ensure_ascii=False) + "\n")
        elif fmt is Format.csv:
            sys.stdout.write(df.to_csv())
        else:
            out.print(
                summary_table(
                    df,
                    f"{a.name} ({a.currency}, {a.horizon_years} years from {a.start})",
                    a.currency,
                )
            )
            out.print(
                "Empty cells (-): no IRR root, no payback within the horizon, or no denominator.",
                style="dim",
            )

    _guard(run)


@app.command("recommend")
def recommend_cmd(
    paths: PathsArg = None,
    set_: SetOpt = None,
    fmt: FormatOpt = Format.table,
) -> None:
    """Size each workload on each tier and recommend the cheapest tier that fits."""

    def run() -> None:
        a = _load(paths, set_)
        df = build(a).recommend()
        chosen = df.attrs["recommended"]
        if fmt is Format.json:
            flat = df.reset_index()
            rows = [
                {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
                for r in flat.to_dict(orient="records")
            ]
            text = json.dumps({"recommended": chosen, "rows": rows}, indent=2, ensure_ascii=False)
            sys.stdout.write(text + "\n")
        elif fmt is Format.csv:
            sys.stdout.write(df.to_csv())
        else:
            table = Table(title=f"{a.name}: which scale fits which task", title_justify="left")
            table.add_column("workload", min_width=16)
            table.add_column("tier", no_wrap=True)
            for col in ("GPUs", "floor", "days", "due", "fits", "use", "best"):
                table.add_column(col, justify="right", no_wrap=True)
            for (w, t), r in df.iterrows():
                table.add_row(
                    str(w), str(t), f"{r.gpus:,}", f"{r.memory_floor_gpus:,}",
                    format_value(r.days_needed, "years"), format_value(r.deadline_days, "years"),
                    "yes" if r.feasible else "no", f"{r.share_of_horizon:.2%}",
                    "*" if r.recommended else "",
                )  # fmt: skip
            out.print(table)
            out.print("floor: GPUs needed for memory; days: training time on all the tier's GPUs; "
                      "due: deadline; use: share of the tier's horizon GPU-hours; * = recommended "
                      "(cheapest TCO that fits)", style="dim")  # fmt: skip
            for w, t in chosen.items():
                out.print(f"{w}: {t or 'no tier fits'}", highlight=False)

    _guard(run)


@app.command()
def validate(
    paths: Annotated[list[Path], typer.Argument(help="Assumption files or directories.")],
    set_: SetOpt = None,
) -> None:
    """Check assumption files; print what they define or every problem found."""

    def run() -> None:
        a = _load(paths, set_)
        tiers = ", ".join(f"{k} ({t.gpus} x {t.server})" for k, t in a.tiers.items())
        out.print(
            f"ok: {a.name}: {len(a.tiers)} tiers: {tiers}; {len(a.servers)} servers in catalogue",
            highlight=False,
        )

    _guard(run)


@app.command()
def init(
    directory: Annotated[
        Path, typer.Argument(help="Directory to create with editable assumption files.")
    ],
    force: Annotated[bool, typer.Option(help="Overwrite files that already exist.")] = False,
) -> None:
    """Copy the bundled default assumption files (and scenario overlays) to DIRECTORY."""

    def run() -> None:
        sources = sorted(default_assumptions_dir().glob("*.yaml"))
        scen = sorted(scenarios_dir().glob("*.yaml"))
        targets = [directory / f.name for f in sources] + [
            directory / "scenarios" / f.name for f in scen
        ]
        clash = [str(t) for t in targets if t.exists()]
        if clash and not force:
            raise AssumptionError(
                Problem(
                    str(directory),
                    "",
                    "",
                    f"{len(clash)} files already exist (e.g. {clash[0]}); use --force to overwrite",
                )
            )
        for src, dst in zip([*sources, *scen], targets, strict=True):
            dst.parent.mkdir(parents=True, exist_ok=True)
            atomic.write_with(dst, lambda tmp, s=src: shutil.copyfile(s, tmp))
        example = directory / "scenarios" / (scen[0].name if scen else "x.yaml")
        out.print(
            f"wrote {len(sources)} assumption files and {len(scen)} scenario overlays "
            f"to {directory}\ntry: costmodel summary {directory}\n"
            f" or: costmodel summary {directory} {example}",
            highlight=False,
        )

    _guard(run)


@app.command()
def schema(
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")
    ] = None,
) -> None:
    """Print the JSON Schema of assumption files (for editor autocompletion)."""

    def run() -> None:
        text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
        if output is None:
            sys.stdout.write(text)
        else:
            atomic.write_text(output, text)

    _guard(run)


register_compare(app)
register_analysis(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

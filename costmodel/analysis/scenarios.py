"""Named scenarios: overlays applied on top of one base, each a full model.

A scenario is what :func:`costmodel.layer` adds to the base: overlay files
(merged in order, as ``costmodel summary BASE OVERLAY`` would) and/or dotted-path
overrides (as ``--set``). The base itself is the first scenario, ``"base"``::

    r = compare(base, {"greenfield": "scenarios/greenfield.yaml",
                       "cheap power": {"power.price_per_kwh": 0.45},
                       "both": {"paths": ["scenarios/greenfield.yaml"],
                                "overrides": {"power.price_per_kwh": 0.45}}})
    r.wide               # (scenario, tier) x metric, the summary columns of each model
    r.tidy               # columns scenario, tier, metric, value
    r.delta()            # each scenario minus the base, tier by tier
    r.models["both"]     # the full Model (schedules, build_vs_rent, ...)
    r.overlays["both"]   # what was overlaid, as text (file paths and contents, overrides)

Scenario names and overlay texts are data: they are kept verbatim, never
interpreted (outputs escape them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from os import PathLike, fspath
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from costmodel.core.metrics import TEXT_COLUMNS
from costmodel.core.result import SUMMARY_COLUMNS
from costmodel.inputs.errors import AssumptionError, Problem
from costmodel.inputs.loader import assumption_files, expand_paths, layer, load_assumptions
from costmodel.inputs.model import Model, assumptions_of, build
from costmodel.inputs.schema import Assumptions

BASE = "base"
PathLikeStr = str | PathLike
ScenarioSpec = PathLikeStr | Sequence[PathLikeStr] | Mapping[str, Any] | None

#: numeric summary columns reported for each (scenario, tier); the text columns
#: (scale class, cooling, design, site, feasibility) follow from the build.
METRIC_COLUMNS: list[str] = [c for c in SUMMARY_COLUMNS if c not in TEXT_COLUMNS]


@dataclass(frozen=True)
class Overlay:
    """What one scenario adds to the base."""

    paths: list[str] = field(default_factory=list)
    overrides: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """Each file's path and text (``# path`` then the YAML), then the overrides
        as YAML under ``# overrides``; ``""`` when nothing is overlaid."""
        parts = []
        for f in expand_paths(self.paths):
            text = f.read_text(encoding="utf-8")
            parts.append(f"# {f}\n{text.rstrip()}")
        if self.overrides:
            dumped = yaml.safe_dump(dict(self.overrides), allow_unicode=True, sort_keys=False)
            parts.append(f"# overrides\n{dumped.rstrip()}")
        return "\n\n".join(parts)


def as_overlay(name: str, spec: ScenarioSpec) -> Overlay:
    """Read a scenario value: a path, a list of paths, a mapping of dotted-path
    overrides, or ``{"paths": [...], "overrides": {...}}``; None is nothing."""
    if spec is None:
        return Overlay()
    if isinstance(spec, Overlay):
        return spec
    if isinstance(spec, str | PathLike):
        return Overlay([fspath(spec)])
    if isinstance(spec, Mapping):
        keys = set(spec)
        if keys and keys <= {"paths", "overrides"}:
            paths = spec.get("paths") or []
            if isinstance(paths, str | PathLike):
                paths = [paths]
            return Overlay([fspath(p) for p in paths], dict(spec.get("overrides") or {}))
        return Overlay([], dict(spec))
    if isinstance(spec, Sequence):
        return Overlay([fspath(p) for p in spec])
    raise AssumptionError(
        Problem(
            "scenario",
            name,
            repr(spec)[:60],
            "a scenario is a path, a list of paths, a mapping of dotted-path overrides "
            'or {"paths": [...], "overrides": {...}}',
        )
    )


def _base_description(a: Assumptions) -> str:
    files = assumption_files(a)
    return "# base: " + (", ".join(files) if files else "assumptions built in code")


@dataclass
class CompareResult:
    """Models of the base and of each named scenario, in order, and their
    summaries side by side (see module docstring)."""

    models: dict[str, Model]
    overlays: dict[str, str]

    @property
    def scenarios(self) -> list[str]:
        return list(self.models)

    @cached_property
    def wide(self) -> pd.DataFrame:
        """Index (scenario, tier), one column per numeric summary metric."""
        frames = {
            name: m.summary()[METRIC_COLUMNS].astype(float) for name, m in self.models.items()
        }
        df = pd.concat(list(frames.values()), keys=list(frames), names=["scenario", "tier"])
        df.columns.name = "metric"
        return df

    @cached_property
    def tidy(self) -> pd.DataFrame:
        """One row per (scenario, tier, metric) with its ``value`` (float, NaN = empty)."""
        w = self.wide
        records = [
            (s, t, metric, float(w.at[(s, t), metric]))
            for (s, t) in w.index
            for metric in w.columns
        ]
        return pd.DataFrame(records, columns=["scenario", "tier", "metric", "value"])

    def __repr__(self) -> str:
        names = ", ".join(self.scenarios)
        tiers = next(iter(self.models.values())).tiers if self.models else []
        return (
            f"<CompareResult: scenarios {names}; tiers {', '.join(tiers)}; "
            ".wide, .tidy, .delta() for the tables>"
        )

    def _repr_html_(self) -> str:
        """Jupyter: the headline metrics, one row per (scenario, tier), and what
        each scenario overlays."""
        import html

        from costmodel.core.metrics import HEADLINE, METRICS

        show = self.wide[[m for m in HEADLINE if m in self.wide.columns]]
        look = {"pct": "{:.1%}", "money": "{:,.0f}", "count": "{:,.0f}"}
        formats = {
            METRICS[m].label: look.get(METRICS[m].kind, "{:,.4g}").format for m in show.columns
        }
        show = show.rename(columns={m: METRICS[m].label for m in show.columns})
        what = {
            n: (self.overlays.get(n) or "").split("\n", 1)[0].lstrip("# ") for n in self.scenarios
        }
        rows = "".join(
            f"<li><b>{html.escape(n)}</b>: {html.escape(w or 'nothing overlaid')}</li>"
            for n, w in what.items()
        )
        table = show.to_html(na_rep="-", formatters=formats)
        return f"<h4>Scenarios compared</h4>{table}<ul>{rows}</ul>"

    def delta(self, base: str = BASE) -> pd.DataFrame:
        """``wide`` minus the ``base`` scenario's row of the same tier (tiers the
        base lacks are NaN)."""
        ref = self.wide.loc[base]
        w = self.wide
        tiers = w.index.get_level_values("tier")
        return pd.DataFrame(
            w.to_numpy() - ref.reindex(tiers).to_numpy(), index=w.index, columns=w.columns
        )


def compare(
    base: Model | Assumptions | PathLikeStr | Sequence[PathLikeStr] | None,
    scenarios: Mapping[str, ScenarioSpec],
    *,
    base_name: str = BASE,
    strict: bool = False,
) -> CompareResult:
    """Build the base and every named scenario layered on it.

    ``base``: a built :class:`Model` or an :class:`Assumptions` object (the one
    rule of the analysis functions), a path or list of paths (loaded with
    :func:`load_assumptions`), or None for the bundled default. Each scenario is
    ``layer(base, *paths, overrides=overrides)`` (see :func:`as_overlay`), so an
    invalid overlay raises :class:`AssumptionError` naming the file and path. The
    base comes first, named ``base_name``, which no scenario may reuse.

    Parameters
    ----------
    base : Model, Assumptions, path, list of paths or None
    scenarios : mapping of str to path, list of paths, mapping or None
        Name -> overlay files, dotted-path overrides, or ``{"paths": [...],
        "overrides": {...}}`` (:func:`as_overlay`).
    base_name : str, optional
    strict : bool, optional
        Raise the advice on an overlay (a value far outside its documented range,
        an override a tier shadows: methodology §2.6) as an error instead of warning.

    Returns
    -------
    CompareResult
        ``models`` (name -> Model), ``wide`` (index (scenario, tier), a column per
        summary metric).

    Examples
    --------
    >>> import costmodel as cm
    >>> from costmodel.inputs.resources import scenarios_dir
    >>> a = cm.load_assumptions(cm.example_dir("by-hand"))
    >>> c = cm.compare(a, {"loan": scenarios_dir() / "bank-loan.yaml"})
    >>> c.scenarios
    ['base', 'loan']
    >>> [f"{c.wide.loc[(s, 'large'), 'equity_npv']:,.0f}" for s in c.scenarios]
    ['651,582', '995,580']
    """
    if isinstance(base, Model | Assumptions):
        a = assumptions_of(base)
    elif base is None:
        a = load_assumptions()
    elif isinstance(base, str | PathLike):
        a = load_assumptions(base)
    else:
        a = load_assumptions(*base)
    if base_name in scenarios:
        raise AssumptionError(
            Problem(
                "scenario", str(base_name), "", f"the name {base_name!r} is reserved for the base"
            )
        )
    models = {base_name: build(a)}
    overlays = {base_name: _base_description(a)}
    for name, spec in scenarios.items():
        ov = as_overlay(str(name), spec)
        models[str(name)] = build(
            layer(a, *[Path(p) for p in ov.paths], overrides=ov.overrides, strict=strict)
        )
        overlays[str(name)] = ov.describe()
    return CompareResult(models, overlays)

"""A line item is named in the catalogue, not across the package.

A module outside ``costmodel/catalogue/`` that names an opex line or a capex
column as a word (as ``grep -w`` does: code, strings, comments and docstrings) must
be listed in :data:`ALLOWED` with the words it may name; the list only shrinks:
a module naming a word it is not allowed fails, and so does an allowance no longer
used (remove it).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "costmodel"
#: the line items the check follows (the opex lines and the capex columns of the
#: classes the fabric and storage designs add to)
WORDS = (
    "electricity",
    "colocation",
    "maintenance",
    "insurance",
    "software",
    "sga",
    "capex_storage",
    "capex_network",
)

#: module (relative to ``costmodel/``) -> the words it may name, and why
ALLOWED: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for k, v in {
        # the schema's field names and the sites' rules (the facility mode
        # "colocation", a site's electricity price and colocation rent)
        "inputs/schema.py": "electricity colocation maintenance insurance software",
        "inputs/siteschema.py": "electricity colocation",
        "inputs/siterules.py": "colocation",
        "inputs/sites.py": "colocation",
        "inputs/params.py": "colocation",
        "inputs/vocabulary.py": "colocation",
        "analysis/sitecompare.py": "colocation",
        # the power subsidy reads the metered kWh of the electricity line
        "core/subsidies.py": "electricity",
        # the analysis and memo sentences on storage, network and the "software problem"
        "analysis/risks.py": "capex_storage software",
        "analysis/bundle.py": "software",
        "analysis/sweep.py": "capex_network",
        "report/memo/profiles.py": "software",
        "report/memo/text_method.py": "colocation maintenance insurance software",
        "report/memo/text_risks.py": "software capex_network",
        "report/memo/risk_section.py": "software capex_network",
        "report/memo/reliability.py": "capex_storage",
        "report/memo/text_reliability.py": "capex_storage",
        "report/memo/summary_section.py": "sga",
        "report/memo/text_summary.py": "sga",
        # the income residual's margin of one deployment in month M
        "report/workbook/incomeblock.py": "electricity colocation maintenance insurance software",
        "report/workbook/tier.py": "colocation",
        "report/workbook/sitesblock.py": "colocation",
        "report/workbook/inputs.py": "colocation",
        "report/workbook/book.py": "capex_storage capex_network",
        "report/workbook/deployments.py": "capex_storage capex_network",
    }.items()
}


def named(root: Path) -> dict[str, set[str]]:
    """Module (relative to ``root``) -> the words of :data:`WORDS` it names, for
    every module outside ``root/catalogue``."""
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(WORDS) + r")(?![A-Za-z0-9_])")
    out: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("catalogue/"):
            continue
        found = set(pattern.findall(path.read_text("utf-8")))
        if found:
            out[rel] = found
    return out


def problems(root: Path) -> list[str]:
    """One sentence per module naming a word it may not, and per unused allowance."""
    found = named(root)
    out = [
        f"{m} names {', '.join(sorted(w - ALLOWED.get(m, frozenset())))}: define it in "
        "costmodel/catalogue and iterate the catalogue's lists"
        for m, w in found.items()
        if w - ALLOWED.get(m, frozenset())
    ]
    out += [
        f"{m} no longer names {', '.join(sorted(allowed - found.get(m, set())))}: "
        "remove it from ALLOWED"
        for m, allowed in ALLOWED.items()
        if allowed - found.get(m, set())
    ]
    return out


def test_no_module_outside_the_catalogue_names_a_line_item():
    assert problems(ROOT) == []


def test_a_module_outside_the_catalogue_naming_a_line_item_fails(tmp_path):
    copy = tmp_path / "costmodel"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    target = copy / "core" / "engine.py"
    target.write_text(target.read_text("utf-8") + '\nEXTRA = ("insurance",)\n', "utf-8")
    assert problems(copy) == [
        "core/engine.py names insurance: define it in costmodel/catalogue and iterate "
        "the catalogue's lists"
    ]


def test_an_unused_allowance_fails(tmp_path):
    copy = tmp_path / "costmodel"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "analysis" / "bundle.py").write_text('"""nothing"""\n', "utf-8")
    assert problems(copy) == ["analysis/bundle.py no longer names software: remove it from ALLOWED"]


@pytest.mark.parametrize("word", WORDS)
def test_each_word_is_named_in_the_catalogue(word):
    catalogue = ROOT / "catalogue"
    assert any(
        re.search(rf"(?<![A-Za-z0-9_]){word}(?![A-Za-z0-9_])", p.read_text("utf-8"))
        or word.removeprefix("capex_") in p.stem
        for p in catalogue.glob("*.py")
    )

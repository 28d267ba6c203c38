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
        # the schema's VAT rate fields (one per item bearing VAT), the facility mode
        # "colocation" and the docstrings of the power and rent inputs
        "inputs/schema.py": "electricity colocation maintenance insurance software",
        # the tier's rent per kW-month (its site's, else the global one by cooling)
        "inputs/sites.py": "colocation",
        "inputs/params.py": "colocation",
        # the seed's "a thousand-card cluster is a software problem" (software
        # engineering, not the software line): its figures, risk and sentences
        "analysis/risks.py": "software",
        "analysis/bundle.py": "software",
        "report/memo/profiles.py": "software",
        "report/memo/text_risks.py": "software",
        "report/memo/risk_section.py": "software",
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

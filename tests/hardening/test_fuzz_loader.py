"""Hypothesis-driven fuzzing of the loader (issue 16): random mutations of the
bundled default. Whatever the mutation, loading either succeeds or raises
:class:`AssumptionError`, and every problem names the file and a path."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from costmodel.inputs.errors import AssumptionError
from costmodel.inputs.loader import load_assumptions, merge_sources
from costmodel.inputs.resources import default_assumptions_dir

pytestmark = pytest.mark.slow

DEFAULT = merge_sources([default_assumptions_dir()]).data


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(DEFAULT)

values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -1, 1, 1e308, -1e308, 1e-320, 2**63, 0.5, 1.0, 2.0]),
    st.text(max_size=12),
    st.sampled_from(["", "h200", "H200", "air", "=1+1", "tens.x", "sum_of_years", "2027-13"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.fixed_dictionaries({"value": st.floats(allow_nan=True)}),
)

mutation = st.tuples(
    st.sampled_from(["set", "delete", "rename", "copy"]),
    st.sampled_from(PATHS),
    values,
    st.text(max_size=8),
)


def _mutate(data: dict, kind: str, path: tuple, value: Any, name: str) -> None:
    node = data
    for key in path[:-1]:
        node = node[key]
    last = path[-1]
    if kind == "set":
        node[last] = value
    elif kind == "delete":
        if isinstance(node, dict):
            del node[last]
        else:
            node.pop(last)
    elif kind == "rename" and isinstance(node, dict):
        node[name or "x"] = node.pop(last)
    elif kind == "copy" and isinstance(node, dict):
        node[name or "x"] = node[last]


def _check(text: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "fuzz.yaml"
        f.write_text(text, encoding="utf-8")
        try:
            load_assumptions(f)
        except AssumptionError as exc:
            for p in exc.problems:
                assert str(f) in p.where or p.where == "--set", f"no file in {p}"
                assert p.path or p.value or "YAML" in p.rule or "file" in p.rule, f"no path in {p}"


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(mutation, min_size=1, max_size=4))
def test_structural_mutations(mutations):
    import copy

    data = copy.deepcopy(DEFAULT)
    for kind, path, value, name in mutations:
        try:
            _mutate(data, kind, path, value, name)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed the path
    _check(_dump(data))


def _dump(data: Any) -> str:
    """YAML text of ``data`` (libyaml's emitter where PyYAML has it)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False)


TEXT = _dump(DEFAULT)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(min_value=0, max_value=len(TEXT)),
    st.integers(min_value=0, max_value=40),
    st.text(
        alphabet=st.sampled_from(list(":-[]{}&*!|>'\"%@`#,? \n\t~0123456789eE.xyz")),
        max_size=12,
    ),
)
def test_text_mutations(at, cut, insert):
    """Characters cut and inserted anywhere in the YAML text."""
    _check(TEXT[:at] + insert + TEXT[at + cut :])

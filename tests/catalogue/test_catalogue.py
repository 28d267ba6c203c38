"""The catalogue of line items: the lists are whole and in order, and each opex
formula renders the same arithmetic as numpy and as workbook text."""

from __future__ import annotations

import re

import numpy as np
import pytest

from costmodel.catalogue.expr import Num, Ref
from costmodel.catalogue.items import (
    CAPEX_CLASSES,
    HARDWARE_CLASSES,
    ITEMS,
    OPEX_ITEMS,
    OPEX_LINES,
    VAT_INPUT_KEYS,
    VAT_OPEX_LINES,
    input_specs,
)
from costmodel.inputs.vocabulary import INPUTS, TYPICAL, input_key


def test_the_lists_are_the_items_in_order():
    # methodology §8.2: four asset classes; §3.2, §11.4: seven opex lines; §24: staff and
    # SG&A carry no input VAT
    assert CAPEX_CLASSES == ("servers", "network", "storage", "facility")
    assert HARDWARE_CLASSES == ("servers", "network", "storage")
    assert OPEX_LINES == (
        "electricity",
        "colocation",
        "staff",
        "maintenance",
        "insurance",
        "software",
        "sga",
    )
    assert tuple(k for k in OPEX_LINES if k not in ("staff", "sga")) == VAT_OPEX_LINES
    assert (*CAPEX_CLASSES, *VAT_OPEX_LINES) == VAT_INPUT_KEYS
    assert len({i.colour for i in ITEMS.values()}) >= 8  # the stacked charts tell them apart


def test_every_declared_input_is_in_the_vocabulary_by_its_path():
    for spec in input_specs():
        assert spec.key in INPUTS, spec.key
        assert INPUTS[spec.key].en == spec.label.en
        if spec.typical is not None:
            assert TYPICAL[spec.key] == spec.typical
    assert input_key("vat.input_rates.colocation") == "vat_input_colocation"
    assert input_key("depreciation.storage.salvage") == "salvage_storage"
    assert input_key("operations.maintenance_rate") == "maintenance_rate"


def test_the_excel_text_brackets_what_binds_looser():
    a, b, c = Ref("a"), Ref("b"), Ref("c")
    name = str.upper
    assert (a * (b + c)).excel(name) == "A*(B+C)"
    assert (a * b + c).excel(name) == "A*B+C"
    assert (a - (b - c)).excel(name) == "A-(B-C)"
    assert (a / (b * c)).excel(name) == "A/(B*C)"
    assert (a * b / Num(12)).excel(name) == "A*B/12"
    assert (1 - a).excel(name) == "1-A"
    assert Num(0.125).excel(name) == "0.125"


def _excel_value(text: str, values: dict[str, float]) -> float:
    """The value of formula text of + - * / and brackets on numbers, read as Excel
    reads it (left to right, * and / before + and -), independently of the tree."""
    tokens = re.findall(r"\d+\.?\d*|[A-Za-z_]\w*|[-+*/()]", text)
    pos = 0

    def atom() -> float:
        nonlocal pos
        t = tokens[pos]
        pos += 1
        if t == "(":
            v = add()
            pos += 1  # ")"
            return v
        return values[t] if t in values else float(t)

    def mul() -> float:
        nonlocal pos
        v = atom()
        while pos < len(tokens) and tokens[pos] in "*/":
            op = tokens[pos]
            pos += 1
            v = v * atom() if op == "*" else v / atom()
        return v

    def add() -> float:
        nonlocal pos
        v = mul()
        while pos < len(tokens) and tokens[pos] in "+-":
            op = tokens[pos]
            pos += 1
            v = v + mul() if op == "+" else v - mul()
        return v

    return add()


@pytest.mark.parametrize("item", OPEX_ITEMS, ids=lambda i: i.key)
def test_each_formula_renders_the_same_arithmetic_twice(item):
    f = item.formula
    assert f is not None and set(f.drivers) <= f.expr.refs()
    rng = np.random.default_rng(len(item.key))
    names = sorted(f.expr.refs())
    draws = rng.uniform(0.1, 3.0, size=(50, len(names)))
    text = f.expr.excel(lambda n: n)
    for row in draws:
        values = dict(zip(names, row.tolist(), strict=True))
        assert f.expr.numpy(values) == pytest.approx(_excel_value(text, values), rel=1e-14)
    # vectorised: arrays of variants give each variant's value
    arrays = {n: draws[:, j] for j, n in enumerate(names)}
    one = [f.expr.numpy(dict(zip(names, row.tolist(), strict=True))) for row in draws]
    np.testing.assert_allclose(f.expr.numpy(arrays), one, rtol=1e-15)


@pytest.mark.parametrize("item", OPEX_ITEMS, ids=lambda i: i.key)
def test_each_formula_is_linear_in_its_drivers(item):
    """The engine evaluates a formula shape by shape with the drivers bound to each
    shape's coefficient and adds the shapes: right only if the formula is linear
    (homogeneous of degree 1) in its drivers."""
    f = item.formula
    rng = np.random.default_rng(7)
    base = {
        n: float(v) for n, v in zip(sorted(f.expr.refs()), rng.uniform(0.5, 2, 99), strict=False)
    }
    one = {n: (base[n] if n not in f.drivers else rng.uniform(0.5, 2)) for n in base}
    two = {n: (base[n] if n not in f.drivers else rng.uniform(0.5, 2)) for n in base}
    both = {n: (one[n] + two[n] if n in f.drivers else base[n]) for n in base}
    assert f.expr.numpy(both) == pytest.approx(f.expr.numpy(one) + f.expr.numpy(two), rel=1e-13)
    zero = {n: (0.0 if n in f.drivers else base[n]) for n in base}
    assert f.expr.numpy(zero) == 0.0


def test_a_formula_that_is_not_linear_is_caught():
    """The linearity check can fail: a fixed fee in the formula is not linear."""
    e = Ref("rate") * Ref("hw_on") + Num(5)
    one, two = {"rate": 2.0, "hw_on": 1.0}, {"rate": 2.0, "hw_on": 3.0}
    both = {"rate": 2.0, "hw_on": 4.0}
    assert e.numpy(both) != pytest.approx(e.numpy(one) + e.numpy(two))

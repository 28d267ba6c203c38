"""The engine's typed inputs: :class:`TierParams` and :class:`TierConfig` are what
the engine reads, by attribute; a misspelt input is an error, not a missing key
read as absent; the engine's modules read no input by a string key."""

from __future__ import annotations

import ast
from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest

import costmodel as cm
from costmodel.catalogue.expr import Ref
from costmodel.catalogue.item import Formula
from costmodel.core import lines
from costmodel.core.config import DepreciationMethod, RefundMode, TerminalValue
from costmodel.core.tierparams import Stage, TierParams, flat_field
from costmodel.inputs.params import resolve_tier
from tests.paths import HAND, ROOT

CORE = ROOT / "costmodel" / "core"


@pytest.fixture(scope="module")
def default():
    return cm.load_assumptions()


def test_the_flat_names_of_every_tier_are_its_fields_and_back(default):
    """Each tier's inputs by their flat names (the vocabulary of the workbook and
    the analyses) become fields and come back the same, every name and value."""
    for tier in default.tiers:
        values = resolve_tier(default, tier).values()
        p = TierParams.of(values)
        assert p.flat() == values
        assert p.gpus == values["gpus"]
        assert p.salvage["servers"] == values["salvage_servers"]


def test_stages_and_classes_are_fields_of_their_own():
    p = TierParams.of(_hand_values())
    assert p.stages == ()
    staged = p.varied({"stage1_month": 6.0, "stage1_gpus": 64.0, "salvage_storage": 0.25})
    assert staged.stages == (Stage(month=6.0, gpus=64.0),)
    assert staged.salvage["storage"] == 0.25
    assert staged.salvage["servers"] == p.salvage["servers"]  # the others kept
    assert p.salvage["storage"] != 0.25  # p itself unchanged
    assert flat_field("stage12_staff_fte") == ("stage", (12, "staff_fte"))


@pytest.mark.parametrize("name", ["gpu", "salvage_server", "stage0_month", "stage1_price", "q"])
def test_a_misspelt_input_is_refused_by_name(name):
    with pytest.raises(KeyError, match=name):
        TierParams.of({**_hand_values(), name: 1.0})


def test_a_misspelt_field_is_an_error_and_fields_do_not_change():
    p = TierParams.of(_hand_values())
    with pytest.raises(AttributeError):
        p.gpu  # noqa: B018
    with pytest.raises(TypeError):
        replace(p, gpu=1.0)
    with pytest.raises(TypeError, match="gpu"):
        p.replaced(gpu=1.0)
    assert p.replaced(gpus=2.0).gpus == 2.0 and p.gpus != 2.0
    with pytest.raises(FrozenInstanceError):
        p.gpus = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):  # a required input missing
        TierParams.of({k: v for k, v in _hand_values().items() if k != "pue"})


def test_a_stage_past_the_next_is_refused():
    with pytest.raises(KeyError, match="stage 1 is not given"):
        TierParams.of({**_hand_values(), "stage2_month": 3.0, "stage2_gpus": 8.0})


def test_spread_gives_every_input_the_draw_axis():
    p = TierParams.of(_hand_values()).varied({"utilization": np.array([0.5, 0.6, 0.7])})
    s = p.spread(3)
    assert s.utilization.tolist() == [0.5, 0.6, 0.7]
    assert s.gpus.shape == (3,) and s.salvage["servers"].shape == (3,)
    assert s.fabric_radix is None  # absent stays absent
    assert not s.gpus.flags.writeable


def test_modes_are_enums_equal_to_their_words(default):
    config = resolve_tier(default, next(iter(default.tiers))).config
    assert isinstance(config.terminal_value, TerminalValue)
    assert config.terminal_value == default.terminal_value
    assert all(isinstance(m, DepreciationMethod) for m in config.depreciation_method.values())
    assert isinstance(config.refund, RefundMode)
    assert config.vat_refund == (config.vat and config.refund is not RefundMode.NONE)


def test_an_opex_formula_reading_no_input_fails_when_read(monkeypatch):
    """The names the catalogue's formulas read are checked against the fields
    when the engine's lines module is imported; a misspelt one is flagged."""
    item = lines.OPEX_ITEMS[0]
    wrong = replace(item.formula, expr=item.formula.expr * Ref("price_per_kwhh"))
    assert isinstance(wrong, Formula)
    monkeypatch.setattr(lines, "OPEX_ITEMS", (replace(item, formula=wrong), *lines.OPEX_ITEMS[1:]))
    with pytest.raises(AttributeError, match="price_per_kwhh"):
        lines.formula_inputs()
    assert "price_per_kwh" in lines.FORMULA_INPUTS


def _string_keys(tree: ast.AST) -> list[str]:
    """The engine inputs read by a string key in ``tree``: ``q["x"]``,
    ``q[f"..."]``, ``"x" in q`` and ``q.get("x")`` of a name ``q``/``p``/``params``."""
    names = {"q", "p", "params", "values"}

    def text(x: ast.AST) -> bool:
        return isinstance(x, ast.JoinedStr) or (
            isinstance(x, ast.Constant) and isinstance(x.value, str)
        )

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            key = node.slice
            if node.value.id in names and text(key):
                out.append(ast.unparse(node))
        elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            right = node.comparators[0]
            if isinstance(right, ast.Name) and right.id in names and text(node.left):
                out.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if node.func.attr == "get" and isinstance(target, ast.Name) and target.id in names:
                out.append(ast.unparse(node))
    return out


def test_the_engine_reads_no_input_by_a_string_key():
    found = {
        path.name: keys
        for path in sorted(CORE.glob("*.py"))
        if (keys := _string_keys(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == {}


def test_a_string_key_read_is_found():
    source = (
        'a = q["gpus"]\nb = "grid_mw" in q\nc = q.get("lead_months")\nd = q[f"stage{i}_gpus"]\n'
    )
    assert _string_keys(ast.parse(source)) == [
        "q['gpus']",
        "'grid_mw' in q",
        "q.get('lead_months')",
        "q[f'stage{i}_gpus']",
    ]


def _hand_values() -> dict[str, float]:
    return resolve_tier(cm.load_assumptions(HAND), "small").values()

"""Loading: merge order, the number-or-mapping form, overrides, directories."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import costmodel as cm
from costmodel.inputs import loader, yamlfile
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import HAND, ROOT


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_no_paths_means_bundled_default_and_paths_mean_exactly_those(tmp_path):
    a = cm.load_assumptions()
    assert cm.assumption_files(a)[0].endswith("00-model.yaml")
    assert all(Path(f).parent == default_assumptions_dir() for f in cm.assumption_files(a))
    h = cm.load_assumptions(HAND)
    assert list(h.tiers) == ["small"]  # the default is not merged underneath


def test_later_files_win_and_mappings_merge_key_by_key(tmp_path):
    over = write(tmp_path, "o.yaml", "power:\n  price_per_kwh: 0.5\n")
    a = cm.load_assumptions(HAND, over)
    assert a.power.price_per_kwh.value == 0.5
    assert a.power.pue["air"].value == 1.5  # sibling keys kept


def test_bare_number_replaces_a_whole_mapping(tmp_path):
    base = write(
        tmp_path,
        "b.yaml",
        "power:\n  price_per_kwh: {value: 0.6, low: 0.4, high: 0.8, source: s}\n",
    )
    bare = write(tmp_path, "c.yaml", "power:\n  price_per_kwh: 0.7\n")
    a = cm.load_assumptions(HAND, base, bare)
    q = a.power.price_per_kwh
    assert (q.value, q.low, q.high, q.source) == (0.7, None, None, None)


def test_a_rent_by_cooling_replaces_a_rent_given_as_value_and_back(tmp_path):
    """Methodology §28.3: a rent by cooling over a ``{value: ...}`` rent replaces it
    whole (merged key by key the two made a mapping of neither form, refused with
    pydantic's internals in the message); a ``{value: ...}`` rent over a rent by
    cooling replaces it too (it was kept as a cooling named 'value' and ignored)."""
    one = "facility:\n  colocation_per_kw_month: {value: 720, low: 600, source: broker}\n"
    by_cooling = "facility:\n  colocation_per_kw_month: {air: 700, cold_plate: 850}\n"
    base, keyed = write(tmp_path, "one.yaml", one), write(tmp_path, "keyed.yaml", by_cooling)
    a = cm.load_assumptions(HAND, base, keyed)
    rent = a.facility.colocation_per_kw_month
    assert {k: q.value for k, q in rent.items()} == {"air": 700, "cold_plate": 850}
    b = cm.load_assumptions(HAND, keyed, base)
    q = b.facility.colocation_per_kw_month
    assert (q.value, q.low, q.source) == (720, 600, "broker")
    # the hand case's tier is air-cooled in a built hall: the rent is read in colocation
    colo = {"facility.mode": "colocation"}
    air = cm.build(cm.load_assumptions(HAND, base, keyed, overrides=colo)).summary_rows()
    one_rent = cm.build(cm.load_assumptions(HAND, keyed, base, overrides=colo)).summary_rows()
    # 2 servers x 10 kW x 1.1 = 22 kW, 12 months: the rents differ by 22 x 20 x 12
    diff = one_rent["small"]["opex_year1"] - air["small"]["opex_year1"]
    assert diff == pytest.approx(22 * (720 - 700) * 12, rel=1e-9)
    # a low or a source over a {value: ...} rent is the same form: merged key by key
    low = write(tmp_path, "low.yaml", "facility:\n  colocation_per_kw_month: {low: 650}\n")
    c = cm.load_assumptions(HAND, base, low).facility.colocation_per_kw_month
    assert (c.value, c.low, c.source) == (720, 650, "broker")


def test_override_replaces_only_value_of_a_mapping(tmp_path):
    base = write(
        tmp_path,
        "b.yaml",
        "power:\n  price_per_kwh: {value: 0.6, low: 0.4, high: 0.8, source: s}\n",
    )
    a = cm.load_assumptions(HAND, base, overrides={"power.price_per_kwh": 0.5})
    q = a.power.price_per_kwh
    assert (q.value, q.low, q.high, q.source) == (0.5, 0.4, 0.8, "s")
    # outside the range: the range widens to include the new base value
    b = cm.load_assumptions(HAND, base, overrides={"power.price_per_kwh": 1.2})
    assert (b.power.price_per_kwh.value, b.power.price_per_kwh.high) == (1.2, 1.2)


def test_override_can_add_a_tier_level_key():
    a = cm.load_assumptions(HAND, overrides={"tiers.small.operations.utilization": 0.9})
    assert a.tiers["small"].operations.utilization.value == 0.9
    assert a.operations.utilization.value == 0.5  # global unchanged


def test_tier_override_beats_global():
    a = cm.load_assumptions(HAND, overrides={"tiers.small.revenue.price_per_gpu_hour": 50})
    s = cm.build(a).summary().loc["small"]
    assert s.revenue == pytest.approx(12 * 16 * 0.5 * 730 * 50)


def test_directory_loads_yaml_in_name_order(tmp_path):
    d = tmp_path / "model"
    d.mkdir()
    write(d, "00-base.yaml", HAND.read_text(encoding="utf-8"))
    write(d, "10-later.yaml", "finance: {discount_rate: 0.07}\n")
    write(d, "05-earlier.yaml", "finance: {discount_rate: 0.03}\n")
    write(d, "notes.txt", "ignored")
    a = cm.load_assumptions(d)
    assert a.finance.discount_rate.value == 0.07
    assert [Path(f).name for f in cm.assumption_files(a)] == [
        "00-base.yaml",
        "05-earlier.yaml",
        "10-later.yaml",
    ]


def test_error_line_points_into_the_file_that_set_the_value(tmp_path):
    over = write(tmp_path, "o.yaml", "# comment\n\noperations:\n  utilization: 1.7\n")
    with pytest.raises(cm.AssumptionError, match=rf"{over}:4: operations.utilization = 1.7"):
        cm.load_assumptions(HAND, over)


def test_a_range_broken_by_layering_names_the_file_of_the_value_too(tmp_path):
    """One file's range and a later file's value, merged key by key (methodology
    §2.1), can break ``low <= value``: the error points at the bound and names the
    file and line of the value (upside + domestic-tier did so)."""
    first = write(tmp_path, "a.yaml", "operations:\n  utilization:\n    value: 0.8\n    low: 0.6\n")
    second = write(tmp_path, "b.yaml", "operations:\n  utilization:\n    value: 0.5\n")
    with pytest.raises(cm.AssumptionError) as info:
        cm.load_assumptions(HAND, first, second)
    (problem,) = info.value.problems
    assert problem.where == f"{first}:4"
    assert problem.rule.startswith(
        f"low 0.6 must not exceed value 0.5 (the value comes from {second}:3"
    )
    # within one file the rule stands alone
    alone = write(tmp_path, "c.yaml", "operations:\n  utilization:\n    value: 0.5\n    low: 0.6\n")
    with pytest.raises(cm.AssumptionError) as info:
        cm.load_assumptions(HAND, alone)
    assert info.value.problems[0].rule == "low 0.6 must not exceed value 0.5"


def test_bundled_scenarios_layer_on_one_another(tmp_path):
    """A scenario that restates a contract for one tier carries its own range, so it
    stands on another scenario's contract (domestic-tier on upside)."""
    from costmodel.inputs.resources import scenarios_dir

    a = cm.load_assumptions(
        default_assumptions_dir(),
        scenarios_dir() / "upside.yaml",
        scenarios_dir() / "domestic-tier.yaml",
    )
    months = a.tiers["hundreds"].revenue.contract.months
    assert (months.value, months.low, months.high) == (24, 12, 36)


def test_start_accepts_a_yaml_date(tmp_path):
    over = write(tmp_path, "o.yaml", "start: 2028-03-01\n")
    assert cm.load_assumptions(HAND, over).start == "2028-03"
    bad = write(tmp_path, "p.yaml", "start: 2028-13\n")
    with pytest.raises(cm.AssumptionError, match="must be a month written YYYY-MM"):
        cm.load_assumptions(HAND, bad)


def test_fingerprint_is_stable_and_sensitive():
    f1 = cm.fingerprint(cm.load_assumptions(HAND))
    assert f1 == cm.fingerprint(cm.load_assumptions(HAND))
    assert len(f1) == 64
    assert f1 != cm.fingerprint(cm.load_assumptions(HAND, overrides={"finance.tax_rate": 0.2}))


def test_yaml_is_loaded_safely(tmp_path):
    evil = write(tmp_path, "e.yaml", "name: !!python/object/apply:os.system ['echo hacked']\n")
    with pytest.raises(cm.AssumptionError, match="malformed YAML"):
        cm.load_assumptions(HAND, evil)


# ----------------------------------------------------------------------------- one parse


#: every YAML file of the project, but the hostile corpus (tests/hardening/corpus),
#: which the loader refuses on purpose where safe_load would hang, crash or accept
ALL_YAML = sorted(
    p
    for p in [*ROOT.glob("assumptions/**/*.yaml"), *ROOT.glob("tests/**/*.yaml")]
    if "hardening" not in p.parts
)


@pytest.fixture(params=["C", "python"])
def yaml_loader(request, monkeypatch):
    """Run a test with libyaml's loader and with the pure-Python fallback."""
    if request.param == "C":
        if not hasattr(yaml, "CSafeLoader"):
            pytest.skip("PyYAML built without libyaml")
        monkeypatch.setattr(yamlfile, "YamlLoader", yaml.CSafeLoader)
    else:
        monkeypatch.setattr(yamlfile, "YamlLoader", yaml.SafeLoader)
    return yamlfile.YamlLoader


def test_each_file_is_parsed_once(monkeypatch, yaml_loader):
    made = []

    class Counting(yaml_loader):
        def __init__(self, stream):
            made.append(stream)
            super().__init__(stream)

    def twice(*args, **kwargs):
        raise AssertionError("a second parse of the same text")

    monkeypatch.setattr(yamlfile, "YamlLoader", Counting)
    monkeypatch.setattr(yaml, "safe_load", twice)
    monkeypatch.setattr(yaml, "compose", twice)
    a = cm.load_assumptions()
    from costmodel.inputs.resources import default_assumptions_dir

    files = sorted(default_assumptions_dir().glob("*.yaml"))
    assert len(files) >= 11
    assert len(made) == len(cm.assumption_files(a)) == len(files)


@pytest.mark.parametrize("path", ALL_YAML, ids=lambda p: str(p.relative_to(ROOT)))
def test_one_parse_gives_what_safe_load_gives(path, yaml_loader):
    text = path.read_text(encoding="utf-8")
    try:
        want = yaml.safe_load(text)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):
            yamlfile.parse_yaml(text)
        return
    node, data = yamlfile.parse_yaml(text)
    assert data == want
    if want is not None:
        assert node.start_mark.line >= 0


def test_lines_are_the_same_with_either_loader(tmp_path, yaml_loader):
    over = write(tmp_path, "o.yaml", "# comment\n\noperations:\n  utilization: 1.7\n")
    with pytest.raises(cm.AssumptionError, match=rf"{over}:4: operations.utilization = 1.7"):
        cm.load_assumptions(HAND, over)
    bad = write(tmp_path, "b.yaml", "power:\n  price_per_kwh: 0.65\n   escalation: [0.02\n")
    with pytest.raises(cm.AssumptionError, match=rf"{bad}:3: malformed YAML"):
        cm.load_assumptions(bad)
    evil = write(tmp_path, "e.yaml", "name: !!python/object/apply:os.system ['echo hacked']\n")
    with pytest.raises(cm.AssumptionError, match="malformed YAML"):
        cm.load_assumptions(HAND, evil)
    assert loader.parse_override("x=0.5") == ("x", 0.5)


def test_an_alias_is_a_copy_an_override_of_one_leaves_the_other(tmp_path):
    # the default's hundreds and thousands designs share one fabric by a YAML anchor
    # and alias (&ndr / <<: *ndr): overriding one design's switch price must not move
    # the other's
    base = cm.load_assumptions()
    a = cm.load_assumptions(overrides={"designs.thousands.network.design.switch_price": 1})
    assert a.tiers["thousands"].network.design.switch_price.value == 1
    hundreds = a.tiers["hundreds"].network.design.switch_price.value
    assert hundreds == base.tiers["hundreds"].network.design.switch_price.value != 1
    assert a.designs["hundreds"].network.design.switch_price.value == hundreds
    s, s0 = cm.build(a).summary(), cm.build(base).summary()
    assert s.loc["hundreds", "capex_network"] == s0.loc["hundreds", "capex_network"]
    assert s.loc["thousands", "capex_network"] < s0.loc["thousands", "capex_network"]

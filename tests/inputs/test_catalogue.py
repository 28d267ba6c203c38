"""The server catalogue (assumptions/default/10-servers.yaml): every number with its
unit and source, and second-hand parts priced as such."""

from __future__ import annotations

import yaml

import costmodel as cm
from costmodel.inputs.resources import default_assumptions_dir
from tests.inputs.test_scenarios import bare_numbers

CATALOGUE = default_assumptions_dir() / "10-servers.yaml"
A = cm.load_assumptions()


def test_every_number_of_the_catalogue_has_a_unit_and_a_source():
    raw = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    assert list(bare_numbers(raw)) == []


def test_second_hand_servers_cost_less_than_a_new_h200():
    new = A.servers["h200"].price
    legacy = {k: s for k, s in A.servers.items() if "legacy" in s.label.lower()}
    assert {"h800", "h100"} <= set(legacy)
    for sku, s in legacy.items():
        # a buyer takes the new, licensed H200 (same Hopper compute, 141 GB) otherwise
        assert s.price.value < new.value, sku
        assert s.price.high < new.value, sku
    # the H800's NVLink is cut (400 vs 900 GB/s): not dearer than a used H100
    assert A.servers["h800"].price.value <= A.servers["h100"].price.value


def test_the_domestic_910c_is_a_910b_pair():
    b, c = A.servers["ascend910b"], A.servers["ascend910c"]
    assert c.gpu_memory_gb.value == 2 * b.gpu_memory_gb.value  # 2 x 64 GB
    assert (
        c.cloud_on_demand_per_gpu_hour.value < A.servers["h200"].cloud_on_demand_per_gpu_hour.value
    )

"""``docs/assumptions.md`` is generated from the bundled files and kept current (issue 14, item 6)."""

from __future__ import annotations

import yaml

from costmodel.inputs import docs
from costmodel.inputs.resources import default_assumptions_dir
from tests.paths import ROOT

DOC = ROOT / "docs" / "assumptions.md"


def test_committed_assumptions_doc_is_current():
    current = DOC.read_text(encoding="utf-8")
    assert docs.BEGIN in current and docs.END in current
    fresh = docs.splice(current, docs.render_table())
    assert fresh == current, f"docs/assumptions.md is stale: run `{docs.COMMAND}` and commit it"


def test_every_numeric_leaf_of_the_default_has_a_row():
    table = docs.render_table()
    for file in sorted(default_assumptions_dir().glob("*.yaml")):
        assert f"### `{file.name}`" in table
        for row in docs.numeric_leaves(yaml.safe_load(file.read_text(encoding="utf-8"))):
            assert f"| {row['path']} | " in table
    # the cloud prices the hand-written page once left out
    assert "| servers.h200.cloud_on_demand_per_gpu_hour | " in table


def test_splice_keeps_the_prose_and_replaces_only_the_table():
    doc = f"head\n{docs.BEGIN}\nold\n{docs.END}\ntail\n"
    assert docs.splice(doc, "new\n") == f"head\n{docs.BEGIN}\nnew\n{docs.END}\ntail\n"
    assert docs.splice("head\n", "t\n") == f"head\n\n{docs.BEGIN}\nt\n{docs.END}\n"


def test_check_mode_reports_a_stale_file(tmp_path, capsys):
    stale = tmp_path / "assumptions.md"
    stale.write_text(f"prose\n{docs.BEGIN}\nold\n{docs.END}\n", encoding="utf-8")
    assert docs.main([str(stale), "--check"]) == 1
    assert docs.COMMAND in capsys.readouterr().err
    assert docs.main([str(stale)]) == 0
    assert docs.main([str(stale), "--check"]) == 0
    assert stale.read_text(encoding="utf-8").startswith("prose\n")

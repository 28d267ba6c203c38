"""What a person meets at the command line besides tables: clear errors (exit 2,
a key phrase, nothing written), ``--version``, completion, the word ``default``,
removing a tier in an overlay, strict JSON, and the API's one rule (a model or
its assumptions alike)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from importlib.metadata import version

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import costmodel as cm
from costmodel.cli import get_app
from costmodel.core.nearest import closest, edit_distance
from costmodel.inputs.resources import default_assumptions_dir
from costmodel.report.format import plain
from tests.paths import ROOT

app = get_app()
runner = CliRunner()
SCENARIOS = ROOT / "assumptions" / "scenarios"


def fails(args: list[str], phrase: str) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    assert phrase in res.stderr, res.stderr
    assert res.stdout == ""
    return res.stderr


def snapshot(folder) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ----------------------------------------------------------------------------- errors


def test_init_into_existing_folder_needs_force(tmp_path):
    target = tmp_path / "mine"
    assert runner.invoke(app, ["init", str(target)]).exit_code == 0
    (target / "00-model.yaml").write_text("edited: true\n")
    before = snapshot(target)
    fails(["init", str(target)], "already exists")
    err = fails(["init", str(target)], "--force")
    assert "invalid assumptions" not in err
    assert snapshot(target) == before  # nothing written
    assert runner.invoke(app, ["init", str(target), "--force"]).exit_code == 0
    assert (target / "00-model.yaml").read_bytes() != b"edited: true\n"


def test_init_into_a_file(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    fails(["init", str(f)], "is a file")
    assert f.read_text() == "x"


def test_output_path_that_is_a_file(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    err = fails(["build", "-o", str(f), "-n", "0"], "is a file")
    assert "FileExistsError" not in err and "Errno" not in err
    assert snapshot(tmp_path) == {str(f): b"x"}
    fails(["schema", "-o", str(tmp_path)], "is a directory")
    assert snapshot(tmp_path) == {str(f): b"x"}


def test_set_on_a_mapping_names_its_keys():
    err = fails(["summary", "--set", "power.pue=0.9"], "power.pue is a mapping of air, cold_plate")
    assert "--set power.pue.air=0.9" in err


@pytest.mark.parametrize(
    ("override", "guess"),
    [
        ("power.prce_per_kwh=0.5", "price_per_kwh"),
        ("tiers.tens.gpu=8", "gpus"),
        ("finance.discount_rat=0.1", "discount_rate"),
    ],  # fmt: skip
)
def test_unknown_key_did_you_mean(override, guess):
    fails(["summary", "--set", override], f"did you mean {guess!r}?")


def test_unknown_key_in_a_file_did_you_mean(tmp_path):
    f = tmp_path / "typo.yaml"
    f.write_text("power:\n  escalaton: 0.03\n")
    err = fails(["summary", "default", str(f)], "did you mean 'escalation'?")
    assert "typo.yaml" in err


def test_edit_distance_and_closest():
    assert edit_distance("kitten", "sitting") == 3
    assert closest("gpu", ["gpus", "server", "label"]) == "gpus"
    assert closest("zzzzzz", ["gpus", "server"]) is None


def test_overlay_alone_says_put_a_base_first():
    colo = str(SCENARIOS / "greenfield.yaml")
    err = fails(["summary", colo], "put a base first, e.g. `costmodel summary default")
    assert err.count("required but missing") == 0
    with pytest.raises(cm.AssumptionError, match="put a base first"):
        cm.load_assumptions(colo)


# ----------------------------------------------------------------------------- default


def test_default_word_equals_the_bundled_path():
    colo = SCENARIOS / "greenfield.yaml"
    by_word = cm.load_assumptions("default", colo)
    by_path = cm.load_assumptions(default_assumptions_dir(), colo)
    assert cm.fingerprint(by_word) == cm.fingerprint(by_path)
    assert cm.fingerprint(cm.load_assumptions("default")) == cm.fingerprint(cm.load_assumptions())
    one = runner.invoke(app, ["summary", "default", str(colo), "-f", "json"])
    two = runner.invoke(app, ["summary", str(default_assumptions_dir()), str(colo), "-f", "json"])
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_overlay_removes_a_tier(tmp_path):
    f = tmp_path / "no-tens.yaml"
    f.write_text("tiers:\n  tens: null\n")
    a = cm.load_assumptions("default", f)
    assert list(a.tiers) == ["hundreds", "thousands"]
    data = json.loads(runner.invoke(app, ["summary", "default", str(f), "-f", "json"]).stdout)
    assert list(data) == ["hundreds", "thousands"]


# ----------------------------------------------------------------------------- version, completion, progress


def test_version_is_the_package_metadata():
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0
    assert res.stdout.strip() == f"costmodel {version('costmodel')}"


def test_completion_options():
    res = runner.invoke(app, ["--help"])
    assert "--install-completion" in res.stdout and "--show-completion" in res.stdout
    # the shell named explicitly (typer's switch for it): otherwise typer guesses the
    # shell from the parent process, which fails where pytest is not run from a shell
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run(
        [sys.executable, "-m", "costmodel", "--show-completion", "bash"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert shown.returncode == 0 and "complete -o default -F" in shown.stdout
    assert "costmodel" in shown.stdout


def test_no_progress_when_not_a_terminal():
    res = runner.invoke(app, ["montecarlo", "-n", "300"])
    assert res.exit_code == 0 and res.stderr == ""
    res = runner.invoke(app, ["montecarlo", "-n", "300", "--quiet"])
    assert res.exit_code == 0 and res.stderr == ""


# ----------------------------------------------------------------------------- JSON


def strict(text: str):
    def refuse(name: str):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "args",
    [
        ["summary"],
        ["recommend"],
        ["build-vs-rent"],
        ["montecarlo", "-n", "300"],
        ["sensitivity"],
        ["compare", "-s", f"colo={SCENARIOS / 'greenfield.yaml'}"],
    ],  # fmt: skip
)
def test_json_is_strict_and_rounded(args):
    res = runner.invoke(app, [*args, "-f", "json"])
    assert res.exit_code == 0, res.stderr
    strict(res.stdout)
    for number in __import__("re").findall(r"-?\d+\.\d+(?:e-?\d+)?", res.stdout):
        digits = number.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
        assert len(digits) <= 12, number


def test_machine_numbers():
    assert plain(0.1 + 0.05) == 0.15
    assert plain(1177343.9999999998) == 1177344.0
    assert plain(float("nan")) is None and plain(float("inf")) is None
    assert plain(np.float64(-0.0)) == 0.0 and math.copysign(1, plain(-1e-300 * 0)) == 1


def test_break_even_residue_is_zero_in_json():
    res = runner.invoke(app, ["sensitivity", "-f", "json"])
    be = strict(res.stdout)["break_even"]
    assert all(row["npv_at_price_per_gpu_hour"] == 0 for row in be.values())


# ----------------------------------------------------------------------------- API


def test_analysis_functions_take_a_model_or_its_assumptions():
    a = cm.load_assumptions()
    m = cm.build(a)
    pairs = [
        (cm.tornado(a), cm.tornado(m)),
        (cm.break_even(a), cm.break_even(m)),
        (cm.monte_carlo(a, n=200).summary, cm.monte_carlo(m, n=200).summary),
        (cm.build_vs_rent(a), cm.build_vs_rent(m)),
        (cm.recommend(a), cm.recommend(m)),
        (cm.compare(a, {"x": {}}).wide, cm.compare(m, {"x": {}}).wide),
    ]
    for x, y in pairs:
        pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("overlay", [None, "staged-growth.yaml"])
def test_annual_sums_equal_cash_flow_sums(overlay):
    paths = ["default"] + ([SCENARIOS / overlay] if overlay else [])
    m = cm.build(cm.load_assumptions(*paths))
    for t in m.tiers:
        an, cf = m.annual(t), m.cash_flow(t)
        assert an.index[0] == 0
        for line in ("revenue", "opex", "capex", "depreciation", "ebit", "tax", "fcf"):
            assert an[line].sum() == pytest.approx(cf[line].sum(), rel=1e-12, abs=1e-6), line
        assert an.loc[0, "capex"] == pytest.approx(cf["capex"].iloc[0])


def test_compare_result_html():
    result = cm.compare(cm.load_assumptions(), {"colo": {"paths": [SCENARIOS / "greenfield.yaml"]}})
    html = result._repr_html_()
    assert "<table" in html and "colo" in html and "greenfield.yaml" in html and "%" in html


def test_dot_slash_default_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["init", "default"]).exit_code == 0
    tiers = tmp_path / "default" / "80-tiers.yaml"
    text = tiers.read_text()
    assert "gpus:\n      value: 32\n" in text  # the tens tier's GPUs, with their source
    tiers.write_text(text.replace("gpus:\n      value: 32\n", "gpus:\n      value: 16\n", 1))
    local = json.loads(runner.invoke(app, ["summary", "./default", "-f", "json"]).stdout)
    bundled = json.loads(runner.invoke(app, ["summary", "default", "-f", "json"]).stdout)
    assert (local["tens"]["gpus"], bundled["tens"]["gpus"]) == (16, 32)


def test_a_full_disk_names_the_folder_and_keeps_its_files(tmp_path, monkeypatch):
    """A write that fails (here: the memo, after the workbook was written into the
    staging folder) ends with exit 1 and one line naming the folder and the
    system's reason; the folder keeps its previous files and nothing else."""
    import errno

    from costmodel.report.memo import render

    out = tmp_path / "out"
    out.mkdir()
    (out / "memo.html").write_text("previous memo")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "memo.html")

    monkeypatch.setattr(render, "write_memos", full)
    res = runner.invoke(app, ["build", "-o", str(out), "--draws", "0", "--quiet"])
    assert res.exit_code == 1, res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert f"cannot write {out}: No space left on device (memo.html)" in res.stderr
    assert "keeps the files it had" in res.stderr
    assert snapshot(out) == {str(out / "memo.html"): b"previous memo"}
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no staging folder left


def test_os_error_of_finds_the_error_xlsxwriter_wraps():
    import errno

    from xlsxwriter.exceptions import FileCreateError

    from costmodel.cli.app import os_error_of

    inner = OSError(errno.ENOSPC, "No space left on device")
    assert os_error_of(FileCreateError(inner)) is inner
    assert os_error_of(ValueError("not a file system error")) is None


def test_the_zip_cleanup_filter_is_installed_once_and_drops_only_that_report(monkeypatch):
    """After failed writes, one filter drops the half-written zip file's second
    failure report; other unraisable reports still reach the previous hook."""
    from types import SimpleNamespace

    from costmodel.cli.app import _quiet_zip_cleanup

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    _quiet_zip_cleanup()
    first = sys.unraisablehook
    _quiet_zip_cleanup()
    assert sys.unraisablehook is first
    zip_report = SimpleNamespace(exc_value=OSError("disk full"), object="<ZipFile.__del__>")
    other = SimpleNamespace(exc_value=ValueError("x"), object="<something>")
    sys.unraisablehook(zip_report)
    sys.unraisablehook(other)
    assert seen == [other]


def test_output_path_that_names_a_file(tmp_path):
    """`build -o out/x.xlsx` is refused (exit 2) instead of making a folder x.xlsx."""
    target = tmp_path / "out" / "x.xlsx"
    fails(["build", "-o", str(target), "-n", "0"], "names a file")
    assert not target.exists() and not target.parent.exists()


def test_validate_without_a_path_validates_the_default():
    r = runner.invoke(app, ["validate"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("ok: ") and "3 tiers" in r.output


def test_progress_shows_share_done_and_time_left():
    """10 s for the first 250 of 1,000 draws: 25%, 750 more at that rate take 30 s."""
    from costmodel.cli.app import progress_text

    assert progress_text("draws", 250, 1000, 10.0, 250) == (
        "draws: 250 of 1,000 (25%, about 30 s left)"
    )
    assert progress_text("draws", 100, 1000, 20.0, 100) == (
        "draws: 100 of 1,000 (10%, about 3 min 00 s left)"
    )
    assert progress_text("draws", 0, 1000, 0.0, 0) == "draws: 0 of 1,000 (0%)"
    assert progress_text("draws", 1000, 1000, 5.0, 1000) == "draws: 1,000 of 1,000 (100%)"
    assert progress_text("model", 3, None, 1.0, 3) == "model: 3"

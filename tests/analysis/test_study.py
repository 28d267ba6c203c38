"""The study (methodology §34): cells equal separate Monte Carlo runs of the rebuilt
tier, common random numbers, the best cells, limits, and the same numbers on one
process, a process pool and a Dask cluster."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import costmodel as cm
from costmodel.analysis import study as st
from costmodel.inputs.params import resolve_tier
from tests.support.v3 import v3_default, v3_paths

#: the default's tiers sized in the tier (no design by scale class): storage in
#: proportion to the GPUs, the sweep's v3 rule the hand rebuild below writes out
DEFAULT = v3_default()
TIER = "hundreds"
COUNTS = [64, 256, 1024]


def _rebuilt_by_hand(a, tier: str, gpus: int):
    """The tier at ``gpus`` as a file would say it: no stages, the GPU count, and
    the storage in proportion to GPUs (the sweep's rule, methodology §27: its
    value and its range, so its draws scale with it), validated as any
    assumptions are."""
    values = resolve_tier(a, tier).values()
    share = gpus / values["gpus"]
    storage = a.tiers[tier].storage.capacity_tb
    scaled = {"value": storage.value * share}
    if storage.low is not None:
        scaled.update(low=storage.low * share, high=storage.high * share)
    return cm.with_overrides(
        a,
        {
            f"tiers.{tier}.stages": [],
            f"tiers.{tier}.gpus": gpus,
            f"tiers.{tier}.storage.capacity_tb": scaled,
        },
    )


def _percentiles(v: np.ndarray) -> list[float]:
    return [float(p) for p in np.percentile(v, [10, 50, 90])]


@pytest.fixture(scope="module")
def result():
    return st.study(DEFAULT, TIER, gpus=COUNTS, n=600, seed=7, workers=1, keep_draws=True)


def test_each_cell_is_the_monte_carlo_of_the_rebuilt_tier_on_the_same_draws(result):
    """Cell by cell, the study's figures are those of a separate Monte Carlo of the
    tier rebuilt by hand at that size (the same seed: the same draws of every
    ranged input), to the rounding of the engine's evaluation paths."""
    assert result.cells[["site", "gpus"]].values.tolist() == [[st.OWN_SITE, g] for g in COUNTS]
    for g in COUNTS:
        mc = cm.monte_carlo(_rebuilt_by_hand(DEFAULT, TIER, g), n=600, seed=7, tiers=[TIER])
        npv = mc.draws[TIER]["npv"].to_numpy()
        row = result.cells.set_index("gpus").loc[g]
        np.testing.assert_allclose(result.draws[(st.OWN_SITE, g)], npv, rtol=1e-11, atol=1e-2)
        got = [row["npv_p10"], row["npv_p50"], row["npv_p90"]]
        np.testing.assert_allclose(got, _percentiles(npv), rtol=1e-11)
        assert row["p_npv_positive"] == np.mean(npv > 0)
        cost = mc.draws[TIER]["cost_per_gpu_hour"].mean()
        assert row["cost_per_gpu_hour_mean"] == pytest.approx(cost, rel=1e-11)
        base = cm.build(_rebuilt_by_hand(DEFAULT, TIER, g)).summary().loc[TIER, "npv"]
        assert row["npv_base"] == pytest.approx(base, rel=1e-9)


def test_common_random_numbers_cells_that_differ_in_size_move_together(result):
    """Two cells that differ only in GPU count see the same draws: their NPV draws'
    rank correlation (Spearman, written out) exceeds 0.9."""

    def ranks(v: np.ndarray) -> np.ndarray:
        out = np.empty(len(v))
        out[np.argsort(v, kind="stable")] = np.arange(len(v))
        return out

    a, b = (result.draws[(st.OWN_SITE, g)] for g in (256, 1024))
    rho = np.corrcoef(ranks(a), ranks(b))[0, 1]
    assert rho > 0.9
    # and a different seed breaks the link: draws of independent runs
    other = st.study(DEFAULT, TIER, gpus=[1024], n=600, seed=8, workers=1, keep_draws=True)
    rho_other = np.corrcoef(ranks(a), ranks(other.draws[(st.OWN_SITE, 1024)]))[0, 1]
    assert abs(rho_other) < 0.2


def test_the_best_cells_are_marked(result):
    """The best cell by P(NPV > 0) (ties: the larger median) and by median NPV,
    read from the cells' own figures."""
    df = result.cells
    top_p = max(range(len(df)), key=lambda i: (df.at[i, "p_npv_positive"], df.at[i, "npv_p50"]))
    top_m = int(np.argmax(df["npv_p50"].to_numpy()))
    assert result.best_probability == (st.OWN_SITE, int(df.at[top_p, "gpus"]))
    assert result.best_median == (st.OWN_SITE, int(df.at[top_m, "gpus"]))
    assert "p_npv_positive" in df.at[top_p, "best"] and "npv_p50" in df.at[top_m, "best"]
    assert sum(bool(b) for b in df["best"]) <= 2
    assert result.grid().shape == (1, len(COUNTS))


def test_limits_are_named():
    with pytest.raises(ValueError, match="at most 1,000,000"):
        st.check_limits(1, st.MAX_DRAWS + 1)
    with pytest.raises(ValueError, match="cells .*at most 4,096"):
        st.check_limits(st.MAX_CELLS + 1, 10)
    with pytest.raises(ValueError, match="tier-evaluations: at most"):
        st.check_limits(4_000, 1_000_000)
    with pytest.raises(ValueError, match="unknown site 'nowhere'"):
        st.study(DEFAULT, TIER, sites=["nowhere"], gpus=[64], n=10)
    with pytest.raises(ValueError, match="unknown tier"):
        st.study(DEFAULT, "nope", gpus=[64], n=10)


def test_a_process_pool_gives_the_numbers_of_one_process(monkeypatch):
    """The blocks of every cell on two worker processes: the same numbers, bit for
    bit (blocks of 250 draws here, so each cell has three)."""
    from costmodel.analysis import blocks, draws

    if blocks.pool_context() is None:
        pytest.skip("worker processes are used on Linux only")
    monkeypatch.setattr(draws, "BLOCK_SIZE", 250)
    monkeypatch.setattr(st, "PROCESS_MIN_TIER_DRAWS", 0)
    seen: list[int] = []
    one = st.study(DEFAULT, TIER, gpus=[64, 512], n=600, seed=3, workers=1)
    two = st.study(
        DEFAULT,
        TIER,
        gpus=[64, 512],
        n=600,
        seed=3,
        workers=2,
        progress=lambda d, t: seen.append(d),
    )
    assert two.cells.equals(one.cells)
    assert seen == sorted(seen) and seen[-1] == 1200 and len(seen) == 6


@pytest.mark.slow
def test_a_dask_local_cluster_gives_the_numbers_of_one_process(monkeypatch):
    """Two Dask worker processes (``distributed.LocalCluster``) evaluate the blocks:
    the numbers of one process, bit for bit, for the study and the Monte Carlo."""
    distributed = pytest.importorskip("distributed")
    one = st.study(DEFAULT, TIER, gpus=[64, 512], n=300, seed=3, workers=1)
    mc_one = cm.monte_carlo(DEFAULT, n=300, seed=3, workers=1)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        dask = st.study(DEFAULT, TIER, gpus=[64, 512], n=300, seed=3, client=client)
        mc_dask = cm.monte_carlo(DEFAULT, n=300, seed=3, client=client)
    assert dask.cells.equals(one.cells)
    for tier in DEFAULT.tiers:
        assert mc_dask.draws[tier].equals(mc_one.draws[tier])


def test_the_command_prints_the_cells_as_json_csv_and_a_table():
    import json

    from typer.testing import CliRunner

    from costmodel.cli import get_app

    run = CliRunner().invoke
    args = ["study", "--tier", TIER, "--gpus", "64,256", "-n", "200", "--seed", "5"]
    res = run(get_app(), [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    # the command studies the bundled default (its tiers by design), not the v3 form
    want = st.study(cm.load_assumptions(), TIER, gpus=[64, 256], n=200, seed=5)
    assert [c["p_npv_positive"] for c in doc["cells"]] == list(want.cells["p_npv_positive"])
    assert doc["best_probability"] == {
        "site": want.best_probability[0],
        "gpus": want.best_probability[1],
    }
    csv = run(get_app(), [*args, "--format", "csv"]).stdout.splitlines()
    assert csv[0].startswith("site,gpus,") and len(csv) == 3
    table = run(get_app(), args)
    assert table.exit_code == 0 and "P(NPV > 0)" in table.stdout
    bad = run(get_app(), [*args, "--sites", "nowhere"])
    assert bad.exit_code == 2 and "unknown site 'nowhere'" in bad.output
    big = run(get_app(), ["study", "--tier", TIER, "--gpus", "64", "-n", "2000000"])
    assert big.exit_code == 2 and "at most 1,000,000" in big.output


TWO_SITES = Path(__file__).resolve().parents[1] / "data" / "two-sites.yaml"


def test_two_sites_by_three_sizes_equal_separate_runs_on_common_random_numbers():
    """The study of 2 sites x 3 sizes equals, cell by cell, a separate Monte Carlo of
    the tier moved to the site (its ``site`` key) and rebuilt by hand at the size;
    the same size at the two sites sees the same draws (a site's own ranged price
    is drawn from the stream of its role), so their NPV draws move together."""
    a = cm.load_assumptions(*v3_paths(), TWO_SITES)  # storage by the hand rule above
    res = st.study(
        a,
        TIER,
        sites=["east", "west"],
        gpus=[64, 256, 1024],
        n=500,
        seed=4,
        workers=1,
        keep_draws=True,
    )
    assert res.cells[["site", "gpus"]].values.tolist() == [
        [s, g] for s in ("east", "west") for g in (64, 256, 1024)
    ]
    for site in ("east", "west"):
        here = cm.with_overrides(a, {f"tiers.{TIER}.site": site})
        for g in (64, 256, 1024):
            mc = cm.monte_carlo(_rebuilt_by_hand(here, TIER, g), n=500, seed=4, tiers=[TIER])
            npv = mc.draws[TIER]["npv"].to_numpy()
            np.testing.assert_allclose(res.draws[(site, g)], npv, rtol=1e-11, atol=1e-2)
            row = res.cells[(res.cells["site"] == site) & (res.cells["gpus"] == g)].iloc[0]
            assert row["p_npv_positive"] == np.mean(npv > 0)
    east, west = res.draws[("east", 256)], res.draws[("west", 256)]
    ranks = [np.argsort(np.argsort(v)) for v in (east, west)]
    assert np.corrcoef(*ranks)[0, 1] > 0.9
    assert not np.array_equal(east, west)


def test_a_tier_with_design_auto_is_built_in_each_cell_with_the_design_of_its_size():
    """Methodology §28.5 and §34: the bundled default's tiers take the design of their
    scale class (``design: auto``), so the hundreds tier studied at 512 GPUs is built
    with the thousands design, as the sweep builds it. The cell equals a separate
    Monte Carlo of the tier written by hand at 512 GPUs with ``design: thousands``
    (storage in nodes follows the GPUs by itself), and its NPV as assumed is that
    file's build."""
    a = cm.load_assumptions()
    res = st.study(a, TIER, gpus=[512], n=300, seed=5, workers=1, keep_draws=True)
    by_hand = cm.with_overrides(
        a,
        {
            f"tiers.{TIER}.design": "thousands",
            f"tiers.{TIER}.gpus": 512,
            f"tiers.{TIER}.stages": [],
        },
    )
    npv = cm.monte_carlo(by_hand, n=300, seed=5, tiers=[TIER]).draws[TIER]["npv"].to_numpy()
    np.testing.assert_allclose(res.draws[(st.OWN_SITE, 512)], npv, rtol=1e-11, atol=1e-2)
    base = cm.build(by_hand).summary().loc[TIER, "npv"]
    assert res.cells["npv_base"].iloc[0] == pytest.approx(base, rel=1e-9)
    assert by_hand.tiers[TIER].design == "thousands"
    assert cm.build(a).summary().loc[TIER, "npv"] != pytest.approx(base, rel=1e-3)

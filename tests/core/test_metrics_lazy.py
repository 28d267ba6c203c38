"""Summary columns computed when read may read each other: without borrowing the
equity IRR is the IRR, read through the same mapping. Reading it first must not
wait on the mapping's own lock (it did: a plain Lock held while computing the
equity IRR was asked for again to compute the IRR)."""

from __future__ import annotations

import threading

import numpy as np

import costmodel as cm
from costmodel.core.result import Metrics
from costmodel.inputs.runs import run_variants


def _read_in_thread(read, seconds: float = 60.0):
    out: list = []
    t = threading.Thread(target=lambda: out.append(read()), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "reading the metric did not return (a lock waited on itself)"
    return out[0]


def test_a_metric_that_reads_another_can_be_read_first():
    calls = []
    metrics: Metrics

    def irr():
        calls.append("irr")
        return np.array([0.25])

    metrics = Metrics({"irr": irr, "equity_irr": lambda: metrics["irr"]})
    assert _read_in_thread(lambda: metrics["equity_irr"])[0] == 0.25
    assert metrics["irr"][0] == 0.25 and calls == ["irr"]  # computed once


def test_equity_irr_read_first_equals_the_irr_without_debt():
    a = cm.load_assumptions()
    tier = next(iter(a.tiers))
    variants = {"financing.debt_share": [0.0, 0.0], "revenue.price_per_gpu_hour": [10.0, 12.0]}
    r = run_variants(a, variants, [tier])[tier]
    equity_irr = _read_in_thread(lambda: np.asarray(r.metrics["equity_irr"]))
    np.testing.assert_array_equal(equity_irr, r.metrics["irr"])
    assert np.all(np.isfinite(equity_irr))


def test_a_result_is_freed_without_the_garbage_collector():
    """A tier's result holds no reference cycle: when its last reference goes, its
    arrays go with it (a Monte Carlo's chunks do not pile up until a collection),
    also after the IRRs and the equity IRR (read through the IRR) are computed."""
    import gc

    import numpy as np

    import costmodel as cm
    from costmodel.inputs.runs import run_variants

    a = cm.load_assumptions()
    variants = {
        "operations.utilization": np.linspace(0.3, 0.9, 6),
        "timeline.ramp_months": np.repeat([3.0, 6.0], 3),
        "financing.debt_share": np.linspace(0.0, 0.6, 6),
    }
    # with the collector off, every object made since the first collection stays in
    # the youngest generation: collecting it alone finds any cycle among them (a
    # full collection would walk the whole heap of the test process, seconds)
    gc.collect(0)
    gc.disable()
    try:
        for tier in a.tiers:
            result = run_variants(a, variants, [tier])[tier]
            for m in ("npv", "irr", "equity_irr", "equity_npv", "cost_per_gpu_hour"):
                np.asarray(result.metrics[m])
            del result
            assert gc.collect(0) == 0, tier
    finally:
        gc.enable()

"""The what-if page's slider of a tier's GPU count moves by whole servers of the
tier's server (methodology §16: GPUs a multiple of the server's), so every position
is a count the model accepts; other sliders keep their step."""

from __future__ import annotations

import costmodel as cm
from costmodel.report.web.session import Session
from costmodel.report.web.view import groups
from tests.paths import DATA

RANGED = "tiers:\n  hundreds:\n    gpus: {value: 128, low: 64, high: 448}\n"


def test_the_gpu_slider_steps_by_one_server(tmp_path):
    overlay = tmp_path / "gpus-range.yaml"
    overlay.write_text(RANGED, encoding="utf-8")
    files = [str(DATA / "designs.yaml"), str(overlay)]
    session = Session.load(files)
    model = cm.build(session.base)
    shown = groups(session, model, "en")
    controls = {row["c"].path: row["c"] for g in shown for row in g["controls"]}
    gpus = controls["tiers.hundreds.gpus"]
    # designs.yaml's h800 holds 8 GPUs: 64, 72, .. 448 are the slider's positions
    assert (gpus.step, gpus.decimals, gpus.low, gpus.high) == (8, 0, 64, 448)

"""Names the reader sees, in English and Chinese: tiers, GPUs, inputs.

- :func:`tier_label`: the tier's own label in English (``tiers.<t>.label``, its
  "(N x GPU)" restated from the numbers); in
  Chinese its ``label_zh`` when the assumptions carry one, else a label derived
  from the numbers: scale class, GPU count and GPU name (``数十卡方案（32 张 A800）``).
- :func:`chart_label`: the short name of a tier on a chart axis: ``32× A800`` /
  ``32 张 A800`` (the tier key when two tiers would share it).
- :func:`gpu_name`: the accelerator's model name taken from the server label
  (``H800``, ``RTX 4090``, ``Ascend 910B``), else the server key in capitals.
- :func:`input_label`: the name and kind of an input, by the engine's input name
  (:meth:`costmodel.inputs.params.TierInputs.values`) or a dotted path, from the
  one registry :mod:`costmodel.inputs.vocabulary`.

Tier labels and task names come from the assumption files: they are
:class:`UserText`, which the memo's HTML isolates in ``<bdi>`` so that right-to-left
text in a name cannot reorder the figures after it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from costmodel.inputs.vocabulary import INPUTS
from costmodel.inputs.vocabulary import input_key as vocabulary_key

if TYPE_CHECKING:
    from costmodel.inputs.model import Model


class UserText(str):
    """Text from the assumption files. In HTML (Jinja, ``Markup.format``) it is
    escaped and isolated, ``<bdi>text</bdi>``, so that its direction cannot carry
    over to the text around it; anywhere else (SVG, plain text) it is the text."""

    __slots__ = ()

    def __html__(self) -> Markup:
        return Markup("<bdi>{}</bdi>").format(escape(str.__str__(self)))


CLASS_ZH = {"tens": "数十卡", "hundreds": "数百卡", "thousands": "数千卡"}
_GPU = re.compile(r"RTX \d{4}|Ascend \d{3}[A-Z]?|\b[A-Z]\d{2,3}[A-Z]?\b")


def gpu_name(model: Model, tier: str) -> str:
    key = model.assumptions.tiers[tier].server
    label = model.assumptions.servers[key].label or ""
    m = _GPU.search(label)
    return m.group(0) if m else key.upper()


def _zh_label(model: Model, tier: str) -> str:
    t = model.assumptions.tiers[tier]
    own = getattr(t, "label_zh", None)
    if own:
        return str(own)
    s = model.summary_rows()[tier]
    cls = CLASS_ZH.get(str(s["scale_class"]), "")
    return f"{cls}方案（{int(s['gpus']):,} 张 {gpu_name(model, tier)}）"


#: "(1024x H200)" in an English tier label: the GPU count and name it states
_COUNT = re.compile(r"\((\d[\d,]*)\s*[x×]\s*([^()]+)\)")
#: a label that states its size first, "N-GPU … (GPU)" (the bundled default's)
_SIZE = re.compile(r"\b(\d[\d,]*)-GPU\b([^()]*)\(([^()]+)\)")


def _en_label(model: Model, tier: str) -> str:
    """The tier's label; a "(N x GPU)" in it is rewritten from the numbers (the GPU
    count and model of the tier as built), so that an override of ``gpus`` or
    ``server`` cannot leave the label stating the file's count."""
    own = model.assumptions.tiers[tier].label or tier
    gpus = int(model.summary_rows()[tier]["gpus"])
    gpu = gpu_name(model, tier)

    def restate(m: re.Match[str]) -> str:
        stated, name = m.group(1), m.group(2).strip()
        if int(stated.replace(",", "")) == gpus and name == gpu:
            return m.group(0)  # right as written
        return f"({gpus:,}x {gpu})" if "," in stated else f"({gpus}x {gpu})"

    def restate_size(m: re.Match[str]) -> str:
        stated, middle, name = m.group(1), m.group(2), m.group(3).strip()
        if int(stated.replace(",", "")) == gpus and name == gpu:
            return m.group(0)
        return f"{gpus:,}-GPU{middle}({gpu})"

    if _SIZE.search(own):  # "1,024-GPU cluster (H200)"
        return _SIZE.sub(restate_size, own, count=1)
    return _COUNT.sub(restate, own, count=1)


def tier_label(model: Model, tier: str, lang: str = "en") -> str:
    """The tier's label (see the module docstring), as :class:`UserText`."""
    if lang == "zh":
        return UserText(_zh_label(model, tier))
    return UserText(_en_label(model, tier))


def chart_label(model: Model, tier: str, lang: str = "en") -> str:
    """Short, derived from numbers (the GPUs of every deployment, as the summary
    counts them); the tier key where two tiers would collide."""

    def short(t: str) -> str:
        n = int(model.summary_rows()[t]["gpus"])
        return f"{n:,} 张 {gpu_name(model, t)}" if lang == "zh" else f"{n:,}× {gpu_name(model, t)}"

    mine = short(tier)
    if sum(short(t) == mine for t in model.tiers) > 1:
        return tier
    return mine


def input_key(model: Model, tier: str, path: str) -> str | None:
    """The key in :data:`~costmodel.inputs.vocabulary.INPUTS` of a dotted ``path``:
    the engine input name the tier reads it as, else the registry's reading of
    the path (:func:`costmodel.inputs.vocabulary.input_key`), or None."""
    inverse = {p: k for k, p in model.inputs[tier].paths().items()}
    if inverse.get(path) in INPUTS:
        return inverse[path]
    return vocabulary_key(path)


def input_label(model: Model, tier: str, path: str, lang: str = "en") -> tuple[str, str]:
    """``(name, kind)`` of the input at ``path`` (kinds of
    :data:`~costmodel.inputs.vocabulary.InputKind`); unknown paths keep their last
    part, underscores as spaces."""
    key = input_key(model, tier, path)
    if key is None:
        return path.rsplit(".", 1)[-1].replace("_", " "), "number"
    term = INPUTS[key]
    return (term.zh if lang == "zh" else term.en), term.kind


_KIND_ZH = {
    "pretrain": "预训练",
    "finetune": "全参数微调",
    "lora": "LoRA 微调",
    "inference": "推理服务",
}


def workload_label(model: Model, name: str, lang: str = "en") -> str:
    """A task's name: its own in English; in Chinese its ``name_zh`` if the
    assumptions carry one, else derived from its size and kind (``65B 模型预训练``)."""
    if lang != "zh":
        return UserText(name)
    w = next((w for w in model.assumptions.workloads if w.name == name), None)
    if w is None:
        return UserText(name)
    own = getattr(w, "name_zh", None)
    if own:
        return UserText(own)
    size = getattr(w.params_b, "value", w.params_b)
    kind = _KIND_ZH.get(w.kind, w.kind)
    return f"{float(size):g}B 模型{' ' if kind[:1].isascii() else ''}{kind}"


_TERMS_ZH = (
    ("每 GPU 小时", "每卡时"),
    ("售出 GPU 小时", "售出卡时"),
    ("GPU 小时", "卡时"),
    ("Checkpoint", "检查点"),
)


def metric_label(meta: object, lang: str) -> str:
    """A summary metric's label; Chinese in the memo's terms (卡时, 检查点)."""
    if lang != "zh":
        return str(meta.label)  # type: ignore[attr-defined]
    text = str(meta.label_zh)  # type: ignore[attr-defined]
    for old, new in _TERMS_ZH:
        text = text.replace(old, new)
    return text

"""What a line item declares: :class:`LineItem` and the :class:`InputSpec` of
each of its inputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from costmodel.catalogue.expr import Expr

#: how an input is shown (the vocabulary's kinds: ``pct`` a share or a yearly rate
#: stored as a fraction; ``money``, ``price``, ``decimal``, ``number``, ``text``)
Kind = Literal["pct", "money", "price", "decimal", "number", "text"]


@dataclass(frozen=True)
class Text:
    """A phrase in English and in Chinese."""

    en: str
    zh: str

    def __getitem__(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class InputSpec:
    """One input of a line item: ``key`` is the engine's and the vocabulary's name,
    ``path`` its dotted path in an assumption file (its last parts, as the
    vocabulary's aliases match them), ``unit`` (``{cur}`` the model currency),
    ``kind`` how it is shown and ``typical`` its documented typical range (a value
    more than 10x outside it is questioned, methodology §2.6)."""

    key: str
    path: str
    label: Text
    unit: str
    kind: Kind
    typical: tuple[float, float] | None = None


@dataclass(frozen=True)
class Index:
    """A yearly price index ``(1 + escalation)^(year - 1)`` in operating months (0 in
    month 0) that a formula reads as ``key``: the engine computes it per model year
    from the input ``escalation``, the workbook writes it as a row before the line."""

    key: str
    escalation: str
    label: str


@dataclass(frozen=True)
class Formula:
    """An opex line's monthly formula, written once (:mod:`costmodel.catalogue.expr`).

    ``expr`` is linear in the quantities of ``drivers`` (the rows the workbook shows
    month by month: IT kW in service, hardware in service, the kW drawn, revenue):
    the workbook writes ``expr`` on those rows; the engine evaluates it on each
    monthly shape with the drivers bound to that shape's coefficient (the line's
    value on the shape is the same formula, as it is linear in them). ``label`` is
    the workbook row's label; ``index`` the yearly index the formula reads, if any."""

    expr: Expr
    drivers: tuple[str, ...]
    label: str
    index: Index | None = None


@dataclass(frozen=True)
class LineItem:
    """A capex class or an opex line.

    ``key`` names it in the engine's results (``capex[key]``, ``opex[key]``), the
    summary (``capex_<key>``), the workbook's rows and the charts; ``label`` is its
    name in a chart or a table and ``noun`` in a sentence; ``sheet_label`` its
    row's label on the workbook's Annual sheet; ``vat_label`` the Chinese name its
    input VAT rate carries, or None when it bears no input VAT (methodology §24);
    ``colour`` its colour in the charts; ``hardware`` whether a capex class is
    hardware (bought with the servers of each deployment, methodology §8.1);
    ``margin`` whether an opex line is a cost of a deployment's own margin in the
    income residual (methodology §30; insurance enters there on the deployment's
    hardware alone, not as its line); ``rule`` an opex line's rule in a clause of
    the memo's method (methodology §3.2), led by its name."""

    key: str
    kind: Literal["capex", "opex"]
    label: Text
    noun: Text
    colour: str
    sheet_label: str
    vat_label: str | None = None
    hardware: bool = False
    margin: bool = False
    inputs: tuple[InputSpec, ...] = field(default=())
    formula: Formula | None = None
    rule: Text | None = None

    @property
    def bears_vat(self) -> bool:
        """Whether the item's cost carries input VAT (methodology §24)."""
        return self.vat_label is not None

    @property
    def vat_input(self) -> InputSpec | None:
        """The input VAT rate of the item (``vat.input_rates.<key>``), when it bears VAT."""
        if self.vat_label is None:
            return None
        return InputSpec(
            f"vat_input_{self.key}",
            f"input_rates.{self.key}",
            Text(f"Input VAT rate: {self.key}", f"进项税率：{self.vat_label}"),
            "fraction of its cost (net)",
            "pct",
        )

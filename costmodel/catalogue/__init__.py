"""The catalogue of line items: every capex class and opex line defined once.

One module per item (``capex_servers``, ``capex_network``, ``capex_storage``,
``capex_facility``; ``opex_electricity``, ``opex_colocation``, ``opex_staff``,
``opex_maintenance``, ``opex_insurance``, ``opex_software``, ``opex_sga``), each declaring
one :class:`~costmodel.catalogue.item.LineItem`: its inputs (key, dotted path,
unit, English and Chinese label, kind, typical range), its class (capex or opex),
its VAT class, its display (labels, colour; its place in :mod:`items` is its
order) and, for an opex line, its formula once (:mod:`costmodel.catalogue.expr`),
from which both the engine's numpy evaluation and the workbook's formula text are
produced. :mod:`costmodel.catalogue.items` lists them; everything else iterates
those lists (docs/architecture.md, "The catalogue of line items").

The catalogue is the lowest layer: it imports nothing else of the package, so the
schema, the engine, the analysis and the writers can all read it.
"""

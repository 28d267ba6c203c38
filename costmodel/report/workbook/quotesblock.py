"""Quotes rolled to the start in the workbook (methodology §30).

The Inputs sheet lists every price quoted with ``as_of``: the quote as written (a
link to its input cell), its ``as_of`` month (a blue input, ``YYYY-MM`` as text or a
date), the months from it to ``start`` (a formula), the decline it rolls at (a
link: a server's for its price, the tier's or the global GPU-hour price decline)
and the quote at the start (a formula). Each tier sheet then rolls
the quotes it reads, ``rolled = quote x (1 - decline)^(months / 12)`` (1 for 0 months:
Gnumeric reads 0^0, a decline of 100% at its own month, as an error) (the tier's
``price_decline`` for a GPU-hour price, the server's for its price), and every
formula written after those rows reads the rolled row instead of the quote
(:attr:`costmodel.report.workbook.grid.CalcSheet.aliases`), as the engine rolls
before any other use (:func:`costmodel.core.siteprices.selling_prices`). Without a
quote with ``as_of`` nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterator

from costmodel.inputs.quotes import QUOTE_PATHS, months_between, node_at
from costmodel.inputs.schema import Assumptions, Quantity
from costmodel.inputs.vocabulary import input_label
from costmodel.report.workbook.grid import BLACK, GREEN
from costmodel.report.workbook.inputsmap import SHEET, InputsMap, Sheet, here
from costmodel.report.workbook.tiercontext import Tier
from costmodel.report.workbook.validation import validate

#: (engine input, its months of roll, the tier sheet's row of its decline, unit)
ROLLED_ROWS = (
    ("price_per_gpu_hour", "spot_roll_months", "price_decline", "GPU-h"),
    ("contract_price_per_gpu_hour", "contract_roll_months", "price_decline", "GPU-h"),
    ("server_price", "server_price_roll_months", "server_price_decline", "server"),
)


def quoted(a: Assumptions) -> Iterator[tuple[str, Quantity]]:
    """``(dotted path, quantity)`` of every quote with ``as_of``, in the order of
    :data:`costmodel.inputs.quotes.QUOTE_PATHS`."""
    for pattern in QUOTE_PATHS:
        head, _, rest = pattern.partition(".*.")
        names = list(getattr(a, head)) if rest else [None]
        for name in names:
            path = f"{head}.{name}.{rest}" if rest else pattern
            q = node_at(a, path)
            if isinstance(q, Quantity) and q.as_of is not None:
                yield path, q


def month_rule(cell: str) -> dict[str, str]:
    """A quote's ``as_of``: a month as text ``YYYY-MM`` or a date."""
    text = f'AND(LEN({cell})=7,MID({cell},5,1)="-",ISNUMBER(VALUE(LEFT({cell},4))))'
    return {
        "validate": "custom",
        "value": f"=OR(ISNUMBER({cell}),{text})",
        "input_message": "The month the price was observed: YYYY-MM (text) or a date.",
    }


def months_formula(cell: str) -> str:
    """Months from the ``as_of`` in ``cell`` (text ``YYYY-MM`` or a date) to ``start``."""
    year = f"IF(ISNUMBER({cell}),YEAR({cell}),VALUE(LEFT({cell},4)))"
    month = f"IF(ISNUMBER({cell}),MONTH({cell}),VALUE(MID({cell},6,2)))"
    return f"=(YEAR(start)-{year})*12+MONTH(start)-{month}"


def decline_path(path: str) -> str:
    """The input whose decline rolls the quote at ``path``: a server's
    ``price_decline`` for its price, the tier's ``revenue.price_decline`` for a
    tier's GPU-hour price, the global one for every other GPU-hour price (the
    servers' cloud prices included: a tier that overrides the decline rolls them
    at its own on its sheet)."""
    parts = path.split(".")
    if parts[0] == "servers" and parts[-1] == "price":
        return f"servers.{parts[1]}.price_decline"
    if parts[0] == "tiers":
        return f"tiers.{parts[1]}.revenue.price_decline"
    return "revenue.price_decline"


def quote_label(path: str) -> str:
    """``h200: Server price``, ``tens: Year-1 price per GPU-hour``: the input's
    name after the server or tier it belongs to."""
    parts = path.split(".")
    name = input_label(path)
    return f"{parts[1]}: {name}" if parts[0] in ("servers", "tiers") else name


def write_quotes(s: Sheet, out: InputsMap) -> None:
    """The Quotes block of the Inputs sheet (module docstring); records each quote's
    months cell in ``out.quote_months`` by the quote's path."""

    quotes = list(quoted(s.a))
    if not quotes:
        return
    ws, st = s.ws, s.st
    s.section("Quotes rolled to the start (methodology §30: value x (1 - decline)^(months/12))")
    s.head(
        "quote",
        "value as written",
        "as_of (YYYY-MM)",
        "months to start",
        "decline a year",
        "at the start",
        "path",
    )
    for path, q in quotes:
        keys = tuple(path.split("."))
        ws.write_string(s.row, 0, quote_label(path), st.label)
        cell = s.inputs.get(keys)
        if cell is not None:
            ws.write_formula(s.row, 1, f"={cell.ref}", st.cell("money2", BLACK), q.value)
        else:
            ws.write_number(s.row, 1, q.value, st.cell("money2", BLACK))
        ws.write_string(s.row, 2, str(q.as_of), st.input("text"))
        s.input_at((*keys, "as_of"), s.row, 2, str(q.as_of))
        at = here(s.row, 2)
        validate(ws, s.row, 2, f"{path}.as_of", rule=month_rule(at))
        months = float(months_between(s.a.start, str(q.as_of)))
        ws.write_formula(s.row, 3, months_formula(at), st.cell("count", BLACK), months)
        decline = s.inputs.get(tuple(decline_path(path).split(".")))
        d = float(decline.value) if decline is not None and decline.value is not None else 0.0
        d_ref = f"{decline.ref}" if decline is not None else "0"
        ws.write_formula(s.row, 4, f"={d_ref}", st.cell("pct2", BLACK), d)
        ws.write_formula(
            s.row,
            5,
            f"={here(s.row, 1)}*IF({here(s.row, 3)}=0,1,"
            f"(1-{here(s.row, 4)})^({here(s.row, 3)}/12))",
            st.cell("money2", BLACK),
            q.value * (1.0 - d) ** (months / 12.0),
        )
        ws.write_string(s.row, 6, path, st.path)
        out.quote_months[path] = f"{SHEET}!{here(s.row, 3)}"
        s.row += 1


def quote_rows(x: Tier) -> None:
    """On a tier sheet, each quote the tier reads rolled to the start (module
    docstring); sets the sheet's aliases so that later formulas read the rolled row."""
    cs, ti, tier = x.cs, x.ti, x.tier
    rolled = [row for row in ROLLED_ROWS if row[1] in ti]
    if not rolled:
        return
    cs.heading("Quotes rolled to the start (methodology §30)")
    paths = x.model.inputs[tier].inputs
    for key, months, decline, per in rolled:
        path = paths[months][0].removesuffix(".as_of")
        cs.const(
            f"{key}_roll_months",
            f"months from the quote's as_of to the start ({path})",
            "months",
            f"={x.inputs.quote_months[path]}",
            ti[months],
            "count",
            GREEN,
        )
        if key == "contract_price_per_gpu_hour":  # its row is written later: the input
            quote = x.inputs.tier_cells[(tier, "revenue.contract.price_per_gpu_hour")]
        else:
            quote = "{$" + key + "}"
        value = ti[key] * (1.0 - ti[decline]) ** (ti[months] / 12.0)
        cs.const(
            f"{key}_rolled",
            f"{key.replace('_', ' ')} rolled = quote x (1 - decline)^(months / 12)",
            x.money(per),
            f"={quote}*IF({{${key}_roll_months}}=0,1,(1-{{${decline}}})^({{${key}_roll_months}}/12))",
            value,
            "money2",
        )
        token, row = "{$" + key + "}", "{$" + key + "_rolled}"
        # a site's price factor (sitesblock.py) multiplies the rolled quote
        cs.aliases[token] = cs.aliases[token].replace(token, row) if token in cs.aliases else row

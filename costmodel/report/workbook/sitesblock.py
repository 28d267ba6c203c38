"""Sites in the workbook (methodology §29): the Sites block of the Inputs sheet and,
on each tier sheet, the tier's site as a live choice whose power price, escalation,
rent of a hall, tax rate, price factor and grid follow in the formulas.

The block is written only when the model has ``sites:``; without it every workbook
is as before. A site's blank cell means "the global input" (the precedence tier >
site > global of :mod:`costmodel.inputs.sites`; a tier's own power or tax key is
shown on its sheet as the value it reads). On a tier sheet the global names
``power_price_per_kwh``, ``power_escalation``, ``facility_colocation_per_kw_month``
and ``finance_tax_rate``, and the sheet's row of its cooling's rent, are replaced in
every formula written after the site's rows by the tier's own rows
(:attr:`costmodel.report.workbook.grid.CalcSheet.aliases`).
"""

from __future__ import annotations

from typing import Any

from costmodel.catalogue.items import RENTED_MODE
from costmodel.inputs.sites import grid_inputs, layered, site_name
from costmodel.report.workbook.grid import GREEN
from costmodel.report.workbook.inputsmap import Sheet, here
from costmodel.report.workbook.tiercontext import Tier
from costmodel.report.workbook.validation import validate

#: the Sites table's columns: (name suffix of Site_<key>, keys under the site, header)
FIELDS = (
    ("price_per_kwh", ("power", "price_per_kwh"), "power price ({cur}/kWh)"),
    ("escalation", ("power", "escalation"), "power escalation (/yr)"),
    ("tax_rate", ("finance", "tax_rate"), "tax rate (fraction of profit)"),
    ("grid_mw", ("grid_mw",), "grid without connection (MW)"),
    ("grid_connection_per_mw", ("grid_connection_per_mw",), "connection ({cur}/MW)"),
    ("grid_lead_months", ("grid_lead_months",), "connection lead (months)"),
    ("price_factor", ("price_factor",), "price factor (x GPU-hour prices)"),
)

#: global defined name -> the tier sheet's row that replaces it where the model has sites
ALIASES = {
    "power_price_per_kwh": "site_price_per_kwh",
    "power_escalation": "site_power_escalation",
    "facility_colocation_per_kw_month": "site_colocation",
    "{$colocation_per_kw_month}": "site_colocation",
    "finance_tax_rate": "site_tax_rate",
}


def _fields(s: Sheet) -> list[tuple[str, tuple[str, ...], str]]:
    rents = [
        (f"rent_{c}", ("colocation_per_kw_month", c), f"rent {c} ({{cur}}/kW-month)")
        for c in s.a.power.pue
    ]
    return [
        (k, keys, head.format(cur=s.cur)) for k, keys, head in [*FIELDS[:2], *rents, *FIELDS[2:]]
    ]


def _value(site: Any, keys: tuple[str, ...]) -> Any:
    node = site
    for k in keys:
        if node is None:
            return None
        node = node.get(k) if isinstance(node, dict) else getattr(node, k, None)
    return node


def write_sites(s: Sheet) -> None:
    """The Sites block: one row per site, one column per key a site may set (blank:
    the global input), each column a named range ``Site_<key>`` (one blank row
    inside it, so one site is still a range)."""
    a, ws, st = s.a, s.ws, s.st
    if not a.sites:
        return
    fields = _fields(s)
    # columns past the Inputs sheet's own widths hold money per MW (2,500,000): wide
    # enough that a printed page shows the number, not ###
    ws.set_column(8, len(fields), 12)
    s.section("Sites (methodology §29: a blank cell reads the global input)")
    s.head("site", *[h for _, _, h in fields])
    first = s.row
    for name, site in a.sites.items():
        ws.write_string(s.row, 0, name, st.input("text"))
        for j, (_, keys, _) in enumerate(fields):
            q = _value(site, keys)
            fixed = keys[0] in ("power", "finance", "colocation_per_kw_month")
            given = q is not None and (not fixed or _given(site, keys))
            validate(ws, s.row, 1 + j, ".".join(keys))
            if not given:  # an input still: a number typed here is imported as the site's
                ws.write_blank(s.row, 1 + j, None, st.input("number"))
                s.input_at(("sites", name, *keys), s.row, 1 + j, None)
                continue
            ws.write_number(s.row, 1 + j, float(q.value), st.input("number"))
            s.input_at(("sites", name, *keys), s.row, 1 + j, float(q.value))
            s.sources.append((".".join(("sites", name, *keys)), q, here(s.row, 1 + j)))
        s.row += 1
    s.name_column("Site_list", first, s.row - 1, 0)
    s.name_column("Site_id", first, s.row, 0)
    for j, (key, _, _) in enumerate(fields):
        s.name_column(f"Site_{key}", first, s.row, 1 + j)
    s.row += 1


def _given(site: Any, keys: tuple[str, ...]) -> bool:
    """The site writes the key (a mapping's entry, or a field it sets)."""
    if keys[0] == "colocation_per_kw_month":
        rents = site.colocation_per_kw_month
        return rents is not None and keys[1] in rents
    section = getattr(site, keys[0])
    return section is not None and keys[1] in section.model_fields_set


def _lookup(column: str, fallback: str) -> str:
    """``fallback`` without a site or where the site's cell is blank, else the site's."""
    at = f"INDEX({column},MATCH({{$site}},Site_id,0))"
    return f'=IF({{$site}}="",{fallback},IF({at}="",{fallback},{at}))'


def site_rows(x: Tier) -> None:
    """The tier's site (a green link to the tier table) and the inputs it reads
    through it; sets the sheet's aliases (module docstring). Nothing without sites."""
    if not x.a.sites:
        return
    cs, ti, tier = x.cs, x.ti, x.tier
    cs.heading("Site (methodology §29: tier > site > global)")
    cell = x.inputs.tier_cells[(tier, "site")]
    cs.const(
        "site",
        "site (link; blank: the global inputs)",
        "id",
        f'=""&{cell}',
        site_name(x.a, tier) or "",
        "text",
        GREEN,
    )
    rows = (
        (
            "site_price_per_kwh",
            "power",
            "price_per_kwh",
            "Site_price_per_kwh",
            "power_price_per_kwh",
            x.money("kWh"),
            "money2",
        ),
        (
            "site_power_escalation",
            "power",
            "escalation",
            "Site_escalation",
            "power_escalation",
            "per year",
            "pct2",
        ),
        (
            "site_tax_rate",
            "finance",
            "tax_rate",
            "Site_tax_rate",
            "finance_tax_rate",
            "fraction",
            "pct2",
        ),
    )
    for key, section, name, column, glob, unit, kind in rows:
        path, _ = layered(x.a, tier, section, name)
        engine = {
            "price_per_kwh": "price_per_kwh",
            "escalation": "power_escalation",
            "tax_rate": "tax_rate",
        }[name]
        if path.startswith("tiers."):  # the tier's own key: the value it reads
            cs.const(
                key,
                f"{section}.{name} (the tier's own)",
                unit,
                f"={ti[engine]!r}",
                ti[engine],
                kind,
            )
        else:
            cs.const(
                key,
                f"{section}.{name} of the site, else global",
                unit,
                _lookup(column, glob),
                ti[engine],
                kind,
            )
    _rent_and_factor(x)
    _grid_rows(x)
    cs.aliases.update({k: "{$" + v + "}" for k, v in ALIASES.items()})
    for key in ("price_per_gpu_hour", "contract_price_per_gpu_hour"):  # the site's factor
        token = "{$" + key + "}"
        read = cs.aliases.get(token, token)  # the rolled quote (quotesblock.py), if any
        cs.aliases[token] = "(" + read + "*{$price_factor})"


def _rent_and_factor(x: Tier) -> None:
    """The rent of the tier's cooling (its site's, else the rent the sheet
    read from the Inputs: one rent, or the cooling table's) and the price factor of
    its site."""
    cs, ti, cooling = x.cs, x.ti, x.t.cooling
    cs.const(
        "site_colocation",
        f"{RENTED_MODE} rent ({cooling}) of the site, else global",
        x.money("kW-month"),
        _lookup(f"Site_rent_{cooling}", "{$colocation_per_kw_month}"),
        ti["colocation_per_kw_month"],
        "money",
    )
    grid = grid_inputs(x.a, x.tier)
    cs.const(
        "price_factor",
        "price factor of the site (spot and contract prices)",
        "factor",
        _lookup("Site_price_factor", "1"),
        float(grid["price_factor"][1].value) if "price_factor" in grid else 1.0,
        "factor",
    )


def _grid_rows(x: Tier) -> None:
    """Facility power of the final cluster, the site's grid and the connection a
    build-mode tier needs above it (methodology §29): its capex at month 0 and the
    months it adds to construction (read by the deployments' rows)."""
    cs, tier = x.cs, x.tier
    stages = "".join(
        f"+{x.inputs.tier_cells[(tier, f'stages.{i}.gpus')]}" for i in range(len(x.t.stages))
    )
    p = float(x.met["facility_mw"])
    cs.const(
        "site_facility_mw",
        "facility power of the final cluster = GPUs / per server x kW x (1 + aux) x PUE / 1000",
        "MW",
        f"=({{$gpus}}{stages})/{{$gpus_per_server}}*{{$server_power_kw}}"
        "*(1+power_aux_power_fraction)*{$pue}/1000",
        p,
        "factor",
    )
    grid = grid_inputs(x.a, tier)
    limit = float(grid["grid_mw"][1].value) if "grid_mw" in grid else None
    per_mw = float(grid["grid_connection_per_mw"][1].value) if "grid_mw" in grid else 0.0
    lead = float(grid["grid_lead_months"][1].value) if "grid_mw" in grid else 0.0
    cs.const(
        "site_grid_mw",
        "grid of the site without a connection (blank: no limit)",
        "MW",
        _lookup("Site_grid_mw", '""'),
        "" if limit is None else limit,
        "factor",
    )
    excess = 0.0 if limit is None or x.a.facility.mode != "build" else max(0.0, p - limit)
    cs.const(
        "site_grid_excess",
        "MW to connect (build mode) = MAX(0, facility MW - grid)",
        "MW",
        '=IF({$site_grid_mw}="",0,{$build_flag}*MAX(0,{$site_facility_mw}-{$site_grid_mw}))',
        excess,
        "factor",
    )
    cs.const(
        "site_grid_capex",
        "grid connection at month 0 = MW to connect x cost per MW",
        x.money(),
        "={$site_grid_excess}*" + _lookup("Site_grid_connection_per_mw", "0").removeprefix("="),
        excess * per_mw,
        "money",
    )
    cs.const(
        "site_grid_lead",
        "months construction waits for the connection",
        "months",
        "=IF({$site_grid_excess}>0,ROUND("
        + _lookup("Site_grid_lead_months", "0").removeprefix("=")
        + ",0),0)",
        lead if excess > 0 else 0.0,
        "count",
    )

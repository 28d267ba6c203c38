"""The words of the memo's charts in English and Chinese: titles, captions, axes and
the names of the cost lines.
"""

from __future__ import annotations

from costmodel.catalogue.items import labels

CHART: dict[str, dict[str, str]] = {
    "en": {
        "npv_title": "NPV per option",
        "npv_caption": "Net present value of each option at the assumed prices; bars left "
        "of zero lose money.",
        "capex_title": "Capex per GPU by component",
        "capex_caption": "Initial investment per GPU, stacked by asset class; the total "
        "capex of each option is written at the end of its bar.",
        "capex_axis": "{unit} per GPU",
        "opex_title": "Annual opex by line item",
        "opex_caption": "Operating cost of each operating year, stacked by line item (each "
        "option on its own scale). The dot marks each option's first full operating year, "
        "the first whose twelve months all come after its first deployment enters service: "
        "the year whose opex the options are compared on.",
        "full_year": "first full year",
        "opex_axis": "{unit} per year",
        "year": "Year",
        "cash_title": "Cumulative cash flow",
        "cash_caption": "Cumulative free cash flow from the investment date; {terminal} "
        "The marker shows payback, which counts no terminal value.",
        "terminal_book": "the last month includes the hardware's net book value at the end.",
        "terminal_market": "the last month includes the hardware's market value at the end, "
        "less tax on its gain over book value.",
        "terminal_none": "no value is counted for the hardware at the end.",
        "terminal_income": "the last month includes what the hardware still earns over its "
        "remaining economic life (income residual), less tax on its gain over book value.",
        "cash_axis": "{unit}",
        "payback": "payback {years}",
        "no_payback": "no payback within horizon",
        "no_payback_tv": "no payback before the terminal value",
        "cost_title": "Cost per GPU-hour vs price",
        "cost_caption": "Levelized cost per sold GPU-hour and per effective GPU-hour (after "
        "failures and checkpoints), against the assumed year-1 price and the break-even "
        "price.",
        "cost_axis": "{currency} per GPU-hour",
        "levelized": "Levelized cost",
        "effective": "Cost per effective GPU-hour",
        "price": "Assumed price (year 1)",
        "breakeven": "Break-even price (year 1)",
        "total": "total",
    },
    "zh": {
        "npv_title": "各方案净现值",
        "npv_caption": "按假设价格计算的各方案净现值；零线左侧为亏损。",
        "capex_title": "每卡初始投资构成",
        "capex_caption": "按资产类别堆叠的每卡初始投资；条形末端标注各方案初始投资总额。",
        "capex_axis": "每卡{unit}",
        "opex_title": "年度运营成本构成",
        "opex_caption": "各运营年度的运营成本，按成本项目堆叠（各方案纵轴刻度不同）。圆点标出"
        "各方案的首个完整运营年，即首批设备投运后第一个全年运营的年度，各方案按该年运营成本"
        "比较。",
        "full_year": "首个完整运营年",
        "opex_axis": "{unit}/年",
        "year": "年度",
        "cash_title": "累计现金流",
        "cash_caption": "自投资日起的累计自由现金流；{terminal}"
        "标记点为投资回收时点（回收期不计期末残值）。",
        "terminal_book": "最后一个月计入设备期末账面净值。",
        "terminal_market": "最后一个月计入设备期末市场价值，并扣除资产处置收益应纳所得税。",
        "terminal_none": "期末不计设备残值。",
        "terminal_income": "最后一个月计入设备在剩余经济寿命内仍能创造的收益（收益法残值），"
        "并扣除资产处置收益应纳所得税。",
        "cash_axis": "{unit}",
        "payback": "回收期 {years}",
        "no_payback": "测算期内无法回收",
        "no_payback_tv": "不计期末残值则无法回收",
        "cost_title": "每卡时成本与价格",
        "cost_caption": "每售出卡时和每有效卡时（扣除故障与检查点损失）的"
        "平准化成本，对比假设的首年价格和盈亏平衡价格。",
        "cost_axis": "{currency}/卡时",
        "levelized": "平准化成本",
        "effective": "每有效卡时成本",
        "price": "假设价格（首年）",
        "breakeven": "盈亏平衡价格（首年）",
        "total": "合计",
    },
}

#: each line item's name in the charts' keys (:mod:`costmodel.catalogue`)
LINE_LABELS = {"en": labels("en"), "zh": labels("zh")}


def caption(words: dict[str, str], key: str, terminal_value: str) -> str:
    """Chart ``key``'s caption in ``words`` (one language of :data:`CHART`), the
    cash-flow chart's naming what the last month counts under ``terminal_value``."""
    return words[f"{key}_caption"].format(terminal=words[f"terminal_{terminal_value}"])

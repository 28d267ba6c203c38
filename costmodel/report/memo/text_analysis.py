"""Words of the memo sections built from an :class:`costmodel.analysis.bundle.Analysis`:
"What has to be true" (tornado, break-even, Monte Carlo), "Scenarios" and
"Build or rent?", in English and Chinese.

As in :mod:`costmodel.report.memo.text`: sentence patterns are trusted HTML with
``{named}`` fields, filled by :func:`costmodel.report.memo.context.say`, which escapes
every field (scenario names and tier labels are data). Numbers arrive formatted
by :mod:`costmodel.report.memo.numbers`.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- what has to be true
TRUE: dict[str, dict[str, str]] = {
    "en": {
        "heading": "What has to be true",
        "intro": "Which assumptions decide the result, and how far they are from making it "
        "work. Every input of the assumption files that has a low and a high value is moved "
        "to each end of its range, one at a time, all else as assumed ({n} inputs).",
        "h_tornado": "What moves the NPV",
        "driver": "For <strong>{label}</strong> (NPV {base}), the input that matters most is "
        "{input}: at {low} the NPV is {at_low}, at {high} it is {at_high}.",
        "flip_up": "Within its range, each of these inputs alone would turn the NPV "
        "positive: {items}.",
        "flip_down": "Within its range, each of these inputs alone would turn the NPV "
        "negative: {items}.",
        "flip_item": "{input} at {value} (NPV {npv})",
        "flip_none_up": "No single input turns the NPV positive within its range; it would "
        "take several going right at once.",
        "flip_none_down": "No single input within its range turns the NPV negative.",
        "tornado_title": "NPV of {label} with one input at a time at its low or high value",
        "tornado_caption": "Each bar runs from the NPV with the input at its low value to the "
        "NPV at its high value (the values are written at the bar ends); the solid line is "
        "the NPV as assumed, the dashed line NPV = 0. The {k} inputs with the largest swing.",
        "low_legend": "input at its low value",
        "high_legend": "input at its high value",
        "base_legend": "as assumed",
        "zero_legend": "NPV = 0",
        "npv_axis": "NPV ({unit})",
        "others": "The largest swings of every option",
        "col_rank": "#",
        "col_input": "Input",
        "col_range": "Low – high",
        "col_at_low": "NPV at low",
        "col_at_high": "NPV at high",
        "col_swing": "Swing",
        "table_note": "Bold: the NPV changes sign. Ranges are in the unit of the assumption "
        "file (see the appendix).",
        "h_breakeven": "Break-even: where NPV = 0",
        "be_intro": "The utilization and the year-1 price per GPU-hour at which each option's "
        "NPV is exactly zero, one at a time, all else as assumed.",
        "col_util_be": "Utilization at NPV = 0",
        "col_util_base": "Utilization assumed",
        "col_price_be": "Year-1 price at NPV = 0",
        "col_price_base": "Price assumed",
        "col_price_gap": "Price change needed",
        "util_never": "not even at 100%",
        "util_always": "positive even at 0%",
        "price_never": "none up to {top}",
        "price_always": "positive even at 0",
        "util_hopeless": "Utilization alone cannot rescue {labels}: even with every GPU-hour "
        "sold, the NPV stays negative.",
        "util_need": "{label} breaks even at a utilization of {u} against {ub} assumed.",
        "h_mc": "How likely is a loss",
        "mc_intro": "{n} draws (seed {seed}): every ranged input is drawn at once, "
        "independently, from its distribution (triangular between low, value and high unless "
        "the file says otherwise), and each option is evaluated on every draw.",
        "mc_intro_together": "{n} draws (seed {seed}): every ranged input is drawn at once "
        "from its distribution (triangular between low, value and high unless the file says "
        "otherwise), independently except the pairs below, which are drawn together, and "
        "each option is evaluated on every draw.",
        "mc_together": "Drawn together (a Gaussian copula: rho is the correlation of the "
        "pair's standard normals, each mapped to its input's own distribution): {items}.",
        "mc_pair": "{a} and {b} (rho {rho})",
        "mc_title": "Distribution of NPV over {n} draws",
        "mc_caption": "Histogram of the NPV of each option over {n} draws (seed {seed}), each "
        "option on its own scale; red: draws that lose money, green: draws that make money. "
        "Dotted lines: P10, P50 and P90.",
        "share_axis": "share of draws",
        "col_p10": "P10",
        "col_p50": "P50",
        "col_p90": "P90",
        "col_mean": "Mean",
        "col_loss": "P(loss)",
        "group_npv": "NPV",
        "group_cost": "Levelized cost per GPU-hour",
        "mc_note": "P10: 10% of draws are below this value; P(loss): the share of draws with "
        "NPV ≤ 0 (1 − P(NPV > 0)).",
        "mc_held": "Held at their value in every draw, though given a range (they set the "
        "model's structure; the tornado varies them): {items}.",
        "lean_below": "The median draw of {label} has an NPV of {p50}, {gap} below the "
        "{npv} assumed.",
        "lean_above": "The median draw of {label} has an NPV of {p50}, {gap} above the "
        "{npv} assumed.",
        "lean_items_below": " Each alone at the median of its draws, all else as assumed, "
        "{items}. Of the {n} drawn inputs this option reads, {k} {verb} the NPV at the median "
        "of their draws; all {n} shifts add up to {sum}.",
        "lean_items_above": " Each alone at the median of its draws, all else as assumed, "
        "{items}. Of the {n} drawn inputs this option reads, {k} {verb} the NPV at the median "
        "of their draws; all {n} shifts add up to {sum}.",
        "lean_item": "the {input} ({median} against {value}) moves the NPV by {shift}",
        "lean_item_more": "the {input} ({median} against {value}) by {shift}",
        "lean_sep": ", ",
        "lean_and": " and ",
        "loss_some": "In {p} of {n} draws {label} loses money; its NPV lies between {p10} "
        "and {p90} in 80% of them.",
        "loss_all": "In all {n} draws {label} loses money; its NPV lies between {p10} and "
        "{p90} in 80% of them.",
        "loss_none": "In none of the {n} draws does {label} lose money; its NPV lies between "
        "{p10} and {p90} in 80% of them.",
    },
    "zh": {
        "heading": "盈亏平衡需要的条件",
        "intro": "哪些假设决定结论，以及它们离“可行”还有多远。假设文件中每个给出了低值和高值"
        "的输入，逐一取其区间两端，其他假设不变（共 {n} 个输入）。",
        "h_tornado": "影响净现值的主要因素",
        "driver": "对<strong>{label}</strong>（净现值 {base}）影响最大的输入是"
        "{input}：取 {low} 时净现值为 {at_low}，取 {high} 时为 {at_high}。",
        "flip_up": "在各自区间内，以下任一输入单独变化即可使净现值转正：{items}。",
        "flip_down": "在各自区间内，以下任一输入单独变化即可使净现值转负：{items}。",
        "flip_item": "{input}取 {value}（净现值 {npv}）",
        "flip_none_up": "在各自区间内，没有任何单一输入能使净现值转正；需要多项假设同时向好。",
        "flip_none_down": "在各自区间内，没有任何单一输入能使净现值转负。",
        "tornado_title": "{label}的净现值：逐一将输入取低值或高值",
        "tornado_caption": "每根横条从输入取低值时的净现值延伸到取高值时的净现值（条两端标注"
        "输入取值）；实线为按假设的净现值，虚线为净现值 = 0。图中为波动最大的 {k} 个输入。",
        "low_legend": "输入取低值",
        "high_legend": "输入取高值",
        "base_legend": "按假设",
        "zero_legend": "净现值 = 0",
        "npv_axis": "净现值（{unit}）",
        "others": "各方案波动最大的输入",
        "col_rank": "#",
        "col_input": "输入",
        "col_range": "低值 – 高值",
        "col_at_low": "取低值时净现值",
        "col_at_high": "取高值时净现值",
        "col_swing": "波动",
        "table_note": "粗体：净现值正负号改变。区间单位与假设文件一致（见附录）。",
        "h_breakeven": "盈亏平衡：净现值为零的条件",
        "be_intro": "逐一求解使各方案净现值恰好为零的利用率和首年每卡时价格，其他假设不变。",
        "col_util_be": "盈亏平衡利用率",
        "col_util_base": "假设利用率",
        "col_price_be": "盈亏平衡首年价格",
        "col_price_base": "假设价格",
        "col_price_gap": "需调价",
        "util_never": "即使 100% 也不够",
        "util_always": "0% 时仍为正",
        "price_never": "{top} 以内无解",
        "price_always": "价格为 0 时仍为正",
        "util_hopeless": "仅靠提高利用率救不了{labels}：即使每个卡时都售出，净现值仍为负。",
        "util_need": "{label}在利用率 {u} 时盈亏平衡，假设为 {ub}。",
        "h_mc": "亏损的可能性有多大",
        "mc_intro": "共 {n} 次抽样（随机种子 {seed}）：每次同时、独立地按各输入的分布抽取所有"
        "有区间的输入（除非文件另有说明，按低值、取值、高值构成的三角分布），并据此计算每个"
        "方案。",
        "mc_intro_together": "共 {n} 次抽样（随机种子 {seed}）：每次同时按各输入的分布抽取所有"
        "有区间的输入（除非文件另有说明，按低值、取值、高值构成的三角分布），除下列成对联动的"
        "输入外彼此独立，并据此计算每个方案。",
        "mc_together": "联动抽取的输入（高斯连接函数：rho 为两者标准正态变量的相关系数，"
        "再各自映射到本身的分布）：{items}。",
        "mc_pair": "{a}与{b}（rho {rho}）",
        "mc_title": "{n} 次抽样的净现值分布",
        "mc_caption": "各方案 {n} 次抽样（随机种子 {seed}）净现值的直方图，各方案刻度不同；"
        "红色为亏损的抽样，绿色为盈利的抽样。点线为 P10、P50、P90。",
        "share_axis": "抽样占比",
        "col_p10": "P10",
        "col_p50": "P50",
        "col_p90": "P90",
        "col_mean": "均值",
        "col_loss": "净现值为负的概率",
        "group_npv": "净现值",
        "group_cost": "每卡时平准化成本",
        "mc_note": "P10：10% 的抽样低于该值；净现值为负的概率：净现值 ≤ 0 的抽样占比"
        "（1 − P(净现值 > 0)）。",
        "mc_held": "以下输入虽给出取值范围，但决定模型结构，各次抽样均取其基准值"
        "（龙卷风图中按范围变动）：{items}。",
        "lean_below": "{label}抽样中位数的净现值为 {p50}，比基准 {npv}低 {gap}。",
        "lean_above": "{label}抽样中位数的净现值为 {p50}，比基准 {npv}高 {gap}。",
        "lean_items_below": "每项单独取其抽样中位数、其他假设不变时，{items}。该方案读取的"
        " {n} 项抽样输入中，有 {k} 项取抽样中位数时降低净现值，{n} 项的变动合计 {sum}。",
        "lean_items_above": "每项单独取其抽样中位数、其他假设不变时，{items}。该方案读取的"
        " {n} 项抽样输入中，有 {k} 项取抽样中位数时提高净现值，{n} 项的变动合计 {sum}。",
        "lean_item": "{input}（{median}，基准 {value}）使净现值变动 {shift}",
        "lean_item_more": "{input}（{median}，基准 {value}）变动 {shift}",
        "lean_sep": "，",
        "lean_and": "，",
        "loss_some": "在 {n} 次抽样中，{label}亏损的占 {p}；80% 的抽样净现值介于 {p10} "
        "与 {p90} 之间。",
        "loss_all": "在全部 {n} 次抽样中，{label}都亏损；其中 80% 的抽样净现值介于 {p10} 与 "
        "{p90} 之间。",
        "loss_none": "在 {n} 次抽样中，{label}没有一次亏损；其中 80% 的抽样净现值介于 {p10} "
        "与 {p90} 之间。",
    },
}

# ----------------------------------------------------------------------------- scenarios
SCEN: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Scenarios",
        "intro": "The same model under {k} named scenarios, each the base assumptions with the "
        "overlay shown below. Small print under each figure: the change against the base.",
        "col_scenario": "Scenario",
        "col_option": "Option",
        "base_mark": "base",
        "line": "<strong>{name}</strong>: {k} of {n} {options} {have} a positive NPV; the best "
        "is {label} at {npv} ({delta} against the base).",
        "line_none": "<strong>{name}</strong>: no option has a positive NPV; the smallest "
        "loss is that of {label}, {npv} ({delta} against the base).",
        "rank_change": "The ranking changes: {label} comes first instead of {base_label}.",
        "chart_title": "NPV per option and scenario",
        "chart_caption": "NPV of each option in each scenario, each option on its own scale; "
        "bars left of zero lose money.",
        "h_overlays": "What each scenario changes",
        "overlay_empty": "nothing (identical to the base)",
    },
    "zh": {
        "heading": "情景分析",
        "intro": "同一模型在 {k} 个命名情景下的结果；每个情景都是在基准假设上叠加下方列出的"
        "内容。每个数字下方的小字为相对基准的变化。",
        "col_scenario": "情景",
        "col_option": "方案",
        "base_mark": "基准",
        "line": "<strong>{name}</strong>：{n} 个方案中有 {k} 个净现值为正；最优为{label}，"
        "净现值 {npv}（较基准 {delta}）。",
        "line_none": "<strong>{name}</strong>：没有方案净现值为正；净现值最高的是{label}，"
        "净现值 {npv}（较基准 {delta}）。",
        "rank_change": "排序发生变化：{label}取代{base_label}排在首位。",
        "chart_title": "各情景下各方案的净现值",
        "chart_caption": "各方案在各情景下的净现值，各方案刻度不同；零线左侧为亏损。",
        "h_overlays": "各情景改变了什么",
        "overlay_empty": "无（与基准相同）",
    },
}

# ----------------------------------------------------------------------------- build or rent
RENT: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Build or rent?",
        "intro_rental": "The memo values each GPU-hour at the price a customer pays for it. "
        "The other question is whether the same GPU-hours would be cheaper to rent from a "
        "cloud at the catalogue price of each option's server. Present values at the "
        "{rate} discount rate, before tax; the cloud price falls at the same rate as the "
        "rental price.",
        "intro_avoided": "The assumptions value each GPU-hour the center delivers at what "
        "the same hour would cost from a cloud (revenue mode <code>avoided_cloud</code>), so NPV "
        "already reads as the value of building instead of renting: positive, building is "
        "cheaper; negative, renting is. Present values at the {rate} discount rate.",
        "rental": "<strong>{label}</strong>: renting the same {hours} GPU-hours from a cloud "
        "at the {term} price of {price} would cost {pv_cloud} in present value; building "
        "costs {pv_build}. {verdict}",
        "saves": "Building saves {amount} ({share} of the cloud bill).",
        "loses": "Building costs {amount} more ({share} more than the cloud bill).",
        "avoided": "<strong>{label}</strong>: valued at the {term} cloud price of {price}, "
        "its NPV is {npv}. {verdict} Before tax, renting its {hours} GPU-hours would cost "
        "{pv_cloud} in present value against {pv_build} for building.",
        "avoided_good": "Building is cheaper than renting by that much in present value, "
        "after tax.",
        "avoided_bad": "Renting would be cheaper: building loses {amount} in present value "
        "against renting, after tax.",
        "util": "After tax, with every GPU-hour valued at the cloud price, building breaks "
        "even at a utilization of {u} (assumed {ub}).",
        "util_never": "No utilization up to 100% makes building pay against the cloud price.",
        "util_always": "Building pays against the cloud price at any utilization.",
        "month": "Cumulative spending on the build falls below the cumulative cloud bill in "
        "month {m} ({years}).",
        "month_never": "Cumulative spending on the build never falls below the cumulative "
        "cloud bill within the {horizon}\u2011year horizon.",
        "no_price": "<strong>{label}</strong>: its server ({server}) has no {term} cloud "
        "price in the assumptions, so there is nothing to compare building with.",
        "row_key": "valued as {mode} · {term} cloud price "
        '<span class="nw" data-rent="cloud_price">{price}</span>',
        "col_pv_cloud": "PV of renting",
        "col_pv_build": "PV of building",
        "col_saving": "Saving by building",
        "col_npv_cloud": "NPV at the cloud price",
        "col_util": "Break-even utilization",
        "col_month": "Break-even month",
        "mode_rental": "rental",
        "mode_avoided_cloud": "avoided cloud",
        "term_on_demand": "on-demand",
        "term_reserved": "reserved",
        "never": "never",
        "none": "none",
        "note": "Saving = PV of renting − PV of building (capex + opex), before tax and the "
        "book value at the end; NPV at the cloud price is after tax. Break-even month: the "
        "first month in which capex plus cumulative opex is no more than the cumulative "
        "cloud bill (undiscounted).",
    },
    "zh": {
        "heading": "自建还是租用？",
        "intro_rental": "本备忘录按客户支付的价格为每个卡时计价。另一个问题是：按各方案"
        "服务器的云上目录价格租用同样多的卡时，会不会更便宜？以下现值按 {rate} 折现率"
        "计算，未计税；云价格按与租金相同的速度逐年下降。",
        "intro_avoided": "本假设按“避免的云支出”为算力中心交付的每个卡时计价，即按同样"
        "一小时向云厂商租用的价格计价（收入模式 <code>avoided_cloud</code>），"
        "因此净现值本身就是自建相对租用的价值：为正则自建更便宜，为负则租用更便宜。"
        "现值按 {rate} 折现率计算。",
        "rental": "<strong>{label}</strong>：以{term}云价格 {price} 租用同样的 {hours} "
        "卡时，现值成本为 {pv_cloud}；自建的现值成本为 {pv_build}。{verdict}",
        "saves": "自建节省 {amount}（相当于云账单的 {share}）。",
        "loses": "自建多花 {amount}（比云账单高 {share}）。",
        "avoided": "<strong>{label}</strong>：以{term}云价格 {price} 计价，净现值为 {npv}。"
        "{verdict}税前来看，租用其 {hours} 卡时的现值成本为 {pv_cloud}，自建为 "
        "{pv_build}。",
        "avoided_good": "按税后现值计，自建比租用便宜这么多。",
        "avoided_bad": "租用更便宜：按税后现值计，自建比租用多亏 {amount}。",
        "util": "按税后、每个卡时以云价格计价，自建在利用率 {u} 时与租用持平（假设为 {ub}）。",
        "util_never": "即使利用率达到 100%，按云价格计自建也不划算。",
        "util_always": "按云价格计，任何利用率下自建都划算。",
        "month": "自建的累计支出在第 {m} 个月（{years}）降至累计云账单以下。",
        "month_never": "在 {horizon} 年测算期内，自建的累计支出始终高于累计云账单。",
        "no_price": "<strong>{label}</strong>：假设中其服务器（{server}）没有{term}云价格，"
        "无法与租用比较。",
        "row_key": "计价：{mode} · {term}云价格 "
        '<span class="nw" data-rent="cloud_price">{price}</span>',
        "col_pv_cloud": "租用现值",
        "col_pv_build": "自建现值",
        "col_saving": "自建节省",
        "col_npv_cloud": "按云价格的净现值",
        "col_util": "盈亏平衡利用率",
        "col_month": "盈亏平衡月份",
        "mode_rental": "出租",
        "mode_avoided_cloud": "避免的云支出",
        "term_on_demand": "按需",
        "term_reserved": "包年包月",
        "never": "期内无",
        "none": "无",
        "note": "节省 = 租用现值 − 自建现值（初始投资 + 运营成本），未计税及期末账面价值；"
        "按云价格的净现值为税后。盈亏平衡月份：初始投资加累计运营成本首次不高于累计云账单的"
        "月份（未折现）。",
    },
}

"""Words of the spec-v2 parts of the memo, in English and Chinese: the growth
section (stages against building at once), the financing section (the loan and
the owners' returns) and the decision's sentences on time (construction, ramp,
peak funding), the hardware's market value at the end and tax losses that expire.

As in :mod:`costmodel.report.memo.text`: trusted HTML patterns with ``{named}``
fields, filled by :func:`costmodel.report.memo.context.say` (every field escaped);
numbers arrive formatted by :mod:`costmodel.report.memo.format`.
"""

from __future__ import annotations

MAXIM_HEADROOM = {
    "en": "reserve the physical interfaces (rack power, high-speed network ports, cooling "
    "pipework) rather than build everything at once, and so avoid tearing down and "
    "rebuilding later",
    "zh": "预留“物理接口”比一步到位更明智：为机柜电力、高速网络端口和散热管路预留冗余，"
    "避免后期推倒重来",
}

GROWTH: dict[str, dict[str, str]] = {
    "en": {
        "heading": "Grow in stages or build at once?",
        "opt_at_once": "Final size at once",
        "opt_staged_headroom": "In stages, headroom reserved",
        "opt_staged_rebuild": "In stages, hall extended later",
        "name_at_once": "building the final size at once",
        "name_staged_headroom": "staging with the headroom reserved",
        "name_staged_rebuild": "staging and extending the hall later",
        "intro": "<strong>{label}</strong> reaches {gpus} GPUs in steps: {first} GPUs bought "
        "in month {month0}, then {steps}. Three ways to get there, from the same assumptions: "
        "buy the final size with the first deployment; stage it with the hall built for the "
        "final load at month 0 (headroom reserved); or stage it with a hall for the first "
        "step only, extended at each stage at a retrofit premium of {premium} on the build "
        "cost.",
        "step": "{gpus} GPUs in month {month}",
        "col_option": "Option",
        "col_npv": "NPV",
        "col_funding": "Peak funding need",
        "col_cost": "Levelized cost per GPU-hour",
        "col_initial": "Capex before revenue",
        "col_capex": "Capex in total",
        "m_npv": "NPV",
        "m_peak_funding": "Peak funding need",
        "m_cost_per_gpu_hour": "Levelized cost per GPU-hour",
        "m_capex_initial": "Capex before revenue (months 0–{month})",
        "m_capex": "Capex in total",
        "measure": "<strong>{measure}</strong>: {best} is best at {value}; {others}.",
        "measure_tie": "<strong>{measure}</strong>: {best} tie at {value}; {others}.",
        "measure_all": "<strong>{measure}</strong>: the three options are equal at {value}.",
        "other": "{name} is {diff} worse ({value})",
        "and": " and ",
        "also": "; ",
        "hall": "Reserving the headroom pays {early} at month 0 for hall capacity the first "
        "{first} GPUs do not use; extending the hall later pays {later} instead, at the stage "
        "months, the {premium} retrofit premium included.",
        "pays": "At these inputs reserving pays for itself: its NPV is {diff} higher than the "
        "later extension's, and stays higher while the retrofit premium is above {be}.",
        "pays_nobe": "At these inputs reserving pays for itself: its NPV is {diff} higher than "
        "the later extension's.",
        "not_pays": "At these inputs reserving does not pay for itself: its NPV is {diff} "
        "lower than the later extension's; it would take a retrofit premium above {be} "
        "(assumed: {premium}).",
        "not_pays_nobe": "At these inputs reserving does not pay for itself: its NPV is {diff} "
        "lower than the later extension's, at any retrofit premium up to {max}.",
        "no_hall": "There is no hall to build (the facility is rented), so reserving the "
        "headroom and extending later cost the same.",
        "maxim_yes": "By NPV, the numbers bear out the source's advice to {maxim}.",
        "maxim_half": "The source's advice is to {maxim}. By NPV, at these inputs, the numbers "
        "bear it out against the later extension but not against building at once, which "
        "has the higher NPV.",
        "maxim_no": "The source's advice is to {maxim}. By NPV, at these inputs, the numbers "
        "do not bear it out: {winner} has the highest NPV.",
        "note": "Peak funding need: the most cash the option needs at any month (cumulative "
        "cash flow without the value at the end). Levelized cost: present value of capex and "
        "opex ÷ present value of GPU-hours sold.",
    },
    "zh": {
        "heading": "分期建设还是一步到位？",
        "opt_at_once": "一步到位建成最终规模",
        "opt_staged_headroom": "分期建设，预留物理接口",
        "opt_staged_rebuild": "分期建设，后期扩建机房",
        "name_at_once": "一步到位",
        "name_staged_headroom": "分期建设并预留接口",
        "name_staged_rebuild": "分期建设、后期扩建机房",
        "intro": "<strong>{label}</strong>分步达到 {gpus} 卡：第 {month0} 月购入 {first} 卡，"
        "此后{steps}。在同一套假设下比较三种做法：首期即购入最终规模；分期购入，但第 0 月"
        "即按最终负载建好机房（预留物理接口）；或分期购入，机房只按首期建设，每期扩建时"
        "在建设成本之上多付 {premium} 的改造溢价。",
        "step": "第 {month} 月增加 {gpus} 卡",
        "col_option": "方案",
        "col_npv": "净现值",
        "col_funding": "峰值资金需求",
        "col_cost": "每卡时平准化成本",
        "col_initial": "投产前投资",
        "col_capex": "投资合计",
        "m_npv": "净现值",
        "m_peak_funding": "峰值资金需求",
        "m_cost_per_gpu_hour": "每卡时平准化成本",
        "m_capex_initial": "投产前投资（第 0–{month} 月）",
        "m_capex": "投资合计",
        "measure": "<strong>{measure}</strong>：{best}最优，为 {value}；{others}。",
        "measure_tie": "<strong>{measure}</strong>：{best}并列最优，为 {value}；{others}。",
        "measure_all": "<strong>{measure}</strong>：三种做法相同，均为 {value}。",
        "other": "{name}为 {value}，差 {diff}",
        "and": "、",
        "also": "；",
        "hall": "预留接口意味着第 0 月就为首期 {first} 卡用不到的机房容量支付 {early}；"
        "后期扩建则在各期月份支付 {later}（含 {premium} 的改造溢价）。",
        "pays": "在当前假设下，预留接口物有所值：其净现值比后期扩建高 {diff}；只要改造溢价"
        "高于 {be}，这一结论不变。",
        "pays_nobe": "在当前假设下，预留接口物有所值：其净现值比后期扩建高 {diff}。",
        "not_pays": "在当前假设下，预留接口并不划算：其净现值比后期扩建低 {diff}；改造溢价"
        "需高于 {be}（假设为 {premium}）才划算。",
        "not_pays_nobe": "在当前假设下，预留接口并不划算：改造溢价即使高达 {max}，其净现值"
        "仍比后期扩建低 {diff}。",
        "no_hall": "机房为租用（托管），无需自建，预留接口与后期扩建的成本相同。",
        "maxim_yes": "按净现值衡量，数字印证了资料的建议：“{maxim}”。",
        "maxim_half": "资料建议：“{maxim}”。按净现值衡量，在当前假设下，数字只在与后期扩建"
        "相比时印证这一建议；一步到位的净现值更高。",
        "maxim_no": "资料建议：“{maxim}”。按净现值衡量，在当前假设下，数字并不支持这一建议："
        "{winner}的净现值最高。",
        "note": "峰值资金需求：任一月份所需的最大累计资金（累计现金流，不计期末残值）。"
        "平准化成本：初始投资与运营成本的现值 ÷ 售出卡时的现值。",
    },
}

FINANCING: dict[str, dict[str, str]] = {
    "en": {
        "heading": "What the bank loan does",
        "intro": "{share} of every capex payment is borrowed at {rate} a year and repaid in "
        "level monthly payments over {term} years from the start of operations; interest "
        "during construction is added to the loan, and whatever is still owed at the end of "
        "the horizon is repaid then. The project's NPV and IRR are before financing; the "
        "owners' cash flow (after the loan's draws, interest and repayments, and the tax "
        "saved on interest) is discounted at the cost of equity, {coe}.",
        "col_npv": "Project NPV",
        "col_irr": "Project IRR",
        "col_equity_npv": "Equity NPV",
        "col_equity_irr": "Equity IRR",
        "col_dscr": "Minimum DSCR (year)",
        "col_debt_peak": "Peak debt",
        "dscr_year": " (year {y})",
        "col_funding": "Peak funding need",
        "returns": "<strong>{label}</strong>: the owners' NPV is {equity_npv} at {coe} "
        "against the project's {npv} at {rate}; their IRR is {equity_irr} against {irr}. "
        "Debt peaks at {debt_peak}; the project's peak funding need is {funding}.",
        "breach": "Its minimum DSCR, {dscr} in year {year}, is below the {covenant} "
        "covenant: breached in {k} of the {n} years with debt service.",
        "breach_all": "Its minimum DSCR, {dscr} in year {year}, is below the {covenant} "
        "covenant, and so is the DSCR of every one of the {n} years with debt service.",
        "headroom": "Its minimum DSCR, {dscr} in year {year}, clears the {covenant} covenant "
        "by {room}: the covenant holds in every year with debt service.",
        "no_covenant": "Its minimum DSCR is {dscr} in year {year}; the inputs set no covenant "
        "to hold it against.",
        "no_service": "No debt service falls within the horizon, so there is no DSCR.",
        "note": "DSCR: cash flow available for debt service (revenue − opex − tax after "
        "interest) ÷ interest and principal paid, by model year; the final repayment at the "
        "horizon is left out. Peak debt: the largest balance owed.",
    },
    "zh": {
        "heading": "银行贷款的影响",
        "intro": "每笔投资的 {share} 以年利率 {rate} 借入，自投产起分 {term} 年按月等额还款；"
        "建设期利息计入本金，测算期末仍未还清的部分一次还清。项目净现值与内部收益率不考虑"
        "融资；股东现金流（计入贷款提款、利息与还本，以及利息抵税）按股权成本 {coe} 折现。",
        "col_npv": "项目净现值",
        "col_irr": "项目内部收益率",
        "col_equity_npv": "股权净现值",
        "col_equity_irr": "股权内部收益率",
        "col_dscr": "最低偿债覆盖率（年份）",
        "col_debt_peak": "贷款余额峰值",
        "dscr_year": "（第 {y} 年）",
        "col_funding": "峰值资金需求",
        "returns": "<strong>{label}</strong>：按 {coe} 折现，股东净现值为 {equity_npv}，"
        "项目按 {rate} 折现为 {npv}；股权内部收益率 {equity_irr}，项目为 {irr}。贷款余额"
        "最高 {debt_peak}；项目峰值资金需求 {funding}。",
        "breach": "最低偿债覆盖率为 {dscr}（第 {year} 年），低于 {covenant} 的约定下限："
        "在有还本付息的 {n} 年中有 {k} 年违约。",
        "breach_all": "最低偿债覆盖率为 {dscr}（第 {year} 年），低于 {covenant} 的约定下限；"
        "有还本付息的 {n} 年全部低于下限。",
        "headroom": "最低偿债覆盖率为 {dscr}（第 {year} 年），高出 {covenant} 的约定下限 "
        "{room}：有还本付息的每一年都满足约定。",
        "no_covenant": "最低偿债覆盖率为 {dscr}（第 {year} 年）；假设中未设约定下限可供比较。",
        "no_service": "测算期内没有还本付息，因此没有偿债覆盖率。",
        "note": "偿债覆盖率：按模型年度，可用于偿债的现金流（收入 − 运营成本 − 扣除利息后"
        "的税）÷ 当年支付的利息与本金；期末一次还清的部分不计。贷款余额峰值：最大的未偿"
        "余额。",
    },
}

TIMING: dict[str, dict[str, str]] = {
    "en": {
        "all": "Every option",
        "build_ramp": "{who}: construction takes {build} months and the ramp {ramp} more; "
        "revenue starts in {start} (month {m}) and the assumed utilization is reached in "
        "{full}.",
        "build_only": "{who}: construction takes {build} months; revenue starts in {start} "
        "(month {m}) at the assumed utilization.",
        "ramp_only": "{who}: no construction period is assumed; revenue starts in {start} "
        "and ramps to the assumed utilization over {ramp} months, reached in {full}.",
        "none": "{who}: no construction or ramp is assumed; revenue starts in {start}, the "
        "first month, at the assumed utilization.",
        "funding": "The cash to raise before each option funds itself peaks at {items}.",
        "item": "{amount} for {label}",
        "market": "At the end of the horizon the hardware is valued at its market price: {items}.",
        "market_item": "{label} {value} against a book value of {book} ({tax})",
        "tax_gain": "tax on the gain {tax}",
        "tax_loss": "tax refund on the loss {tax}",
        "tax_none": "no tax",
        "expired": "Tax losses can be carried forward only {years} years, so some expire "
        "unused: {items}.",
        "expired_item": "{label} {amount} of the {added} it loses",
    },
    "zh": {
        "all": "各方案",
        "build_ramp": "{who}：建设期 {build} 个月，之后再用 {ramp} 个月爬坡；{start}（第 {m} "
        "月）开始有收入，{full}达到假设利用率。",
        "build_only": "{who}：建设期 {build} 个月；{start}（第 {m} 月）开始有收入，"
        "即达到假设利用率。",
        "ramp_only": "{who}：不设建设期；{start}开始有收入，用 {ramp} 个月爬坡，{full}达到"
        "假设利用率。",
        "none": "{who}：不设建设期与爬坡期；自首月（{start}）起即有收入，并达到假设利用率。",
        "funding": "各方案在实现自我造血之前需要筹集的资金峰值：{items}。",
        "item": "{label}{amount}",
        "market": "测算期末硬件按市场价值计：{items}。",
        "market_item": "{label}市场价值 {value}，账面价值 {book}（{tax}）",
        "tax_gain": "增值部分缴税 {tax}",
        "tax_loss": "减值部分退税 {tax}",
        "tax_none": "无需缴税",
        "expired": "税务亏损只能结转 {years} 年，部分亏损到期作废：{items}。",
        "expired_item": "{label}作废 {amount}（亏损合计 {added}）",
    },
}

# The method's rules that depend on the inputs: how long tax losses last and what
# the assets are worth at the end (costmodel.report.memo.context.method).
METHOD_RULES: dict[str, dict[str, str]] = {
    "en": {
        "loss_unlimited": "without limit",
        "loss_years": "for {years} years, oldest first, after which they expire",
        "terminal_book": "the net book value",
        "terminal_none": "nothing",
        "terminal_market": "the assets' market value (cost × (1 − annual market decline) ^ "
        "years held), less tax on its difference from the net book value",
    },
    "zh": {
        "loss_unlimited": "可无限期结转",
        "loss_years": "可结转 {years} 年，先到期先用，逾期作废",
        "terminal_book": "资产账面净值",
        "terminal_none": "不计残值",
        "terminal_market": "资产的市场价值（原值 ×（1 − 年市场贬值率）^ 持有年数），并就其与账面"
        "净值之差纳税",
    },
}

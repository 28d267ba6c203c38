"""The memo's words in English and Chinese: headings, labels, sentence patterns.

Sentence patterns are trusted HTML with ``{named}`` fields; :mod:`costmodel.report.memo.render`
fills them with ``markupsafe.Markup(pattern).format(...)``, which HTML-escapes
every field, so text from assumption files (tier labels, fabric names) can never
inject markup. Numbers arrive already formatted by :mod:`costmodel.report.memo.numbers`.

This module holds the words every part of the memo shares (:data:`TEXT`); each
section's own words are in a sibling module: :mod:`~costmodel.report.memo.text_summary`
(the decision), :mod:`~costmodel.report.memo.text_risks` (risks per tier),
:mod:`~costmodel.report.memo.text_method` (method and appendix),
:mod:`~costmodel.report.memo.text_reliability` (failures and fit),
:mod:`~costmodel.report.memo.text_charts` (the charts) and
:mod:`~costmodel.report.memo.text_analysis` (sensitivity, scenarios, build or rent).
"""

from __future__ import annotations

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Investment memo",
        "colon": ": ",
        "unit_paren": " ({u})",
        "stop": ".",
        "space": " ",
        "fig": "{n}. ",
        "list_sep": ", ",
        "input": "Input",
        "zh_name": "",
        "zh_name_site": "",
        "subtitle": "GPU compute center: which scale to build",
        "date": "Date",
        "model": "Model",
        "fingerprint": "Assumption fingerprint (SHA-256)",
        "currency": "Currency",
        "horizon": "Horizon",
        "horizon_value": "{years} years from {start}",
        "discount": "Discount rate",
        "files": "Assumption files",
        "files_none": "built in code (no files)",
        "changes": "Inputs changed in a workbook",
        "contents": "Contents",
        "h_summary": "Executive summary",
        "h_key": "The numbers that decide it",
        "h_detail": "Behind the decision",
        "h_compare": "Comparison of the options",
        "h_charts": "Charts",
        "h_profiles": "The options: profile and risks",
        "h_method": "Method",
        "h_rule": "Decision rule",
        "h_formulas": "Formulas",
        "h_assumptions": "Assumptions",
        "appendix_not_printed": "The full assumptions table (every input with its range, "
        "unit and source) is in the HTML file of this memo and in the workbook's Inputs "
        "sheet; it is left out of print to keep the memo short.",
        "h_maxims": "Rules of thumb from the source",
        "metric": "Metric",
        "tier": "Option",
        "npv": "NPV",
        "price_assumed": "Assumed price, year 1",
        "price_cloud": "Cloud price, same GPU",
        "pi": "NPV per unit of capex",
        "funding": "Peak funding need",
        "price_breakeven": "Break-even price, year 1",
        "price_gap": "Price change to break even",
        "cost_levelized": "Levelized cost",
        "capex": "Capex",
        "best_legend": "★ marks the best value of a row that measures quality per unit (cost "
        "per GPU-hour, return on capital, goodput); rows that measure size (capex, revenue, "
        "NPV) carry none, as the smallest or the largest option would always win them.",
        "fn_irr": "no IRR: at no rate in range does NPV fall through 0 (it never reaches 0, "
        "or only rises through it, as a loan's does).",
        "fn_roots": "several roots: NPV crosses 0 more than once at the rates searched (a "
        "repayment at the end turns it back); the IRR shown is the rate nearest 0 at which "
        "NPV falls through 0, so it is above a hurdle exactly when the NPV there is positive.",
        "fn_payback": "no payback: cumulative cash flow stays below zero within the "
        "{years}-year horizon (payback counts no terminal value).",
        "fn_share": "no designed fabric: the network is priced as a share of the hardware, "
        "so it has no levels to count.",
        "fn_no_debt": "no debt: there is no debt service to cover.",
        "fn_failures": "no failures assumed, or no checkpoint to write.",
        "fn_captive": "an enterprise's own cluster (revenue mode avoided_cloud): the saving "
        "by building instead of renting the same GPU-hours, not a return on capital.",
        "fn_other": "not defined: its denominator is zero (no GPU-hours or zero goodput).",
        "fn_full_year": "no full operating year: construction runs into the last of the "
        "{years} years, so no year of the horizon is operated throughout.",
        "year_n": "{y}",
        "year_when": "{y} ({when})",
        "aspect": "Aspect",
        "seed_col": "Typical at this scale (source)",
        "source_cite": "The source: a Chinese technical note on the scale tiers of GPU compute "
        "centres (tens, hundreds and thousands of cards: workloads, servers, network, "
        "storage, scheduling, cooling, build cost and team per tier). Its typical traits, "
        "risks and traps are translated here; the figures beside them are this model's.",
        "model_col": "This option (assumptions)",
        "scale_class": "Scale class",
        "risks": "Main risks, priced with this model",
        "seed_risk": "The source's main risk at this scale:",
        "trap": "Trap:",
        "path": "Path",
        "value": "Value",
        "range": "Range",
        "unit": "Unit",
        "source": "Source and note",
        "no_source": "no source given",
        "gpus_suffix": "GPUs",
        "rack_kw": "{kw} kW per rack",
        "storage_nodes": "{nodes} storage node{plural}, {tb} TB, {gbps} GB/s of writes",
        "storage_plain": "{tb} TB, {gbps} GB/s of writes",
        "storage_band": "the source asks {band} at this scale: {where}",
        "storage_where": {"below": "below it", "within": "within it", "above": "above it"},
        "design_taken": "design {design}: {label}",
        "team_fte": "{fte} FTE",
        "team_scaled": "{fte} FTE in the final cluster ({fixed} fixed + {per} per server)",
        "fabric": "{levels} level{plural}, {switches} switches, {optics} transceivers, "
        "{share} of hardware",
        "fabric_band": "the source gives {lo}–{hi} of hardware at this scale: {where}",
        "band_where": {"below": "below it", "within": "within it", "above": "above it"},
        "pue": "PUE {pue}",
        "footer": "Generated by costmodel {version} from the assumptions with fingerprint "
        "{fingerprint}. All figures come from the model; none were typed in by hand.",
    },
    "zh": {
        "title": "投资备忘录",
        "colon": "：",
        "unit_paren": "（{u}）",
        "stop": "。",
        "space": "",
        "fig": "图 {n}　",
        "list_sep": "、",
        "input": "输入",
        "zh_name": "GPU 算力中心建设规模比较（{n} 个方案，{year} 年 {month} 月起）",
        "zh_name_site": "GPU 算力中心建设规模比较（{n} 个方案，{site}，{year} 年 {month} 月起）",
        "subtitle": "GPU 算力中心：建设规模选择",
        "date": "日期",
        "model": "模型",
        "fingerprint": "假设指纹（SHA-256）",
        "currency": "币种",
        "horizon": "测算期",
        "horizon_value": "自 {year} 年 {month} 月起 {years} 年",
        "discount": "折现率",
        "files": "假设文件",
        "files_none": "由代码构建（无文件）",
        "changes": "在工作簿中修改的假设",
        "contents": "目录",
        "h_summary": "执行摘要",
        "h_key": "决定结论的关键数字",
        "h_detail": "结论的依据",
        "h_compare": "方案对比",
        "h_charts": "图表",
        "h_profiles": "各方案概况与风险",
        "h_method": "方法说明",
        "h_rule": "决策规则",
        "h_formulas": "计算公式",
        "h_assumptions": "假设清单",
        "appendix_not_printed": "完整的假设清单（每项输入的取值、范围、单位与来源）见本备忘录的"
        "网页文件及工作簿的输入表；为控制篇幅，打印版不含该清单。",
        "h_maxims": "选型箴言（摘自资料）",
        "metric": "指标",
        "tier": "方案",
        "npv": "净现值",
        "price_assumed": "假设价格（首年）",
        "price_cloud": "同款 GPU 云价格",
        "pi": "单位投资净现值",
        "funding": "峰值资金需求",
        "price_breakeven": "盈亏平衡价格（首年）",
        "price_gap": "达到盈亏平衡需调价",
        "cost_levelized": "平准化成本",
        "capex": "初始投资",
        "best_legend": "★ 表示衡量单位质量的行（每卡时成本、投资回报、有效产出率）中的最优值；"
        "衡量规模的行（初始投资、收入、净现值）不标注，因为它们总是由最小或最大的方案胜出。",
        "fn_irr": "无内部收益率：在取值范围内，净现值没有由正转负地穿过零（从未为零，"
        "或只像贷款那样由负转正）。",
        "fn_roots": "多个根：在搜索的折现率范围内，净现值不止一次穿过零（期末的一次性还款"
        "使其折返）；表中的内部收益率是最接近零、净现值由正转负的那个折现率，因此它高于"
        "门槛收益率当且仅当按该门槛计算的净现值为正。",
        "fn_payback": "无回收期：在 {years} 年测算期内累计现金流始终为负（回收期不计期末残值）。",
        "fn_share": "未按拓扑设计网络：网络投资按硬件投资的比例估算，没有层数可计。",
        "fn_no_debt": "无债务：没有需要覆盖的还本付息。",
        "fn_failures": "未假设故障，或无需写入检查点。",
        "fn_captive": "企业自用集群：衡量自建相对租用同等卡时的节省，而非资本回报。",
        "fn_other": "无定义：分母为零（无卡时或有效产出率为零）。",
        "fn_full_year": "无完整运营年：建设期延续到 {years} 年测算期的最后一年，"
        "没有全年运营的年度。",
        "year_n": "第 {y} 年",
        "year_when": "第 {y} 年（{when}）",
        "aspect": "维度",
        "seed_col": "该规模的典型配置（资料）",
        "source_cite": "资料：一篇关于算力中心规模分级的中文技术文章（几十卡、百卡、千卡三个量级，"
        "逐级说明典型场景、服务器、网络、存储、调度、散热、建设成本与团队）。下表摘录其典型配置、"
        "风险与陷阱，旁边是本模型的数字。",
        "model_col": "本方案（假设）",
        "scale_class": "规模等级",
        "risks": "主要风险（按本模型测算）",
        "seed_risk": "资料指出的该规模最大风险：",
        "trap": "真实陷阱：",
        "path": "路径",
        "value": "取值",
        "range": "范围",
        "unit": "单位",
        "source": "来源与说明",
        "no_source": "未注明来源",
        "gpus_suffix": "卡",
        "rack_kw": "单柜 {kw} kW",
        "storage_nodes": "{nodes} 个存储节点，{tb} TB，写入带宽 {gbps} GB/s",
        "storage_plain": "{tb} TB，写入带宽 {gbps} GB/s",
        "storage_band": "资料要求该规模聚合带宽 {band}：{where}",
        "storage_where": {"below": "低于要求", "within": "达到要求", "above": "高于要求"},
        "design_taken": "设计方案 {design}：{label}",
        "team_fte": "{fte} 人",
        "team_scaled": "建成后 {fte} 人（固定 {fixed} 人，每台服务器 {per} 人）",
        "fabric": "{levels} 层网络，{switches} 台交换机，{optics} 个光模块，占硬件投资 {share}",
        "fabric_band": "资料给出该规模网络占硬件 {lo}–{hi}：{where}",
        "band_where": {"below": "低于该区间", "within": "在区间内", "above": "高于该区间"},
        "pue": "PUE {pue}",
        "footer": "本文件由 costmodel {version} 根据指纹为 {fingerprint} 的假设自动生成，"
        "所有数字均来自模型计算，无手工录入。",
    },
}

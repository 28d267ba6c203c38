"""The words of the what-if page, English and Chinese (the names of inputs and
metrics come from the registries, :mod:`costmodel.inputs.vocabulary` and
:data:`costmodel.core.metrics.METRICS`; the decision from the memo's text)."""

from __future__ import annotations

from costmodel.catalogue.items import CAPEX_CLASSES, label

PAGE: dict[str, dict[str, str]] = {
    "en": {
        "title": "What-if: {name}",
        "intro": "Move an input and every option is recomputed on the model's engine; "
        "the decision and the charts are the memo's.",
        "other_lang": "中文",
        "h_options": "The options",
        "h_decision": "The decision",
        "h_charts": "Charts",
        "h_inputs": "Inputs",
        "h_risk": "Monte Carlo",
        "option": "Option",
        "range": "{low} to {high}",
        "reset": "Reset all inputs",
        "save": "Save as scenario",
        "workbook": "Download workbook",
        "memo": "Download memo",
        "run_mc": "Run Monte Carlo",
        "draws": "draws",
        "progress": "{done} of {n} draws",
        "mc_note": "{n} draws of the ranged inputs around the current values, seed {seed}.",
        "p10": "NPV, P10",
        "p50": "NPV, P50",
        "p90": "NPV, P90",
        "p_positive": "P(NPV > 0)",
        "moved": "Inputs moved: {n}.",
        "error": "Not recomputed:",
        "notice": "Check these inputs:",
        "busy": "recomputing",
        "files": "Assumptions: {files}; fingerprint {fp}.",
        "group_tier": "Option: {label}",
        "recomputed": "Recomputed in {ms} ms.",
        "sweep_tier": "Option",
        "sweep_from": "GPUs from",
        "sweep_to": "to",
        "run_sweep": "Run the scale sweep",
        "sweep_intro": "The option rebuilt at GPU counts from a server up (no stages, storage "
        "in proportion, the network from its share or design, the staff as assumed), at the "
        "current inputs: the memo's scale curve and its rows.",
        "sweep_progress": "{done} of {n} GPU counts",
        "sweep_caption": "rebuilt at {n} GPU counts from {lo} to {hi}: levelized cost per "
        "GPU-hour and capex per GPU on a log axis of GPUs. The dot is the option's own size; "
        "dashed lines are steps of scale class or network levels.",
        "sweep_note": "★ the option's own size; a step (dashed rule): the scale class or the "
        "network levels differ from the row above.",
        "sweep_step": "Step",
        "study_intro": "The option rebuilt at the GPU counts of a range (as the scale sweep) and "
        "simulated at each on the same draws of every ranged input, at the current inputs: the "
        "probability that NPV is above zero by size, the best size framed.",
        "study_draws": "draws per size",
        "run_study": "Run the study",
        "study_progress": "{done} of {n} draws (all sizes)",
    },
    "zh": {
        "title": "假设分析：{name}",
        "intro": "调整任一输入，所有方案即由模型引擎重新计算；结论与图表与投资备忘录相同。",
        "other_lang": "EN",
        "h_options": "方案比较",
        "h_decision": "结论",
        "h_charts": "图表",
        "h_inputs": "输入",
        "h_risk": "蒙特卡洛模拟",
        "option": "方案",
        "range": "{low} 至 {high}",
        "reset": "全部恢复默认值",
        "save": "另存为情景",
        "workbook": "下载工作簿",
        "memo": "下载备忘录",
        "run_mc": "运行蒙特卡洛模拟",
        "draws": "抽样次数",
        "progress": "已完成 {done}/{n} 次抽样",
        "mc_note": "在当前取值附近对有区间的输入抽样 {n} 次，随机种子 {seed}。",
        "p10": "NPV 第 10 百分位",
        "p50": "NPV 中位数",
        "p90": "NPV 第 90 百分位",
        "p_positive": "NPV 为正的概率",
        "moved": "已调整的输入：{n} 项。",
        "error": "未重新计算：",
        "notice": "请检查以下输入：",
        "busy": "计算中",
        "files": "假设文件：{files}；指纹 {fp}。",
        "group_tier": "方案：{label}",
        "recomputed": "重新计算用时 {ms} 毫秒。",
        "sweep_tier": "方案",
        "sweep_from": "卡数从",
        "sweep_to": "至",
        "run_sweep": "运行规模扫描",
        "sweep_intro": "按当前输入，将方案从一台服务器起按不同卡数重新测算（不分期，存储按比例，"
        "网络按比例或按设计，人员按假设）：备忘录的规模曲线及其各行数据。",
        "sweep_progress": "已完成 {done}/{n} 个卡数",
        "sweep_caption": "按 {lo} 至 {hi} 卡之间的 {n} 个卡数重新测算：按卡数对数坐标列示"
        "平准化每卡时成本与每卡初始投资。圆点为方案自身规模；虚线为规模等级或网络层数的跃变。",
        "sweep_note": "★ 为方案自身规模；跃变（虚线）：规模等级或网络层数与上一行不同。",
        "sweep_step": "跃变",
        "study_intro": "按当前输入，将方案按某一卡数区间重新测算（同规模扫描），"
        "并在每个卡数上以所有区间输入相同的抽样进行模拟：给出各规模下净现值为正的概率，加框者为最优规模。",
        "study_draws": "每个规模的抽样次数",
        "run_study": "运行选址与规模分析",
        "study_progress": "已完成 {done}/{n} 次抽样（全部规模）",
    },
}

#: the groups of inputs, in the order of the workbook's Inputs sheet
GROUPS: dict[str, dict[str, str]] = {
    "en": {
        "timeline": "Construction and ramp-up",
        "finance": "Finance",
        "power": "Power",
        "facility": "Facility",
        "operations": "Operations",
        "revenue": "Revenue",
        "reliability": "Reliability",
        "financing": "Financing",
        "vat": "VAT",
        "cooling": "Cooling",
        "depreciation": "Depreciation",
        "servers": "Servers",
        "designs": "Designs by scale class",
        "sites": "Sites",
        "subsidies": "Subsidies",
        "fx": "Exchange rates",
    },
    "zh": {
        "timeline": "建设与爬坡",
        "finance": "财务",
        "power": "电力",
        "facility": "机房",
        "operations": "运营",
        "revenue": "收入",
        "reliability": "可靠性",
        "financing": "融资",
        "vat": "增值税",
        "cooling": "冷却",
        "depreciation": "折旧",
        "servers": "服务器",
        "designs": "按规模等级的设计方案",
        "sites": "站点",
        "subsidies": "补贴",
        "fx": "汇率",
    },
}

#: the asset classes of the depreciation inputs
ASSETS: dict[str, dict[str, str]] = {
    "en": {c: label(c, "en").lower() for c in CAPEX_CLASSES},
    "zh": {c: label(c, "zh") for c in CAPEX_CLASSES},
}

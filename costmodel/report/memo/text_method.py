"""The memo's method section and assumptions appendix in English and Chinese: the
method's paragraphs, its input-dependent rules and the appendix's section names
(sentence patterns as in :mod:`costmodel.report.memo.text`).
"""

from __future__ import annotations

# Method section: (heading, paragraph) pairs; fields: rate, tax, horizon, hours.
METHOD: dict[str, list[tuple[str, str]]] = {
    "en": [
        (
            "Decision rule",
            "If any NPV is positive, recommend the highest positive NPV (value added, with "
            "capital not rationed) and show its NPV per unit of capex beside it. If none is, "
            "say plainly that no option is worth building and rank the options by NPV per "
            "unit of capex: the smallest loss in absolute terms always belongs to the "
            "smallest project, so it says nothing about which option is closest to paying. "
            "For every option give the year-1 price per GPU-hour and the utilization at "
            "which its NPV would be zero, found by narrowing a bracket around the root (NPV "
            "is not linear in price because of the tax loss pool), all other assumptions "
            "unchanged.",
        ),
        (
            "Time",
            "A built hall is paid at month 0, the investment date; each deployment's "
            "hardware is paid in its capex month (the first when construction ends, each "
            "stage in its own month) and earns from the month after, its utilization ramping "
            "up over the ramp months. Months 1 to {months} follow, each of {hours} hours, "
            "with cash flows at month end. Annual rates are compounded to monthly rates; the "
            "discount rate is {rate}.",
        ),
        (
            "Capex",
            "Servers = number of servers × server price; storage = capacity × price per TB; "
            "the network is the given share of total hardware capex, so network = share / "
            "(1 − share) × (servers + storage). IT load = servers × server power × (1 + "
            "auxiliary power); a rack holds as many whole servers as its power allows, and racks = "
            "servers / servers per rack, rounded up. Facility = IT load × "
            "build cost per kW of the cooling type (zero when the hall is rented).",
        ),
        (
            "Opex",
            "{opex_rules}",
        ),
        (
            "Depreciation, tax and cash flow",
            "Each asset class is depreciated over its life by its method, spread evenly over "
            "the months of each year. Revenue = GPU-hours sold (GPUs × utilization × hours) "
            "x price, the price falling each year; a take-or-pay contract sells its share of "
            "the available GPU-hours at the contract price, the rest is sold spot. Tax at {tax} "
            "is annual on taxable income (revenue − opex − tax depreciation, which is the book "
            "depreciation unless a class is expensed in full when it enters service, less any "
            "VAT surtax; a market value's gain over the tax book value in the last year), with "
            "losses carried forward {loss_rule}. Free cash flow = revenue − opex − tax − "
            "capex in the month it is paid + VAT cash, plus at the last month the value at "
            "the end: {terminal}.",
        ),
        (
            "Metrics",
            "NPV = sum of discounted free cash flows. IRR = the monthly rate that makes NPV "
            "zero, annualized (empty if none). Payback = first month when cumulative cash "
            "flow turns non-negative, in years (empty if never). Levelized cost per "
            "GPU-hour = (capex + discounted opex) / discounted GPU-hours. TCO = capex + "
            "nominal opex. ROI = (sum of operating cash flows − capex) / capex.",
        ),
        (
            "Goodput",
            "A whole-cluster job fails every MTBF = 24 / (failures per server-day × "
            "servers) hours. A checkpoint blocks for its size / write bandwidth; Young's "
            "optimal interval is the square root of 2 × write time × MTBF. Goodput = 1 − "
            "(write time / interval + (interval / 2 + restart time) / MTBF). Cost per "
            "effective GPU-hour = levelized cost / goodput; cost per PFLOP-hour divides the "
            "present value of cost by discounted GPU-hours × goodput × MFU × peak TFLOPS / "
            "1000.",
        ),
        (
            "Risk figures",
            "MFU from the option's own MFU m to {degraded}: the share 1 − {degraded} ÷ m of "
            "the compute each GPU-hour buys is lost, so that share of the present value of cost "
            "is at stake and the cost per PFLOP-hour rises by m ÷ {degraded}. Failures: (1 − "
            "goodput) × GPU-hours per year × levelized cost per GPU-hour, also at the high end "
            "of the failure rate's range; revenue at risk = present value of revenue × (1 − "
            "goodput). Backup copy: checkpoint TB × storage price per TB. One day of the "
            "cluster: GPUs × 24 h × levelized cost. Checkpointing {factor} times as often "
            "multiplies the write share (write time ÷ interval) by {factor}.",
        ),
    ],
    "zh": [
        (
            "决策规则",
            "若有方案净现值为正，推荐净现值为正且最高的方案（资金不受限时创造的价值最多），"
            "并列出其单位投资净现值。若全部为负，则明确说明没有方案值得建设，并按单位投资净现值"
            "排序：净现值负值最小的总是规模最小的方案，并不说明哪个方案最接近盈亏平衡。对每个方案给出"
            "使净现值为零的首年每卡时价格和利用率；由于存在税务亏损结转，净现值与价格并非线性"
            "关系，盈亏平衡点通过逐步缩小包含根的区间求解，其他假设保持不变。",
        ),
        (
            "时间",
            "自建机房的投资发生在第 0 月（投资日）；每期硬件在其投资月支付（首期在建设期结束时，"
            "后续各期在各自月份），从下一个月起产生收入，利用率在爬坡期内逐步达到假设值。随后为"
            "第 1 至第 {months} 个月，每月 {hours} 小时，现金流在月末发生。年利率按复利折算为"
            "月利率；折现率为 {rate}。",
        ),
        (
            "初始投资",
            "服务器 = 服务器台数 × 单价；存储 = 容量 × 每 TB 单价；网络按其占硬件总投资的比例"
            "计算，即网络 = 比例 / (1 − 比例) × (服务器 + 存储)。IT 负载 = 服务器台数 × 单机"
            "功率 × (1 + 辅助功率比例)；每个机柜按单柜功率放入整台服务器，机柜数 = 服务器台数 / "
            "每柜台数，向上取整。机房投资 = IT "
            "负载 × 对应散热方式的每 kW 建设成本（租用托管时为零）。",
        ),
        (
            "运营成本",
            "{opex_rules}",
        ),
        (
            "折旧、税与现金流",
            "各类资产按各自方法和年限折旧，每年的折旧额平均摊到 12 个月。收入 = 售出卡时"
            "（卡数 × 利用率 × 小时数）× 价格，价格逐年下降；照付不议合同按合同价格销售可用卡时"
            "的约定比例，其余按现货销售。所得税按年对应纳税所得额（收入 − 运营成本 − 税务折旧"
            "（除选择投入使用当年一次性扣除的资产类别外即会计折旧）− 增值税附加税费；按市场价值"
            "计的期末资产处置收益计入最后一年）以 {tax} 计征，亏损{loss_rule}。自由现金流 = "
            "收入 − 运营成本 − 税 − 当月支付的投资 + 增值税现金流，最后一个月加上期末价值："
            "{terminal}。",
        ),
        (
            "指标",
            "净现值 = 各月自由现金流折现之和。内部收益率 = 使净现值为零的月利率，再年化（不存在"
            "则为空）。回收期 = 累计现金流首次不为负的月份，折算为年（始终为负则为空）。每卡时"
            "平准化成本 = (初始投资 + 运营成本现值) / 卡时现值。总拥有成本 = 初始投资 "
            "+ 名义运营成本。投资回报率 = (运营期现金流之和 − 初始投资) / 初始投资。",
        ),
        (
            "有效产出率",
            "全集群作业的平均故障间隔 MTBF = 24 / (每台每天故障数 × 服务器台数) 小时。"
            "检查点的阻塞写入时间 = 大小 / 写入带宽；Young 最优间隔 = √(2 × 写入时间 × "
            "MTBF)。有效产出率 = 1 − (写入时间 / 间隔 + (间隔 / 2 + 重启时间) / MTBF)。"
            "每有效卡时成本 = 平准化成本 / 有效产出率；每 PFLOP 小时成本 = 成本现值 / (卡时"
            "现值 × 有效产出率 × MFU × 峰值 TFLOPS / 1000)。",
        ),
        (
            "风险数字",
            "MFU 从方案自身的 m 降到 {degraded}：每个卡时的有效算力损失 1 − {degraded} ÷ m，"
            "成本现值中同样比例未转化为有效算力，每 PFLOP 时成本乘以 m ÷ {degraded}。故障损失 = "
            "（1 − 有效产出率）× 每年卡时 × 每卡时平准化成本，并按故障率区间上限另算一次；"
            "收入风险 = 收入现值 ×（1 − 有效产出率）。备份：检查点 TB × 每 TB 存储价格。全集群"
            "一天 = 卡数 × 24 小时 × 平准化成本。保存频率提高到 {factor} 倍，写入占比（写入时间 "
            "÷ 间隔）随之乘以 {factor}。",
        ),
    ],
}

# The method's rules that depend on the inputs: how long tax losses last and what
# the assets are worth at the end (costmodel.report.memo.appendix_section.method).
METHOD_RULES: dict[str, dict[str, str]] = {
    "en": {
        "loss_unlimited": "without limit",
        "loss_years": "for {years} years, oldest first, after which they expire",
        "terminal_book": "the net book value",
        "terminal_none": "nothing",
        "terminal_market": "the assets' market value (cost × (1 − annual market decline) ^ "
        "years held), less tax on its difference from the net book value",
        "terminal_income": "what the hardware still earns: each deployment's margin in the "
        "last month (its revenue less the running costs of its hardware: power, hall rent, "
        "upkeep and cover, the team and selling costs aside), falling with the GPU-hour "
        "price over its remaining economic life, discounted, less tax on its difference "
        "from the net book value",
    },
    "zh": {
        "loss_unlimited": "可无限期结转",
        "loss_years": "可结转 {years} 年，先到期先用，逾期作废",
        "terminal_book": "资产账面净值",
        "terminal_none": "不计残值",
        "terminal_market": "资产的市场价值（原值 ×（1 − 年市场贬值率）^ 持有年数），并就其与账面"
        "净值之差纳税",
        "terminal_income": "设备仍能创造的收益：各批次最后一个月的毛利（收入减电费、机柜租金、"
        "维护、保险与软件费用），在剩余经济寿命内随卡时价格下降并折现，并就其与账面净值之差纳税",
    },
}


# Top-level sections of the assumptions, as the appendix groups them.
SECTIONS = {
    "en": {"": "Model"},
    "zh": {
        "": "模型",
        "finance": "财务",
        "servers": "服务器",
        "power": "电力",
        "facility": "机房",
        "operations": "运营",
        "revenue": "收入",
        "depreciation": "折旧",
        "reliability": "可靠性",
        "risks": "风险情景",
        "tiers": "方案",
        "workloads": "任务",
        "reference": "参考区间",
        "timeline": "建设与爬坡",
        "sizing": "任务测算",
        "financing": "融资",
        "designs": "按规模等级的设计方案",
        "subsidies": "补贴",
        "correlations": "相关抽样",
        "vat": "增值税",
        "sites": "站点",
        "fx": "汇率",
        "policy": "芯片政策",
    },
}

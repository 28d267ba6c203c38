"""The memo's risk sentences per tier in English and Chinese, and the names of the
cooling types they and the tier profiles use (sentence patterns as in
:mod:`costmodel.report.memo.text`).
"""

from __future__ import annotations

# Risk sentences per tier. Fields are formatted numbers (costmodel.report.memo.risk_section.risks).
RISKS: dict[str, dict[str, str]] = {
    "en": {
        "capex_range": "Capex of {capex} is {where} the source's range for this scale ({range}).",
        "within": "within",
        "below": "below",
        "above": "above",
        "mfu": "<strong>MFU collapse.</strong> The model assumes an MFU of {mfu} for this "
        "option. If a badly planned network drops it to {degraded} (the source's case), each "
        "GPU-hour yields {loss} less compute: {at_stake} of the {pv_cost} present value of "
        "cost buys nothing, and the cost per PFLOP-hour rises from {cpf} to {cpf20}.",
        "mfu_none": "<strong>MFU.</strong> The assumed MFU of {mfu} is already at or below "
        "the {degraded} of the source's badly planned network.",
        "failures": "<strong>Failures.</strong> The model assumes {rate} job-stopping "
        "failures per server a day: on {servers} servers one every {mtbf} ({per_day} a day, "
        "{per_year} a year), a goodput of {goodput} and about {lost_hours} GPU-hours lost a "
        "year, worth {lost_money} at the levelized cost of {cost}. At the high end of its "
        "range ({rate_high} per server a day, {per_day_high} a day on this cluster) goodput "
        "falls to {goodput_high} and the loss rises to {lost_money_high} a year.",
        "failures_npv": "None of this reaches the NPV: the model sells every GPU-hour whether "
        "a job fails or not. If customers paid only for completed work, the present value of "
        "revenue would be {pv_lost} lower.",
        "failures_npv_repair": "The NPV counts only the repair downtime ({repair} per "
        "failure leaves {availability} of the hours to sell): at the high end of the rate "
        "the NPV changes by {npv_delta}, to {npv_high}. The lost work above does not reach "
        "it; if customers paid only for completed work, the present value of revenue would "
        "be {pv_lost} lower.",
        "failures_none": "<strong>Failures.</strong> No node failures are assumed, so "
        "goodput is 100%; the model puts no price on failure risk for this option.",
        "network": "<strong>Network.</strong> {fabric_text}The network is {share} of "
        "hardware capex, {network_capex}.",
        "backup": "<strong>No backup.</strong> Checkpoints on local disks vanish with a "
        "failed node, and {per_year} node failures a year are expected. A copy of the latest "
        "{ckpt} checkpoint on shared storage costs about {backup_cost} ({ckpt} at {price_tb}); "
        "one day of the whole cluster costs {day_cost} ({gpus} GPUs × 24 h × {cost}), so the "
        "copy pays for itself the first time it saves {backup_time} of cluster work.",
        "io": "<strong>Checkpoint IO storm.</strong> One {ckpt} checkpoint at {write} blocks "
        "training for {delta}; at the optimal interval of {tau} writing costs {share} of "
        "GPU time. Checkpointing {factor} times as often would raise that to {share10}, "
        "{money10} a year more.",
        "io_trade": "<strong>Storage against goodput.</strong> The {nodes} storage nodes are "
        "sized by {binds}. One more node ({price}) would raise the write bandwidth to "
        "{write_more} and goodput from {goodput} to {goodput_more}: {hours} GPU-hours a year, "
        "worth {money} at the levelized cost, so {verdict}.",
        "io_pays": "the node pays for itself in {years}, within the {horizon} horizon",
        "io_slow": "the node would take {years} to pay for itself, longer than the {horizon} "
        "horizon: the storage as designed is the cheaper side of the trade",
        "io_none": "the node buys no goodput worth pricing",
        "binds_1": "their write bandwidth",
        "binds_2": "their read bandwidth",
        "binds_3": "their capacity",
        "binds_4": "the design's minimum node count",
        "cooling": "<strong>Cooling.</strong> {cooling} at {pue}; facility capex "
        "{capex_facility}. Each day the whole cluster is throttled or down costs up to "
        "{day_cost} of capacity; the model assumes no such days, so neither the NPV nor the "
        "cost per GPU-hour includes them.",
        "software": "<strong>A software problem.</strong> The source calls a thousand-card "
        "cluster a software problem, not a hardware one. At {degraded} MFU, {big} costs "
        "{big_degraded}, {ratio} times the {mid_tuned} of {mid} at its assumed "
        "{mid_mfu}: the extra cards pay only if the infra team keeps MFU near the {big_mfu} "
        "assumed ({big_tuned}).",
    },
    "zh": {
        "capex_range": "初始投资 {capex}，{where}资料给出的该规模建设成本区间（{range}）。",
        "within": "处于",
        "below": "低于",
        "above": "高于",
        "mfu": "<strong>MFU 暴跌。</strong>模型对该方案假设的 MFU 为 {mfu}。若网络规划不当"
        "使其降至 {degraded}（资料所述情形），每个卡时的有效算力减少 {loss}：成本现值 "
        "{pv_cost} 中有 {at_stake} 未转化为有效算力，每 PFLOP 时成本从 {cpf} 升至 {cpf20}。",
        "mfu_none": "<strong>MFU。</strong>假设的 MFU {mfu} 已不高于资料所述网络规划不当时的 "
        "{degraded}。",
        "failures": "<strong>故障。</strong>模型假设每台服务器每天发生 {rate} 次中断作业的"
        "故障：{servers} 台服务器平均每 {mtbf}一次（每天 {per_day} 次，每年 {per_year} 次），"
        "有效产出率 {goodput}，每年约损失 {lost_hours} 卡时，按平准化成本 {cost} 计价值 "
        "{lost_money}。若取其区间上限（每台每天 {rate_high} 次，本集群每天 {per_day_high} "
        "次），有效产出率降至 {goodput_high}，每年损失升至 {lost_money_high}。",
        "failures_npv": "这些损失都不进入净现值：模型按售出卡时计收入，无论作业是否中断。"
        "若客户只为完成的计算付费，收入现值将减少 {pv_lost}。",
        "failures_npv_repair": "净现值只计入维修停机（每次故障维修 {repair}，可售卡时剩 "
        "{availability}）：故障率取区间上限时，净现值变化 {npv_delta}，为 {npv_high}。上述作业损失"
        "不进入净现值；若客户只为完成的计算付费，收入现值将减少 {pv_lost}。",
        "failures_none": "<strong>故障。</strong>未假设节点故障，有效产出率为 100%，模型未对"
        "该方案的故障风险定价。",
        "network": "<strong>网络。</strong>{fabric_text}网络占硬件投资的 {share}，即 "
        "{network_capex}。",
        "backup": "<strong>缺乏备份。</strong>检查点存在本地盘，节点损坏即随之丢失，预计每年"
        "发生 {per_year} 次节点故障。把最新一个 {ckpt} 的检查点另存到共享存储，约需 "
        "{backup_cost}（{ckpt}，每 TB {price_tb}）；全集群一天的算力价值 {day_cost}"
        "（{gpus} 卡 × 24 小时 × {cost}），只要第一次挽回 {backup_time}的集群计算，这份备份"
        "就已回本。",
        "io": "<strong>检查点 IO 风暴。</strong>单次 {ckpt} 的检查点以 {write} 写入，需阻塞"
        "训练 {delta}；按最优间隔 {tau} 保存时，写入占用 {share} 的 GPU 时间。若保存频率提高"
        "到 {factor} 倍，占用将升至 {share10}，每年多损失 {money10}。",
        "io_trade": "<strong>存储与有效产出。</strong>{nodes} 台存储节点的数量由{binds}决定。"
        "再加一台节点（{price}）可把写入带宽提高到 {write_more}，有效产出率从 {goodput} 升至 "
        "{goodput_more}：每年多出 {hours} 卡时，按平准化成本计价值 {money}，{verdict}。",
        "io_pays": "这台节点 {years}即可回本，在 {horizon}的测算期内",
        "io_slow": "这台节点需 {years}才能回本，长于 {horizon}的测算期：按设计配置的存储是"
        "这笔权衡中更省钱的一方",
        "io_none": "这台节点带来的有效产出不值一提",
        "binds_1": "写入带宽",
        "binds_2": "读取带宽",
        "binds_3": "容量",
        "binds_4": "设计的最少节点数",
        "cooling": "<strong>散热。</strong>{cooling}，{pue}；机房投资 {capex_facility}。整集群"
        "每降频或停机一天，损失的算力价值最高可达 {day_cost}；模型未假设此类停机，因此净现值"
        "和每卡时成本都不包含这部分损失。",
        "software": "<strong>软件问题。</strong>资料指出，千卡集群是软件问题，而非硬件问题。"
        "MFU 降至 {degraded} 时，{big}每 PFLOP 时成本为 {big_degraded}，是{mid}在假设 MFU "
        "{mid_mfu} 下 {mid_tuned} 的 {ratio} 倍：只有基础设施团队把 MFU 保持在假设的 "
        "{big_mfu} 附近（{big_tuned}），多出的卡才物有所值。",
    },
}

COOLING = {
    "en": {
        "air": "Air cooling",
        "cold_plate": "Cold-plate liquid cooling",
        "immersion": "Immersion cooling",
    },
    "zh": {"air": "风冷", "cold_plate": "冷板式液冷", "immersion": "浸没式液冷"},
}

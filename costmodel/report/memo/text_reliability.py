"""The memo's sections on failures and checkpoints and on which scale fits which task,
in English and Chinese (sentence patterns as in :mod:`costmodel.report.memo.text`).
"""

from __future__ import annotations

from typing import Any

# The section "What failures and checkpoints cost" (costmodel.report.memo.reliability.failures).
# Row labels and the chart may use {factor} (the storage speed-up); sentence fields
# are formatted numbers.
FAILURES: dict[str, dict[str, str]] = {
    "en": {
        "heading": "What failures and checkpoints cost",
        "intro": "A training job that spans the whole cluster stops whenever any one of its "
        "nodes fails: it loses the work done since the last checkpoint plus the restart, and "
        "every checkpoint blocks training while it is written. Young's interval balances the "
        "two. The table prices what is still lost, per option: GPU-hours are those sold in an "
        "average year (the horizon's GPU-hours ÷ {years} years), valued at the levelized cost "
        "per GPU-hour. The faster storage is each option's own write bandwidth × {factor}, all "
        "else unchanged, with goodput recomputed by the model's formula.",
        "scale": "The bigger the cluster, the more often such a job stops: {f_small} failures "
        "a year on the {s_small} servers of {small}, {f_big} on the {s_big} servers of {big}; "
        "goodput falls from {g_small} to {g_big}.",
        "group_now": "As assumed",
        "group_fast": "With {factor}× the write bandwidth",
        "row_per_year": "Job-stopping node failures a year",
        "row_mtbf": "Cluster MTBF",
        "row_write": "Checkpoint: size @ write bandwidth → write time",
        "row_tau": "Optimal checkpoint interval (Young)",
        "row_goodput": "Goodput",
        "row_annual_hours": "GPU-hours sold, average year",
        "row_lost_hours": "GPU-hours lost a year",
        "row_lost_money": "Their cost a year (levelized)",
        "row_write_fast": "Write bandwidth",
        "row_goodput_fast": "Goodput",
        "row_recovered_hours": "GPU-hours recovered a year",
        "row_recovered_money": "Their value a year",
        "lead_thousands": "<strong>{label}: failure is the norm.</strong> With {servers} "
        "servers the model expects a node failure every {mtbf}: {per_day} a day, {per_year} "
        "a year. The source warns that at thousands of cards more than one node fails a "
        "day; {source_rate} A run without elastic checkpoints and automatic restart may never "
        "finish. Even "
        "checkpointing every {tau}, {lost_share} of GPU time is lost: {lost_hours} "
        "GPU-hours, {lost_money} a year.",
        "lead_hundreds": "<strong>{label}: checkpoint IO storms.</strong> Each {ckpt} "
        "checkpoint blocks training for {delta} at {write}; written every {tau} (the optimum) "
        "that is {write_share} of GPU time, and with the failures ({per_year} a year, one "
        "every {mtbf}) the loss is {lost_share}: {lost_hours} GPU-hours, {lost_money} a year. "
        "The storm the source warns of comes from checkpointing far more often than the "
        "optimum (every 100 steps, from a hundred cards at once), which multiplies the write "
        "share.",
        "lead_tens": "<strong>{label}: no backup.</strong> Failures are rare here (one every "
        "{mtbf}, {per_year} a year) and cost only {lost_share} of GPU time, {lost_money} a "
        "year. The source's risk at tens of cards is not the rate but checkpoints kept on "
        "local disks, which vanish with the failed node. The model assumes every checkpoint "
        "survives; a lost one costs all work since the last copy kept elsewhere, and one day "
        "of the whole cluster is worth {day_cost}.",
        "source_met": "the model assumes as much.",
        "source_high": "the model reaches that only at the high end of the failure rate's "
        "range ({per_day_high} a day).",
        "storage": "{factor}× the write bandwidth ({write_fast}) would lift goodput to "
        "{goodput_fast} and recover {rec_hours} GPU-hours, {rec_money} a year: {rec_total} "
        "over {years} years (undiscounted), the most such an upgrade may cost on top of "
        "today's storage capex of {storage_capex}.",
        "none": "<strong>{label}.</strong> No node failures are assumed, so goodput is 100% "
        "and the model prices no failure loss.",
        "note": "A node failure stops any job that uses the whole cluster: MTBF = 24 h ÷ "
        "(node failures a day per server × servers). Writing a checkpoint blocks training "
        "for checkpoint TB × 1,000 ÷ write GB/s.",
        "chart_title": "GPU time lost to failures and checkpoints, and its cost a year",
        "chart_caption": "The share of GPU time lost to failures and checkpoint writes "
        "(1 − goodput), and the levelized cost of those GPU-hours in an average year; dark: "
        "as assumed, light: with {factor}× the write bandwidth.",
        "lost_axis": "GPU time lost",
        "money_axis": "{unit} a year",
        "as_assumed": "As assumed",
        "faster": "{factor}× write bandwidth",
    },
    "zh": {
        "heading": "故障与检查点的代价",
        "intro": "占用全集群的训练作业，任何一个节点故障都会让整个作业中断：损失自上次检查点"
        "以来的计算和重启时间；而每次写检查点又会阻塞训练。Young 公式给出"
        "两者平衡的最优检查点间隔。下表按方案为仍然损失的部分定价：卡时取平均每年售出量"
        "（测算期卡时 ÷ {years} 年），按平准化成本计价；“更快的存储”指各方案自身的"
        "写入带宽 × {factor}，其他不变，并按模型公式重算有效产出率。",
        "scale": "集群越大，作业中断越频繁：{small}的 {s_small} 台服务器每年中断 {f_small} 次，"
        "{big}的 {s_big} 台服务器每年 {f_big} 次；有效产出率由 {g_small} 降至 {g_big}。",
        "group_now": "按假设",
        "group_fast": "写入带宽 × {factor}",
        "row_per_year": "中断作业的节点故障（次/年）",
        "row_mtbf": "集群平均无故障时间（MTBF）",
        "row_write": "检查点：大小 @ 写入带宽 → 写入耗时",
        "row_tau": "最优检查点间隔（Young）",
        "row_goodput": "有效产出率",
        "row_annual_hours": "售出卡时（平均每年）",
        "row_lost_hours": "每年损失卡时",
        "row_lost_money": "每年损失价值（按平准化成本）",
        "row_write_fast": "写入带宽",
        "row_goodput_fast": "有效产出率",
        "row_recovered_hours": "每年挽回卡时",
        "row_recovered_money": "每年挽回价值",
        "lead_thousands": "<strong>{label}：故障成为常态。</strong>{servers} 台服务器，平均每 "
        "{mtbf}就有一个节点故障：每天 {per_day} 次，每年 {per_year} 次。资料警告，千卡集群"
        "日故障率通常大于 1 台；{source_rate}没有弹性检查点和自动重启能力，预训练任务"
        "可能永远跑不完。"
        "即使每 {tau}保存一次检查点，仍损失 {lost_share} 的 GPU 时间：每年 "
        "{lost_hours} 卡时，价值 {lost_money}。",
        "lead_hundreds": "<strong>{label}：检查点 IO 风暴。</strong>单次 {ckpt} 的检查点"
        "以 {write} 写入需阻塞训练 {delta}；按最优间隔 {tau} 保存，写入占 {write_share} 的 "
        "GPU 时间，加上故障（每年 {per_year} 次，平均每 {mtbf}一次），共损失 {lost_share}："
        "每年 {lost_hours} 卡时，价值 {lost_money}。资料所说的“IO 风暴”来自远比最优间隔"
        "频繁的保存（如百卡同时每 100 步存一次），写入占比会成倍上升。",
        "lead_tens": "<strong>{label}：缺乏备份。</strong>此规模故障很少（平均每 {mtbf}一次，"
        "每年 {per_year} 次），只损失 {lost_share} 的 GPU 时间，每年 {lost_money}。资料指出，"
        "几十卡级的风险不在故障率，而在检查点存在本地盘、节点一坏随之丢失。模型假设"
        "每个检查点都完好；一旦丢失，自上次异地备份以来的计算全部归零，而全集群一天的算力"
        "价值 {day_cost}。",
        "source_met": "模型的假设与此相当。",
        "source_high": "模型只有取故障率区间上限时才达到这一水平（每天 {per_day_high} 次）。",
        "storage": "若写入带宽提高到 {factor} 倍（{write_fast}），有效产出率升至 "
        "{goodput_fast}，每年挽回 {rec_hours} 卡时，价值 {rec_money}；{years} 年合计 "
        "{rec_total}（未折现）。在现有 {storage_capex}的存储投资之外，这项升级的花费不应"
        "超过这个数。",
        "none": "<strong>{label}。</strong>未假设节点故障，有效产出率为 100%，模型未对故障"
        "损失定价。",
        "note": "占用全集群的作业遇任一节点故障即中断：MTBF = 24 小时 ÷（每台服务器每天故障"
        "次数 × 服务器台数）。写检查点期间训练阻塞，耗时 = 检查点 TB × 1000 ÷ 写入 GB/s。",
        "chart_title": "故障与检查点损失的 GPU 时间及其每年代价",
        "chart_caption": "故障与检查点写入损失的 GPU 时间占比（1 − 有效产出率），以及这些"
        "卡时按平准化成本计的平均每年代价；深色为按假设，浅色为写入带宽 × {factor}。",
        "lost_axis": "损失的 GPU 时间",
        "money_axis": "{unit}/年",
        "as_assumed": "按假设",
        "faster": "写入带宽 × {factor}",
    },
}

# ----------------------------------------------------------------------------- fit
# The section "Which scale fits which task" (costmodel.report.memo.reliability.fit).
FIT: dict[str, dict[str, Any]] = {
    "en": {
        "heading": "Which scale fits which task",
        "maxim": "The task decides the scale, not the budget.",
        "maxim_source": "the source's rule for choosing a scale",
        "intro": "Each task of the assumption files, sized against each option. A training "
        "task runs on all of the option's GPUs at its MFU and goodput and must finish by its "
        "deadline; an inference service holds its GPUs all the time. A task fits an option "
        "that has enough GPU memory for it and meets its deadline; the recommended option is "
        "the one with the lowest TCO among those that fit.",
        "col_task": "Task",
        "col_floor": "Memory floor",
        "col_deadline": "Deadline",
        "col_recommended": "Recommended",
        "kind": {
            "pretrain": "pretraining",
            "finetune": "full fine-tune",
            "lora": "LoRA",
            "inference": "inference",
        },
        "gpus_unit": "GPUs",
        "days": "{days} days",
        "no_deadline": "continuous",
        "service": "{floor} GPUs, all the time",
        "short_memory": "needs {floor} GPUs",
        "why_memory": "not enough GPU memory",
        "why_deadline": "misses the deadline",
        "fits": "fits",
        "nofit": "does not fit",
        "used": "uses",
        "idle": "idle",
        "recommended_mark": "recommended",
        "none_fits": "no option fits",
        "legend": "✓ fits, ✗ does not (reason given). Time: on all of the option's GPUs. "
        "Uses: the task's GPU-hours as a share of the option's GPU-hours over the {years}-year "
        "horizon; idle: the rest, capacity bought but not needed for the task. ★ the "
        "recommended option: the lowest TCO that fits.",
        "count": "{k} of the {n} tasks fit {label}, the option with the lowest TCO.",
        "overbuy": "{name} needs {floor} GPUs and {days} on {rec}; on {big} ({big_gpus} GPUs) "
        "it would be done in {big_days}, and that cluster would sit idle {idle} of its "
        "{years}-year horizon.",
        "overbuy_service": "{name} holds {floor} GPUs all the time and is recommended on "
        "{rec}; on {big} ({big_gpus} GPUs) it would leave {idle} of the capacity idle.",
        "needs_time": "{name} is a task that needs {rec}: on {near} it would take {days} "
        "against a {deadline}-day deadline, on {rec} {rec_days}.",
        "needs_memory": "{name} needs {rec}: its model state needs at least {floor} GPUs, "
        "and {near} has {gpus}.",
        "none_time": "No option fits {name}: even the fastest, {label}, needs {days} against "
        "a {deadline}-day deadline.",
        "none_memory": "No option fits {name}: none has enough GPU memory for it.",
        "tokens_cell": "{gpu_cost} → {tokens_cost}",
        "tokens": "Serving {name} on {rec} costs {tokens_cost}: the option's {gpu_cost} "
        "× 1,000,000 / ({tps} tokens per second per GPU × 3,600 s).",
    },
    "zh": {
        "heading": "任务决定规模",
        "maxim": "任务决定规模，而非预算决定规模。",
        "maxim_source": "资料中的选型箴言",
        "intro": "将假设文件中的每个任务放到每个方案上测算：训练任务使用该方案的全部 GPU，"
        "按其 MFU 与有效产出率计算耗时，须在期限内完成；推理服务则持续占用所需 GPU。方案"
        "显存足够且能按期完成即为“可行”；推荐方案为可行方案中总拥有成本（TCO）最低者。",
        "col_task": "任务",
        "col_floor": "显存下限",
        "col_deadline": "期限",
        "col_recommended": "推荐方案",
        "kind": {
            "pretrain": "预训练",
            "finetune": "全参数微调",
            "lora": "LoRA 微调",
            "inference": "推理服务",
        },
        "gpus_unit": "卡",
        "days": "{days} 天",
        "no_deadline": "持续服务",
        "service": "持续占用 {floor} 卡",
        "short_memory": "需 {floor} 卡",
        "why_memory": "显存不足",
        "why_deadline": "无法按期完成",
        "fits": "可行",
        "nofit": "不可行",
        "used": "占用",
        "idle": "闲置",
        "recommended_mark": "推荐",
        "none_fits": "无可行方案",
        "legend": "✓ 可行，✗ 不可行（注明原因）。耗时按使用该方案全部 GPU 计算。占用：任务"
        "所需卡时占该方案 {years} 年测算期卡时的比例；闲置：其余部分，即为该任务"
        "多买的算力。★ 推荐方案：可行方案中 TCO 最低者。",
        "count": "{n} 个任务中有 {k} 个用{label}（TCO 最低的方案）即可完成。",
        "overbuy": "“{name}”只需 {floor} 卡，在{rec}上耗时 {days}；若放在{big}"
        "（{big_gpus} 卡）上，{big_days}即可完成，而该集群在 {years} 年测算期内将有 {idle} "
        "的时间闲置。",
        "overbuy_service": "“{name}”需持续占用 {floor} 卡，推荐{rec}；若放在{big}"
        "（{big_gpus} 卡）上，将有 {idle} 的算力闲置。",
        "needs_time": "“{name}”确实需要{rec}：在{near}上需 {days}，超过 {deadline} 天的"
        "期限；在{rec}上只需 {rec_days}。",
        "needs_memory": "“{name}”需要{rec}：其模型状态至少需 {floor} 卡，而{near}只有 {gpus} 卡。",
        "none_time": "没有方案能完成“{name}”：即使最快的{label}也需 {days}，超过 "
        "{deadline} 天的期限。",
        "none_memory": "没有方案能完成“{name}”：各方案显存均不足。",
        "tokens_cell": "{gpu_cost} → {tokens_cost}",
        "tokens": "“{name}”在{rec}上的推理成本为 {tokens_cost}：该方案成本 {gpu_cost} "
        "× 1,000,000 ÷（每卡每秒 {tps} tokens × 3,600 秒）。",
    },
}

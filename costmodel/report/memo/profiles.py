"""What the domain source says about each scale class, in English and Chinese.

Written by hand from ``seed/compute-center-scale-tiers.zh.txt`` (the Chinese
keeps the seed's own wording where it can). The memo sets these typical traits
beside the tier's own data (fabric, storage, scheduler, cooling, rack power,
team) from the assumption files, and prices the risks with model numbers.

The seed's build-cost band per class is an input (``reference.build_cost`` of
the assumptions, with its currency), not a constant here.
"""

from __future__ import annotations

ASPECTS = ("workloads", "servers", "network", "storage", "scheduling", "cooling", "cost", "team")

ASPECT_LABELS = {
    "en": {
        "workloads": "Typical workloads",
        "servers": "Servers",
        "network": "Network",
        "storage": "Storage",
        "scheduling": "Scheduling",
        "cooling": "Cooling and rack power",
        "cost": "Build cost",
        "team": "Infra team",
    },
    "zh": {
        "workloads": "典型场景",
        "servers": "服务器",
        "network": "网络",
        "storage": "存储",
        "scheduling": "调度",
        "cooling": "散热与单柜功率",
        "cost": "建设成本",
        "team": "基础设施团队",
    },
}

PROFILES: dict[str, dict[str, dict[str, str]]] = {
    "tens": {
        "en": {
            "headline": "Tens of cards (8-64 GPUs): proving ground and light production",
            "workloads": "Full fine-tuning (SFT) or LoRA/QLoRA of 7-13B models; INT4/INT8 "
            "inference of 70B models; proofs of concept and small production launches.",
            "servers": "4-8 eight-GPU servers (A800, H800, even RTX 4090).",
            "network": "NVLink/NVSwitch inside each server; between servers 100G RoCE v2 or "
            "plain 25/100G Ethernet. No InfiniBand switches needed.",
            "storage": "Local NVMe in each server or a single NFS server; usually under 100 TB.",
            "scheduling": "Docker and Docker Compose, or lightweight Kubernetes; Slurm is "
            "heavier than this scale needs.",
            "cooling": "Standard air-cooled racks at 8-15 kW; an ordinary office machine room "
            "with light retrofitting will do.",
            "cost": "Several million to CNY 10 million.",
            "team": "2-3 people.",
            "risk": "No backup: checkpoints kept on local disks vanish with the node.",
            "trap": "Consumer GPUs (RTX 4090) lack NVLink; across servers the traffic goes "
            "over PCIe or Ethernet and scaling efficiency for a 70B full fine-tune can fall "
            "below 60%. Even at this scale put a NAS or object store behind the checkpoints.",
        },
        "zh": {
            "headline": "几十卡级（8–64 卡）：试验田与轻量生产",
            "workloads": "7B–13B 模型的全参数微调（SFT）或 LoRA/QLoRA 适配；70B 模型的 "
            "INT4/INT8 推理服务；算法团队的技术验证（POC）与小规模业务上线。",
            "servers": "4–8 台 8 卡 GPU 服务器（常用 A800、H800，甚至 RTX 4090）。",
            "network": "单台内部 NVLink/NVSwitch 互联；多机之间采用 100 Gbps RoCE v2 或普通 "
            "25/100 Gbps 以太网即可，不需要专用 InfiniBand 交换机。",
            "storage": "单机本地 NVMe SSD 或一台 NFS 服务器即可满足，容量通常在 100 TB 以内。",
            "scheduling": "Docker + Docker Compose，或轻量级 Kubernetes；Slurm 在此规模下"
            "反而显得笨重。",
            "cooling": "标准风冷机柜，单机柜功率 8–15 kW，普通楼宇机房经简单改造即可承载。",
            "cost": "数百万到 1000 万元人民币。",
            "team": "2–3 人。",
            "risk": "缺乏备份：检查点存在服务器本地盘，节点一坏，训练成果随之归零。",
            "trap": "消费级显卡（如 RTX 4090）缺少 NVLink，多机通信只能走 PCIe 或以太网，"
            "70B 模型全参数微调时多机扩展效率可能跌至 60% 以下。几十卡级也必须配置 NAS "
            "或对象存储做冗余备份。",
        },
    },
    "hundreds": {
        "en": {
            "headline": "Hundreds of cards (64-256 GPUs): where the business goes live",
            "workloads": "Full fine-tuning and continued pretraining of 70B models; "
            "pretraining 30-65B base models from scratch; multi-tenant enterprise inference.",
            "servers": "10-32 eight-GPU servers.",
            "network": "A high-speed fabric is a must: 200/400G InfiniBand (HDR/NDR) or RoCE "
            "v2, in a two-tier spine-leaf instead of a single top-of-rack switch. This is the "
            "essential difference from the tens class.",
            "storage": "A parallel file system (Lustre, GPFS or JuiceFS) on separate storage "
            "nodes, 50-100 GB/s aggregate, petabyte capacity.",
            "scheduling": "Slurm (HPC style) or Kubernetes + KubeRay (cloud native) with "
            "queues, priority preemption and resource isolation.",
            "cooling": "Air cooling still dominates, but 20-30 kW racks start to need in-row "
            "cooling or a cold-plate pilot; dual UPS power feeds.",
            "cost": "CNY 30 million to 100 million.",
            "team": "5-10 people.",
            "risk": "Network bottleneck and checkpoint IO storms.",
            "trap": "A badly planned network (oversubscription, cross-rack bottlenecks) drops "
            "MFU from the ideal 50% to 20%: half the money wasted. Checkpointing every 100 "
            "steps from a hundred cards at once floods the storage; tiered storage with "
            "asynchronous buffering is needed.",
        },
        "zh": {
            "headline": "百卡级（64–256 卡）：业务落地的分水岭",
            "workloads": "70B 模型的全参数微调与持续预训练；30B–65B 基座模型的从头预训练；"
            "企业级多租户推理平台。",
            "servers": "10–32 台 8 卡标准 GPU 服务器。",
            "network": "必须引入高速网络：200/400 Gbps InfiniBand（HDR/NDR）或 RoCE v2 成为"
            "标配，拓扑从简单的 TOR 升级为 Spine-Leaf 两层架构，这是与几十卡级最本质的差异。",
            "storage": "必须部署并行文件系统（Lustre、GPFS 或 JuiceFS），存储节点与计算节点"
            "分离，聚合带宽 50–100 GB/s，容量进入 PB 级。",
            "scheduling": "Slurm（偏超算场景）或 Kubernetes + KubeRay（偏云原生场景），引入"
            "队列管理、优先级抢占和资源隔离。",
            "cooling": "风冷仍是主流，但单柜 20–30 kW 的高密机柜开始需要行间空调或冷板液冷"
            "试点；供电需双路 UPS 保障。",
            "cost": "3000 万到 1 亿元人民币。",
            "team": "5–10 人。",
            "risk": "网络瓶颈、存储 IO 风暴。",
            "trap": "网络规划不合理（收敛比过高、跨机柜流量瓶颈）时，MFU 可能从理想的 50% "
            "直接掉到 20%，相当于一半的钱打了水漂。每 100 步保存一次检查点，百卡同时"
            "写入会产生“IO 风暴”，必须设计分层存储和异步缓冲机制。",
        },
    },
    "thousands": {
        "en": {
            "headline": "Thousands of cards (512-4,096+ GPUs): the heavy industry of "
            "foundation models",
            "workloads": "Pretraining 100B to 1T-parameter foundation models from scratch; "
            "large-scale RLHF and post-training.",
            "servers": "128 or more eight-GPU servers, usually one model throughout "
            "(H100/H800 or a domestic equivalent).",
            "network": "The network is 20-30% of hardware cost: InfiniBand NDR 400G or "
            "equivalent RoCE v2 in a multi-rail spine-leaf or fat-tree, non-blocking between "
            "any two nodes.",
            "storage": "Tiered: a parallel file system at TB/s for hot data and frequent "
            "checkpoints, with a burst buffer or checkpoint pool; warm and cold data in an "
            "object store (Ceph, MinIO).",
            "scheduling": "Very large Slurm or an in-house platform; the design goal shifts "
            "from allocating resources to tolerating faults: automatic checkpoints, faulty-"
            "node isolation and elastic job migration.",
            "cooling": "Liquid cooling is a must (cold plate as standard), 40-80 kW per rack, "
            "PUE held below 1.2.",
            "cost": "Several hundred million to billions of CNY.",
            "team": "Dozens (network, storage, SRE).",
            "risk": "Daily failures, cooling faults, MFU collapse.",
            "trap": "More than one node fails a day; without elastic checkpointing and "
            "automatic restart a two-week pretraining run may never finish. An uneven "
            "cold-plate flow or a CDU fault throttles GPUs across the cluster. Without a "
            "strong infra team a thousand-card cluster's MFU can be worse than a well-tuned "
            "hundred-card one.",
        },
        "zh": {
            "headline": "千卡级（512–4096 卡以上）：基座模型的“重工业”",
            "workloads": "百亿至千亿参数基座模型的从头预训练；大规模 RLHF（人类反馈强化学习）"
            "和后训练。",
            "servers": "128 台以上 8 卡服务器，通常统一选型 H100/H800 或国产等效芯片。",
            "network": "网络投资占硬件总成本的 20%–30%：InfiniBand NDR（400 Gbps）或同等"
            "带宽的 RoCE v2，多轨道（Multi-Rail）Spine-Leaf 或胖树（Fat-Tree）拓扑，任意两"
            "节点之间全带宽、无阻塞通信。",
            "storage": "多层次分级架构：热数据层用并行文件系统提供 TB/s 级聚合读写带宽，"
            "配合 Burst Buffer 或专用检查点存储池；温冷数据下沉至对象存储（Ceph、MinIO）。",
            "scheduling": "超大规模 Slurm 集群或自研调度平台，核心目标从“资源分配”转向"
            "“故障容错”：检查点高频自动保存、故障节点自动隔离与任务弹性迁移。",
            "cooling": "必须液冷，冷板式液冷为标配；单柜功率密度 40–80 kW，PUE 严格控制在 "
            "1.2 以下。",
            "cost": "数亿到数十亿元人民币。",
            "team": "数十人（网络/存储/SRE）。",
            "risk": "日故障、散热崩溃、MFU 暴跌。",
            "trap": "千卡集群日故障率通常大于 1 台；没有弹性检查点和自动重启能力，为期"
            "两周的预训练任务可能永远跑不完。冷板流量不均或 CDU 故障会让 GPU 触发热保护降频，"
            "整集群算力瞬间打折。没有顶尖的基础设施团队，千卡集群的 MFU 可能还不如调优后的"
            "百卡集群。",
        },
    },
}

MAXIMS = {
    "en": [
        "The task decides the scale, not the budget: if the core business is fine-tuning "
        "7B/13B models, tens of cards are enough; a thousand cards would sit idle while "
        "depreciation eats the profit.",
        "Reserving physical headroom (rack power, high-speed ports, cooling pipework) is "
        "wiser than building everything at once.",
        "A thousand cards is a software-engineering problem, not a procurement problem.",
    ],
    "zh": [
        "任务决定规模，而非预算决定规模：核心业务若是 7B/13B 模型的行业微调，几十卡级完全"
        "够用；强行上千卡，只会导致显卡常年空转，折旧吞噬利润。",
        "预留“物理接口”比一步到位更明智：为机柜电力、高速网络端口和散热管路预留冗余，"
        "避免后期推倒重来。",
        "千卡是软件工程问题，不是采购问题。",
    ],
}

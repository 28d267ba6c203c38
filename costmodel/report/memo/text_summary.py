"""The memo's executive summary in English and Chinese: the decision, the numbers
that decide it and the comparison's notes (sentence patterns as in
:mod:`costmodel.report.memo.text`).
"""

from __future__ import annotations

# Executive summary. Fields (costmodel.report.memo.summary_section._tier_fields): label,
# npv, capex, price, decline, be, gap, cost, pi, loss, funding, currency; and rate,
# horizon, n; s_* of the smallest loss in absolute terms.
SUMMARY: dict[str, dict[str, str]] = {
    "en": {
        "recommend": "We recommend <strong>{label}</strong>. At the assumed year-1 price of "
        "{price}, falling {decline} a year, it has the highest positive NPV of the {n} "
        "{options}: <strong>{npv}</strong> at a {rate} discount rate over {horizon} years.",
        "excluded": "<strong>{count} of the {total} options cannot be built under the chip "
        "policy</strong> (<code>policy.domestic_only</code>: domestic chips only) and {are} "
        "left out of the decision: {items}.",
        "excluded_all": "<strong>None of the {total} options can be built under the chip "
        "policy</strong> (<code>policy.domestic_only</code>: domestic chips only): {items}. "
        "The comparison below is for reference only.",
        "excluded_item": "{label} (its server <code>{sku}</code> is of foreign origin)",
        "recommend_only": "We recommend <strong>{label}</strong>, the only feasible option. "
        "At the assumed year-1 price of {price}, falling {decline} a year, its NPV "
        "is <strong>{npv}</strong> at a {rate} discount rate over {horizon} years.",
        "recommend_one": "We recommend <strong>{label}</strong>, the only option assessed. At "
        "the assumed year-1 price of {price}, falling {decline} a year, its NPV "
        "is <strong>{npv}</strong> at a {rate} discount rate over {horizon} years.",
        "detail": "It needs {capex} up front and {opex}; its IRR is {irr} and it pays back "
        "in {payback}.",
        "detail_nopay": "It needs {capex} up front and {opex}; its IRR is {irr}, but it does "
        "not pay back within the horizon without the book value returned at the end.",
        "cost": "{label} would need {capex} up front and {opex}.",
        "opex_full": "{opex} to run in {when}, its first full operating year",
        "opex_building": "{opex1} to run in its first year, while it is still being built (no "
        "full operating year falls within the {horizon}-year horizon)",
        "margin": "The year-1 price could fall to <strong>{be}</strong> ({gap}) before the "
        "NPV turns negative.",
        "margin_free": "Its NPV stays positive even at a year-1 price of zero.",
        "revenue_split": "Of its {revenue} of revenue over the horizon, {contract} "
        "({contract_pct}) is contracted take-or-pay ({share} of the available GPU-hours of "
        "each deployment for its first {months} months in service, at {contract_price} in "
        "the first contract year{escalation}) and {spot} "
        "({spot_pct}) is sold spot. Its realized average price, revenue over GPU-hours "
        "sold, is <strong>{realized}</strong> (from {low} to {high} by month) against a "
        "levelized cost of <strong>{cost}</strong>.",
        "revenue_spot": "All its revenue is sold spot. Its realized average price, revenue "
        "over GPU-hours sold, is <strong>{realized}</strong> (from {low} to {high} by month) "
        "against a levelized cost of <strong>{cost}</strong>.",
        "rising": ", rising {pct} a contract year",
        "flat": ", the same in every contract year",
        "sga_share": " {noun} take {share} of revenue.",
        "recommend_pi": "Each {currency} of its capex adds {pi} in present value (rank {rank} "
        "of {n} by NPV per unit of capex); at its low point the project needs {funding} of "
        "funding.",
        "pi_alt": "{label} adds more per {currency} invested ({pi}, NPV {npv} on {capex}); "
        "if capital is rationed, it is the better use of it.",
        "supply": "<strong>Chip supply.</strong> {labels} {run} the {gpu} (server "
        "<code>{sku}</code>), a chip of foreign origin whose import into China needs "
        "approval (source: {source}). The model assumes delivery {lead} months after "
        "order{high}. {policy}",
        "supply_high": ", up to {high} months at the high of its range",
        "supply_one": "it",
        "supply_many": "them",
        "supply_policy": "A domestic-only chip policy (<code>policy.domestic_only</code>, "
        "which binds a park built with state funds) would rule {them} out; the catalogue's "
        "domestic servers are {domestic}.",
        "supply_policy_none": "A domestic-only chip policy (<code>policy.domestic_only</code>, "
        "which binds a park built with state funds) would rule {them} out, and the catalogue "
        "has no domestic server.",
        "options_all": "options",
        "options_sold": "options that sell GPU-hours",
        "none_sold": "<strong>No option that sells GPU-hours is worth building at the "
        "assumed prices.</strong> {all_n} have a negative NPV at a {rate} discount rate over "
        "{horizon} years.",
        "none_one_sold": "<strong>The option that sells GPU-hours is not worth building at "
        "the assumed price.</strong> Its NPV is negative at a {rate} discount rate over "
        "{horizon} years.",
        "captive_bad": "<strong>{label}</strong> is an enterprise's own cluster, valued "
        "against renting (revenue mode <code>avoided_cloud</code>): building it costs "
        "<strong>{amount} more</strong> in present value, after tax, than renting the same "
        "{hours} GPU-hours at the {term} cloud price of {price}; {util}. <strong>Renting "
        "is the cheaper choice.</strong>",
        "captive_good": "<strong>{label}</strong> is an enterprise's own cluster, valued "
        "against renting (revenue mode <code>avoided_cloud</code>): building it costs "
        "<strong>{amount} less</strong> in present value, after tax, than renting the same "
        "{hours} GPU-hours at the {term} cloud price of {price}; {util}. <strong>Building "
        "is the cheaper choice.</strong>",
        "captive_util_bad": "building pays only above a utilization of {u} (assumed {ub})",
        "captive_util_good": "building stays cheaper down to a utilization of {u} (assumed {ub})",
        "captive_util_never": "no utilization up to 100% makes building pay",
        "captive_util_always": "building stays cheaper at any utilization",
        "key_note_captive": " † An enterprise's own cluster: its NPV and NPV per unit of "
        "capex measure what building saves (or costs) against renting the same GPU-hours, "
        "not a return on capital.",
        "none": "<strong>No option is worth building at the assumed prices.</strong> All {n} "
        "options have a negative NPV at a {rate} discount rate over {horizon} years.",
        "none_one": "<strong>The option is not worth building at the assumed price.</strong> "
        "Its NPV is negative at a {rate} discount rate over {horizon} years.",
        "rank_split": "Options of different size are compared by NPV per unit of capex. By "
        "that measure <strong>{label}</strong> comes closest to paying: it loses {loss} of "
        "each {currency} invested in present value (NPV <strong>{npv}</strong> on {capex}). "
        "{s_label} has the smallest loss in absolute terms ({s_npv}) only because it is the "
        "smallest project: it loses {s_loss} of its capex.",
        "rank_same": "<strong>{label}</strong> comes closest to paying by both measures: its "
        "NPV of <strong>{npv}</strong> is the smallest loss, and at {loss} of its {capex} "
        "capex also the smallest per {currency} invested.",
        "least_bad_one": "Its NPV is <strong>{npv}</strong>: it loses {loss} of its "
        "{capex} capex in present-value terms.",
        "need": "What would have to change, one input at a time, all else as assumed:",
        "need_item": "<strong>{label}</strong>: a year-1 price of {be} against "
        "{price} assumed ({gap}); {util}.",
        "need_none": "<strong>{label}</strong>: no year-1 price up to {factor} times the "
        "assumed {price}; {util}.",
        "need_util": "or a utilization of {u} against {ub} assumed",
        "need_util_never": "no utilization up to 100% is enough",
        "mc_high": "The base case is optimistic: for {label} it beats {pct} of the {n} Monte "
        "Carlo draws; the median draw has an NPV of {p50} against {npv} as assumed.",
        "mc_mid": "The base case sits near the middle of the Monte Carlo distribution: for "
        "{label} it beats {pct} of the {n} draws (median NPV {p50}, as assumed {npv}).",
        "mc_low": "The base case is cautious: for {label} it beats only {pct} of the {n} Monte "
        "Carlo draws; the median draw has an NPV of {p50} against {npv} as assumed.",
        "price_above": "The assumed selling prices are above the cloud price of the same GPU "
        "({items}): customers can rent the same hour for less, so the revenue assumed is "
        "generous.",
        "price_above_one": "The assumed selling price is above the cloud price of the same "
        "GPU ({items}): customers can rent the same hour for less, so the revenue assumed "
        "is generous.",
        "price_item": "{label} {price} against {cloud} {term}, {pct}",
        "util_above": "The assumed utilization of {label}, {u}, is above the {hi} that its "
        "sources support.",
        "rent_item": "{label} by {amount}",
        "build_cheaper": "At the catalogue cloud prices, building costs less in present value "
        "than renting the same GPU-hours: {items}.",
        "rent_cheaper": "Renting the same GPU-hours from a cloud costs less in present value "
        "than building: {items}.",
        "rent_cheaper_all": "At the catalogue cloud prices, renting the same GPU-hours costs "
        "less in present value than building, for every option: {items}.",
        "risks_intro": "What could change it:",
        "could_change": "Across its range, the {input} moves the NPV of {label} from "
        "{at_low} to {at_high}.",
        "mfu_captive": "For a captive user of {label}, a network that drops MFU from the "
        "assumed {mfu} to {degraded} would leave {at_stake} of its present value of cost "
        "producing no effective compute.",
        "mfu_operator": "{label} is paid per GPU-hour whatever the MFU, so a network that "
        "drops MFU from {mfu} to {degraded} leaves its NPV as modelled unchanged but raises "
        "its cost per PFLOP-hour from {pflop} to {pflop_degraded}: the price customers pay "
        "for a slower hour is at risk.",
        "advice": "Building is worth it only at prices near these break-even levels, or with "
        "costs lower by as much.",
        "key_note": "NPV per unit of capex: NPV ÷ capex. Peak funding need: the most cash the "
        "project needs at any month. Break-even: the year-1 price at which NPV = 0, all else "
        "unchanged (the price still declines at its assumed rate{decline}).",
        "key_note_red": " Red cloud price: below the price assumed.",
    },
    "zh": {
        "recommend": "建议选择<strong>{label}</strong>。按首年价格 {price}、此后每年下降 "
        "{decline} 的假设，在 {n} 个{options}中其净现值为正且最高：按 {rate} 折现率、{horizon} "
        "年测算期计算为 <strong>{npv}</strong>。",
        "excluded": "<strong>在芯片政策下，{total} 个方案中有 {count} 个无法建设</strong>"
        "（<code>policy.domestic_only</code>：仅限国产芯片），不纳入决策：{items}。",
        "excluded_all": "<strong>在芯片政策下，{total} 个方案均无法建设</strong>"
        "（<code>policy.domestic_only</code>：仅限国产芯片）：{items}。以下比较仅供参考。",
        "excluded_item": "{label}（服务器 <code>{sku}</code> 为境外产品）",
        "recommend_only": "建议选择<strong>{label}</strong>（唯一可行的方案）。按首年价格 "
        "{price}、此后每年下降 {decline} 的假设，按 {rate} 折现率、{horizon} 年测算期计算，"
        "其净现值为 <strong>{npv}</strong>。",
        "recommend_one": "建议选择<strong>{label}</strong>（唯一评估的方案）。按首年价格 "
        "{price}、此后每年下降 {decline} 的假设，按 {rate} 折现率、{horizon} 年测算期计算，"
        "其净现值为 <strong>{npv}</strong>。",
        "detail": "该方案初始投资 {capex}，{opex}；内部收益率 {irr}，投资回收期 {payback}。",
        "detail_nopay": "该方案初始投资 {capex}，{opex}；内部收益率 {irr}，"
        "但若不计期末账面残值，测算期内无法回收投资。",
        "cost": "{label}需初始投资 {capex}，{opex}。",
        "opex_full": "首个完整运营年（{when}）运营成本 {opex}",
        "opex_building": "首年仍在建设，运营成本 {opex1}（{horizon} 年测算期内没有完整运营年）",
        "margin": "首年价格可降至 <strong>{be}</strong>（{gap}）而净现值仍不为负。",
        "margin_free": "即使首年价格为零，净现值仍为正。",
        "revenue_split": "期内收入 {revenue} 中，{contract}（{contract_pct}）为照付不议合同收入"
        "（各批次投运后前 {months} 个月可用卡时的 {share}，合同首年价格 {contract_price}"
        "{escalation}），{spot}（{spot_pct}）为现货收入。平均实现售价（收入 / "
        "售出卡时）为 <strong>{realized}</strong>（各月在 {low} 至 {high} 之间），"
        "平准化成本为 <strong>{cost}</strong>。",
        "revenue_spot": "收入全部来自现货销售。平均实现售价（收入 / 售出卡时）为 "
        "<strong>{realized}</strong>（各月在 {low} 至 {high} 之间），平准化成本为 "
        "<strong>{cost}</strong>。",
        "rising": "，每合同年上涨 {pct}",
        "flat": "，合同期内价格不变",
        "sga_share": "{noun}占收入的 {share}。",
        "recommend_pi": "每投入 1 {currency}初始投资，按现值可增加 {pi}（按单位投资净现值"
        "排第 {rank}，共 {n} 个方案）；峰值资金需求为 {funding}。",
        "pi_alt": "{label}单位投资创造的价值更高（{pi}，以 {capex} 投资获得净现值 {npv}）；"
        "若资金有限，投向该方案更合算。",
        "supply": "<strong>芯片供应。</strong>{labels}采用 {gpu}（服务器 <code>{sku}</code>），"
        "为境外芯片，进口须经中国审批（来源见假设 <code>{path}</code>）。"
        "模型假设下单后 {lead} 个月交付{high}。{policy}",
        "supply_high": "，区间上限为 {high} 个月",
        "supply_one": "该方案",
        "supply_many": "这些方案",
        "supply_policy": "若执行仅限国产芯片的政策（<code>policy.domestic_only</code>，"
        "使用国有资金建设的园区须遵守），{them}将无法建设；目录中的国产服务器为 {domestic}。",
        "supply_policy_none": "若执行仅限国产芯片的政策（<code>policy.domestic_only</code>，"
        "使用国有资金建设的园区须遵守），{them}将无法建设，且目录中没有国产服务器。",
        "options_all": "方案",
        "options_sold": "对外出售卡时的方案",
        "none_sold": "<strong>在假设价格下，没有任何对外出售卡时的方案值得建设。</strong>按 "
        "{rate} 折现率、{horizon} 年测算期计算，这 {n} 个方案的净现值均为负。",
        "none_one_sold": "<strong>在假设价格下，对外出售卡时的方案不值得建设。</strong>按 "
        "{rate} 折现率、{horizon} 年测算期计算，其净现值为负。",
        "captive_bad": "<strong>{label}</strong>为企业自用集群，按与租用比较估值（收入模式 "
        "<code>avoided_cloud</code>）：按税后现值计，自建比以{term}云价格 {price} 租用同等的 "
        "{hours} 卡时多花 <strong>{amount}</strong>；{util}。<strong>租用更省钱。</strong>",
        "captive_good": "<strong>{label}</strong>为企业自用集群，按与租用比较估值（收入模式 "
        "<code>avoided_cloud</code>）：按税后现值计，自建比以{term}云价格 {price} 租用同等的 "
        "{hours} 卡时节省 <strong>{amount}</strong>；{util}。<strong>自建更省钱。</strong>",
        "captive_util_bad": "利用率须高于 {u}（假设为 {ub}）自建才合算",
        "captive_util_good": "利用率降至 {u}（假设为 {ub}）之前自建仍更省钱",
        "captive_util_never": "利用率即使达到 100%，自建也不合算",
        "captive_util_always": "任何利用率下自建都更省钱",
        "key_note_captive": "† 企业自用集群：其净现值及单位投资净现值衡量的是自建相对租用同等卡时"
        "节省（或多花）的金额，而非资本回报。",
        "none": "<strong>在假设价格下，没有任何方案值得建设。</strong>按 {rate} 折现率、"
        "{horizon} 年测算期计算，全部 {n} 个方案的净现值均为负。",
        "none_one": "<strong>在假设价格下，该方案不值得建设。</strong>按 {rate} 折现率、"
        "{horizon} 年测算期计算，其净现值为负。",
        "rank_split": "规模不同的方案按单位投资净现值（净现值 ÷ 初始投资）比较。按此衡量，"
        "<strong>{label}</strong>最接近盈亏平衡：单位投资净现值为 −{loss}"
        "（以 {capex} 投资得到净现值 <strong>{npv}</strong>）。{s_label}的净现值绝对值最小"
        "（{s_npv}），只是因为它规模最小：其单位投资净现值为 −{s_loss}。",
        "rank_same": "无论按净现值还是按单位投资净现值衡量，<strong>{label}</strong>都最接近"
        "盈亏平衡：净现值 <strong>{npv}</strong> 的负值最小，初始投资 {capex}，单位投资净现值 "
        "−{loss}，也是各方案中最高的。",
        "least_bad_one": "其净现值为 <strong>{npv}</strong>，初始投资 {capex}，单位投资净现值 "
        "−{loss}。",
        "need": "实现盈亏平衡的条件（每次只变动一项，其他假设不变）：",
        "need_item": "<strong>{label}</strong>：首年价格需达到 {be}（现假设为 {price}，"
        "{gap}）；{util}。",
        "need_none": "<strong>{label}</strong>：首年价格即使提高到假设价格 {price} 的 {factor} "
        "倍也不够；{util}。",
        "need_util": "或利用率达到 {u}（假设为 {ub}）",
        "need_util_never": "利用率即使达到 100% 也不够",
        "mc_high": "基准情形偏乐观：{label}的基准净现值高于 {n} 次蒙特卡洛抽样中的 {pct}；"
        "抽样中位数为 {p50}，而基准为 {npv}。",
        "mc_mid": "基准情形大致处于蒙特卡洛分布的中部：{label}的基准净现值高于 {n} 次抽样中的 "
        "{pct}（中位数 {p50}，基准 {npv}）。",
        "mc_low": "基准情形偏保守：{label}的基准净现值仅高于 {n} 次蒙特卡洛抽样中的 {pct}；"
        "抽样中位数为 {p50}，而基准为 {npv}。",
        "price_above": "假设的出租价格高于同款 GPU 的云价格（{items}）：客户可以更便宜地"
        "租到同样的卡时，因此假设的收入偏乐观。",
        "price_above_one": "假设的出租价格高于同款 GPU 的云价格（{items}）：客户可以更便宜地"
        "租到同样的卡时，因此假设的收入偏乐观。",
        "price_item": "{label}{price}，{term}云价格 {cloud}，高出 {pct}",
        "util_above": "{label}假设的利用率 {u} 高于其资料来源支持的上限 {hi}。",
        "rent_item": "{label}{amount}",
        "build_cheaper": "按云厂商目录价格，自建的现值成本低于租用同样卡时，自建节省：{items}。",
        "rent_cheaper": "向云厂商租用同样卡时的现值成本低于自建，自建多花：{items}。",
        "rent_cheaper_all": "按云厂商目录价格，每个方案租用同样卡时的现值成本都低于自建，"
        "自建多花：{items}。",
        "risks_intro": "可能改变结论的因素：",
        "could_change": "{input}在其区间内变动，会使{label}的净现值在 {at_low} 与 {at_high} "
        "之间变化。",
        "mfu_captive": "对自用的{label}而言，若网络问题使 MFU 从假设的 {mfu} 降至 {degraded}，"
        "成本现值中将有 {at_stake} 未转化为有效算力。",
        "mfu_operator": "{label}按卡时收费，与 MFU 无关：若网络问题使 MFU 从 {mfu} 降至 "
        "{degraded}，模型中的净现值不变，但每 PFLOP 时成本从 {pflop} 升至 {pflop_degraded}，"
        "客户为更慢的卡时支付的价格面临下调风险。",
        "advice": "只有售价接近上述盈亏平衡水平，或成本相应下降，自建才值得。",
        "key_note": "单位投资净现值：净现值 ÷ 初始投资。峰值资金需求：项目在任一月份所需的"
        "最大累计资金。盈亏平衡价格：在其他假设不变（价格仍按假设逐年下降{decline}）的"
        "情况下，使净现值为零的首年价格。",
        "key_note_red": "云价格标红：低于假设售价。",
    },
}

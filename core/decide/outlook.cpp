// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/decide/outlook.h"

#include "core/model/fleet.h"
#include "core/model/parameters.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>

#include <set>

namespace core {

namespace {

using F = FigureId;
constexpr double kSecondsPerMonth = kHoursPerMonth * 3600.0;

std::string num(double value, int significant = 3)
{
    return formatNumber(value, significant);
}

std::string factorText(double factor)
{
    return "x" + num(factor, 3);
}

std::string percentText(double fraction)
{
    return num(fraction * 100.0, 3) + " %";
}

std::string optionName(const Candidate &c)
{
    return (c.device.name.empty() ? c.deviceId : c.device.name) + ", " +
           std::string(formatLabel(c.weightFormat)) + ": " + fleetLabel(c);
}

/** The generated tokens per second the option serves today (the traffic's, else the
 *  utilisation's share of the fleet). */
double servedTokensPerSecond(const Candidate &c)
{
    const CheckResult &cost = c.check(CheckKind::Cost);
    return cost.figure("tokens_per_month") / kSecondsPerMonth;
}

/** The scenario with its demand (requests a day and at peak) times `multiplier`. Without traffic
 *  given, today's demand is what the utilisation makes of today's fleet, as requests a day. */
Scenario withDemand(const Scenario &scenario, const Candidate &best, double multiplier)
{
    Scenario v = scenario;
    const double generated = scenario.serving.contextTokens - scenario.serving.promptTokens;
    if (!isSet(v.traffic.requestsPerDay) && generated > 0.0) {
        const double served = servedTokensPerSecond(best);
        if (std::isfinite(served) && served > 0.0)
            v.traffic.requestsPerDay = served * kSecondsPerDay / generated;
    }
    if (isSet(v.traffic.requestsPerDay))
        v.traffic.requestsPerDay *= multiplier;
    if (isSet(v.traffic.peakRequestsPerSecond))
        v.traffic.peakRequestsPerSecond *= multiplier;
    return v;
}

std::string priceKey(const DeviceSpec &device)
{
    return device.presetId.empty() ? device.name : device.presetId;
}

/** Capacity at 100 % busy: the tokens a month the fleet could generate. */
double capacityPerMonth(const Candidate &c)
{
    const CheckResult &cost = c.check(CheckKind::Cost);
    const double utilisation = cost.figure("utilisation");
    return utilisation > 0.0 ? cost.figure("tokens_per_month") / utilisation
                             : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

CostSummary costSummary(const Candidate &c)
{
    CostSummary s;
    s.fleet = fleetLabel(c);
    s.devices = c.devices;
    const CheckResult &cost = c.check(CheckKind::Cost);
    s.pricePerDeviceHour = cost.figure("price_per_hour_usd");
    s.priced = std::isfinite(c.monthlyCostUsd);
    s.usdPerHour = c.usdPerHour;
    s.usdPerMonth = c.monthlyCostUsd;
    s.usdPerYear = cost.figure("usd_per_year");
    s.tokensPerMonth = cost.figure("tokens_per_month");
    s.usdPerMillionTokens = c.usdPerMillionTokens;
    s.apiUsdPerMonth = cost.figure("api_usd_per_month");
    if (std::isfinite(s.apiUsdPerMonth) && s.tokensPerMonth > 0.0)
        s.apiUsdPerMillionTokens = s.apiUsdPerMonth / s.tokensPerMonth * 1e6;
    s.utilisation = cost.figure("utilisation");
    s.fromTraffic = isSet(c.scenario.traffic.requestsPerDay);
    return s;
}

std::vector<const Candidate *> alternatives(const Selection &selection, std::size_t count)
{
    std::vector<const Candidate *> out;
    const Candidate *best = recommendedCandidate(selection);
    if (best)
        out.push_back(best);
    std::vector<const Candidate *> rest;
    for (const Candidate &c : selection.candidates)
        if (&c != best)
            rest.push_back(&c);
    // a training decision's options by the run's cost (what the ranking weighs), a serving
    // one's by the month's
    auto cost = [](const Candidate *c) {
        const double usd = c->trainingPlan ? c->trainingPlan->usd : c->monthlyCostUsd;
        return std::isfinite(usd) ? usd : std::numeric_limits<double>::infinity();
    };
    std::stable_sort(rest.begin(), rest.end(), [&](const Candidate *a, const Candidate *b) {
        if (a->passes != b->passes)
            return a->passes;
        return cost(a) < cost(b);
    });
    std::set<std::string> devices;
    if (best)
        devices.insert(best->deviceId);
    for (const Candidate *c : rest) {
        if (out.size() >= count)
            break;
        if (devices.insert(c->deviceId).second) // the best format of each other device
            out.push_back(c);
    }
    return out;
}

namespace {

/** The first sentence, without its full stop (a reason goes into a longer line). */
std::string firstSentence(const std::string &text)
{
    std::string out = text.substr(0, text.find(". "));
    while (!out.empty() && (out.back() == '.' || out.back() == ' '))
        out.pop_back();
    return out;
}

/** A warning's or failure's reason in one line, from the check's own figures. */
std::string reasonOf(const CheckResult &r, const Candidate &c)
{
    auto f = [&r](const char *key) { return r.figure(key); };
    const Scenario &s = c.scenario;
    switch (r.kind) {
    case CheckKind::Memory:
        if (s.wizard.regime != Regime::Online)
            break;
        if (r.status == CheckStatus::Fail)
            return "short by " + formatBytes(-f("headroom_bytes"), MemoryUnits::GB) + " per device";
        return "only " + formatBytes(f("headroom_bytes"), MemoryUnits::GB) + " (" +
               percentText(f("headroom_bytes") / f("capacity_bytes")) +
               ") of memory to spare: a longer prompt or a burst can fail";
    case CheckKind::Latency:
        // a training run's warning is why its step is slow or late, not the step's length (the
        // report said only "a step takes 1.89 s" and left the reason out)
        if (s.wizard.regime == Regime::Training) {
            if (r.status == CheckStatus::Fail && isSet(s.training.deadlineDays) &&
                f("days") > s.training.deadlineDays)
                return formatDuration(f("days") * 86400.0) + " to train against the deadline of " +
                       num(s.training.deadlineDays) + " days";
            if (f("exposed_communication_seconds") > 0.25 * f("step_seconds"))
                return "communication the arithmetic does not hide takes " +
                       formatSeconds(f("exposed_communication_seconds")) + " of each " +
                       formatSeconds(f("step_seconds")) + " step (MFU " + percentText(f("mfu")) +
                       "): the links, not the chips, set the pace";
            break;
        }
        if (s.wizard.regime != Regime::Online)
            break;
        if (f("ttft_seconds") > f("ttft_target_seconds"))
            return "first token " + formatSeconds(f("ttft_seconds")) + " against the " +
                   formatSeconds(f("ttft_target_seconds")) + " target, even for one request";
        if (f("tokens_per_second_per_sequence") < f("pacing_target_tokens_per_second"))
            return num(f("tokens_per_second_per_sequence")) + " tokens/s per user against the " +
                   num(f("pacing_target_tokens_per_second")) + " target";
        if (f("burst_seconds") > f("ttft_target_seconds"))
            return "if all " + num(s.serving.concurrentSequences, 9) +
                   " prompts arrive at once the last waits " + formatSeconds(f("burst_seconds")) +
                   " against the " + formatSeconds(f("ttft_target_seconds")) +
                   " first-token target";
        break;
    case CheckKind::Availability:
        if (f("replicas") < 2)
            return "one replica: a fault or an update takes the service down";
        if (std::isfinite(f("sequences_with_one_replica_down")))
            return "with one replica down the rest hold " +
                   num(f("sequences_with_one_replica_down"), 9) + " of the peak " +
                   num(s.serving.concurrentSequences, 9) + " sequences";
        break;
    case CheckKind::Cost:
        if (!isSet(s.cost.pricePerHourUsd))
            return "no price per device-hour: cannot be costed";
        if (f("utilisation") < f("break_even_utilisation"))
            return "the hosted API is cheaper below " + percentText(f("break_even_utilisation")) +
                   " utilisation (now " + percentText(f("utilisation")) + ")";
        break;
    case CheckKind::Effort:
        if (c.device.family == DeviceFamily::Gpu || c.device.family == DeviceFamily::Cpu)
            return std::string(formatLabel(c.weightFormat)) +
                   " weights need a validated kernel and a quality check before production";
        break;
    case CheckKind::Compatibility:
        break;
    }
    return firstSentence(r.summary);
}

} // namespace

std::string checkReason(const CheckResult &check, const Candidate &candidate)
{
    if (check.status != CheckStatus::Warn && check.status != CheckStatus::Fail)
        return {};
    return reasonOf(check, candidate);
}

std::string mainRisk(const Candidate &c)
{
    for (const CheckStatus wanted : {CheckStatus::Fail, CheckStatus::Warn})
        for (const CheckResult &check : c.checks)
            if (check.status == wanted)
                return std::string(checkTitle(check.kind, c.scenario.wizard.regime)) + ": " +
                       reasonOf(check, c);
    return "none found by the six checks";
}

std::string mainRiskInBrief(const Candidate &c)
{
    for (const CheckStatus wanted : {CheckStatus::Fail, CheckStatus::Warn})
        for (const CheckResult &check : c.checks)
            if (check.status == wanted) {
                // a training step's figures are no risk by themselves: say what warns
                const bool slowLinks = c.scenario.wizard.regime == Regime::Training &&
                                       check.kind == CheckKind::Latency &&
                                       check.status == CheckStatus::Warn &&
                                       check.figure("exposed_communication_seconds") >
                                           0.25 * check.figure("step_seconds");
                return std::string(checkTitle(check.kind, c.scenario.wizard.regime)) + ": " +
                       check.headline + (slowLinks ? ", the links set the pace" : "");
            }
    return "none found by the six checks";
}

Margin marginOf(const Candidate &c, MarginKind kind)
{
    Margin m;
    m.kind = kind;
    switch (kind) {
    case MarginKind::Memory: {
        const CheckResult &memory = c.check(CheckKind::Memory);
        m.label = "memory headroom";
        m.value = memory.figure("headroom_bytes") / memory.figure("capacity_bytes");
        break;
    }
    case MarginKind::FirstToken: {
        const CheckResult &latency = c.check(CheckKind::Latency);
        m.label = "first token";
        m.value = latency.figure("ttft_target_seconds") / latency.figure("ttft_seconds") - 1.0;
        break;
    }
    case MarginKind::Pacing: {
        const CheckResult &latency = c.check(CheckKind::Latency);
        m.label = "pace per user";
        m.value = latency.figure("tokens_per_second_per_sequence") /
                      latency.figure("pacing_target_tokens_per_second") -
                  1.0;
        break;
    }
    }
    if (!std::isfinite(m.value))
        m.value = std::numeric_limits<double>::quiet_NaN();
    return m;
}

Margin bindingMargin(const Candidate &c)
{
    Margin binding;
    for (const MarginKind kind : {MarginKind::Memory, MarginKind::FirstToken, MarginKind::Pacing}) {
        const Margin m = marginOf(c, kind);
        if (std::isfinite(m.value) && !(m.value >= binding.value)) // NaN binding: take any
            binding = m;
    }
    return binding;
}

double TornadoBar::costSwing() const
{
    const double swing = std::abs(costHigh - costLow);
    return std::isfinite(swing) ? swing : 0.0;
}

double TornadoBar::marginSwing() const
{
    const double swing = std::abs(marginHigh - marginLow);
    return std::isfinite(swing) ? swing : 0.0;
}

std::vector<SensitivityRange> sensitivityRanges(const Scenario &scenario, const Candidate &best)
{
    const SensitivityConfig &r = scenario.sensitivity;
    std::vector<SensitivityRange> out;

    // Efficiency: what the engine delivers against the estimate.
    SensitivityRange efficiency;
    efficiency.key = "efficiency";
    efficiency.label = "Efficiency (speed delivered)";
    const EstimateTerms terms = estimateTerms(best.scenario);
    const double ceiling =
        1.0 / std::max(terms.bandwidthEfficiency, terms.computeEfficiency); // speed of light
    if (const EstimateRange range = estimateRange(terms); range.known()) {
        // the estimate's own range, the one the roofline draws
        efficiency.low = range.low;
        efficiency.high = range.high;
        efficiency.origin = "twice the " + estimateLabel(best.scenario) + " fit's median error, " +
                            percentText(range.medianError);
    } else {
        // at the speed of light: down to what the typical engines deliver on this class
        Scenario typical = best.scenario;
        typical.calibration.mode = EstimateMode::Typical;
        const EstimateTerms t = estimateTerms(typical);
        efficiency.low =
            t.entry ? std::min(1.0, t.bandwidthEfficiency / terms.bandwidthEfficiency) : 0.5;
        efficiency.high = std::min(ceiling, 1.0);
        efficiency.origin = t.entry ? "the typical profile's bandwidth efficiency for " +
                                          t.entry->scopeLabel() + " (" +
                                          percentText(t.bandwidthEfficiency) + ")"
                                    : "half the speed of light (no typical fit for the device)";
    }
    if (isSet(r.efficiencyLow)) {
        efficiency.low = r.efficiencyLow;
        efficiency.origin = "sensitivity.efficiency_low/high";
    }
    if (isSet(r.efficiencyHigh))
        efficiency.high = std::min(ceiling, r.efficiencyHigh);
    efficiency.low = std::min(efficiency.low, efficiency.high);
    efficiency.lowText = factorText(efficiency.low);
    efficiency.highText = factorText(efficiency.high) +
                          (efficiency.high >= ceiling * 0.9999 ? " (speed of light)" : "");
    out.push_back(efficiency);

    const bool traffic = isSet(scenario.traffic.requestsPerDay);
    SensitivityRange demand;
    demand.key = "traffic";
    demand.label = traffic ? "Traffic (requests a day)" : "Demand (share of the fleet busy)";
    demand.low = r.trafficLow;
    demand.high = r.trafficHigh;
    demand.origin = "sensitivity.traffic_low/high";
    if (traffic) {
        demand.lowText = num(scenario.traffic.requestsPerDay * demand.low) + " a day";
        demand.highText = num(scenario.traffic.requestsPerDay * demand.high) + " a day";
    } else {
        demand.lowText = factorText(demand.low) + " today's demand";
        demand.highText = factorText(demand.high) + " today's demand";
    }
    out.push_back(demand);

    SensitivityRange context;
    context.key = "context";
    context.label = "Tokens per sequence";
    context.low = r.contextLow;
    context.high = r.contextHigh;
    context.origin = "sensitivity.context_low/high";
    context.lowText =
        num(std::max(2.0, std::round(scenario.serving.contextTokens * context.low)), 6) + " tokens";
    context.highText =
        num(std::round(scenario.serving.contextTokens * context.high), 6) + " tokens";
    out.push_back(context);

    SensitivityRange concurrency;
    concurrency.key = "concurrency";
    concurrency.label = "Peak concurrent sequences";
    concurrency.low = r.concurrencyLow;
    concurrency.high = r.concurrencyHigh;
    concurrency.origin = "sensitivity.concurrency_low/high";
    concurrency.lowText =
        num(std::max(1.0, std::round(scenario.serving.concurrentSequences * concurrency.low)), 6);
    concurrency.highText =
        num(std::max(1.0, std::round(scenario.serving.concurrentSequences * concurrency.high)), 6);
    out.push_back(concurrency);

    const double price = best.scenario.cost.pricePerHourUsd;
    if (isSet(price)) {
        SensitivityRange p;
        p.key = "price";
        p.label = "Price per device-hour";
        p.low = r.priceLow;
        p.high = r.priceHigh;
        p.origin = "sensitivity.price_low/high";
        p.lowText = formatUsd(price * p.low) + "/h";
        p.highText = formatUsd(price * p.high) + "/h";
        out.push_back(p);
    }

    SensitivityRange growth;
    growth.key = "growth";
    growth.label = "Traffic growth (cost in month " + num(scenario.traffic.horizonMonths, 4) + ")";
    growth.low = r.growthLow;
    growth.high = r.growthHigh;
    growth.origin = "sensitivity.growth_low/high";
    growth.lowText = percentText(growth.low) + " a month";
    growth.highText = percentText(growth.high) + " a month";
    out.push_back(growth);
    return out;
}

Scenario varied(const Scenario &scenario, const Candidate &best, const SensitivityRange &range,
                double factor)
{
    // today's demand held in requests, so a slower fleet needs more of itself (without traffic
    // given, a utilisation would shrink the demand with the fleet)
    Scenario v = withDemand(scenario, best, 1.0);
    if (range.key == "efficiency") {
        // each option's own estimate, every efficiency scaled (the device may set the estimate's
        // mode; the factor stays with it)
        v.calibration.efficiencyFactor = factor;
    } else if (range.key == "traffic") {
        v = withDemand(scenario, best, factor);
    } else if (range.key == "context") {
        const double context = std::max(2.0, std::round(scenario.serving.contextTokens * factor));
        const double share = scenario.serving.promptTokens / scenario.serving.contextTokens;
        v.serving.contextTokens = context;
        v.serving.promptTokens = std::clamp(std::round(context * share), 1.0, context - 1.0);
    } else if (range.key == "concurrency") {
        v.serving.concurrentSequences =
            std::max(1.0, std::round(scenario.serving.concurrentSequences * factor));
    } else if (range.key == "price") {
        v.wizard.prices[priceKey(best.device)] = best.scenario.cost.pricePerHourUsd * factor;
    } else if (range.key == "growth") {
        v = withDemand(scenario, best, std::pow(1.0 + factor, scenario.traffic.horizonMonths));
    }
    return v;
}

Candidate recheck(const Scenario &scenario, const Candidate &best)
{
    const Selection one =
        selectDevice(scenario, {{best.device.presetId, best.device}}, {best.weightFormat});
    return one.candidates.front();
}

Sensitivity sensitivity(const Scenario &scenario, const Selection &selection)
{
    Sensitivity out;
    const Candidate *best = recommendedCandidate(selection);
    if (!best) {
        out.why = "no option passes every check: nothing to vary";
        return out;
    }
    if (selection.regime != Regime::Online) {
        out.why = "the sensitivity of a serving fleet: this decision is for " +
                  std::string(selection.regime == Regime::Training ? "training" : "the edge");
        return out;
    }
    out.available = true;
    out.option = optionName(*best);
    out.baseCost = best->monthlyCostUsd;
    out.baseMargin = bindingMargin(*best);
    out.capacityBase = capacityPerMonth(*best);
    for (const SensitivityRange &range : sensitivityRanges(scenario, *best)) {
        TornadoBar bar;
        bar.range = range;
        const Candidate low = recheck(varied(scenario, *best, range, range.low), *best);
        const Candidate high = recheck(varied(scenario, *best, range, range.high), *best);
        bar.costLow = low.monthlyCostUsd;
        bar.costHigh = high.monthlyCostUsd;
        bar.marginLow = marginOf(low, out.baseMargin.kind).value;
        bar.marginHigh = marginOf(high, out.baseMargin.kind).value;
        bar.passesLow = low.passes;
        bar.passesHigh = high.passes;
        if (range.key == "efficiency") { // today's fleet (its replicas) at either end
            out.capacityLow = capacityPerMonth(low) / low.replicas * best->replicas;
            out.capacityHigh = capacityPerMonth(high) / high.replicas * best->replicas;
        }
        out.bars.push_back(std::move(bar));
    }
    // the band: each input alone at either end (growth is the future: the growth plan's)
    out.costLow = out.costHigh = out.baseCost;
    for (const TornadoBar &bar : out.bars) {
        if (bar.range.key == "growth")
            continue;
        for (const double cost : {bar.costLow, bar.costHigh}) {
            if (std::isfinite(cost)) {
                out.costLow = std::min(out.costLow, cost);
                out.costHigh = std::max(out.costHigh, cost);
            }
        }
    }
    // widest first; growth (a later month's cost, not today's uncertainty) last
    const bool priced = std::isfinite(out.baseCost);
    std::stable_sort(
        out.bars.begin(), out.bars.end(), [priced](const TornadoBar &a, const TornadoBar &b) {
            const bool aGrowth = a.range.key == "growth";
            if (aGrowth != (b.range.key == "growth"))
                return !aGrowth;
            return priced ? a.costSwing() > b.costSwing() : a.marginSwing() > b.marginSwing();
        });
    if (!out.bars.empty()) {
        const TornadoBar &top = out.bars.front();
        std::string input = top.range.label; // in a sentence: "the main uncertainty is price..."
        if (!input.empty())
            input[0] = char(std::tolower(static_cast<unsigned char>(input[0])));
        out.mainUncertainty =
            priced ? "The main uncertainty is " + input + ": from " + top.range.lowText + " to " +
                         top.range.highText + " the month costs " +
                         formatUsd(std::min(top.costLow, top.costHigh)) + " to " +
                         formatUsd(std::max(top.costLow, top.costHigh)) + " (base " +
                         formatUsd(out.baseCost) + ")."
                   : "The main uncertainty is " + input + ": from " + top.range.lowText + " to " +
                         top.range.highText + " the " + out.baseMargin.label + " margin runs " +
                         percentText(std::min(top.marginLow, top.marginHigh)) + " to " +
                         percentText(std::max(top.marginLow, top.marginHigh)) + ".";
    }
    return out;
}

GrowthPlan growthPlan(const Scenario &scenario, const Selection &selection)
{
    GrowthPlan plan;
    const Candidate *best = recommendedCandidate(selection);
    if (!best) {
        plan.why = "no option passes every check: no fleet to grow";
        return plan;
    }
    if (selection.regime != Regime::Online) {
        plan.why = "traffic growth is a serving fleet's question";
        return plan;
    }
    plan.available = true;
    plan.growthPerMonth = scenario.traffic.growthPerMonth;
    plan.horizonMonths = int(std::clamp(scenario.traffic.horizonMonths, 1.0, 120.0));
    const double today = best->replicas;
    double capacityToday = 0;
    for (int m = 0; m <= plan.horizonMonths; ++m) {
        GrowthMonth month;
        month.month = m;
        month.demandFactor = std::pow(1.0 + plan.growthPerMonth, m);
        const Candidate c =
            m == 0 ? *best : recheck(withDemand(scenario, *best, month.demandFactor), *best);
        const Evaluation e = evaluate(c.scenario);
        if (m == 0)
            capacityToday = today * e[F::CostSustainedTokensPerSecond];
        month.capacityTokensPerSecond = capacityToday;
        month.demandTokensPerSecond = servedTokensPerSecond(c);
        month.replicas = c.replicas;
        month.usdPerMonth = c.monthlyCostUsd;
        if (m > 0 && !(month.replicas <= findParameter("serving.replicas")->maximum)) {
            plan.beyondMonth = m; // a plan for 10^18 replicas is no plan
            break;
        }
        plan.months.push_back(month);
        if (m > 0 && month.replicas > plan.months[std::size_t(m - 1)].replicas)
            plan.addReplicaMonths.push_back(m);
        if (plan.runOutMonth < 0 && month.replicas > today)
            plan.runOutMonth = m;
    }
    double total = plan.beyondMonth < 0 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    for (int m = 0; plan.beyondMonth < 0 && m < plan.horizonMonths; ++m)
        total += plan.months[std::size_t(m)].usdPerMonth;
    plan.horizonUsd = total;

    const std::string fleet = best->devicesPerReplica() > 1
                                  ? fleetLabel(*best)
                                  : num(today, 9) + (today == 1 ? " device" : " devices");
    const std::string horizon = num(plan.horizonMonths, 4) + " months";
    const std::string cost =
        std::isfinite(total) ? "; over " + horizon + " the fleet costs " + formatUsd(total) : "";
    const GrowthMonth &last = plan.months.back();
    if (plan.growthPerMonth == 0) {
        plan.sentence = "With no traffic growth assumed, today's "
                        "fleet of " +
                        fleet + " serves the demand for all " + horizon + cost + ".";
    } else if (plan.runOutMonth < 0) {
        plan.sentence = "At " + percentText(plan.growthPerMonth) + " a month, demand reaches " +
                        factorText(last.demandFactor) + " today's by month " +
                        num(plan.horizonMonths, 4) + ", still within today's fleet of " + fleet +
                        " (then " + percentText(last.demandTokensPerSecond / capacityToday) +
                        " busy)" + cost + ".";
    } else {
        std::string when;
        for (std::size_t i = 0; i < plan.addReplicaMonths.size(); ++i) {
            if (i > 0)
                when += i + 1 == plan.addReplicaMonths.size() ? " and " : ", ";
            when += num(plan.addReplicaMonths[i], 4);
        }
        const GrowthMonth &runOut = plan.months[std::size_t(plan.runOutMonth)];
        const std::string end =
            plan.beyondMonth < 0
                ? ", to " + num(last.replicas, 9) + " replicas by month " +
                      num(plan.horizonMonths, 4) + cost + "."
                : ", to " + num(last.replicas, 9) + " replicas by month " + num(last.month, 4) +
                      "; in month " + num(plan.beyondMonth, 4) + " (demand " +
                      factorText(std::pow(1.0 + plan.growthPerMonth, plan.beyondMonth)) +
                      " today's) it would need more than " +
                      num(findParameter("serving.replicas")->maximum, 9) +
                      " replicas, beyond any real fleet: the plan stops there.";
        plan.sentence = "At " + percentText(plan.growthPerMonth) + " a month, today's fleet of " +
                        fleet + " runs out in month " + num(plan.runOutMonth, 4) + " (demand " +
                        factorText(runOut.demandFactor) + " today's): add capacity in month" +
                        (plan.addReplicaMonths.size() > 1 ? "s " : " ") + when + end;
    }
    return plan;
}

} // namespace core

namespace core {

namespace {

nlohmann::json numberOrNull(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

} // namespace

std::string outlookToJson(const Scenario &scenario, const Selection &selection)
{
    using nlohmann::json;
    json doc = json::object();
    const Candidate *best = recommendedCandidate(selection);
    doc["option"] = best ? json(optionName(*best)) : json(nullptr);
    if (best) {
        const CostSummary c = costSummary(*best);
        doc["cost"] = {{"fleet", c.fleet},
                       {"devices", c.devices},
                       {"price_per_device_hour_usd", numberOrNull(c.pricePerDeviceHour)},
                       {"usd_per_hour", numberOrNull(c.usdPerHour)},
                       {"usd_per_month", numberOrNull(c.usdPerMonth)},
                       {"usd_per_year", numberOrNull(c.usdPerYear)},
                       {"tokens_per_month", numberOrNull(c.tokensPerMonth)},
                       {"usd_per_million_tokens", numberOrNull(c.usdPerMillionTokens)},
                       {"api_usd_per_month", numberOrNull(c.apiUsdPerMonth)},
                       {"api_usd_per_million_tokens", numberOrNull(c.apiUsdPerMillionTokens)},
                       {"utilisation", numberOrNull(c.utilisation)},
                       {"from_traffic", c.fromTraffic}};
        // a training decision costs its run, not a month of devices the run may hold for
        // minutes (outlook gave $492,428.80 a month and no run)
        if (const TrainingPlan *plan = best->trainingPlan ? &*best->trainingPlan : nullptr;
            plan && plan->problem.empty()) {
            doc["cost"]["usd_per_month"] = nullptr;
            doc["cost"]["run_usd"] = numberOrNull(plan->usd);
            doc["cost"]["run_days"] = numberOrNull(plan->days);
            doc["cost"]["device_hours"] = numberOrNull(plan->deviceHours);
        }
    }
    json options = json::array();
    for (const Candidate *c : alternatives(selection)) {
        const Margin binding = bindingMargin(*c);
        options.push_back(
            {{"option", optionName(*c)},
             {"passes", c->passes},
             {"usd_per_month", numberOrNull(c->monthlyCostUsd)},
             {"usd_per_million_tokens", numberOrNull(c->usdPerMillionTokens)},
             {"headroom_bytes", numberOrNull(c->check(CheckKind::Memory).figure("headroom_bytes"))},
             {"ttft_seconds", numberOrNull(c->check(CheckKind::Latency).figure("ttft_seconds"))},
             {"tokens_per_second_per_sequence",
              numberOrNull(c->check(CheckKind::Latency).figure("tokens_per_second_per_sequence"))},
             {"binding_check", binding.label},
             {"binding_margin", numberOrNull(binding.value)},
             {"risk", mainRisk(*c)}});
        if (c->trainingPlan && c->trainingPlan->problem.empty()) {
            options.back()["usd_per_month"] = nullptr;
            options.back()["run_usd"] = numberOrNull(c->trainingPlan->usd);
            options.back()["run_days"] = numberOrNull(c->trainingPlan->days);
        }
    }
    doc["alternatives"] = options;
    const Sensitivity s = sensitivity(scenario, selection);
    json bars = json::array();
    for (const TornadoBar &bar : s.bars)
        bars.push_back({{"input", bar.range.key},
                        {"label", bar.range.label},
                        {"low", bar.range.low},
                        {"high", bar.range.high},
                        {"low_text", bar.range.lowText},
                        {"high_text", bar.range.highText},
                        {"range_from", bar.range.origin},
                        {"usd_per_month_low", numberOrNull(bar.costLow)},
                        {"usd_per_month_high", numberOrNull(bar.costHigh)},
                        {"margin_low", numberOrNull(bar.marginLow)},
                        {"margin_high", numberOrNull(bar.marginHigh)},
                        {"passes_low", bar.passesLow},
                        {"passes_high", bar.passesHigh}});
    doc["sensitivity"] = {{"available", s.available},
                          {"why", s.why},
                          {"usd_per_month_base", numberOrNull(s.baseCost)},
                          {"usd_per_month_low", numberOrNull(s.costLow)},
                          {"usd_per_month_high", numberOrNull(s.costHigh)},
                          {"capacity_tokens_per_month_low", numberOrNull(s.capacityLow)},
                          {"capacity_tokens_per_month_base", numberOrNull(s.capacityBase)},
                          {"capacity_tokens_per_month_high", numberOrNull(s.capacityHigh)},
                          {"binding_check", s.baseMargin.label},
                          {"binding_margin", numberOrNull(s.baseMargin.value)},
                          {"main_uncertainty", s.mainUncertainty},
                          {"bars", bars}};
    const GrowthPlan g = growthPlan(scenario, selection);
    json months = json::array();
    for (const GrowthMonth &m : g.months)
        months.push_back({{"month", m.month},
                          {"demand_factor", m.demandFactor},
                          {"demand_tokens_per_second", numberOrNull(m.demandTokensPerSecond)},
                          {"capacity_tokens_per_second", numberOrNull(m.capacityTokensPerSecond)},
                          {"replicas", m.replicas},
                          {"usd_per_month", numberOrNull(m.usdPerMonth)}});
    doc["growth"] = {{"available", g.available},
                     {"why", g.why},
                     {"growth_per_month", g.growthPerMonth},
                     {"horizon_months", g.horizonMonths},
                     {"run_out_month", g.runOutMonth < 0 ? json(nullptr) : json(g.runOutMonth)},
                     {"add_replica_months", g.addReplicaMonths},
                     {"horizon_usd", numberOrNull(g.horizonUsd)},
                     {"beyond_month", g.beyondMonth < 0 ? json(nullptr) : json(g.beyondMonth)},
                     {"sentence", g.sentence},
                     {"months", months}};
    return doc.dump(2);
}

} // namespace core

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/techniques.h"

#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/model/architecture.h"
#include "core/model/calc.h"
#include "core/model/fleet.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace core {

namespace {

/** Everything a speculative point needs that does not depend on the batch. */
struct Speculation
{
    explicit Speculation(const Scenario &s)
        : target(s)
    {}
    StepModel target;
    std::optional<StepModel> draft; ///< kind model
    double proposals = 0;
    double acceptance = 0;
    double context = 0;
    double headsBytes = 0; ///< kind heads: read once per verify step, per device
    double headsParametersPerDevice = 0;
    std::string draftName;
    double draftWeightBytes = 0;
    double draftKvBytesPerSequence = 0;
};

Result<Speculation> makeSpeculation(const Scenario &s)
{
    const EngineConfig &engine = s.engine;
    if (!(engine.speculativeTokens >= 1.0))
        return Result<Speculation>::failure("/engine/speculative_tokens",
                                            "is 0: speculative decoding is off (set 1 to 16 "
                                            "tokens proposed per verify step)");
    Speculation sp(s);
    sp.proposals = engine.speculativeTokens;
    sp.acceptance = engine.acceptanceRate;
    sp.context = std::max(1.0, s.serving.contextTokens);
    if (engine.draftKind == "heads") {
        if (!isSet(engine.draftParameters))
            return Result<Speculation>::failure(
                "/engine/draft_parameters",
                "is needed for draft_kind \"heads\": the parameters the extra heads add");
        sp.headsBytes = engine.draftParameters * sp.target.bytesPerParameterPerDevice();
        sp.headsParametersPerDevice =
            engine.draftParameters / std::max(1.0, s.serving.tensorParallel);
        sp.draftName = "heads";
        sp.draftWeightBytes = sp.headsBytes / std::max(1.0, s.serving.pipelineParallel);
        return sp;
    }
    if (engine.draftModel.empty())
        return Result<Speculation>::failure(
            "/engine/draft_model",
            "is needed for draft_kind \"model\": a smaller model preset that proposes the tokens");
    auto draftScenario = withModelPreset(s, engine.draftModel);
    if (!draftScenario)
        return Result<Speculation>::failure("/engine/draft_model",
                                            "\"" + engine.draftModel.substr(0, 60) +
                                                "\" is no model preset (accel-calc presets lists "
                                                "them)");
    const Evaluation draft = evaluate(draftScenario.value());
    // a draft pays because its steps cost less than the target's: one as large proposes nothing
    // cheaper (issue #41: a 405B draft for a 7B target passed silently)
    const double targetWeights = evaluate(s)[FigureId::WeightsBytes];
    if (!(draft[FigureId::WeightsBytes] < targetWeights))
        return Result<Speculation>::failure(
            "/engine/draft_model", "\"" + draftScenario->model.name.substr(0, 60) + "\" (" +
                                       formatBytes(draft[FigureId::WeightsBytes]) +
                                       " of weights) is not smaller than the target (" +
                                       formatBytes(targetWeights) +
                                       "): a draft model must be cheaper to run than the model "
                                       "it drafts for");
    sp.draft.emplace(draftScenario.value());
    sp.draftName = draftScenario->model.name;
    sp.draftWeightBytes = draft[FigureId::WeightsBytes];
    sp.draftKvBytesPerSequence =
        draft[FigureId::KvBytesTotal] / std::max(1.0, draft[FigureId::ResidentSequences]);
    return sp;
}

SpeculativePoint pointAt(const Speculation &sp, double batch)
{
    SpeculativePoint p;
    p.batch = batch;
    p.tokensPerVerify = expectedTokensPerVerify(sp.acceptance, sp.proposals);
    const double k = sp.proposals;
    // The verify step: each sequence's K proposals and its own token in one forward pass. The K
    // extra tokens are computed like prompt tokens: they write their KV and attend to the whole
    // context and to each other; the context's KV is read once.
    StepLoad verify;
    verify.decodeSequences = batch;
    verify.decodeContextTokens = batch * sp.context;
    verify.prefillTokens = batch * k;
    verify.prefillAttentionPairs = batch * (k * sp.context + k * (k + 1.0) / 2.0);
    verify.extraBytes = sp.headsBytes;
    verify.extraFlops = 2.0 * sp.headsParametersPerDevice * batch;
    p.verify = sp.target.cost(verify);
    if (sp.draft)
        p.draftSeconds = k * sp.draft->seconds({batch, batch * sp.context, 0.0, 0.0});
    p.cycleSeconds = p.draftSeconds + p.verify.seconds;
    p.tokensPerSecondPerSequence = p.tokensPerVerify / p.cycleSeconds;
    p.tokensPerSecond = batch * p.tokensPerSecondPerSequence;
    p.plain = sp.target.cost({batch, batch * sp.context, 0.0, 0.0});
    p.plainTokensPerSecond = batch / p.plain.seconds;
    p.speedup = p.tokensPerSecond / p.plainTokensPerSecond;
    return p;
}

} // namespace

double expectedTokensPerVerify(double acceptance, double proposals)
{
    const double a = std::clamp(acceptance, 0.0, 1.0);
    const double k = std::max(0.0, proposals);
    if (a >= 1.0)
        return k + 1.0;
    return (1.0 - std::pow(a, k + 1.0)) / (1.0 - a);
}

Result<SpeculativeAnalysis> analyseSpeculative(const Scenario &scenario)
{
    auto sp = makeSpeculation(scenario);
    if (!sp)
        return sp.error();
    SpeculativeAnalysis a;
    a.proposals = sp->proposals;
    a.acceptance = sp->acceptance;
    a.draftName = sp->draftName;
    a.draftWeightBytesPerDevice = sp->draftWeightBytes;
    a.draftKvBytesPerSequencePerDevice = sp->draftKvBytesPerSequence;
    a.atBatch = pointAt(sp.value(), std::max(1.0, scenario.serving.batch));
    // Speculation pays while decode is memory-bound: the verify step's extra tokens ride on the
    // same weight read. The speedup falls with the batch; the scan finds where it stops paying.
    for (double batch = 1.0; batch <= kBatchAxisMaximum; batch += 1.0) {
        if (pointAt(sp.value(), batch).speedup >= 1.0)
            a.lastPayingBatch = batch;
        else if (a.lastPayingBatch > 0.0)
            break;
    }
    return a;
}

Result<std::vector<SpeculativePoint>> sweepSpeculative(const Scenario &scenario,
                                                       std::span<const double> batches)
{
    auto sp = makeSpeculation(scenario);
    if (!sp)
        return sp.error();
    std::vector<SpeculativePoint> points;
    points.reserve(batches.size());
    for (double batch : batches) {
        if (batch >= 1.0 && std::isfinite(batch))
            points.push_back(pointAt(sp.value(), batch));
    }
    return points;
}

Result<PrefixCacheAnalysis> analysePrefixCache(const Scenario &scenario)
{
    const EngineConfig &engine = scenario.engine;
    if (!(engine.prefixTokens >= 1.0))
        return Result<PrefixCacheAnalysis>::failure(
            "/engine/prefix_tokens", "is 0: prefix caching is off (set the prompt tokens "
                                     "requests share)");
    const Evaluation e = evaluate(scenario);
    const StepModel model(scenario);
    PrefixCacheAnalysis a;
    a.promptTokens = std::max(1.0, scenario.serving.promptTokens);
    // a cached prefix is the start of the prompt: one longer than the prompt is no setting
    // (issue #41: 100,000 prefix tokens on a 4,096-token prompt counted 13.1 GB of cached KV)
    if (engine.prefixTokens > a.promptTokens)
        return Result<PrefixCacheAnalysis>::failure(
            "/engine/prefix_tokens", "is longer than the prompt (" +
                                         formatNumber(engine.prefixTokens, 9) + " of " +
                                         formatNumber(a.promptTokens, 9) +
                                         " tokens): the shared prefix is part of every prompt");
    // a prompt that is all prefix still computes its last token (the logits come from it)
    a.prefixTokens = std::min(engine.prefixTokens, a.promptTokens - 1.0);
    a.hitRate = engine.prefixHitRate;
    const double h = a.hitRate;
    const double rest = a.promptTokens - a.prefixTokens;
    StepLoad hit;
    hit.prefillTokens = rest;
    hit.prefillAttentionPairs = rest * a.prefixTokens + rest * (rest + 1.0) / 2.0;
    hit.extraBytes = a.prefixTokens * model.kvBytesPerContextToken(); // the cached KV it reads
    const StepCost onHit = model.cost(hit);

    a.tokensPrefilledWithout = a.promptTokens;
    a.tokensPrefilledWith = h * rest + (1.0 - h) * a.promptTokens;
    a.flopsWithout = e[FigureId::PrefillFlops];
    a.flopsWith = h * onHit.flops + (1.0 - h) * a.flopsWithout;
    a.bytesWithout = e[FigureId::PrefillBytes];
    a.bytesWith = h * onHit.bytes + (1.0 - h) * a.bytesWithout;
    a.prefillSecondsWithout = e[FigureId::PrefillSeconds];
    a.prefillSecondsWith = h * onHit.seconds + (1.0 - h) * a.prefillSecondsWithout;
    a.ttftSecondsWithout = e[FigureId::PrefillTtftSeconds];
    a.ttftSecondsWith =
        firstTokenSeconds(a.prefillSecondsWith, e[FigureId::PrefillFirstDecodeSeconds]);
    const double replicaUsdPerSecond = e[FigureId::CostPricePerHour] / 3600.0;
    a.usdPerRequestWithout = replicaUsdPerSecond * a.prefillSecondsWithout;
    a.usdPerRequestWith = replicaUsdPerSecond * a.prefillSecondsWith;

    a.cachedKvBytesPerDevice =
        engine.cachedPrefixes * engine.prefixTokens * model.kvBytesPerTokenPerDevice();
    const double resident = std::max(1.0, e[FigureId::ResidentSequences]);
    const double perSequence =
        (e[FigureId::KvBytesTotal] + e[FigureId::FragmentationBytes]) / resident;
    a.maxConcurrentWithout = e[FigureId::MaxConcurrentSequences];
    a.maxConcurrentWith =
        maxSequences(e[FigureId::KvBudgetBytes] - a.cachedKvBytesPerDevice, perSequence);
    a.fitsWith = e[FigureId::HeadroomBytes] >= a.cachedKvBytesPerDevice;
    return a;
}

Result<DisaggregationAnalysis> analyseDisaggregation(const Scenario &scenario)
{
    const EngineConfig &engine = scenario.engine;
    if (engine.disaggregated != 1.0)
        return Result<DisaggregationAnalysis>::failure(
            "/engine/disaggregated", "is 0: prefill and decode share their replicas (set 1 to "
                                     "put them on separate pools)");
    if (!(scenario.serving.contextTokens - scenario.serving.promptTokens >= 1.0))
        return Result<DisaggregationAnalysis>::failure(
            "/serving/prompt_tokens", "fills the whole context: no output tokens are left for "
                                      "the decode pool (lower the prompt or raise the context)");
    Scenario prefillSide = scenario;
    if (!engine.prefillDevice.empty()) {
        auto moved = onDevicePreset(scenario, engine.prefillDevice);
        if (!moved)
            return Result<DisaggregationAnalysis>::failure(
                "/engine/prefill_device", "\"" + engine.prefillDevice.substr(0, 60) +
                                              "\" is no device preset (accel-calc presets "
                                              "lists them)");
        prefillSide = moved->scenario;
    }
    const Evaluation decode = evaluate(scenario);
    const Evaluation prefill = evaluate(prefillSide);
    DisaggregationAnalysis a;
    a.prefillDeviceName = prefillSide.device.name;
    const double prompt = std::max(1.0, scenario.serving.promptTokens);
    a.kvBytesPerRequest =
        sequenceCache(scenario.model, nominalBytes(scenario.serving.kvFormat), prompt, 1.0).bytes;
    a.linkBytesPerSecond = engine.kvLinkGbPerSecond * 1e9;
    a.transferSeconds = a.kvBytesPerRequest / a.linkBytesPerSecond;
    if (!std::isfinite(a.transferSeconds) || a.transferSeconds >= 1e15)
        return Result<DisaggregationAnalysis>::failure(
            "/engine/kv_link_gb_s",
            "moves a request's KV (" + formatBytes(a.kvBytesPerRequest) +
                ") in no real time: the link between the pools is too slow to split them");
    a.prefillSeconds = prefill[FigureId::PrefillSeconds];
    a.decodeStepSeconds = decode[FigureId::DecodeStepSeconds];
    // the same first decode step on both sides: only the prefill's place and the transfer differ
    a.ttftSecondsColocated = decode[FigureId::PrefillTtftSeconds];
    a.ttftSecondsDisaggregated = firstTokenSeconds(
        a.prefillSeconds, decode[FigureId::PrefillFirstDecodeSeconds], a.transferSeconds);
    a.outputTokensPerRequest = scenario.serving.contextTokens - scenario.serving.promptTokens;
    a.prefillPoolRequestsPerSecond = engine.prefillReplicas / a.prefillSeconds;
    a.decodePoolRequestsPerSecond =
        engine.decodeReplicas * decode[FigureId::DecodeTokensPerSecond] / a.outputTokensPerRequest;
    // the link moves one request's KV after another: it caps the split too (a link far slower
    // than the pools left the split's rate unchanged, issue #41)
    a.disaggregatedRequestsPerSecond =
        std::min({a.prefillPoolRequestsPerSecond, a.decodePoolRequestsPerSecond,
                  a.linkBytesPerSecond / a.kvBytesPerRequest});
    const double replicas = engine.prefillReplicas + engine.decodeReplicas;
    const double perRequest = decode[FigureId::PrefillSeconds] +
                              a.outputTokensPerRequest / decode[FigureId::DecodeTokensPerSecond];
    a.colocatedRequestsPerSecond = replicas / perRequest;
    const double devicesPerReplica = decode[FigureId::Devices];
    a.devicesDisaggregated = replicas * devicesPerReplica;
    a.usdPerHourDisaggregated = engine.prefillReplicas * prefill[FigureId::CostPricePerHour] +
                                engine.decodeReplicas * decode[FigureId::CostPricePerHour];
    a.usdPerHourColocated = replicas * decode[FigureId::CostPricePerHour];
    return a;
}

std::optional<SplitProposal> proposeSplit(const Scenario &decodeSide,
                                          std::span<const SplitOption> prefillOptions)
{
    const TrafficConfig &traffic = decodeSide.traffic;
    const double rate = peakRequestsPerSecond(traffic);
    const double output = decodeSide.serving.contextTokens - decodeSide.serving.promptTokens;
    const Evaluation decode = evaluate(decodeSide);
    const double decodePrice = decode[FigureId::CostPricePerHour];
    // a colocated replica's work per request, on the fleet's one basis (core/model/fleet.h)
    const ReplicaWork work = replicaWork(decodeSide, decode[FigureId::PrefillSeconds],
                                         decode[FigureId::DecodeTokensPerSecond]);
    const double tokensPerSecond = work.decodeTokensPerSecond;
    if (!(rate > 0.0) || !(output >= 1.0) || !std::isfinite(decodePrice) ||
        !(tokensPerSecond > 0.0) || prefillOptions.empty())
        return std::nullopt;
    const double minimum = minimumReplicas(decodeSide.wizard);
    const auto replicasFor = [&](double secondsPerRequest) {
        return replicasForRate(rate, secondsPerRequest, minimum);
    };
    SplitProposal best;
    best.requestsPerSecond = rate;
    best.colocatedReplicas = replicasFor(work.secondsPerRequest());
    best.usdPerHourColocated = best.colocatedReplicas * decodePrice;
    best.decodeReplicas = replicasFor(output / tokensPerSecond);
    const double kvBytes =
        sequenceCache(decodeSide.model, nominalBytes(decodeSide.serving.kvFormat),
                      std::max(1.0, decodeSide.serving.promptTokens), 1.0)
            .bytes;
    best.transferSeconds = kvBytes / (decodeSide.engine.kvLinkGbPerSecond * 1e9);
    const double firstDecode = decode[FigureId::PrefillFirstDecodeSeconds];
    bool any = false;
    for (const SplitOption &option : prefillOptions) {
        if (!option.scenario)
            continue;
        const Evaluation prefill = evaluate(*option.scenario);
        const double price = prefill[FigureId::CostPricePerHour];
        const double seconds = prefill[FigureId::PrefillSeconds];
        const double ttft = firstTokenSeconds(seconds, firstDecode, best.transferSeconds);
        if (!std::isfinite(price) || !(seconds > 0.0) ||
            ttft > decodeSide.serving.ttftTargetSeconds)
            continue;
        const double replicas = replicasFor(seconds);
        const double cost = replicas * price + best.decodeReplicas * decodePrice;
        if (!any || cost < best.usdPerHourSplit) {
            any = true;
            best.prefillOption = option.name;
            best.prefillReplicas = replicas;
            best.usdPerHourSplit = cost;
            best.ttftSeconds = ttft;
        }
    }
    if (!any)
        return std::nullopt;
    best.cheaper = best.usdPerHourSplit < best.usdPerHourColocated;
    const std::string pools = formatNumber(best.prefillReplicas, 9) + " prefill replicas of " +
                              best.prefillOption + " and " + formatNumber(best.decodeReplicas, 9) +
                              " decode replicas";
    const std::string costs = formatUsd(best.usdPerHourSplit) + " an hour against " +
                              formatUsd(best.usdPerHourColocated) + " for " +
                              formatNumber(best.colocatedReplicas, 9) + " colocated replicas at " +
                              formatNumber(rate, 4) +
                              " requests/s, counting each request's prefill as well as its "
                              "decode";
    const std::string why =
        " (a colocated replica spends each request's " +
        formatSeconds(decode[FigureId::PrefillSeconds]) + " prefill and " +
        formatSeconds(output / tokensPerSecond) +
        " of decode steps in turn; each pool does one alone). Each request's KV, " +
        formatBytes(kvBytes) + ", crosses the link in " + formatSeconds(best.transferSeconds) +
        "; the first token comes in " + formatSeconds(best.ttftSeconds) + ".";
    best.text = best.cheaper
                    ? "Split prefill and decode: " + pools + " cost " + costs + why
                    : "A split (" + pools + ") would cost " + costs + ": colocated stays" + why;
    return best;
}

} // namespace core

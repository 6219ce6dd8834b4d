// SPDX-License-Identifier: GPL-3.0-or-later
#include "tour.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/physics/evaluation.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace views {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Tour", text);
}

TourStep makeStep(const QString &title, const QString &scenario, const QStringList &overrides,
                  const QString &view, core::FigureId figure, double lessonValue, double tolerance,
                  int line, const QString &text, bool predict = false, const QString &question = {},
                  const QStringList &questionOverrides = {},
                  core::FigureId answerFigure = core::FigureId::MaxConcurrentSequences)
{
    TourStep step;
    step.title = title;
    step.scenario = scenario;
    step.overrides = overrides;
    step.view = view;
    step.figure = figure;
    step.lessonValue = lessonValue;
    step.tolerance = tolerance;
    step.line = line;
    step.text = text;
    step.predict = predict;
    step.question = question;
    step.questionOverrides = questionOverrides;
    step.answerFigure = answerFigure;
    return step;
}

QList<TourStep> makeSteps()
{
    using F = core::FigureId;
    QList<TourStep> s;
    s.append(makeStep(
        tr("Two bottlenecks"), QStringLiteral("toy-decode"), {}, QStringLiteral("roofline"),
        F::DecodeTokensPerSecondPerSequence, 68.8, 0.05, 121,
        tr("One user, one token at a time: every weight is read from memory for a single "
           "multiply-add. The matrix units wait for bytes, so a fast chip still gives only a "
           "few dozen tokens per second. That is the first bottleneck, arithmetic against "
           "data movement; the second, capacity against headroom, comes with the KV cache."),
        true));
    s.append(makeStep(
        tr("CPU against accelerator"), QStringLiteral("toy-decode"), {},
        QStringLiteral("cpu-vs-accelerator"), F::DecodeStepSeconds, 0.0145, 0.0001, 121,
        tr("The same decode step on a server CPU and on the accelerator. Both are limited "
           "by memory bandwidth at one row; HBM's width is what the accelerator brings.")));
    s.back().onScreen = tr("Press Start the Race.");
    s.append(makeStep(
        tr("Inside an accelerator"), QStringLiteral("lesson-default"), {},
        QStringLiteral("anatomy"), F::Bandwidth, 1e12, 1, 93,
        tr("Matrix units multiply whole tiles in a few cycles; vector units do the rest (norms, "
           "softmax, activations). HBM is wide and next to the die: 1,000 GB/s on the lesson's "
           "device. On-chip SRAM holds the tiles being reused, DMA engines fetch the next tile "
           "while this one is computed, and the host interface is far narrower: the weights "
           "should cross it once.")));
    s.append(makeStep(
        tr("One matrix multiplication, tile by tile"), QStringLiteral("lesson-default"),
        {QStringLiteral("serving.batch=1")}, QStringLiteral("matmul"), F::DecodeIntensity, 1.0,
        0.05, 29,
        tr("Step through one layer's weight multiplication: tiles of weights and activations "
           "come from HBM into SRAM, the matrix units multiply them, and the running sums stay "
           "on chip. Many activation rows reuse every weight tile; one row (one token for one "
           "user) uses each weight once: about one FLOP per byte.")));
    s.append(makeStep(
        tr("The memory hierarchy and the cold start"), QStringLiteral("lesson-default"), {},
        QStringLiteral("hierarchy"), F::WeightsBytes, 14e9, 1, 33,
        tr("Each step down the hierarchy is bigger and slower. Before the first request the "
           "14 GB of weights travel from object storage to host memory and across the narrow "
           "host link into HBM: a storage and network event before it is a GPU event.")));
    s.append(makeStep(
        tr("Weights and training memory"), QStringLiteral("lesson-default"), {},
        QStringLiteral("memory"), F::TrainingStateBytes, 112e9, 1, 63,
        tr("Serving needs the weights; training also keeps gradients, a full-precision master "
           "copy and two optimiser moments: 16 bytes for every parameter before a single "
           "activation."),
        true,
        tr("How many GB of training state does the 7B model need at 16 bytes per "
           "parameter?"),
        {}, F::TrainingStateBytes));
    s.append(makeStep(
        tr("The KV cache"), QStringLiteral("lesson-default"), {}, QStringLiteral("kv"),
        F::KvBytesTotal, 17179869184.0, 1, 84,
        tr("Every token of every active conversation keeps its keys and values in memory: "
           "32 sequences of 4,096 tokens hold more than the weights' worth of KV cache.")));
    s.append(
        // batch 1, as the text says (the lesson's default scenario decodes at batch 8), and the
        // ridge's value left to the class to predict, not written in the step (issue #23)
        makeStep(tr("The roofline and the toy decode estimate"), QStringLiteral("lesson-default"),
                 {QStringLiteral("serving.batch=1")}, QStringLiteral("roofline"), F::Ridge, 200,
                 1e-9, 93,
                 tr("The ridge is peak arithmetic over memory bandwidth: how many FLOP each byte "
                    "must feed before the arithmetic, not memory, sets the pace. Decode at batch 1 "
                    "does about one FLOP per byte, far to the left of it, so its speed is bytes "
                    "divided by bandwidth."),
                 true));
    s.append(makeStep(
        tr("Batching"), QStringLiteral("batching-32"), {}, QStringLiteral("throughput"),
        F::DecodeTokensPerSecond, 1026, 0.5, 123,
        tr("A batch shares each weight read across sequences: throughput rises with the batch "
           "while each sequence's pace falls."),
        true));
    // before Reveal the curve stops short of the asked batch: the batch moves nothing there yet
    s.back().onScreen =
        tr("After Reveal, change the batch (the Up and Down keys) and watch both curves.");
    s.append(makeStep(tr("Prefill"), QStringLiteral("lesson-default"), {},
                      QStringLiteral("roofline"), F::DecodeIntensityLimit, 26.08, 0.05, 125,
                      tr("However large the batch, every sequence reads its own KV "
                         "cache, so decode's "
                         "intensity can never pass about 26 FLOP per byte. A prompt is "
                         "processed all at "
                         "once, sharing every weight across its tokens: prefill sits "
                         "on the compute side "
                         "of the ridge.")));
    s.append(makeStep(
        tr("Number formats"), QStringLiteral("lesson-default"),
        {QStringLiteral("serving.weight_format=\"fp8\"")}, QStringLiteral("precision"),
        F::WeightsBytes, 7e9, 1, 46,
        tr("A float splits its bits between exponent (range) and mantissa (resolution). FP16 "
           "stops at 65,504; BF16 keeps FP32's range with 7 mantissa bits; FP8 comes as E4M3 or "
           "E5M2 with explicit scales. One byte per weight halves the 7B model's weights to "
           "7 GB, if the device has a fast kernel for the format.")));
    s.append(makeStep(tr("Precision and quantisation"), QStringLiteral("lesson-default"),
                      {QStringLiteral("serving.weight_format=\"int8\"")},
                      QStringLiteral("quantisation"), F::WeightsBytes, 7e9, 1, 46,
                      tr("One byte per weight halves the memory and the bytes each "
                         "decode step reads. The "
                         "price is rounding: one scale per group, and small weights "
                         "near an outlier round "
                         "to zero.")));
    s.append(makeStep(tr("The family of chips"), QStringLiteral("lesson-default"), {},
                      QStringLiteral("family"), F::PeakFlops, 200e12, 1, 93,
                      tr("Every device preset by memory bandwidth and dense peak. None "
                         "is a universal "
                         "winner: compare for a workload, a software stack and a "
                         "scale.")));
    s.back().onScreen = tr("Click a point to make it the scenario's device.");
    s.append(makeStep(
        tr("Interconnect"), QStringLiteral("interconnect-data-parallel"), {},
        QStringLiteral("interconnect"), F::InterconnectIntraNodeSeconds, 0.245, 0.0005, 163,
        tr("Data-parallel training synchronises a full gradient every step: 24.5 GB "
           "through each device's link. How long does that take over a 100 GB/s link inside "
           "a node? Over a 12.5 GB/s network between nodes it takes eight times as long."),
        true));
    s.append(makeStep(
        tr("Tensor-parallel decode: one node against several"),
        QStringLiteral("interconnect-tensor-parallel"), {QStringLiteral("serving.batch=32")},
        QStringLiteral("interconnect"), F::InterconnectLatencySeconds, 0.64e-3, 1e-6, 171,
        tr("Tensor parallelism all-reduces after every layer: 64 messages of 262,144 B a decode "
           "step. Each is tiny, so a wider pipe barely helps; what adds up is each collective's "
           "fixed latency. Past the edge of one node the same collectives cross the network and "
           "the efficiency falls: a per-token collective over a network hop is unattractive "
           "for an interactive service."),
        true));
    s.append(makeStep(
        tr("Power"), QStringLiteral("lesson-default"), {}, QStringLiteral("power"),
        F::PowerNodeWatts, 5000, 1e-9, 174,
        tr("Eight devices at 500 W and a 1 kW host draw 5 kW a node; a 40 kW rack holds 8 such "
           "nodes. The rack's power, not its space, sets the count.")));
    s.append(makeStep(
        tr("Cost per token"), QStringLiteral("cost-example"), {}, QStringLiteral("cost"),
        F::CostUsdPerMillionTokens, 3.97, 0.005, 183,
        tr("Price per hour over the tokens produced while busy: idle hours are billed too. "
           "What does a $4-an-hour device cost per million tokens at 70 % utilisation? At 35 % "
           "it costs twice that."),
        true));
    s.append(makeStep(
        tr("The software stack"), QStringLiteral("lesson-default"), {}, QStringLiteral("stack"),
        F::DecodeTokensPerSecond, 437, 0.5, 122,
        tr("Framework, compiler, kernels, driver, device. A missing kernel shows up as tokens "
           "per second far below an estimate like this one: diagnose from the device up.")));
    s.append(makeStep(
        tr("Three regimes: training, online, edge"), QStringLiteral("edge-3b"), {},
        QStringLiteral("memory"), F::WeightsBytes, 1.5e9, 1, 197,
        tr("Training wants sustained arithmetic, 16 bytes a parameter of memory, fast links and "
           "checkpoints. Online inference wants bandwidth, KV capacity and batching within a "
           "p95 target. Edge inference wants energy per inference and a toolchain for its "
           "operators: a 4-bit 3B model needs 1.5 GB of raw weights and may fit a laptop NPU's "
           "shared memory; a 70B model never will.")));
    // issue #45: the 16 bytes a parameter that fit no single device, sharded, and a whole run
    // planned: the lesson's 7B on 20 tokens a parameter, eight devices, ZeRO-3
    s.append(makeStep(
        tr("A training run"), QStringLiteral("lesson-default"),
        {QStringLiteral("training.tokens=140e9"), QStringLiteral("training.devices=8"),
         QStringLiteral("training.tensor_parallel=1"),
         QStringLiteral("training.pipeline_parallel=1"), QStringLiteral("training.data_parallel=8"),
         QStringLiteral("training.dp_degree=8"), QStringLiteral("training.zero_stage=3")},
        QStringLiteral("training"), F::TrainingStateBytesPerDevice, 112e9 / 8, 1, 196,
        tr("The 7B model's training state fits no single 80 GB device. Shard it: with ZeRO "
           "stage 3 each of eight data-parallel devices keeps only its share of the weights, "
           "gradients, master copy and optimiser moments, and gathers the rest when a layer "
           "needs it. How much state does each device hold? Then read what the run costs: "
           "20 tokens per parameter, six FLOP per parameter per token, for weeks on eight "
           "devices, with a checkpoint every few hours because over thousands of "
           "device-hours something fails."),
        true));
    s.back().figureLabel = tr("Training state per device, ZeRO-3 over 8");
    s.append(makeStep(
        tr("Device selection"), QStringLiteral("support-assistant"), {}, QStringLiteral("decision"),
        F::ServingBytesTotal, 32.7e9, 0.05e9, 215,
        tr("Forty conversations of 3,000 tokens need 32.7 GB: the 24 GB device fails even with "
           "1-byte weights, the 48 GB device passes with headroom. The decision comes from "
           "the KV formula and a latency estimate anyone can check.")));
    s.append(makeStep(tr("Diagnosing an out-of-memory failure"), QStringLiteral("oom-14th-request"),
                      {}, QStringLiteral("oom"), F::MaxConcurrentSequences, 13, 1e-9, 255,
                      tr("Long requests start failing under load. The diagnosis above "
                         "accounts for every gigabyte: how many sequences fit before the next "
                         "one fails? The cures: a lower admission limit, a shorter context, "
                         "1-byte weights."),
                      true,
                      tr("How many 4,096-token sequences fit on the 24 GB device "
                         "with 1-byte weights?"),
                      {QStringLiteral("serving.weight_format=\"int8\"")},
                      F::MaxConcurrentSequences));
    s.append(makeStep(
        tr("Other failure modes"), QStringLiteral("lesson-default"), {}, QStringLiteral("stack"),
        F::DecodeTokensPerSecond, 437, 0.5, 122,
        tr("A missing kernel: the model answers at a fraction of this estimate, or refuses an "
           "operation; read the start-up log for fallbacks and profile one decode step. "
           "Interconnect saturation: throughput falls as devices are added; four devices across "
           "two nodes are not four in one. Device failure: health checks drain the replica, and "
           "a lost device takes its whole tensor-parallel group with it.")));
    s.append(makeStep(
        tr("What engines do"), QStringLiteral("lesson-default"),
        {QStringLiteral("engine.speculative_tokens=4"),
         QStringLiteral("engine.acceptance_rate=0.7"),
         QStringLiteral("engine.draft_kind=\"heads\""),
         QStringLiteral("engine.draft_parameters=200000000")},
        QStringLiteral("operators"), F::DecodeTokensPerSecond, 437, 0.5, 127,
        tr("The toy model leaves out what engines do. A decode step is a dozen operators per "
           "layer: the projections and the MLP read the weights and move right with the batch; "
           "the attention scores read each sequence's KV and do not. Speculative decoding "
           "verifies 4 proposed tokens in one step (the roofline's diamond, right of decode); "
           "prefix caching skips a shared prompt's prefill; a split prefill pool moves the KV "
           "over a link.")));
    s.append(makeStep(
        tr("Takeaways"), QStringLiteral("lesson-default"), {}, QStringLiteral("roofline"),
        F::WeightsBytes, 14e9, 1, 285,
        tr("Two limits: data movement (decode reads every weight each step) and capacity "
           "(all of it must be resident). Weights: 14 GB for 7B in 16 bits, eight times that "
           "to train. The KV cache belongs to traffic. Batching buys throughput with p95; "
           "prefill is compute-bound. Low precision pays only with a kernel. Choose by the KV "
           "formula and a latency estimate anyone can check.")));
    // the estimate the software stack, failure and engine steps compare with: named for what
    // it is to them, not "Tokens/s total" beside a diagram that shows none (issue #42)
    for (TourStep &step : s) {
        if (step.title == tr("The software stack"))
            step.figureLabel = tr("The estimate a missing kernel falls far below");
        else if (step.title == tr("Other failure modes"))
            step.figureLabel = tr("The estimate a slow model is compared with");
        else if (step.title == tr("What engines do"))
            step.figureLabel = tr("Plain decode, before any technique");
        else if (step.title == tr("Batching")) // which batch the class predicts for
            step.figureLabel = tr("Tokens/s total at batch 32");
    }
    // what would give a hidden number away: its reciprocal, its other form, the figure it is
    // read from (issue #23)
    for (TourStep &step : s) {
        switch (step.figure) {
        case F::DecodeTokensPerSecondPerSequence:
        case F::DecodeTokensPerSecond:
            step.giveaways = {F::DecodeTokensPerSecondPerSequence, F::DecodeTokensPerSecond,
                              F::DecodeStepSeconds};
            break;
        case F::Ridge:
            step.giveaways = {F::DecodeRidgeDistance};
            break;
        case F::TrainingStateBytes:
            step.giveaways = {F::TrainingStateBytesPerDevice, F::TrainingTotalBytesPerDevice};
            break;
        case F::TrainingStateBytesPerDevice:
            step.giveaways = {F::TrainingTotalBytesPerDevice, F::TrainingWeightsBytesPerDevice,
                              F::TrainingGradsBytesPerDevice, F::TrainingMasterBytesPerDevice,
                              F::TrainingOptimizerBytesPerDevice};
            break;
        case F::InterconnectIntraNodeSeconds:
            step.giveaways = {F::InterconnectBandwidthSeconds, F::InterconnectSeconds,
                              F::InterconnectInterNodeSeconds};
            break;
        case F::CostUsdPerMillionTokens:
            step.giveaways = {F::CostSelfHostedUsdPerRequest};
            break;
        case F::MaxConcurrentSequences:
            step.giveaways = {F::AdmissionLimit};
            break;
        case F::InterconnectLatencySeconds:
            step.giveaways = {F::InterconnectSeconds};
            break;
        default:
            break;
        }
    }
    return s;
}

} // namespace

const QList<TourStep> &tourSteps()
{
    static const QList<TourStep> steps = makeSteps();
    return steps;
}

bool tourScenario(const TourStep &step, core::Scenario &scenario, QString *error)
{
    const auto text = core::scenarioPresetText(step.scenario.toStdString());
    if (!text) {
        if (error)
            *error = QStringLiteral("no built-in scenario %1").arg(step.scenario);
        return false;
    }
    std::vector<std::string> overrides;
    for (const QString &o : step.overrides)
        overrides.push_back(o.toStdString());
    auto loaded = core::readScenario(*text, overrides);
    if (!loaded) {
        if (error)
            *error = QString::fromStdString(loaded.error().message);
        return false;
    }
    scenario = loaded.value().scenario;
    return true;
}

QString tourFigureLabel(const TourStep &step)
{
    if (!step.figureLabel.isEmpty())
        return step.figureLabel;
    const auto &label = core::figureInfo(step.figure).label;
    return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

QList<core::FigureId> concealedFigures(const TourStep &step)
{
    if (!step.predict)
        return {};
    return QList<core::FigureId>{step.figure} + step.giveaways;
}

QList<core::FigureId> concealedFigures(int index, bool revealed)
{
    const QList<TourStep> &steps = tourSteps();
    if (index < 0 || index >= steps.size())
        return {};
    QList<core::FigureId> hidden =
        revealed ? QList<core::FigureId>{} : concealedFigures(steps[index]);
    core::Scenario here;
    if (!tourScenario(steps[index], here))
        return hidden;
    const core::Evaluation shown = core::evaluate(here);
    for (int later = index + 1; later < steps.size(); ++later) {
        const TourStep &step = steps[later];
        if (!step.predict)
            continue;
        core::Scenario asked;
        if (!tourScenario(step, asked))
            continue;
        const double answer = core::evaluate(asked)[step.figure];
        const double value = shown[step.figure];
        // the same number as printed: within its tolerance, or 2 % (three figures)
        if (!std::isfinite(answer) || !std::isfinite(value) ||
            std::fabs(value - answer) > std::max(step.tolerance, 0.02 * std::fabs(answer)))
            continue;
        for (const core::FigureId id : concealedFigures(step)) {
            if (!hidden.contains(id))
                hidden << id;
        }
    }
    return hidden;
}

double curvesHiddenFromBatch(int index, bool revealed)
{
    const QList<TourStep> &steps = tourSteps();
    double hiddenFrom = std::numeric_limits<double>::infinity();
    core::Scenario here;
    if (index < 0 || index >= steps.size() || !tourScenario(steps[index], here))
        return hiddenFrom;
    for (int later = revealed ? index + 1 : index; later < steps.size(); ++later) {
        const TourStep &step = steps[later];
        if (!step.predict || (step.figure != core::FigureId::DecodeTokensPerSecond &&
                              step.figure != core::FigureId::DecodeTokensPerSecondPerSequence))
            continue;
        core::Scenario asked;
        if (!tourScenario(step, asked))
            continue;
        // the value this step's curve draws at the asked batch, against the asked number
        const std::vector<double> batch{asked.serving.batch};
        const double drawn = core::sweepBatch(here, batch).front().tokensPerSecond;
        const double answer = core::evaluate(asked)[core::FigureId::DecodeTokensPerSecond];
        if (std::isfinite(drawn) && std::isfinite(answer) &&
            std::fabs(drawn - answer) <= std::max(step.tolerance, 0.02 * std::fabs(answer)))
            hiddenFrom = std::min(hiddenFrom, asked.serving.batch);
    }
    return hiddenFrom;
}

double tourAnswer(const TourStep &step)
{
    TourStep variant = step;
    variant.overrides += step.questionOverrides;
    core::Scenario scenario;
    if (!tourScenario(variant, scenario))
        return core::kUnset;
    return core::evaluate(scenario)[step.answerFigure];
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A training run planned (issue #45; lesson l.51-65, l.196, l.287): given a model, a token budget,
// a device and a layout (tensor, pipeline, data, context and expert parallel degrees, ZeRO stage,
// activation recomputation, micro-batch), what each device holds, how long one optimiser step
// takes and why, the model FLOP utilisation, the days, device-hours, energy and cost of the run,
// and what failures and checkpoints add. docs/formulas.md, "Training plan", gives each term and
// its source. Plain values and pure functions, like the rest of the core.

#include "core/model/formats.h"
#include "core/model/scenario.h"

#include <limits>
#include <string>
#include <vector>

namespace core {

/** How the run is laid out over its devices. Devices = tensor x pipeline x data x context;
 *  expert parallelism spreads the routed experts over the data-parallel replicas (it divides
 *  data x context) and adds no devices. */
struct TrainingLayout
{
    double tensor = 1;
    double pipeline = 1;
    double data = 1;
    double context = 1;
    double expert = 1;
    double zeroStage = 0;
    RecomputeMode recompute{};
    double microBatch = 1;

    double devices() const { return tensor * pipeline * data * context; }
};

/** One device's memory on the busiest pipeline stage (the first: it holds the embedding table
 *  and the most micro-batches in flight; the last, where the output head and the logits are, is
 *  taken where it holds more). Bytes. */
struct TrainingMemory
{
    double weights = 0;
    double gradients = 0;
    double master = 0;    ///< FP32 master copy
    double optimizer = 0; ///< Adam's moments
    double activations = 0;
    double logits = 0; ///< the output head's FP32 logits of one micro-batch (the last stage)
    double overhead = 0;
    double total = 0;
    double capacity = 0;
    double microBatchesInFlight = 0; ///< activations held at once: min(stages, micro-batches)
    bool fits = false;
};

/** One optimiser step on the slowest stage, seconds. The pipeline runs (micro-batches + stages
 *  - 1) micro-batch slots (1F1B); the bubble is the (stages - 1) of them with no work. */
struct TrainingStep
{
    double microBatches = 0;      ///< per pipeline per step: global batch / (micro-batch x data)
    double microBatchSeconds = 0; ///< forward and backward of one micro-batch on one stage
    double matmulSeconds = 0;     ///< per step, at the measured matmul ceiling
    double attentionSeconds = 0;
    double elementwiseSeconds = 0;     ///< norms, rotary, activation, residual adds (memory-bound)
    double tensorParallelSeconds = 0;  ///< the TP all-reduces, not overlapped
    double expertParallelSeconds = 0;  ///< the MoE all-to-alls, not overlapped
    double contextParallelSeconds = 0; ///< ring attention's KV passes beyond what attention hides
    double pipelineSendSeconds = 0;
    double bubbleSeconds = 0;
    double bubbleFraction = 0;             ///< (stages - 1) / (micro-batches + stages - 1)
    double dataParallelSeconds = 0;        ///< the gradient reduction, all of it
    double dataParallelExposedSeconds = 0; ///< what the last backward pass does not hide
    double optimizerSeconds = 0;
    double total = 0;
};

/** Interruptions over the run and the checkpoints that bound their cost (lesson l.287). */
struct TrainingReliability
{
    double checkpointBytes = 0; ///< weights, master copy and moments (no gradients)
    double checkpointSeconds = 0;
    double jobMtbfHours = 0; ///< device MTBF / devices
    /// Daly's first-order optimum, sqrt(2 delta M) - delta (Young 1974's sqrt(2 delta M) refined)
    double intervalSeconds = 0;
    double expectedInterruptions = 0;
    double overheadFraction = 0; ///< checkpoints + lost work + restarts, of the wall-clock time
    double goodput = 1;          ///< useful share of the wall-clock time
};

struct TrainingPlan
{
    TrainingLayout layout;
    double devices = 0;
    double globalBatch = 0; ///< sequences per step
    double sequenceLength = 0;
    NumericFormat format = NumericFormat::Bf16;
    TrainingMemory memory;
    TrainingStep step;
    /// The step's largest matmul as a point on the roofline (issue #45 item 4): the MLP's up
    /// projection of one micro-batch on one tensor-parallel rank, M tokens x hidden x
    /// intermediate / TP, its FLOP per byte of operands and result, and the FLOP/s the plan's
    /// matmuls reach. Zero where the model states no hidden size.
    double gemmTokens = 0;
    double gemmIntensity = 0;
    double gemmFlopsPerSecond = 0;
    /// Every matmul of a layer on one TP rank, the MLP's up projection first: the QKV and
    /// output projections, the MLP's up and down (name, FLOP per byte, FLOP/s reached).
    struct Gemm
    {
        std::string name;
        double intensity = 0;
        double flopsPerSecond = 0;
    };
    std::vector<Gemm> gemms;
    double modelFlopsPerToken = 0; ///< 6 x active parameters + causal attention (3 x forward)
    double mfu = 0;                ///< model FLOP/s over the devices' dense peak in the format
    double peakFlops = 0;          ///< one device's dense peak in the format, FLOP/s
    double tokensPerSecond = 0;
    double tokensPerSecondPerDevice = 0;
    double tokens = 0;          ///< the budget
    bool tokensAssumed = false; ///< no budget given: 20 per parameter
    double steps = 0;
    double computeSeconds = 0; ///< steps x step time, no interruptions
    TrainingReliability reliability;
    double wallSeconds = 0; ///< with checkpoints, lost work and restarts
    double days = 0;
    double deviceHours = 0;
    double energyKwh = 0;          ///< devices and their hosts' share
    double pricePerDeviceHour = 0; ///< NaN: no price
    double usd = 0;                ///< NaN: no price
    bool meetsDeadline = true;
    bool withinBudget = true;
    std::string problem;            ///< why the layout cannot run (empty: it can)
    std::vector<std::string> notes; ///< what the plan leaves out or assumes
    /// how the device count was chosen where the scenario leaves it out ("the fewest devices
    /// (powers of two) that meet the deadline", "no count up to 131,072 devices meets the
    /// deadline: the fastest shown"); empty for a plan of one stated layout
    std::string countReason;
};

/** The share of the BF16 peak a training step's matmuls reach under the scenario's estimate:
 *  typical, the device's measured matmul ceiling at its class's pooled compute share (the
 *  device entries are fitted on inference engines); calibrated or the speed of light, the
 *  estimate's own. What the plan, the slides and the report's assumptions say. */
double trainingComputeShare(const Scenario &scenario);

/** Whether the scenario asks a training question (the wizard's training regime, or a token
 *  budget stated): then the memory bars show the plan's per-device layout, not the lesson's
 *  one-device state. */
bool asksForTrainingPlan(const Scenario &scenario);

/** Why `layout` cannot run the scenario's model at its global batch, or empty: a degree that
 *  does not divide the heads, layers, experts or sequence, a tensor-parallel group beyond the
 *  scale-up domain, a batch the layout cannot split. Memory is not checked here. */
std::string layoutProblem(const Scenario &scenario, const TrainingLayout &layout);

/** The plan of one layout (its `problem` says why not, where it cannot run; a layout that runs
 *  but does not fit memory has memory.fits false). */
TrainingPlan planTraining(const Scenario &scenario, const TrainingLayout &layout);

/** A shape (the parallel degrees) no setting of which can run, and the binding reason: the
 *  first divisibility problem, else the least memory short. */
struct RejectedShape
{
    TrainingLayout layout; ///< with the settings of its smallest memory, where memory is why
    std::string reason;
    double bytesNeeded = std::numeric_limits<double>::quiet_NaN(); ///< NaN: not memory
};

struct TrainingSearch
{
    std::vector<TrainingPlan> ranked; ///< the best plan of each shape that fits, fastest first
    std::vector<RejectedShape> rejected;
    double devices = 0; ///< the count searched (chosen by the deadline or budget where unset)
    std::string deviceCountReason; ///< how the count was chosen
    int layoutsTried = 0;
};

/** Every valid layout at the scenario's device count, ranked by time to train. `everything`
 *  false keeps the degrees, ZeRO stage, recomputation and micro-batch the scenario states and
 *  searches only the degrees it leaves unset; true searches them all. Where the count is unset,
 *  a deadline takes the fewest devices that meet it, a budget the fastest plan within it, every
 *  degree stated their product, and otherwise the fewest devices that hold the run. */
TrainingSearch searchTraining(const Scenario &scenario, bool everything);

/** The plan the scenario asks for: its stated layout with the unset degrees searched (the
 *  fastest that fits), or, when nothing fits, the nearest miss with its problem. */
TrainingPlan plannedTraining(const Scenario &scenario);

/** The best plan of every layout (searchTraining with everything): what the wizard's training
 *  regime recommends and `accel-calc train --search` prints; its problem says why none runs. */
TrainingPlan bestTrainingPlan(const Scenario &scenario);

/** The scenario with the plan's layout stated (devices, every degree, ZeRO stage,
 *  recomputation, micro-batch, global batch): plannedTraining of it is the plan again. */
Scenario withTrainingLayout(const Scenario &scenario, const TrainingPlan &plan);

/** One part of a step's time, in the order the step spends it. */
struct TimelinePart
{
    enum class Kind { Compute, Communication, Idle, Resilience };
    std::string name;
    double seconds = 0;
    Kind kind = Kind::Compute;
};

/** One optimiser step as the busiest device spends it (issue #45 item 4): the micro-batches'
 *  compute (matmuls, attention, small kernels), the communication not hidden (tensor, expert,
 *  context parallel, pipeline sends, the data-parallel reduction the backward pass leaves), the
 *  pipeline bubble, the optimiser; then, averaged per step, what interruptions cost (checkpoint
 *  writes, lost work, restarts). The parts sum to step.total / goodput; parts of no time are
 *  left out. Empty when the plan cannot run. */
std::vector<TimelinePart> stepTimeline(const TrainingPlan &plan);

/** One of the plan's formulas with its numbers put in, for a reader who checks the figure. */
struct TrainingFormula
{
    std::string label;
    std::string formula;
    std::string substituted;
    std::string note;
};

/** The plan's chain from the step to the bill (issue #45): memory per device, step time, MFU,
 *  the checkpoint interval, the run's length, device-hours and cost, each with the plan's own
 *  numbers. Empty when the plan cannot run. */
std::vector<TrainingFormula> explainTraining(const TrainingPlan &plan);

/** "TP 8 x PP 4 x DP 32, ZeRO-1, selective recomputation, micro-batch 1". */
std::string describeLayout(const TrainingLayout &layout);
/** The parallel degrees only: "TP 8 x PP 4 x DP 32 x CP 2, EP 8". */
std::string describeShape(const TrainingLayout &layout);

} // namespace core

// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/calibrate/calibration.h"

#include "core/calibrate/fit.h"
#include "core/data/embeddedfiles.h"
#include "core/data/jsonread.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace core {

namespace {

using json = nlohmann::json;

// ---- the fit ---------------------------------------------------------------------------------

/** One forward pass of a measured run at speed of light: memory, arithmetic and link time. */
struct Pass
{
    double memory = 0; ///< bytes other than a decode step's KV traffic
    double kv = 0;     ///< a decode step's KV traffic (the attention kernels)
    double compute = 0;
    double sequences = 0;   ///< sequences generating a token in the pass (a decode's batch)
    double links = 0;       ///< link time without the all-reduces' fixed latency
    double collectives = 0; ///< tensor-parallel all-reduces, each paying the latency
};

/** A measured run as the fit sees it: its passes and the measured time they took. */
struct Row
{
    std::size_t index = 0;
    std::vector<Pass> passes;
    double seconds = 0; ///< the measurement as time (a rate's step time)
    bool rate = false;  ///< measured as a rate (tokens/s): its error is of the rate, not the time
    std::string device;
    std::string deviceClass;
    std::string engine;
    /// the measured ceilings' shares of the spec the run's passes are timed at
    double bandwidthShare = 1.0;
    double computeShare = 1.0;
};

/** What a device link's all-reduce costs when neither the preset nor a fit says
 *  (InterconnectConfig's default, the lesson's l.171). */
constexpr double kDefaultCollectiveLatency = 10e-6;

/** The coefficients: 1/bandwidth efficiency, 1/compute efficiency, overhead per pass, latency
 *  per tensor-parallel all-reduce, 1/the KV traffic's bandwidth efficiency, time per sequence
 *  per decode step. The KV column is tied to the bandwidth's until runs whose KV shares differ
 *  separate it. */
constexpr std::size_t kCoefficients = 6;
enum Column : std::size_t { kBandwidth, kCompute, kOverhead, kLatency, kKv, kPerSequence };

struct Coefficients
{
    std::array<double, kCoefficients> x{1.0, 1.0, 0.0, kDefaultCollectiveLatency, 1.0, 0.0};
    std::array<bool, kCoefficients> fitted{};
    bool kvTied = true; ///< x[kKv] follows x[kBandwidth]
    double kv() const { return kvTied ? x[kBandwidth] : x[kKv]; }
};

constexpr std::array<const char *, kCoefficients> kCoefficientNames = {
    "bandwidth efficiency", "compute efficiency",      "step overhead",
    "all-reduce latency",   "KV bandwidth efficiency", "time per sequence"};

/** A residual past this relative error is weighed down (Huber): a few runs of an engine far off
 *  the roofline (a GQA-unaware attention kernel, a 2024 ROCm build) must not set a class's
 *  figures for every other engine. */
constexpr double kRobustRelativeError = 0.25;

/** The run with the terms a profile assumes and the speed of light's efficiencies. */
Scenario fitScenario(const Measurement &m)
{
    Scenario s = m.scenario;
    s.calibration = CalibrationConfig{};
    // at the measured ceilings: the fitted efficiencies are shares of what kernels can reach
    // on the device, so they carry to a device whose ceilings sit elsewhere (issue #43)
    s.serving.bandwidthEfficiency = bandwidthCeiling(s.device, false).share;
    s.serving.computeEfficiency = computeCeiling(s.device, computeFormatFor(s), false).share;
    s.serving.stepOverheadSeconds = 0.0;
    s.serving.attentionFlops = 1.0;
    s.serving.kvWrite = 1.0;
    s.serving.smallKernels = 1.0;
    // the all-reduces at the measured bus bandwidth, as a profile on measured ceilings runs them
    if (isSet(s.device.deviceLinkGbPerSecond) && isSet(s.device.measuredAllReduceBusGbPerSecond))
        s.device.deviceLinkGbPerSecond = s.device.measuredAllReduceBusGbPerSecond;
    return s;
}

/** A decode step's time beside its roofs that the fit does not scale: its links and its small
 *  kernels (a profiled floor or share each, not a fitted efficiency). */
double decodeLinks(const Evaluation &e)
{
    return e[FigureId::DecodeCommunicationSeconds] + e[FigureId::DecodeSmallKernelSeconds];
}

/** A prefill's memory and arithmetic time at the run's efficiencies (the measured ceilings). */
double prefillMemory(const Evaluation &e)
{
    return e[FigureId::PrefillBytes] /
           (e[FigureId::Bandwidth] * e[FigureId::EstimateBandwidthEfficiency]);
}

double prefillCompute(const Evaluation &e)
{
    return e[FigureId::PrefillFlops] /
           (e[FigureId::PeakFlops] * e[FigureId::EstimateComputeEfficiency]);
}

double prefillLinks(const Evaluation &e)
{
    return std::max(0.0,
                    e[FigureId::PrefillSeconds] - std::max(prefillMemory(e), prefillCompute(e)));
}

/** A pass's times; `withoutLatency` is the same run with the device link's latency at 0, so
 *  the all-reduces' count is the difference over the latency the run assumed. */
Pass makePass(const Evaluation &e, const Evaluation &withoutLatency, double latency, bool prefill)
{
    Pass p;
    if (prefill) {
        p.memory = prefillMemory(e);
        p.compute = prefillCompute(e);
    } else {
        p.kv = e[FigureId::DecodeKvBytesPerStep] /
               (e[FigureId::Bandwidth] * e[FigureId::EstimateBandwidthEfficiency]);
        p.memory = std::max(0.0, e[FigureId::DecodeMemorySeconds] - p.kv);
        p.compute = e[FigureId::DecodeComputeSeconds];
        p.sequences = e[FigureId::DecodeBatch];
    }
    const double links = prefill ? prefillLinks(e) : decodeLinks(e);
    p.links = prefill ? prefillLinks(withoutLatency) : decodeLinks(withoutLatency);
    p.collectives = latency > 0.0 ? std::max(0.0, (links - p.links) / latency) : 0.0;
    return p;
}

/** The passes of `s` for a prefill, a decode step, or both. */
std::vector<Pass> passesOf(const Scenario &s, bool prefill, bool decode)
{
    Scenario quiet = s;
    quiet.device.deviceLinkLatencySeconds = 0.0;
    const double latency = isSet(s.device.deviceLinkLatencySeconds)
                               ? s.device.deviceLinkLatencySeconds
                               : s.interconnect.latencySeconds;
    std::vector<Pass> passes;
    const Evaluation e = evaluate(s);
    const Evaluation e0 = evaluate(quiet);
    if (prefill)
        passes.push_back(makePass(e, e0, latency, true));
    if (decode && !prefill) {
        passes.push_back(makePass(e, e0, latency, false));
    } else if (decode) { // the first token's own step, at batch 1
        Scenario single = s;
        single.serving.batch = 1;
        Scenario singleQuiet = quiet;
        singleQuiet.serving.batch = 1;
        passes.push_back(makePass(evaluate(single), evaluate(singleQuiet), latency, false));
    }
    return passes;
}

/** Measured time of the passes a metric covers (a rate becomes its step time). */
double asSeconds(MeasuredMetric metric, double value, double batch)
{
    switch (metric) {
    case MeasuredMetric::DecodeTokensPerSecondPerSequence:
        return 1.0 / value;
    case MeasuredMetric::DecodeTokensPerSecond:
        return batch / value;
    default:
        return value;
    }
}

double fromSeconds(MeasuredMetric metric, double seconds, double batch)
{
    return asSeconds(metric, seconds, batch); // the same map is its own inverse
}

Row makeRow(const Measurement &m, std::size_t index)
{
    Row row;
    row.index = index;
    row.device =
        m.scenario.device.presetId.empty() ? m.scenario.device.name : m.scenario.device.presetId;
    row.deviceClass = calibrationClassOf(m.scenario.device);
    row.engine = m.engine;
    const Scenario s = fitScenario(m);
    row.bandwidthShare = s.serving.bandwidthEfficiency;
    row.computeShare = s.serving.computeEfficiency;
    row.seconds = asSeconds(m.metric, m.value, s.serving.batch);
    row.rate = m.metric == MeasuredMetric::DecodeTokensPerSecond ||
               m.metric == MeasuredMetric::DecodeTokensPerSecondPerSequence;
    switch (m.metric) {
    case MeasuredMetric::DecodeTokensPerSecondPerSequence:
    case MeasuredMetric::DecodeTokensPerSecond:
    case MeasuredMetric::StepSeconds:
        row.passes = passesOf(s, false, true);
        break;
    case MeasuredMetric::PrefillSeconds:
        row.passes = passesOf(s, true, false);
        break;
    case MeasuredMetric::TtftSeconds:
        row.passes = passesOf(s, true, true);
        break;
    }
    return row;
}

double predictSeconds(const Row &row, const Coefficients &c)
{
    double seconds = 0.0;
    for (const Pass &p : row.passes)
        seconds += std::max(p.memory * c.x[kBandwidth] + p.kv * c.kv(), p.compute * c.x[kCompute]) +
                   p.links + c.x[kOverhead] + p.collectives * c.x[kLatency] +
                   p.sequences * c.x[kPerSequence];
    return seconds;
}

std::string percent(double efficiency)
{
    return formatNumber(efficiency * 100.0, 3) + " %";
}

std::string describe(std::size_t column, double value)
{
    if (column == kBandwidth || column == kCompute || column == kKv)
        return percent(1.0 / value);
    return formatSeconds(value);
}

/** Whether `rows` can separate the KV traffic's efficiency from the weights': runs whose KV
 *  share of the bytes differs by a fifth or more. */
bool separatesKv(const std::vector<const Row *> &rows)
{
    double least = 1.0;
    double most = 0.0;
    for (const Row *row : rows) {
        double kv = 0.0;
        double all = 0.0;
        for (const Pass &p : row->passes) {
            kv += p.kv;
            all += p.kv + p.memory;
        }
        if (all <= 0.0)
            continue;
        least = std::min(least, kv / all);
        most = std::max(most, kv / all);
    }
    return rows.size() >= 3 && most - least >= 0.2;
}

/** Whether `rows` can separate a cost per sequence from the fixed one: three runs or more
 *  decoding 16 sequences or more a step, and three of a few (one run at a batch of 10 beside
 *  batch-1 runs would set it alone). */
bool separatesSequences(const std::vector<const Row *> &rows)
{
    std::size_t large = 0;
    std::size_t small = 0;
    for (const Row *row : rows) {
        double sequences = 0.0;
        for (const Pass &p : row->passes)
            sequences = std::max(sequences, p.sequences);
        large += sequences >= 16.0 ? 1 : 0;
        small += sequences > 0.0 && sequences <= 4.0 ? 1 : 0;
    }
    return large >= 3 && small >= 3;
}

/** Bounded weighted least squares on relative error for `rows`; what the rows cannot determine
 *  is held at `fallback`'s value and a note says so. */
double median(std::vector<double> values);

/** How many runs' worth of evidence a device's (or engine's) fit gives its class's figures:
 *  partial pooling, so a device with two runs borrows from its class instead of fitting them
 *  exactly (an H200 fitted on two runs found 540 us per all-reduce). */
constexpr double kPooledRuns = 2.0;

Coefficients fitRows(const std::vector<const Row *> &rows, const Coefficients &fallback,
                     const std::string &scope, const std::string &fallbackScope,
                     std::vector<std::string> &notes, bool pooled)
{
    Coefficients c = fallback;
    c.fitted = {};
    std::array<bool, kCoefficients> held{};
    std::array<std::string, kCoefficients> why;
    // the KV traffic's efficiency: its own where the runs separate it, else the level above's
    // own, else the weights'
    if (separatesKv(rows)) {
        c.kvTied = false;
    } else {
        held[kKv] = true;
        if (!fallback.kvTied)
            c.x[kKv] = fallback.x[kKv];
    }
    if (!separatesSequences(rows))
        held[kPerSequence] = true; // the level above's (0 at the speed of light)
    // a measured ceiling is a benchmark's best, and an engine may beat it (a stream benchmark's
    // triad reads and writes; decode only reads): each run may reach up to its device's spec
    // sheet, no further
    double bandwidthFloor = 0.0;
    double computeFloor = 0.0;
    for (const Row *row : rows) {
        bandwidthFloor = std::max(bandwidthFloor, row->bandwidthShare);
        computeFloor = std::max(computeFloor, row->computeShare);
    }
    std::vector<bool> memoryBound;
    std::vector<double> robust(rows.size(), 1.0);
    bool retied = false; // the KV column was folded back this iteration: fit once more
    for (int iteration = 0; iteration < 20; ++iteration) {
        // which roof each pass is under with the coefficients so far
        std::vector<bool> bound;
        for (const Row *row : rows)
            for (const Pass &p : row->passes)
                bound.push_back(p.memory * c.x[kBandwidth] + p.kv * c.kv() >=
                                p.compute * c.x[kCompute]);
        // runs far off the fit so far weigh less (Huber on relative error)
        std::vector<double> weighting(rows.size(), 1.0);
        if (iteration > 0)
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const double error = std::abs(predictSeconds(*rows[i], c) / rows[i]->seconds - 1.0);
                weighting[i] = error > kRobustRelativeError ? kRobustRelativeError / error : 1.0;
            }
        const bool settled = iteration > 0 && !retied && bound == memoryBound &&
                             std::equal(weighting.begin(), weighting.end(), robust.begin(),
                                        [](double a, double b) { return std::abs(a - b) < 1e-4; });
        if (settled)
            break;
        memoryBound = bound;
        robust = weighting;
        retied = false;

        std::vector<std::array<double, kCoefficients>> design;
        std::vector<double> targets;
        std::vector<double> weights;
        std::size_t k = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row *row = rows[i];
            std::array<double, kCoefficients> a{};
            double links = 0.0;
            for (const Pass &p : row->passes) {
                if (memoryBound[k++]) {
                    a[kBandwidth] += p.memory;
                    a[c.kvTied ? kBandwidth : kKv] += p.kv;
                } else {
                    a[kCompute] += p.compute;
                }
                a[kOverhead] += 1.0;
                a[kLatency] += p.collectives;
                a[kPerSequence] += p.sequences;
                links += p.links;
            }
            design.push_back(a);
            targets.push_back(row->seconds - links);
            weights.push_back(robust[i] / (row->seconds * row->seconds));
        }
        for (std::size_t j = 0; j < kCoefficients; ++j) {
            const bool used = std::any_of(design.begin(), design.end(),
                                          [j](const auto &a) { return a[j] > 0.0; });
            if (!used && !held[j]) {
                held[j] = true;
                why[j] = j == kCompute
                             ? "every measurement is memory-bound; a ttft_seconds or "
                               "prefill_seconds with a prompt of 1,000 tokens or more, or a "
                               "decode at a batch past the ridge, would determine it"
                         : j == kLatency || j == kKv || j == kPerSequence
                             ? "" // the link's own, the weights' or the level above's
                             : "no measurement depends on it";
            }
        }
        for (int attempt = 0; attempt < 4; ++attempt) {
            LinearFitProblem problem;
            std::vector<std::size_t> free;
            for (std::size_t j = 0; j < kCoefficients; ++j)
                if (!held[j])
                    free.push_back(j);
            if (free.empty())
                break;
            problem.columns = free.size();
            for (std::size_t i = 0; i < design.size(); ++i) {
                double target = targets[i];
                for (std::size_t j = 0; j < kCoefficients; ++j)
                    if (held[j])
                        target -= design[i][j] * c.x[j];
                for (std::size_t j : free)
                    problem.design.push_back(design[i][j]);
                problem.targets.push_back(target);
            }
            problem.weights = weights;
            if (pooled) {
                // one pseudo-run per free figure saying it is the level above's, scaled as a
                // run's relative error moves with it (the median over the runs that use it)
                for (std::size_t j : free) {
                    std::vector<double> scales;
                    for (std::size_t i = 0; i < design.size(); ++i)
                        if (design[i][j] > 0.0)
                            scales.push_back(design[i][j] / rows[i]->seconds);
                    if (scales.empty())
                        continue;
                    const double scale = median(scales);
                    const double prior = j == kKv ? fallback.kv() : fallback.x[j];
                    for (std::size_t j2 : free)
                        problem.design.push_back(j2 == j ? scale : 0.0);
                    problem.targets.push_back(scale * prior);
                    problem.weights.push_back(kPooledRuns);
                }
            }
            for (std::size_t j : free) {
                // efficiencies up to the spec sheet, overhead in [0, 1 s], latency and time per
                // sequence in [0, 1 ms]
                problem.lower.push_back(j == kBandwidth || j == kKv ? bandwidthFloor
                                        : j == kCompute             ? computeFloor
                                                                    : 0.0);
                problem.upper.push_back(j == kOverhead                       ? 1.0
                                        : j == kLatency || j == kPerSequence ? 1e-3
                                                                             : 1e4);
                problem.names.emplace_back(kCoefficientNames[j]);
            }
            const auto fit = fitLinearLeastSquares(problem);
            const auto kvColumn = std::find(free.begin(), free.end(), std::size_t(kKv));
            if (fit && kvColumn != free.end() &&
                fit->atBound[std::size_t(kvColumn - free.begin())]) {
                // a KV efficiency pressed to its bound is one the runs did not determine (their
                // KV shares grow with the batch, as the time per sequence does): the weights'
                held[kKv] = true;
                if (fallback.kvTied) {
                    c.kvTied = true;
                    c.x[kKv] = c.x[kBandwidth];
                } else {
                    c.x[kKv] = fallback.x[kKv];
                }
                retied = true;
                continue;
            }
            if (fit) {
                for (std::size_t k2 = 0; k2 < free.size(); ++k2) {
                    c.x[free[k2]] = fit->coefficients[k2];
                    c.fitted[free[k2]] = true;
                }
                break;
            }
            // undetermined: hold the overhead first (it and the bandwidth term move together
            // when every run reads about the same bytes), then whatever the solver names
            std::size_t lost = kOverhead;
            const std::string &path = fit.error().path;
            if (held[kOverhead] && path.starts_with("/design/"))
                lost = free[std::min<std::size_t>(free.size() - 1, std::stoul(path.substr(8)))];
            held[lost] = true;
            if (lost == kKv && fallback.kvTied) { // back to the weights' efficiency
                c.kvTied = true;
                c.x[kKv] = c.x[kBandwidth];
            }
            why[lost] = rows.size() == 1
                            ? "one measurement cannot separate it from the other figures; a "
                              "second run at another batch, prompt length or model size would"
                            : "the runs read about the same bytes per step; a run of another "
                              "model size, format or batch would separate it";
        }
    }
    if (c.kvTied)
        c.x[kKv] = c.x[kBandwidth];
    for (std::size_t j = 0; j < kCoefficients; ++j) {
        if (held[j] && !why[j].empty())
            notes.push_back(scope + ": " + kCoefficientNames[j] + " not determined (" + why[j] +
                            "): " + describe(j, c.x[j]) + " from " + fallbackScope + ".");
    }
    return c;
}

CalibrationEntry makeEntry(const Coefficients &c)
{
    CalibrationEntry entry;
    entry.bandwidthEfficiency = 1.0 / c.x[kBandwidth];
    entry.computeEfficiency = 1.0 / c.x[kCompute];
    entry.stepOverheadSeconds = c.x[kOverhead];
    entry.secondsPerSequence = c.x[kPerSequence];
    if (!c.kvTied)
        entry.kvBandwidthEfficiency = 1.0 / c.x[kKv];
    entry.bandwidthFitted = c.fitted[kBandwidth];
    entry.computeFitted = c.fitted[kCompute];
    entry.overheadFitted = c.fitted[kOverhead];
    entry.latencyFitted = c.fitted[kLatency];
    entry.kvFitted = c.fitted[kKv];
    entry.perSequenceFitted = c.fitted[kPerSequence];
    // the link's own latency unless a fit here or above found another
    if (c.fitted[kLatency] || c.x[kLatency] != kDefaultCollectiveLatency)
        entry.collectiveLatencySeconds = c.x[kLatency];
    return entry;
}

Coefficients coefficientsOf(const CalibrationEntry &entry)
{
    Coefficients c;
    c.kvTied = !std::isfinite(entry.kvBandwidthEfficiency);
    c.x = {1.0 / entry.bandwidthEfficiency,
           1.0 / entry.computeEfficiency,
           entry.stepOverheadSeconds,
           std::isnan(entry.collectiveLatencySeconds) ? kDefaultCollectiveLatency
                                                      : entry.collectiveLatencySeconds,
           c.kvTied ? 1.0 / entry.bandwidthEfficiency : 1.0 / entry.kvBandwidthEfficiency,
           entry.secondsPerSequence};
    return c;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/** The profile's entries from rows: classes, then devices, then devices with an engine. */
CalibrationProfile fitProfile(const std::vector<Row> &rows)
{
    CalibrationProfile profile;
    profile.measuredCeilings = true;
    profile.smallKernels = true;
    std::map<std::string, std::vector<const Row *>> byClass;
    std::map<std::string, std::vector<const Row *>> byDevice;
    for (const Row &row : rows) {
        byClass[row.deviceClass].push_back(&row);
        byDevice[row.device].push_back(&row);
    }
    const Coefficients speedOfLight;
    std::map<std::string, Coefficients> classFits;
    for (const auto &[deviceClass, members] : byClass) {
        const Coefficients c = fitRows(members, speedOfLight, deviceClass + " devices",
                                       "the speed of light", profile.notes, false);
        classFits[deviceClass] = c;
        CalibrationEntry entry = makeEntry(c);
        entry.deviceClass = deviceClass;
        entry.points = double(members.size());
        profile.entries.push_back(entry);
    }
    for (const auto &[device, members] : byDevice) {
        if (members.size() < 2)
            continue; // one run: pooled with its class
        const std::string deviceClass = members.front()->deviceClass;
        const Coefficients c = fitRows(members, classFits[deviceClass], device,
                                       deviceClass + " devices", profile.notes, true);
        CalibrationEntry entry = makeEntry(c);
        entry.device = device;
        entry.deviceClass = deviceClass;
        entry.points = double(members.size());
        profile.entries.push_back(entry);
        std::map<std::string, std::vector<const Row *>> byEngine;
        for (const Row *row : members)
            byEngine[row->engine].push_back(row);
        if (byEngine.size() < 2)
            continue; // one engine: the device entry is the engine's
        for (const auto &[engine, runs] : byEngine) {
            if (engine.empty() || runs.size() < 2)
                continue;
            const Coefficients e =
                fitRows(runs, c, device + " with " + engine, device, profile.notes, true);
            CalibrationEntry engineEntry = makeEntry(e);
            engineEntry.device = device;
            engineEntry.deviceClass = deviceClass;
            engineEntry.engine = engine;
            engineEntry.points = double(runs.size());
            profile.entries.push_back(engineEntry);
        }
    }
    return profile;
}

CalibrationPoint pointFor(const Row &row, const Measurement &m, const Coefficients &c,
                          std::string scope)
{
    CalibrationPoint point;
    point.row = row.index;
    point.measured = m.value;
    point.predicted = fromSeconds(m.metric, predictSeconds(row, c), m.scenario.serving.batch);
    point.predictedUncalibrated = predict(m.scenario, m.metric);
    point.relativeError = point.predicted / point.measured - 1.0;
    point.scope = std::move(scope);
    return point;
}

const CalibrationEntry *entryForRow(const CalibrationProfile &profile, const Row &row)
{
    return findCalibrationEntry(profile, row.device, row.deviceClass, row.engine);
}

/** Per class, the relative errors of each device's runs predicted by the class's fit without
 *  that device: what a device outside the data can expect. Classes of one device have none. */
std::map<std::string, std::vector<double>>
classErrorsWithoutEachDevice(const std::vector<Row> &rows)
{
    std::map<std::string, std::set<std::string>> devices;
    for (const Row &row : rows)
        devices[row.deviceClass].insert(row.device);
    std::map<std::string, std::vector<double>> out;
    for (const auto &[deviceClass, members] : devices) {
        if (members.size() < 2)
            continue;
        for (const std::string &device : members) {
            std::vector<const Row *> others;
            for (const Row &row : rows)
                if (row.deviceClass == deviceClass && row.device != device)
                    others.push_back(&row);
            std::vector<std::string> notes;
            const Coefficients c =
                fitRows(others, Coefficients{}, deviceClass, "the speed of light", notes, false);
            for (const Row &row : rows)
                if (row.device == device) {
                    const double ratio = predictSeconds(row, c) / row.seconds;
                    out[deviceClass].push_back(std::abs((row.rate ? 1.0 / ratio : ratio) - 1.0));
                }
        }
    }
    return out;
}

} // namespace

const MeasurementSet &publishedMeasurements()
{
    static const MeasurementSet set = [] {
        for (const EmbeddedFile &file : embeddedPresetFiles()) {
            if (file.path == "measurements/published.csv") {
                auto read = readMeasurementsCsv(file.text, "presets/measurements/published.csv");
                if (read)
                    return std::move(read.value());
            }
        }
        return MeasurementSet{};
    }();
    return set;
}

CalibrationProfile fitTypicalProfile()
{
    const MeasurementSet &set = publishedMeasurements();
    auto fit = calibrate(set.rows, "Typical (published measurements)");
    if (!fit)
        return CalibrationProfile{};
    CalibrationProfile p = std::move(fit.value().profile);
    p.created = "2026-12-04";
    // what each run cites (engine, repository, commit, date): the file alone says little
    std::set<std::string> cited;
    for (const Measurement &m : set.rows)
        cited.insert(m.engine + ": " + m.source);
    p.sources.assign(cited.begin(), cited.end());
    return p;
}

Result<CalibrationResult> calibrate(std::span<const Measurement> measurements,
                                    const std::string &name)
{
    if (measurements.empty())
        return Diagnostic{"", "no usable measurement to fit"};
    std::vector<Row> rows;
    rows.reserve(measurements.size());
    for (std::size_t i = 0; i < measurements.size(); ++i) {
        Row row = makeRow(measurements[i], i);
        if (!(row.seconds > 0.0) || !std::isfinite(row.seconds))
            continue;
        rows.push_back(std::move(row));
    }
    if (rows.empty())
        return Diagnostic{"", "no usable measurement to fit"};
    CalibrationResult result;
    result.profile = fitProfile(rows);
    result.profile.name = name;
    std::set<std::string> sources;
    for (const Measurement &m : measurements)
        sources.insert(m.file);
    result.profile.sources.assign(sources.begin(), sources.end());

    std::map<const CalibrationEntry *, std::vector<double>> errorsByEntry;
    std::vector<double> errors;
    for (const Row &row : rows) {
        const CalibrationEntry *entry = entryForRow(result.profile, row);
        const Coefficients c = entry ? coefficientsOf(*entry) : Coefficients{};
        CalibrationPoint point = pointFor(row, measurements[row.index], c,
                                          entry ? entry->scopeLabel() : "speed of light");
        errors.push_back(std::fabs(point.relativeError));
        if (entry)
            errorsByEntry[entry].push_back(std::fabs(point.relativeError));
        result.points.push_back(std::move(point));
    }
    // a device's entry serves its engines nobody measured: its errors are every run of the device
    // predicted by it (the runs an engine entry predicts too; one run of ten said "worst 3.5 %")
    for (CalibrationEntry &entry : result.profile.entries) {
        if (entry.device.empty() || !entry.engine.empty())
            continue;
        std::vector<double> own;
        for (const Row &row : rows)
            if (row.device == entry.device) {
                const CalibrationPoint point = pointFor(row, measurements[row.index],
                                                        coefficientsOf(entry), entry.scopeLabel());
                own.push_back(std::fabs(point.relativeError));
            }
        errorsByEntry[&entry] = own;
    }
    // a class's entry serves the devices nobody measured: its errors are those of each device's
    // runs predicted by the class fitted without that device
    for (const auto &[deviceClass, deviceErrors] : classErrorsWithoutEachDevice(rows)) {
        for (CalibrationEntry &entry : result.profile.entries)
            if (entry.device.empty() && entry.engine.empty() && entry.deviceClass == deviceClass)
                errorsByEntry[&entry] = deviceErrors;
    }
    for (CalibrationEntry &entry : result.profile.entries) {
        const auto &own = errorsByEntry[&entry];
        entry.medianRelativeError = median(own);
        entry.worstRelativeError = own.empty() ? std::numeric_limits<double>::quiet_NaN()
                                               : *std::max_element(own.begin(), own.end());
    }
    result.medianAbsoluteError = median(errors);
    result.worstAbsoluteError = *std::max_element(errors.begin(), errors.end());
    result.within15Percent = std::size_t(
        std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.15; }));
    return result;
}

std::string_view holdOutKey(HoldOut holdOut)
{
    switch (holdOut) {
    case HoldOut::Run:
        return "run";
    case HoldOut::Engine:
        return "engine";
    case HoldOut::Device:
        return "device";
    }
    return "run";
}

std::string engineFamily(std::string_view engine)
{
    std::string family;
    for (char ch : engine) {
        if (ch == ' ' || ch == '(' || ch == ',')
            break;
        family += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return family;
}

std::vector<CalibrationPoint> leaveGroupOut(std::span<const Measurement> measurements,
                                            HoldOut holdOut)
{
    if (holdOut == HoldOut::Run)
        return leaveOneOut(measurements);
    std::vector<Row> rows;
    for (std::size_t i = 0; i < measurements.size(); ++i)
        rows.push_back(makeRow(measurements[i], i));
    auto groupOf = [&](const Row &row) {
        return holdOut == HoldOut::Engine ? engineFamily(row.engine) : row.device;
    };
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < rows.size(); ++i)
        groups[groupOf(rows[i])].push_back(i);
    std::vector<CalibrationPoint> points(rows.size());
    for (const auto &[group, members] : groups) {
        std::vector<Row> others;
        for (const Row &row : rows)
            if (groupOf(row) != group)
                others.push_back(row);
        const CalibrationProfile profile = fitProfile(others);
        for (std::size_t i : members) {
            const CalibrationEntry *entry = entryForRow(profile, rows[i]);
            const Coefficients c = entry ? coefficientsOf(*entry) : Coefficients{};
            points[i] = pointFor(rows[i], measurements[i], c,
                                 entry ? entry->scopeLabel() : "speed of light");
        }
    }
    return points;
}

std::vector<CalibrationPoint> leaveOneOut(std::span<const Measurement> measurements)
{
    std::vector<Row> rows;
    for (std::size_t i = 0; i < measurements.size(); ++i)
        rows.push_back(makeRow(measurements[i], i));
    std::vector<CalibrationPoint> points;
    for (std::size_t out = 0; out < rows.size(); ++out) {
        std::vector<Row> others;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (i != out)
                others.push_back(rows[i]);
        const CalibrationProfile profile = fitProfile(others);
        const CalibrationEntry *entry = entryForRow(profile, rows[out]);
        const Coefficients c = entry ? coefficientsOf(*entry) : Coefficients{};
        points.push_back(pointFor(rows[out], measurements[out], c,
                                  entry ? entry->scopeLabel() : "speed of light"));
    }
    return points;
}

Scenario calibratedScenario(const Measurement &measurement, const CalibrationProfile &profile)
{
    Scenario s = measurement.scenario;
    s.calibration.mode = EstimateMode::Calibrated;
    s.calibration.engine = measurement.engine;
    s.calibration.profile = profile;
    return s;
}

std::string_view estimateReachKey(EstimateReach reach)
{
    switch (reach) {
    case EstimateReach::Lesson:
        return "lesson";
    case EstimateReach::DeviceAndEngine:
        return "device_and_engine";
    case EstimateReach::Device:
        return "device";
    case EstimateReach::ClassWithDevice:
        return "class_with_device";
    case EstimateReach::ClassOnly:
        return "class_only";
    case EstimateReach::NoData:
        return "no_data";
    }
    return "lesson";
}

namespace {

/** "A, B and C" */
std::string listed(const std::vector<std::string> &items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out += i + 1 == items.size() ? " and " : ", ";
        out += items[i];
    }
    return out;
}

std::string errorsOf(const CalibrationEntry &entry)
{
    if (!std::isfinite(entry.medianRelativeError))
        return {};
    std::string out = " (median error " + formatNumber(entry.medianRelativeError * 100, 2) + " %";
    if (std::isfinite(entry.worstRelativeError))
        out += ", worst " + formatNumber(entry.worstRelativeError * 100, 2) + " %";
    return out + ")";
}

} // namespace

ReachInfo estimateReach(const Scenario &s)
{
    ReachInfo info;
    const EstimateTerms terms = estimateTerms(s);
    if (s.calibration.mode == EstimateMode::SpeedOfLight) {
        info.reach = EstimateReach::Lesson;
        info.text = "The speed of light: the lesson's ceiling, which engines measure slower.";
        return info;
    }
    const std::string &name = s.device.name;
    if (!terms.entry) {
        info.reach = EstimateReach::NoData;
        info.text = "No measured runs of " + calibrationClassOf(s.device) +
                    " devices in the profile: the speed of light stands in for " + name +
                    ", faster than any engine will be.";
        return info;
    }
    const CalibrationEntry &entry = *terms.entry;
    const std::string points = formatNumber(entry.points, 3);
    if (!entry.device.empty() && !entry.engine.empty()) {
        info.reach = EstimateReach::DeviceAndEngine;
        info.text = "Inside the fitted data: " + points + " measured runs of " + name + " with " +
                    entry.engine + errorsOf(entry) + ".";
        return info;
    }
    if (!entry.device.empty()) {
        info.reach = EstimateReach::Device;
        // the engines behind the device's runs (the shipped ones for the typical profile): one
        // engine's speed is the device's estimate, which another engine may not share
        std::set<std::string> engines;
        if (s.calibration.mode == EstimateMode::Typical)
            for (const Measurement &m : publishedMeasurements().rows)
                if ((m.scenario.device.presetId.empty()
                         ? m.scenario.device.name
                         : m.scenario.device.presetId) == entry.device)
                    engines.insert(m.engine);
        const std::string across =
            engines.size() == 1
                ? ", all with " + *engines.begin() + ": another engine may be faster or slower"
                : " across engines";
        info.text = "Fitted on " + points + " measured runs of " + name + across +
                    (s.calibration.engine.empty() || engines.size() == 1
                         ? std::string()
                         : " (none with " + s.calibration.engine + ": its own speed may differ)") +
                    errorsOf(entry) + ".";
        return info;
    }
    // a class's entry: which devices and engines stand behind it (the shipped runs for the
    // typical profile; a user's profile does not record them)
    const std::string key = s.device.presetId.empty() ? s.device.name : s.device.presetId;
    std::vector<std::string> devices;
    std::vector<std::string> engines;
    bool ownRuns = false;
    if (s.calibration.mode == EstimateMode::Typical) {
        for (const Measurement &m : publishedMeasurements().rows) {
            if (calibrationClassOf(m.scenario.device) != entry.deviceClass)
                continue;
            const std::string &device = m.scenario.device.name;
            if (std::find(devices.begin(), devices.end(), device) == devices.end())
                devices.push_back(device);
            if (!m.engine.empty() &&
                std::find(engines.begin(), engines.end(), m.engine) == engines.end())
                engines.push_back(m.engine);
            ownRuns |= m.scenario.device.presetId == key;
        }
    }
    const std::string behind =
        devices.empty() ? std::string()
                        : " on " + listed(devices) +
                              (engines.empty() ? std::string() : " with " + listed(engines));
    if (ownRuns) {
        info.reach = EstimateReach::ClassWithDevice;
        info.text = "The " + entry.deviceClass + " class's fit of " + points + " runs" + behind +
                    errorsOf(entry) + "; too few runs of " + name + " for a fit of its own.";
        return info;
    }
    info.reach = EstimateReach::ClassOnly;
    info.text = "Outside the fitted data: no measured run of " + name + " is in the fit. The " +
                entry.deviceClass + " class's efficiencies, fitted on " + points + " runs" +
                behind + errorsOf(entry) +
                ", are applied: expect larger errors than the fit's, and measure before relying "
                "on the speed.";
    return info;
}

} // namespace core

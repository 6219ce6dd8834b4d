// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/physics/loadsim.h"

#include "core/model/fleet.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <sstream>

namespace core {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
/// Output length when the scenario's context leaves none after the prompt (app assumption).
constexpr double kDefaultOutputTokens = 128;
/// requests per second: one in about 11.6 days, load.rate_per_second's minimum (the run's clock
/// keeps microseconds up to about 10^9 s; at 1e-9 a p50 came out shorter than one request)
constexpr double kSlowestRate = 1e-6;
/// The longest prompt or output a trace line may give.
constexpr double kMostTraceTokens = 1e9;
/// A trace's timestamps are seconds, relative or since the Unix epoch (1.7e9 today): 1e10 is the
/// year 2286. A millisecond epoch or 1e300 is refused by line (issue #41).
constexpr double kLatestTraceSeconds = 1e10;
/// The most requests a run by duration generates (load.requests' own maximum).
constexpr std::size_t kMostRequests = 1000000;
/// Events one run may take whatever its size: about 15 s of work on the development machine.
constexpr double kMostEvents = 5e7;

/** The random stream: mt19937_64 is specified bit for bit by the standard; the distributions
 *  are written out here because the standard library's are not, so a seed gives the same run
 *  on every platform. */
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : m_engine(seed)
    {}

    double uniform() // (0, 1)
    {
        return (static_cast<double>(m_engine() >> 11) + 0.5) * 0x1.0p-53;
    }
    double exponential(double mean) { return -mean * std::log(uniform()); }
    double normal()
    {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double radius = std::sqrt(-2.0 * std::log(uniform()));
        const double angle = 2.0 * 3.14159265358979323846 * uniform();
        m_spare = radius * std::sin(angle);
        m_hasSpare = true;
        return radius * std::cos(angle);
    }
    /** Marsaglia and Tsang (2000), with the shape < 1 boost u^(1/shape). */
    double gamma(double shape, double scale)
    {
        if (shape < 1.0)
            return gamma(shape + 1.0, scale) * std::pow(uniform(), 1.0 / shape);
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        // accepts about 95 % of tries at any shape; bounded all the same
        for (int tries = 0; tries < 1000; ++tries) {
            double x = normal();
            double v = 1.0 + c * x;
            if (v <= 0.0)
                continue;
            v = v * v * v;
            const double u = uniform();
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v))
                return d * v * scale;
        }
        return shape * scale; // the mean
    }

private:
    std::mt19937_64 m_engine;
    double m_spare = 0;
    bool m_hasSpare = false;
};

double sampleLength(Random &random, LengthKind kind, double mean, double spread)
{
    double value = mean;
    if (kind == LengthKind::Uniform) {
        value = mean * (1.0 + std::min(spread, 1.0) * (2.0 * random.uniform() - 1.0));
    } else if (kind == LengthKind::LogNormal && spread > 0.0) {
        const double sigma2 = std::log1p(spread * spread);
        value = std::exp(std::log(mean) - 0.5 * sigma2 + std::sqrt(sigma2) * random.normal());
    }
    return std::max(1.0, std::round(value));
}

struct Request
{
    double arrival = 0;
    double prompt = 0;
    double output = 0;
    double admitted = -1;
    double firstToken = -1;
    double end = -1;
};

/** One sequence in an engine: a request's prompt (plus, after a preemption, the tokens it had
 *  generated, recomputed) prefilled in chunks, then decoded a token a step. */
struct Sequence
{
    std::size_t request = 0;
    double prefillTarget = 0;
    double prefilled = 0;
    double kvTokens = 0; ///< tokens whose K and V are in the cache
    double generated = 0;
    double blocks = 0;
    double chunk = 0; ///< prefill tokens scheduled this step
    bool decodeScheduled = false;

    bool decoding() const { return prefilled >= prefillTarget; }
};

struct Replica
{
    std::deque<Sequence> waiting;
    std::vector<Sequence> running;
    double freeBlocks = 0;
    double busyUntil = kInfinity;
    std::uint64_t generation = 0; ///< which scheduled step end is current
    double outstanding() const { return double(waiting.size() + running.size()); }
};

/** When a replica's step ends; `generation` tells a current entry from a replaced one. */
struct StepEnd
{
    double seconds = 0;
    std::size_t replica = 0;
    std::uint64_t generation = 0;
    bool operator>(const StepEnd &other) const
    {
        return seconds != other.seconds ? seconds > other.seconds : replica > other.replica;
    }
};

double blocksFor(double tokens, double blockTokens)
{
    return std::ceil(tokens / blockTokens);
}

Percentiles percentilesOf(std::vector<double> values)
{
    Percentiles p;
    if (values.empty())
        return p;
    std::sort(values.begin(), values.end());
    const auto at = [&values](double q) { // linear interpolation between closest ranks
        const double position = q * double(values.size() - 1);
        const auto below = static_cast<std::size_t>(std::floor(position));
        const std::size_t above = std::min(below + 1, values.size() - 1);
        return values[below] + (values[above] - values[below]) * (position - double(below));
    };
    p.p50 = at(0.50);
    p.p90 = at(0.90);
    p.p95 = at(0.95);
    p.p99 = at(0.99);
    double sum = 0;
    for (double v : values)
        sum += v;
    p.mean = sum / double(values.size());
    return p;
}

std::vector<Request> makeRequests(const LoadSetup &setup)
{
    std::vector<Request> requests;
    const double limit = setup.contextLimit;
    const auto clip = [limit](Request &r) {
        r.prompt = std::min(r.prompt, limit - 1.0);
        r.output = std::max(1.0, std::min(r.output, limit - r.prompt));
    };
    if (setup.arrivals == ArrivalKind::Trace) {
        requests.reserve(setup.trace.size());
        for (const TraceRequest &t : setup.trace) {
            if (t.arrivalSeconds - setup.trace.front().arrivalSeconds > setup.durationSeconds)
                break;
            Request r;
            r.arrival = t.arrivalSeconds;
            r.prompt = t.promptTokens;
            r.output = t.outputTokens;
            clip(r);
            requests.push_back(r);
        }
        return requests;
    }
    Random random(setup.seed);
    if (!std::isfinite(setup.durationSeconds))
        requests.reserve(setup.requests);
    double t = 0;
    const double meanGap = 1.0 / setup.ratePerSecond;
    const double shape = 1.0 / (setup.burstiness * setup.burstiness);
    for (std::size_t i = 0; i < setup.requests; ++i) {
        if (i > 0)
            t += setup.arrivals == ArrivalKind::Gamma ? random.gamma(shape, meanGap / shape)
                                                      : random.exponential(meanGap);
        if (t > setup.durationSeconds)
            break;
        Request r;
        r.arrival = t;
        r.prompt = sampleLength(random, setup.promptKind, setup.promptMean, setup.promptSpread);
        r.output = sampleLength(random, setup.outputKind, setup.outputMean, setup.outputSpread);
        clip(r);
        requests.push_back(r);
    }
    return requests;
}

/** The engine of one replica: who runs in the next step, and what happens when it ends. */
class Engine
{
public:
    Engine(const StepModel &model, const LoadSetup &setup, std::vector<Request> &requests,
           double blocksPerReplica)
        : m_model(model)
        , m_setup(setup)
        , m_requests(requests)
        , m_blocks(blocksPerReplica)
    {}

    /** Schedules one step on `replica` at time `now` and returns its duration (0: idle). */
    double startStep(Replica &replica, double now, std::size_t &preemptions)
    {
        StepLoad load;
        double budget = m_setup.tokenBudget;
        if (!m_setup.chunkedPrefill && admitWhole(replica, now, budget, load))
            return m_model.seconds(load);
        for (std::size_t i = 0; i < replica.running.size(); ++i) {
            Sequence &seq = replica.running[i];
            if (budget < 1.0)
                break;
            if (seq.decoding()) {
                const double need = blocksFor(seq.kvTokens + 1.0, m_setup.blockTokens) - seq.blocks;
                while (need > replica.freeBlocks && i + 1 < replica.running.size())
                    preempt(replica, preemptions); // the latest admitted gives way
                if (need > replica.freeBlocks) {
                    preempt(replica, preemptions); // itself: nothing else left to free
                    break;
                }
                seq.blocks += need;
                replica.freeBlocks -= need;
                seq.decodeScheduled = true;
                load.decodeSequences += 1.0;
                load.decodeContextTokens += seq.kvTokens;
                budget -= 1.0;
            } else if (m_setup.chunkedPrefill) {
                scheduleChunk(seq, budget, load);
            }
        }
        if (m_setup.chunkedPrefill) {
            while (!replica.waiting.empty() && budget >= 1.0 &&
                   double(replica.running.size()) < m_setup.maxSequences && admit(replica, now)) {
                scheduleChunk(replica.running.back(), budget, load);
            }
        }
        if (load.decodeSequences + load.prefillTokens <= 0.0)
            return 0.0;
        return m_model.seconds(load);
    }

    /** Ends the step on `replica` at `now`: tokens emitted, prefills advanced, finished
     *  sequences' blocks freed. Returns how many requests completed. */
    std::size_t finishStep(Replica &replica, double now, double &outputTokens)
    {
        std::size_t done = 0;
        auto &running = replica.running;
        for (Sequence &seq : running) {
            if (seq.chunk > 0.0) {
                seq.prefilled += seq.chunk;
                seq.kvTokens += seq.chunk;
                seq.chunk = 0.0;
            } else if (seq.decodeScheduled) {
                seq.decodeScheduled = false;
                seq.kvTokens += 1.0;
                seq.generated += 1.0;
                outputTokens += 1.0;
                Request &r = m_requests[seq.request];
                if (r.firstToken < 0.0)
                    r.firstToken = now;
                if (seq.generated >= r.output) {
                    r.end = now;
                    replica.freeBlocks += seq.blocks;
                    seq.blocks = -1.0; // marks it for removal
                    ++done;
                }
            }
        }
        if (done > 0)
            std::erase_if(running, [](const Sequence &seq) { return seq.blocks < 0.0; });
        return done;
    }

    double usedBlocks(const Replica &replica) const { return m_blocks - replica.freeBlocks; }

private:
    void scheduleChunk(Sequence &seq, double &budget, StepLoad &load) const
    {
        const double chunk = std::min(seq.prefillTarget - seq.prefilled, budget);
        if (chunk <= 0.0)
            return;
        seq.chunk = chunk;
        load.prefillTokens += chunk;
        load.prefillAttentionPairs += chunk * seq.prefilled + chunk * (chunk + 1.0) / 2.0;
        budget -= chunk;
    }

    /** Moves the waiting queue's head into the running batch when its blocks are free. */
    bool admit(Replica &replica, double now)
    {
        Sequence &head = replica.waiting.front();
        const double need = blocksFor(head.prefillTarget + 1.0, m_setup.blockTokens);
        if (need > replica.freeBlocks)
            return false;
        head.blocks = need;
        replica.freeBlocks -= need;
        Request &r = m_requests[head.request];
        if (r.admitted < 0.0)
            r.admitted = now;
        replica.running.push_back(head);
        replica.waiting.pop_front();
        return true;
    }

    /** Prefill first: whole prompts of newly admitted requests, alone in their step. */
    bool admitWhole(Replica &replica, double now, double budget, StepLoad &load)
    {
        bool any = false;
        while (!replica.waiting.empty() && double(replica.running.size()) < m_setup.maxSequences &&
               replica.waiting.front().prefillTarget <= budget && admit(replica, now)) {
            Sequence &seq = replica.running.back();
            scheduleChunk(seq, budget, load);
            any = true;
        }
        return any;
    }

    /** Recompute preemption: the last running sequence frees its blocks and waits at the
     *  head of the queue to prefill its prompt and the tokens it generated again. */
    void preempt(Replica &replica, std::size_t &preemptions)
    {
        Sequence victim = replica.running.back();
        replica.running.pop_back();
        replica.freeBlocks += victim.blocks;
        victim.blocks = 0;
        victim.prefillTarget = m_requests[victim.request].prompt + victim.generated;
        victim.prefilled = 0;
        victim.kvTokens = 0;
        victim.chunk = 0;
        victim.decodeScheduled = false;
        replica.waiting.push_front(victim);
        ++preemptions;
    }

    const StepModel &m_model;
    const LoadSetup &m_setup;
    std::vector<Request> &m_requests;
    double m_blocks;
};

/** Keeps at most about `cap` samples by dropping every other one and sampling half as often
 *  each time the timeline fills. */
class Timeline
{
public:
    explicit Timeline(std::size_t cap)
        : m_cap(std::max<std::size_t>(cap, 2))
    {}
    void offer(const TimelinePoint &point)
    {
        if (m_counter++ % m_every != 0)
            return;
        m_points.push_back(point);
        if (m_points.size() >= 2 * m_cap) {
            std::size_t kept = 0;
            for (std::size_t i = 0; i < m_points.size(); i += 2)
                m_points[kept++] = m_points[i];
            m_points.resize(kept);
            m_every *= 2;
            m_counter = 1;
        }
    }
    std::vector<TimelinePoint> take() { return std::move(m_points); }

private:
    std::size_t m_cap;
    std::size_t m_every = 1;
    std::size_t m_counter = 0;
    std::vector<TimelinePoint> m_points;
};

template <typename T> Result<T> fail(std::string path, std::string message)
{
    return Result<T>::failure(std::move(path), std::move(message));
}

std::string tokensText(double tokens)
{
    std::ostringstream out;
    if (std::fabs(tokens) < 1e15)
        out << static_cast<long long>(tokens);
    else // beyond a whole number's range (a trace that lies): never cast it
        out << tokens;
    return out.str();
}

} // namespace

std::string_view arrivalKey(ArrivalKind kind)
{
    switch (kind) {
    case ArrivalKind::Gamma:
        return "gamma";
    case ArrivalKind::Trace:
        return "trace";
    case ArrivalKind::Poisson:
        break;
    }
    return "poisson";
}

std::string_view lengthKey(LengthKind kind)
{
    switch (kind) {
    case LengthKind::Uniform:
        return "uniform";
    case LengthKind::LogNormal:
        return "lognormal";
    case LengthKind::Fixed:
        break;
    }
    return "fixed";
}

std::string_view routerKey(RouterKind kind)
{
    return kind == RouterKind::LeastOutstanding ? "least_outstanding" : "round_robin";
}

Result<std::vector<TraceRequest>> readTrace(std::string_view text, std::string_view fileName)
{
    using R = Result<std::vector<TraceRequest>>;
    if (text.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte-order mark, as spreadsheets write
        text.remove_prefix(3);
    const std::string file(fileName);
    std::vector<TraceRequest> rows;
    int columns[3] = {-1, -1, -1}; // timestamp, prompt_tokens, output_tokens
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    bool header = true;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string line(text.substr(start, end - start));
        start = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos || line.front() == '#') {
            if (end == text.size())
                break;
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream split(line);
        for (std::string cell; std::getline(split, cell, ',');) {
            const auto first = cell.find_first_not_of(" \t\"");
            const auto last = cell.find_last_not_of(" \t\"");
            cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
        }
        const std::string where = file + " line " + std::to_string(lineNumber);
        if (header) {
            const char *names[3] = {"timestamp", "prompt_tokens", "output_tokens"};
            for (int c = 0; c < 3; ++c) {
                for (std::size_t i = 0; i < cells.size(); ++i) {
                    if (cells[i] == names[c])
                        columns[c] = int(i);
                }
                if (columns[c] < 0)
                    return R::failure(where, std::string("the header has no column \"") + names[c] +
                                                 "\" (timestamp, prompt_tokens, output_tokens)");
            }
            header = false;
            continue;
        }
        TraceRequest row;
        double *targets[3] = {&row.arrivalSeconds, &row.promptTokens, &row.outputTokens};
        const char *names[3] = {"timestamp", "prompt_tokens", "output_tokens"};
        for (int c = 0; c < 3; ++c) {
            const auto index = static_cast<std::size_t>(columns[c]);
            const std::string cell = index < cells.size() ? cells[index] : std::string();
            char *parsedEnd = nullptr;
            const double value = std::strtod(cell.c_str(), &parsedEnd);
            if (cell.empty() || parsedEnd != cell.c_str() + cell.size() || !std::isfinite(value))
                return R::failure(where + ", column " + names[c],
                                  "\"" + cell.substr(0, 30) + "\" is not a number");
            if (value < 0.0 || (c > 0 && (value < 1.0 || value != std::floor(value))))
                return R::failure(where + ", column " + names[c],
                                  c == 0 ? "a timestamp cannot be negative"
                                         : "a token count is a whole number of at least 1");
            if (c == 0 && value > kLatestTraceSeconds)
                return R::failure(where + ", column timestamp",
                                  "is beyond 1e10: timestamps are seconds (relative, or since "
                                  "1970; a millisecond clock needs dividing by 1,000)");
            if (c > 0 && value > kMostTraceTokens)
                return R::failure(where + ", column " + names[c],
                                  "is above 1e9 tokens: not a request any model takes");
            *targets[c] = value;
        }
        if (!rows.empty() && row.arrivalSeconds < rows.back().arrivalSeconds)
            return R::failure(where + ", column timestamp",
                              "is earlier than the line before: a trace is sorted by time");
        rows.push_back(row);
        if (end == text.size())
            break;
    }
    if (header)
        return R::failure(file, "is empty: a trace needs a header and at least one request");
    if (rows.empty())
        return R::failure(file, "has a header but no request");
    return rows;
}

Result<LoadSetup> loadSetup(const Scenario &scenario, std::vector<TraceRequest> trace)
{
    const LoadConfig &l = scenario.load;
    const ServingConfig &sv = scenario.serving;
    LoadSetup setup;
    setup.arrivals = l.arrivals == "gamma"   ? ArrivalKind::Gamma
                     : l.arrivals == "trace" ? ArrivalKind::Trace
                                             : ArrivalKind::Poisson;
    const auto lengthKind = [](const std::string &key) {
        return key == "uniform"     ? LengthKind::Uniform
               : key == "lognormal" ? LengthKind::LogNormal
                                    : LengthKind::Fixed;
    };
    setup.promptKind = lengthKind(l.promptDistribution);
    setup.outputKind = lengthKind(l.outputDistribution);
    setup.router =
        l.router == "least_outstanding" ? RouterKind::LeastOutstanding : RouterKind::RoundRobin;

    // the load section's own rate, else the rate the fleet is sized for (core/model/fleet.h), else
    // one request a second
    const double sized = peakRequestsPerSecond(scenario.traffic);
    setup.ratePerSecond = isSet(l.ratePerSecond) ? l.ratePerSecond : isSet(sized) ? sized : 1.0;
    if (!(setup.ratePerSecond >= kSlowestRate) || !std::isfinite(setup.ratePerSecond))
        return fail<LoadSetup>(isSet(l.ratePerSecond) ? "/load/rate_per_second"
                                                      : "/traffic/peak_requests_per_second",
                               "is below 1e-6 requests/s (one request in 11.6 days): the "
                               "simulation needs requests arriving");
    setup.burstiness = l.burstiness;
    if (!(setup.burstiness > 0.0))
        return fail<LoadSetup>("/load/burstiness", "must be above 0");
    setup.promptMean = isSet(l.promptMean) ? l.promptMean : std::max(1.0, sv.promptTokens);
    setup.promptSpread = l.promptSpread;
    const double left = sv.contextTokens - sv.promptTokens;
    setup.outputMean = isSet(l.outputMean) ? l.outputMean
                       : left >= 1.0       ? left
                                           : kDefaultOutputTokens;
    setup.outputSpread = l.outputSpread;
    // the longest sequence an engine takes: the model's trained context where it has one, else
    // the scenario's context, or its prompt and output where the defaults run past it
    setup.contextLimit = isSet(scenario.model.maxContext)
                             ? scenario.model.maxContext
                             : std::max(sv.contextTokens, setup.promptMean + setup.outputMean);
    const std::string limitText =
        tokensText(setup.contextLimit) + "-token context limit (" +
        (isSet(scenario.model.maxContext) ? "model.max_context" : "serving.context_tokens") + ")";
    if (setup.promptMean > setup.contextLimit - 1.0)
        return fail<LoadSetup>(isSet(l.promptMean) ? "/load/prompt_mean" : "/serving/prompt_tokens",
                               tokensText(setup.promptMean) +
                                   " prompt tokens leave no room for "
                                   "one output token in the " +
                                   limitText);
    if (setup.promptMean + setup.outputMean > setup.contextLimit)
        return fail<LoadSetup>(
            isSet(l.outputMean) ? "/load/output_mean" : "/serving/context_tokens",
            tokensText(setup.promptMean) + " prompt + " + tokensText(setup.outputMean) +
                " output tokens run past the " + limitText);
    if (setup.promptKind == LengthKind::Uniform && setup.promptSpread > 1.0)
        return fail<LoadSetup>("/load/prompt_spread",
                               "is above 1: a uniform spread is a fraction of the mean");
    if (setup.outputKind == LengthKind::Uniform && setup.outputSpread > 1.0)
        return fail<LoadSetup>("/load/output_spread",
                               "is above 1: a uniform spread is a fraction of the mean");

    if (setup.arrivals == ArrivalKind::Trace) {
        if (trace.empty())
            return fail<LoadSetup>("/load/trace_file", "gave no request");
        for (std::size_t i = 0; i < trace.size(); ++i) {
            if (trace[i].promptTokens + trace[i].outputTokens > setup.contextLimit)
                return fail<LoadSetup>(l.traceFile + " request " + std::to_string(i + 1),
                                       tokensText(trace[i].promptTokens) + " prompt + " +
                                           tokensText(trace[i].outputTokens) +
                                           " output tokens run past the " + limitText);
        }
        setup.trace = std::move(trace);
    }
    if (isSet(l.durationSeconds))
        setup.durationSeconds = l.durationSeconds;
    setup.requests = setup.arrivals == ArrivalKind::Trace ? setup.trace.size()
                     : isSet(l.durationSeconds)           ? kMostRequests
                                                          : static_cast<std::size_t>(l.requests);
    setup.seed = static_cast<std::uint64_t>(l.seed);
    setup.maxSequences =
        isSet(l.maxSequences) ? l.maxSequences : std::max(1.0, sv.concurrentSequences);
    setup.tokenBudget = l.tokenBudget;
    setup.chunkedPrefill = l.chunkedPrefill != 0.0;
    setup.blockTokens = l.blockTokens;
    // the scenario's fleet unless the load section names a count (issue #40): the Load tab, the
    // report and accel-calc simulate run the replicas the Cost tab pays for and the checks decided
    setup.replicas = l.replicas;
    if (!scenario.givenInputs.contains("load.replicas")) {
        const double fleet = evaluate(scenario)[FigureId::CostReplicas];
        if (std::isfinite(fleet))
            setup.replicas = std::clamp(fleet, 1.0, findParameter("load.replicas")->maximum);
    }
    setup.ttftTargetSeconds = sv.ttftTargetSeconds;
    setup.tpotTargetSeconds = 1.0 / sv.pacingTargetTokensPerSecond;
    if (!setup.chunkedPrefill && setup.tokenBudget < setup.contextLimit)
        return fail<LoadSetup>(
            "/load/token_budget",
            tokensText(setup.tokenBudget) + " tokens cannot hold one whole prompt of up to the " +
                limitText +
                ": without chunked prefill a prompt (or a preempted sequence's recompute) runs "
                "in one step; raise the budget or set load.chunked_prefill to 1");
    return setup;
}

Result<LoadResult> simulateLoad(const Scenario &scenario, const LoadSetup &setup,
                                const std::atomic<bool> *cancel)
{
    // a caller's own count (the checks grow a fleet) is held to the load section's range before
    // a replica is allocated: 4,194,304 of them were once asked for, and memory ran out
    if (const double most = findParameter("load.replicas")->maximum; !(setup.replicas <= most))
        return fail<LoadResult>("/load/replicas", "asks for " + formatNumber(setup.replicas, 9) +
                                                      " replicas: the simulation runs at most " +
                                                      formatNumber(most, 9));
    const StepModel model(scenario);
    std::vector<Request> requests = makeRequests(setup);
    if (requests.empty())
        return fail<LoadResult>("/load/requests", "is 0: nothing to simulate");
    if (!(setup.maxSequences >= 1.0))
        return fail<LoadResult>("/load/max_sequences",
                                "admits no sequence (it must be at least 1)");
    if (!(setup.tokenBudget >= 1.0))
        return fail<LoadResult>("/load/token_budget", "admits no token (it must be at least 1)");

    // paged KV: the memory left beside the weights and the overhead, in blocks
    const double budgetBytes = model.kvBudgetBytes();
    if (!(budgetBytes > 0.0))
        return fail<LoadResult>("/serving", "the weights and the runtime overhead leave no device "
                                            "memory for the KV cache: no request can run");
    const double perBlock = model.kvBytesPerTokenPerDevice() * setup.blockTokens;
    const double blocks = perBlock > 0.0 ? std::floor(budgetBytes / perBlock) : 1e15;
    double longest = 0;
    for (const Request &r : requests)
        longest = std::max(longest, r.prompt + r.output);
    if (blocksFor(longest, setup.blockTokens) > blocks)
        return fail<LoadResult>(
            "/load", "one request of " + tokensText(longest) + " tokens needs " +
                         tokensText(blocksFor(longest, setup.blockTokens)) +
                         " KV blocks; the memory left beside the weights holds " +
                         tokensText(blocks) + ": shorten the requests or give the KV more memory");
    const double floorStep = model.seconds({1.0, requests.front().prompt, 0.0, 0.0});
    if (!(floorStep > 0.0) || !std::isfinite(floorStep))
        return fail<LoadResult>("/device", "the step model gives no finite step time");

    LoadResult result;
    result.requests = requests.size();
    result.kvBlocks = blocks;
    result.ttftTargetSeconds = setup.ttftTargetSeconds;
    result.tpotTargetSeconds = setup.tpotTargetSeconds;
    const double medianPrompt = percentilesOf([&] {
                                    std::vector<double> p;
                                    p.reserve(requests.size());
                                    for (const Request &r : requests)
                                        p.push_back(r.prompt);
                                    return p;
                                }())
                                    .p50;
    const double floorPrompt = std::round(medianPrompt);
    result.ttftFloorSeconds =
        firstTokenSeconds(model, model.prefillSeconds(floorPrompt), floorPrompt);

    const auto replicaCount = static_cast<std::size_t>(std::max(1.0, setup.replicas));
    std::vector<Replica> replicas(replicaCount);
    for (Replica &r : replicas)
        r.freeBlocks = blocks;
    Engine engine(model, setup, requests, blocks);
    Timeline timeline(setup.timelinePoints);

    // every loop is bounded: a step emits a token or prefills one, so the steps are at most
    // the tokens (with recompute after preemption, a few times that)
    double tokens = 0;
    for (const Request &r : requests)
        tokens += r.prompt + r.output;
    const double eventBound = std::min(std::min(kMostEvents, setup.maxEvents),
                                       8.0 * tokens + 4.0 * double(requests.size()) + 1000.0);

    std::size_t next = 0;
    std::size_t completed = 0;
    std::size_t roundRobin = 0;
    double outputTokens = 0;
    double inSystem = 0;
    double inSystemIntegral = 0;
    double now = requests.front().arrival;
    double lastEvent = now;
    double events = 0;
    double usedBlocks = 0;
    double waitingTotal = 0;
    double runningTotal = 0;
    // the replicas' step ends, soonest first (the lower replica on a tie)
    std::priority_queue<StepEnd, std::vector<StepEnd>, std::greater<>> stepEnds;
    while (completed < requests.size()) {
        if (++events > eventBound) {
            result.cut = true;
            result.cutReason =
                "stopped after " + tokensText(eventBound) + " events with requests unfinished";
            break;
        }
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            result.cut = true;
            result.cutReason = "cancelled";
            break;
        }
        const double arrival = next < requests.size() ? requests[next].arrival : kInfinity;
        while (!stepEnds.empty() &&
               stepEnds.top().generation != replicas[stepEnds.top().replica].generation)
            stepEnds.pop(); // a step end that was replaced
        const std::size_t soonest = stepEnds.empty() ? 0 : stepEnds.top().replica;
        const double stepEnd = stepEnds.empty() ? kInfinity : stepEnds.top().seconds;
        if (arrival == kInfinity && stepEnd == kInfinity) {
            result.cut = true;
            result.cutReason = "the engine admitted nothing more: requests left waiting";
            break;
        }
        const bool isArrival = arrival <= stepEnd;
        now = isArrival ? arrival : stepEnd;
        inSystemIntegral += inSystem * (now - lastEvent);
        lastEvent = now;
        std::size_t target = soonest;
        if (isArrival) {
            if (setup.router == RouterKind::RoundRobin) {
                target = roundRobin++ % replicas.size();
            } else {
                target = 0;
                for (std::size_t i = 1; i < replicas.size(); ++i) {
                    if (replicas[i].outstanding() < replicas[target].outstanding())
                        target = i;
                }
            }
            Sequence seq;
            seq.request = next;
            seq.prefillTarget = requests[next].prompt;
            replicas[target].waiting.push_back(seq);
            ++next;
            inSystem += 1.0;
            waitingTotal += 1.0;
            if (replicas[target].busyUntil != kInfinity)
                continue; // it joins when the running step ends
        }
        Replica &replica = replicas[target];
        // the totals move by what this replica's step changes: no sum over every replica
        const double blocksBefore = engine.usedBlocks(replica);
        waitingTotal -= double(replica.waiting.size());
        runningTotal -= double(replica.running.size());
        if (!isArrival) {
            const std::size_t done = engine.finishStep(replica, now, outputTokens);
            completed += done;
            inSystem -= double(done);
        }
        const double seconds = engine.startStep(replica, now, result.preemptions);
        usedBlocks += engine.usedBlocks(replica) - blocksBefore;
        waitingTotal += double(replica.waiting.size());
        runningTotal += double(replica.running.size());
        replica.busyUntil = seconds > 0.0 ? now + seconds : kInfinity;
        ++replica.generation;
        if (seconds > 0.0) {
            ++result.steps;
            stepEnds.push({replica.busyUntil, target, replica.generation});
        }
        timeline.offer({now, waitingTotal, runningTotal,
                        usedBlocks / (blocks * double(replicas.size())), double(next)});
    }
    result.timeline = timeline.take();
    result.completed = completed;

    std::vector<double> ttft, tpotExcluding, tpotIncluding, endToEnd, wait;
    ttft.reserve(completed);
    endToEnd.reserve(completed);
    std::size_t good = 0;
    double firstArrival = requests.front().arrival;
    double lastEnd = firstArrival;
    for (const Request &r : requests) {
        if (r.end < 0.0)
            continue;
        lastEnd = std::max(lastEnd, r.end);
        const double first = r.firstToken - r.arrival;
        const double total = r.end - r.arrival;
        ttft.push_back(first);
        endToEnd.push_back(total);
        wait.push_back(r.admitted - r.arrival);
        tpotIncluding.push_back(total / r.output);
        bool meets = first <= setup.ttftTargetSeconds;
        if (r.output > 1.0) {
            const double perToken = (r.end - r.firstToken) / (r.output - 1.0);
            tpotExcluding.push_back(perToken);
            meets = meets && perToken <= setup.tpotTargetSeconds;
        }
        good += meets ? 1 : 0;
    }
    result.ttft = percentilesOf(ttft);
    result.tpotExcludingFirst = percentilesOf(tpotExcluding);
    result.tpotIncludingFirst = percentilesOf(tpotIncluding);
    result.endToEnd = percentilesOf(endToEnd);
    result.queueWait = percentilesOf(wait);
    const double lastArrival = requests.back().arrival;
    result.offeredRatePerSecond = requests.size() > 1 && lastArrival > firstArrival
                                      ? double(requests.size() - 1) / (lastArrival - firstArrival)
                                      : setup.ratePerSecond;
    result.spanSeconds = (result.cut ? now : lastEnd) - firstArrival;
    if (result.spanSeconds > 0.0) {
        result.requestsPerSecond = double(completed) / result.spanSeconds;
        result.outputTokensPerSecond = outputTokens / result.spanSeconds;
        result.goodputRequestsPerSecond = double(good) / result.spanSeconds;
        result.meanInSystem = inSystemIntegral / result.spanSeconds;
        result.rateTimesMeanLatency = result.requestsPerSecond * result.endToEnd.mean;
    }
    result.goodputFraction = completed > 0 ? double(good) / double(completed) : 0.0;
    return result;
}

/** The knee by "Kneedle" (Satopaa et al., 2011): rate and log p95 TTFT scaled to 0..1 from the
 *  first point to the last, the knee is the point farthest below the chord between them, where
 *  the flat part of the curve gives way to the climb. Without a climb, the last rate. */
double kneeOf(const std::vector<LoadPoint> &points)
{
    if (points.size() < 3)
        return points.empty() ? 0.0 : points.back().ratePerSecond;
    const double x0 = points.front().ratePerSecond;
    const double x1 = points.back().ratePerSecond;
    const double y0 = std::log(std::max(points.front().result.ttft.p95, 1e-300));
    const double y1 = std::log(std::max(points.back().result.ttft.p95, 1e-300));
    if (!(y1 - y0 > std::log(2.0)) || !(x1 > x0))
        return x1; // less than doubled over the whole range: no knee within it
    double best = -1;
    double knee = x1;
    for (const LoadPoint &p : points) {
        const double x = (p.ratePerSecond - x0) / (x1 - x0);
        const double y = (std::log(std::max(p.result.ttft.p95, 1e-300)) - y0) / (y1 - y0);
        if (x - y > best) {
            best = x - y;
            knee = p.ratePerSecond;
        }
    }
    return knee;
}

double estimatedCapacity(const Scenario &scenario, const LoadSetup &setup)
{
    const StepModel model(scenario);
    const double prompt = setup.promptMean;
    const double output = setup.outputMean;
    const double perBlock = model.kvBytesPerTokenPerDevice() * setup.blockTokens;
    const double blocks =
        perBlock > 0.0 ? std::floor(std::max(0.0, model.kvBudgetBytes()) / perBlock) : 1e15;
    const double resident = blocks / std::max(1.0, blocksFor(prompt + output, setup.blockTokens));
    const double batch = std::max(1.0, std::min(setup.maxSequences, std::floor(resident)));
    const double step = model.seconds({batch, batch * (prompt + output / 2.0), 0.0, 0.0});
    const double cycle = output * step + batch * model.prefillSeconds(prompt);
    return std::max(1.0, setup.replicas) * batch / cycle;
}

Result<LoadCurve> loadCurve(const Scenario &scenario, const LoadSetup &setup, int points,
                            std::size_t requests, const std::atomic<bool> *cancel,
                            const std::function<void(int, int)> &progress)
{
    LoadCurve curve;
    curve.estimatedCapacityPerSecond = estimatedCapacity(scenario, setup);
    if (!(curve.estimatedCapacityPerSecond > 0.0) ||
        !std::isfinite(curve.estimatedCapacityPerSecond))
        return fail<LoadCurve>("/device", "the step model gives no finite capacity");
    points = std::max(points, 2);
    LoadSetup run = setup;
    if (run.arrivals == ArrivalKind::Trace)
        run.arrivals = ArrivalKind::Poisson; // a curve varies the rate: the trace's lengths go
    run.requests = requests;
    run.durationSeconds = std::numeric_limits<double>::infinity(); // a count at every rate
    run.timelinePoints = 2;
    bool targetsFailed = false;
    for (int i = 0; i < points; ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            curve.cancelled = true;
            break;
        }
        run.ratePerSecond = curve.estimatedCapacityPerSecond *
                            (0.05 + (1.5 - 0.05) * double(i) / double(points - 1));
        Result<LoadResult> one = simulateLoad(scenario, run, cancel);
        if (!one)
            return one.error();
        LoadPoint point{run.ratePerSecond, std::move(one.value())};
        point.result.timeline.clear();
        if (point.result.cut && point.result.cutReason == "cancelled") {
            curve.cancelled = true;
            break;
        }
        const LoadResult &r = point.result;
        if (i == 0) {
            // the lightest load takes the most steps per request (the smallest batches): the
            // rest are sized so the whole curve stays within its work bound
            const double perRequest =
                double(r.steps) / double(std::max<std::size_t>(1, r.requests));
            const double affordable =
                (kCurveStepBudget - double(r.steps)) / (perRequest * double(points - 1));
            // (negative when the first point alone took the whole budget: the floor then)
            if (affordable < double(run.requests))
                run.requests = static_cast<std::size_t>(std::max(200.0, affordable));
            curve.requestsPerPoint = run.requests;
        }
        const bool meets = r.ttft.p95 <= setup.ttftTargetSeconds &&
                           r.tpotExcludingFirst.p95 <= setup.tpotTargetSeconds;
        if (!targetsFailed && meets)
            curve.maxRateMeetingTargets = run.ratePerSecond;
        else
            targetsFailed = true;
        curve.points.push_back(std::move(point));
        if (progress)
            progress(i + 1, points);
    }
    curve.kneeRatePerSecond = kneeOf(curve.points);
    return curve;
}

namespace {

nlohmann::json percentilesJson(const Percentiles &p)
{
    return {{"p50", p.p50}, {"p90", p.p90}, {"p95", p.p95}, {"p99", p.p99}, {"mean", p.mean}};
}

nlohmann::json summaryJson(const LoadResult &r)
{
    nlohmann::json out;
    out["offered_rate_per_second"] = r.offeredRatePerSecond;
    out["requests"] = r.requests;
    out["completed"] = r.completed;
    out["cut"] = r.cut;
    if (r.cut)
        out["cut_reason"] = r.cutReason;
    out["steps"] = r.steps;
    out["preemptions"] = r.preemptions;
    out["ttft_seconds"] = percentilesJson(r.ttft);
    out["tpot_excluding_first_seconds"] = percentilesJson(r.tpotExcludingFirst);
    out["tpot_including_first_seconds"] = percentilesJson(r.tpotIncludingFirst);
    out["end_to_end_seconds"] = percentilesJson(r.endToEnd);
    out["queue_wait_seconds"] = percentilesJson(r.queueWait);
    out["span_seconds"] = r.spanSeconds;
    out["requests_per_second"] = r.requestsPerSecond;
    out["output_tokens_per_second"] = r.outputTokensPerSecond;
    out["goodput_requests_per_second"] = r.goodputRequestsPerSecond;
    out["goodput_fraction"] = r.goodputFraction;
    out["ttft_target_seconds"] = r.ttftTargetSeconds;
    out["tpot_target_seconds"] = r.tpotTargetSeconds;
    out["little"] = {{"mean_in_system", r.meanInSystem},
                     {"rate_times_mean_latency", r.rateTimesMeanLatency}};
    out["ttft_floor_seconds"] = r.ttftFloorSeconds;
    out["kv_blocks_per_replica"] = r.kvBlocks;
    return out;
}

} // namespace

std::string loadResultToJson(const LoadResult &result, const LoadSetup &setup)
{
    nlohmann::json out = summaryJson(result);
    out["setup"] = {{"arrivals", arrivalKey(setup.arrivals)},
                    {"rate_per_second", setup.ratePerSecond},
                    {"burstiness", setup.burstiness},
                    {"prompt",
                     {{"distribution", lengthKey(setup.promptKind)},
                      {"mean", setup.promptMean},
                      {"spread", setup.promptSpread}}},
                    {"output",
                     {{"distribution", lengthKey(setup.outputKind)},
                      {"mean", setup.outputMean},
                      {"spread", setup.outputSpread}}},
                    {"context_limit", setup.contextLimit},
                    {"seed", setup.seed},
                    {"duration_seconds", std::isfinite(setup.durationSeconds)
                                             ? nlohmann::json(setup.durationSeconds)
                                             : nlohmann::json(nullptr)},
                    {"max_sequences", setup.maxSequences},
                    {"token_budget", setup.tokenBudget},
                    {"chunked_prefill", setup.chunkedPrefill},
                    {"block_tokens", setup.blockTokens},
                    {"replicas", setup.replicas},
                    {"router", routerKey(setup.router)}};
    nlohmann::json timeline = nlohmann::json::array();
    for (const TimelinePoint &p : result.timeline)
        timeline.push_back({p.seconds, p.waiting, p.running, p.kvFraction, p.arrived});
    out["timeline"] = {{"columns", {"seconds", "waiting", "running", "kv_fraction", "arrived"}},
                       {"rows", timeline}};
    return out.dump(2) + "\n";
}

namespace {

constexpr const char *kCsvHeader =
    "rate_per_second,requests,completed,cut,ttft_p50_s,ttft_p90_s,ttft_p95_s,ttft_p99_s,"
    "tpot_excl_first_p50_s,tpot_excl_first_p95_s,tpot_excl_first_p99_s,"
    "tpot_incl_first_p50_s,tpot_incl_first_p95_s,e2e_p50_s,e2e_p95_s,e2e_p99_s,"
    "requests_per_second,output_tokens_per_second,goodput_requests_per_second,goodput_fraction,"
    "preemptions,mean_in_system\n";

void csvRow(std::ostringstream &out, double rate, const LoadResult &r)
{
    out.precision(9);
    out << rate << ',' << r.requests << ',' << r.completed << ',' << (r.cut ? 1 : 0) << ','
        << r.ttft.p50 << ',' << r.ttft.p90 << ',' << r.ttft.p95 << ',' << r.ttft.p99 << ','
        << r.tpotExcludingFirst.p50 << ',' << r.tpotExcludingFirst.p95 << ','
        << r.tpotExcludingFirst.p99 << ',' << r.tpotIncludingFirst.p50 << ','
        << r.tpotIncludingFirst.p95 << ',' << r.endToEnd.p50 << ',' << r.endToEnd.p95 << ','
        << r.endToEnd.p99 << ',' << r.requestsPerSecond << ',' << r.outputTokensPerSecond << ','
        << r.goodputRequestsPerSecond << ',' << r.goodputFraction << ',' << r.preemptions << ','
        << r.meanInSystem << '\n';
}

} // namespace

std::string loadResultToCsv(const LoadResult &result)
{
    std::ostringstream out;
    out << kCsvHeader;
    csvRow(out, result.offeredRatePerSecond, result);
    return out.str();
}

std::string loadCurveToCsv(const LoadCurve &curve)
{
    std::ostringstream out;
    out << kCsvHeader;
    for (const LoadPoint &p : curve.points)
        csvRow(out, p.ratePerSecond, p.result);
    return out.str();
}

std::string loadCurveToJson(const LoadCurve &curve)
{
    nlohmann::json out;
    out["estimated_capacity_per_second"] = curve.estimatedCapacityPerSecond;
    out["knee_rate_per_second"] = curve.kneeRatePerSecond;
    out["max_rate_meeting_targets"] = curve.maxRateMeetingTargets;
    out["requests_per_point"] = curve.requestsPerPoint;
    out["cancelled"] = curve.cancelled;
    nlohmann::json points = nlohmann::json::array();
    for (const LoadPoint &p : curve.points) {
        nlohmann::json point = summaryJson(p.result);
        point["rate_per_second"] = p.ratePerSecond;
        points.push_back(std::move(point));
    }
    out["points"] = std::move(points);
    return out.dump(2) + "\n";
}

} // namespace core

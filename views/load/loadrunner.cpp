// SPDX-License-Identifier: GPL-3.0-or-later
#include "loadrunner.h"

#include "views/io/filereader.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/scenario.h"

#include <QDir>
#include <QFileInfo>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace views {

/** One run: what the worker thread and the GUI thread share. The runner may be gone when the
 *  worker finishes; `receiver` is cleared under the mutex before it is. */
struct LoadRunner::Job
{
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable doneChanged;
    bool done = false;
    bool delivered = false;
    LoadRunner *receiver = nullptr;
    QByteArray key; ///< what was simulated (empty: not remembered)
    // results, written by the worker before `done`
    std::optional<core::LoadCurve> curve;
    std::optional<core::LoadResult> run;
    std::optional<core::LoadSetup> setup;
    QString error;
};

namespace {

int g_testPoints = 0;
std::size_t g_testRequests = 0;

/** A finished run's results, remembered by what was simulated: the scenario as saved, its
 *  file, the kind and the size (issue #46: a report made right after the Load tab simulated the
 *  same curve again, half of the report's time). The GUI thread's alone. */
struct Remembered
{
    QByteArray key;
    std::optional<core::LoadCurve> curve;
    std::optional<core::LoadResult> run;
    std::optional<core::LoadSetup> setup;
    QString error;
};
constexpr std::size_t kRemembered = 4;
int g_startedInProcess = 0;

std::vector<Remembered> &remembered()
{
    static std::vector<Remembered> runs;
    return runs;
}

QString describe(const core::Diagnostic &d)
{
    return d.path.empty() ? QString::fromStdString(d.message)
                          : QString::fromStdString(d.path) + QStringLiteral(": ") +
                                QString::fromStdString(d.message);
}

} // namespace

void LoadRunner::limitForTests(int points, std::size_t requests)
{
    g_testPoints = points;
    g_testRequests = requests;
}

LoadRunner::LoadRunner(Kind kind, QObject *parent)
    : QObject(parent)
    , m_kind(kind)
    , m_debounce(new QTimer(this))
{
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(120);
    connect(m_debounce, &QTimer::timeout, this, &LoadRunner::startNow);
}

LoadRunner::~LoadRunner()
{
    if (m_job) {
        const std::lock_guard lock(m_job->mutex);
        m_job->receiver = nullptr;
        m_job->cancel = true;
    }
}

namespace {

/** What identifies a run, or nothing for one that must run (a trace is a file that may change). */
QByteArray runKey(const core::Scenario &scenario, const QString &file, LoadRunner::Kind kind)
{
    // what the scenario's text does not hold is never remembered: a trace and a profile are
    // files that may change, a user preset named by id may be edited
    if (scenario.load.arrivals == "trace" ||
        (scenario.calibration.profile && !scenario.calibration.profilePath.empty()) ||
        core::isUserPreset(scenario.engine.draftModel) ||
        core::isUserPreset(scenario.engine.prefillDevice))
        return {};
    // the scenario as saved, with the load and engine sections written out even where the file
    // had none (their figures are the defaults then, but the key must not depend on it)
    core::Scenario keyed = scenario;
    keyed.load.present = true;
    keyed.engine.present = true;
    std::string text = core::writeScenario(keyed);
    // and which inputs were given: a saved file writes a default it was not given (replicas 1),
    // where the simulation takes the fleet's count unless the input was given
    for (const auto &given : scenario.givenInputs)
        text += '\n' + given.first;
    return QByteArray::number(int(kind)) + ' ' + QByteArray::number(g_testPoints) + ' ' +
           QByteArray::number(qulonglong(g_testRequests)) + ' ' + file.toUtf8() + '\n' +
           QByteArray(text.data(), qsizetype(text.size()));
}

} // namespace

void LoadRunner::schedule(const core::Scenario &scenario, const QString &scenarioFile)
{
    const QByteArray key = runKey(scenario, scenarioFile, m_kind);
    if (!key.isEmpty()) {
        auto &runs = remembered();
        const auto hit = std::find_if(runs.begin(), runs.end(),
                                      [&key](const Remembered &r) { return r.key == key; });
        if (hit != runs.end()) { // simulated before: shown at once, nothing runs
            m_debounce->stop();
            m_pending.reset();
            if (m_job) {
                const std::lock_guard lock(m_job->mutex);
                m_job->receiver = nullptr;
                m_job->cancel = true;
            }
            m_job.reset();
            m_curve = hit->curve;
            m_run = hit->run;
            m_setup = hit->setup;
            m_error = hit->error;
            m_pendingKey.clear();
            emit finished();
            return;
        }
    }
    m_pendingKey = key;
    m_pending = std::make_unique<core::Scenario>(scenario);
    m_pendingFile = scenarioFile;
    if (m_job)
        m_job->cancel = true; // stale: stop spending the cores on it
    m_debounce->start();
}

bool LoadRunner::busy() const
{
    return m_debounce->isActive() || (m_job && !m_job->delivered);
}

void LoadRunner::startNow()
{
    m_debounce->stop();
    if (!m_pending)
        return;
    if (m_job) {
        const std::lock_guard lock(m_job->mutex);
        if (!m_job->done)
            ++m_cancelled;
        m_job->receiver = nullptr;
        m_job->cancel = true;
    }
    auto job = std::make_shared<Job>();
    job->receiver = this;
    job->key = m_pendingKey;
    m_job = job;
    ++m_started;
    ++g_startedInProcess;
    if (g_testRequests > 0) { // a count, never a span's worth (a day of arrivals is 1e6 runs)
        m_pending->load.requests = std::min(m_pending->load.requests, double(g_testRequests));
        m_pending->load.durationSeconds = core::kUnset;
    }
    std::shared_ptr<const core::Scenario> scenario(m_pending.release());
    const int points = g_testPoints > 0 ? g_testPoints : kCurvePoints;
    const std::size_t curveRequests = g_testRequests > 0 ? g_testRequests : kCurveRequests;
    const QString file = m_pendingFile;
    const Kind kind = m_kind;
    QThreadPool::globalInstance()->start([job, scenario, file, kind, points, curveRequests] {
        QString error;
        std::optional<core::LoadCurve> curve;
        std::optional<core::LoadResult> run;
        std::optional<core::LoadSetup> setup;
        try { // an exception escaping a pool thread would end the app
            std::vector<core::TraceRequest> trace;
            if (scenario->load.arrivals == "trace") {
                QString path = QString::fromStdString(scenario->load.traceFile);
                if (QFileInfo(path).isRelative() && !file.isEmpty())
                    path = QFileInfo(file).dir().filePath(path);
                QByteArray text;
                QString problem;
                if (!readFileAtMost(path, qint64(core::kLargestInputBytes), tr("a trace"), &text,
                                    &problem)) {
                    error = QStringLiteral("/load/trace_file: ") + problem;
                } else {
                    auto rows =
                        core::readTrace(std::string_view(text.constData(), size_t(text.size())),
                                        path.toStdString());
                    if (rows)
                        trace = std::move(rows.value());
                    else
                        error = describe(rows.error());
                }
            }
            if (error.isEmpty()) {
                auto made = core::loadSetup(*scenario, std::move(trace));
                if (!made) {
                    error = describe(made.error());
                } else if (kind == Kind::Curve) {
                    setup = made.value();
                    const auto progress = [job](int done, int total) {
                        const std::lock_guard lock(job->mutex);
                        if (job->receiver)
                            QMetaObject::invokeMethod(
                                job->receiver,
                                [receiver = job->receiver, job, done, total] {
                                    // a run already shown (wait() delivered it) or replaced
                                    // reports no progress after its result
                                    if (receiver->m_job == job && !job->delivered)
                                        emit receiver->progress(done, total);
                                },
                                Qt::QueuedConnection);
                    };
                    auto result = core::loadCurve(*scenario, *setup, points, curveRequests,
                                                  &job->cancel, progress);
                    if (result)
                        curve = std::move(result.value());
                    else
                        error = describe(result.error());
                } else {
                    setup = made.value();
                    auto result = core::simulateLoad(*scenario, *setup, &job->cancel);
                    if (result)
                        run = std::move(result.value());
                    else
                        error = describe(result.error());
                }
            }
        } catch (const std::exception &e) {
            error = QStringLiteral("/load: the simulation stopped: %1")
                        .arg(QString::fromUtf8(e.what()));
            curve.reset();
            run.reset();
        }
        const std::lock_guard lock(job->mutex);
        job->curve = std::move(curve);
        job->run = std::move(run);
        job->setup = std::move(setup);
        job->error = error;
        job->done = true;
        job->doneChanged.notify_all();
        if (job->receiver)
            QMetaObject::invokeMethod(
                job->receiver, [receiver = job->receiver, job] { receiver->deliver(job); },
                Qt::QueuedConnection);
    });
}

void LoadRunner::deliver(const std::shared_ptr<Job> &job)
{
    if (job != m_job || job->delivered || job->cancel)
        return; // a stale run, or one wait() delivered already
    job->delivered = true;
    m_curve = std::move(job->curve);
    m_run = std::move(job->run);
    m_setup = std::move(job->setup);
    m_error = job->error;
    if (!job->key.isEmpty() && m_error.isEmpty()) { // an error may pass (memory, a file)
        auto &runs = remembered();
        if (runs.size() >= kRemembered)
            runs.erase(runs.begin()); // the oldest
        runs.push_back({job->key, m_curve, m_run, m_setup, m_error});
    }
    emit finished();
}

int LoadRunner::startedInProcess()
{
    return g_startedInProcess;
}

void LoadRunner::start()
{
    if (m_debounce->isActive() || (m_pending && !m_job))
        startNow();
}

void LoadRunner::wait()
{
    start();
    if (!m_job || m_job->delivered)
        return;
    std::shared_ptr<Job> job = m_job;
    {
        std::unique_lock lock(job->mutex);
        job->doneChanged.wait(lock, [&job] { return job->done; });
    }
    deliver(job);
}

} // namespace views

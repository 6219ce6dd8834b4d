// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs the load simulation off the GUI thread: a new scenario cancels the run in flight (its
// result is never shown), progress comes back as a signal, and wait() finishes the latest run
// on the spot for snapshots, reports and tests. The window never freezes on a slider release.

#include "core/physics/loadsim.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QTimer;

namespace core {
struct Scenario;
}

namespace views {

class LoadRunner : public QObject
{
    Q_OBJECT

public:
    enum class Kind { Curve, Run };
    /// The curve: this many rates, each this many requests (the 20 x 10,000).
    static constexpr int kCurvePoints = 20;
    static constexpr std::size_t kCurveRequests = 10000;
    /** Smaller runs for the view tests, which test the drawing (tst_loadsim tests the numbers):
     *  at most `points` rates and `requests` requests in any run. 0 restores the full size. */
    static void limitForTests(int points, std::size_t requests);

    explicit LoadRunner(Kind kind, QObject *parent = nullptr);
    ~LoadRunner() override;

    /** Starts simulating `scenario` after a short pause (a drag's every step would start one),
     *  cancelling whatever ran for the scenario before. A trace file named in its load section
     *  is read relative to `scenarioFile`'s folder. */
    void schedule(const core::Scenario &scenario, const QString &scenarioFile = {});
    /** Starts the scheduled run now, without the pause: a report starts its curve first and
     *  does its other work while the curve is simulated. */
    void start();
    /** Blocks until the latest scheduled run has finished and its result is delivered. */
    void wait();
    bool busy() const;

    /** The latest finished run's results (empty before the first, or on an error). */
    const std::optional<core::LoadCurve> &curve() const { return m_curve; }
    const std::optional<core::LoadResult> &run() const { return m_run; }
    const std::optional<core::LoadSetup> &setup() const { return m_setup; }
    /** Why the latest run gave no result ("/load/rate_per_second: is not ..."), else empty. */
    QString error() const { return m_error; }
    /** How many runs were started, and how many were cancelled before they finished; a
     *  scenario simulated before (by any runner, at the same size) is not run again. */
    int started() const { return m_started; }
    /** Runs started by every runner of the process. */
    static int startedInProcess();
    int cancelled() const { return m_cancelled; }

signals:
    void progress(int done, int total);
    void finished();

private:
    struct Job;
    void startNow();
    void deliver(const std::shared_ptr<Job> &job);

    Kind m_kind;
    QTimer *m_debounce;
    std::unique_ptr<core::Scenario> m_pending;
    QString m_pendingFile;
    QByteArray m_pendingKey;
    std::shared_ptr<Job> m_job;
    std::optional<core::LoadCurve> m_curve;
    std::optional<core::LoadResult> m_run;
    std::optional<core::LoadSetup> m_setup;
    QString m_error;
    int m_started = 0;
    int m_cancelled = 0;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one QObject between the passive core and the views. It owns the scenario, its undo stack
// and the latest Evaluation. Every edit is an undo command; consecutive edits of one input merge
// (a slider drag is one undo step, and dragging back to the start leaves nothing to undo).
// Recomputation is coalesced: a burst of edits costs one evaluate() and one changed() signal.

#include "core/calibrate/measurements.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <QFlags>
#include <QList>
#include <QObject>

#include <QString>
#include <QTimer>
#include <limits>

#include <memory>
#include <vector>

class QUndoStack;

namespace core {
struct Selection;
struct OomDiagnosis;
struct ScenarioVariant;
struct TrainingPlan;
struct HfImport;
} // namespace core

namespace views {

class ScenarioDocument : public QObject
{
    Q_OBJECT

public:
    enum Change : unsigned {
        Inputs = 0x1,     ///< the scenario changed
        Results = 0x2,    ///< the evaluation changed
        Units = 0x4,      ///< GB / GiB / both display changed
        File = 0x8,       ///< file name or saved state changed
        Concealed = 0x10, ///< the figures hidden from a class changed
    };
    Q_DECLARE_FLAGS(Changes, Change)

    explicit ScenarioDocument(QObject *parent = nullptr);
    ~ScenarioDocument() override;

    const core::Scenario &scenario() const { return m_scenario; }
    /** The evaluation of the current scenario (computed now if an edit is pending). */
    const core::Evaluation &evaluation() const;
    QUndoStack *undoStack() const { return m_undoStack; }

    // Derived results, each computed once per revision of the scenario, on first use: views
    // read these instead of calling the core themselves, so two views never compute one
    // answer twice.
    /** The decode step at every batch of core::sweepValues(SweepKind::Batch). */
    const std::vector<core::BatchPoint> &batchSweep() const;
    /** The device-selection checks and recommendation (core::selectDevice), computed now if
     *  this revision has none yet. */
    const core::Selection &selection() const;
    /** The selection for a view refreshing after an edit, never a long wait on the GUI thread:
     *  computed here while the last one took under kSelectionOnTheSpotMs, else on a worker
     *  (nullptr now; selectionReady() when it is stored). With traffic given every option runs
     *  a load simulation, and a real model's selection took 0.1-3.5 s a change. */
    const core::Selection *selectionForLiveView();
    static constexpr double kSelectionOnTheSpotMs = 40;
    /** The training run the scenario states, its unset degrees searched
     *  (core::plannedTraining): what `accel-calc train` prints. */
    const core::TrainingPlan &trainingPlan() const;
    /** The best plan over every layout (core::bestTrainingPlan): what `train --search` prints
     *  and the wizard's training regime weighs for this device. */
    const core::TrainingPlan &bestTrainingPlan() const;
    /** The lesson's OOM diagnosis with the scenario's numbers (core::diagnoseOom). */
    const core::OomDiagnosis &oomDiagnosis() const;
    /** Scenario B of a comparison: the scenario with `variant` applied (core::applyVariant),
     *  and its evaluation; an unknown preset leaves B = A and says why in `problem`. */
    struct Comparison
    {
        core::Scenario b;
        core::Evaluation evaluation;
        QString problem;
    };
    const Comparison &comparison(const core::ScenarioVariant &variant) const;
    /** Bumped by every change of the scenario (edit, undo, open). */
    quint64 revision() const { return m_revision; }
    /** How many times selection() has run core::selectDevice (tests count it). */
    int selectionRuns() const { return m_selectionRuns; }

    core::MemoryUnits units() const { return m_units; }
    void setUnits(core::MemoryUnits units);

    /** The figures a class is asked to predict (a tour step before Reveal), with those that
     *  would give them away: every view shows "?" for them. Presentation state, not part of the
     *  scenario and not undoable. */
    void setConcealed(const QList<core::FigureId> &figures);
    bool isConcealed(core::FigureId id) const { return m_concealed.contains(id); }
    bool concealsAny() const { return !m_concealed.isEmpty(); }
    /** Curves against the batch (tokens/s) stop short of `batch`: a later tour step asks the
     *  value there (infinity: nothing hidden). */
    void setCurvesHiddenFromBatch(double batch);
    double curvesHiddenFromBatch() const { return m_curvesHiddenFrom; }
    /** `text`, or "?" while `id` is concealed. */
    QString unlessConcealed(core::FigureId id, const QString &text) const;

    /** What else an edit moves: the inputs the file left out that follow it as `--set` reads
     *  them (an unstated prompt follows the context, an unstated batch the concurrency), or
     *  nothing but the input (the wizard's output length moves the context under a fixed
     *  prompt). */
    enum class Following { AsRead, InputOnly };
    /** Edits one numeric input ("serving.batch"). Refused with the reason when out of range. */
    bool setNumber(const QString &path, double value, QString *error = nullptr,
                   Following following = Following::AsRead);
    /** Sets a word input ("load.arrivals" = "gamma", core::choiceTable) as one undo step;
     *  false with the reason when the word is refused. */
    bool setChoice(const QString &path, const QString &value, QString *error = nullptr);
    void setWeightFormat(core::NumericFormat format);
    /** Every weight part in the weight format: the checkpoint's own part formats dropped. */
    void useOneWeightFormat();
    void setKvFormat(core::NumericFormat format);
    bool setModelPreset(const QString &id, QString *error = nullptr);
    bool setDevicePreset(const QString &id, QString *error = nullptr);
    /** Speed of light (the lesson's model), typical or calibrated efficiencies: one undo step. */
    void setEstimateMode(core::EstimateMode mode);
    /** Applies a fitted profile (File > Import Measurements) and switches to it: one undo step. */
    void applyCalibration(const core::CalibrationProfile &profile, const QString &engine);
    /** Measured runs to draw beside the estimate (File > Import Measurements); not part of the
     *  scenario: not saved, not undone. The charts show those of the scenario's model, device
     *  and weight format. */
    void setMeasurements(std::vector<core::Measurement> runs);
    const std::vector<core::Measurement> &measurements() const;
    /** Replaces the whole scenario as one undo step named `commandText`. */
    void applyScenario(const core::Scenario &scenario, const QString &commandText);

    /** Starts over with `scenario` (a new or opened file): the undo stack is cleared. */
    void reset(const core::Scenario &scenario, const QString &filePath = {});
    /** Opens a scenario file; on error returns false with "FILE: /path: message" and changes
     *  nothing. Warnings (unknown keys) are returned in `warnings`. */
    bool open(const QString &filePath, QString *error, QStringList *warnings = nullptr);
    /** Replaces the model with one imported from a Hugging Face config.json (one undo step), or
     *  from a model folder (its config.json and the safetensors headers of its shards, issue
     *  #44); notes on the weights come back among the warnings. */
    bool importModel(const QString &configPath, QString *error, QStringList *warnings = nullptr);
    /** Saves atomically (views/atomicwriter.h); on error the document stays unsaved. */
    bool save(const QString &filePath, QString *error);

    /** The file as this document last read or wrote it, against the file on disk now: another
     *  window or program may have written it since (or removed it). Untitled: Unchanged. */
    enum class DiskState { Unchanged, Changed, Missing };
    DiskState diskState() const;
    /** Reads the file again as one undo step ("Reload from Disk") that leaves the document
     *  clean: Undo brings back what the document held. On error nothing changes. */
    bool reloadFromDisk(QString *error, QStringList *warnings = nullptr);

    QString filePath() const { return m_filePath; }
    bool isModified() const;

    /** Recomputes now if an edit is pending and emits changed(). For tests and snapshots. */
    void flush();

signals:
    void changed(views::ScenarioDocument::Changes changes);
    void modifiedChanged(bool modified);
    /** A selection computed on a worker was stored for the current revision. */
    void selectionReady();

private:
    bool applyImport(const core::HfImport &imported);
    friend class ScenarioEditCommand;
    void replaceScenario(const core::Scenario &scenario);
    /** Reads and checks a scenario file and the calibration profile it names beside it. */
    bool readScenarioFile(const QString &filePath, core::Scenario *scenario, QByteArray *fileBytes,
                          QString *error, QStringList *warnings) const;
    void schedule(Changes changes);
    void emitPending();
    void pushEdit(const core::Scenario &after, const QString &text, int mergeId);

    core::Scenario m_scenario;
    std::vector<core::Measurement> m_measurements;
    mutable core::Evaluation m_evaluation;
    mutable bool m_evaluationStale = true;
    core::MemoryUnits m_units = core::MemoryUnits::GB;
    QList<core::FigureId> m_concealed;
    double m_curvesHiddenFrom = std::numeric_limits<double>::infinity();
    QUndoStack *m_undoStack = nullptr;
    QTimer m_coalesce;
    Changes m_pending;
    QString m_filePath;
    QByteArray m_diskDigest; ///< the file's bytes as last read or written (SHA-256)
    quint64 m_revision = 0;

    struct Derived;
    std::unique_ptr<Derived> m_derived;
    mutable int m_selectionRuns = 0;
    mutable double m_lastSelectionMs = 0; ///< how long the last selection took
    struct SelectionJob;
    std::shared_ptr<SelectionJob> m_selectionJob; ///< the worker's run in flight, if any
    bool m_selectionWanted = false; ///< a view asked while an older revision's run was in flight
    void startSelectionJob();
    void deliverSelection(const std::shared_ptr<SelectionJob> &job);
};

} // namespace views

Q_DECLARE_OPERATORS_FOR_FLAGS(views::ScenarioDocument::Changes)

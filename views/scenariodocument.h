#pragma once

// The one QObject between the passive core and the views. It owns the scenario, its undo stack
// and the latest Evaluation. Every edit is an undo command; consecutive edits of one input merge
// (a slider drag is one undo step, and dragging back to the start leaves nothing to undo).
// Recomputation is coalesced: a burst of edits costs one evaluate() and one changed() signal.

#include "core/evaluation.h"
#include "core/scenario.h"
#include "core/units.h"

#include <QFlags>
#include <QObject>
#include <QString>
#include <QTimer>

class QUndoStack;

namespace views {

class ScenarioDocument : public QObject
{
    Q_OBJECT

public:
    enum Change : unsigned {
        Inputs = 0x1,  ///< the scenario changed
        Results = 0x2, ///< the evaluation changed
        Units = 0x4,   ///< GB / GiB / both display changed
        File = 0x8,    ///< file name or saved state changed
    };
    Q_DECLARE_FLAGS(Changes, Change)

    explicit ScenarioDocument(QObject *parent = nullptr);
    ~ScenarioDocument() override;

    const core::Scenario &scenario() const { return m_scenario; }
    /** The evaluation of the current scenario (computed now if an edit is pending). */
    const core::Evaluation &evaluation() const;
    QUndoStack *undoStack() const { return m_undoStack; }

    core::MemoryUnits units() const { return m_units; }
    void setUnits(core::MemoryUnits units);

    /** Edits one numeric input ("serving.batch"). Refused with the reason when out of range. */
    bool setNumber(const QString &path, double value, QString *error = nullptr);
    void setWeightFormat(core::NumericFormat format);
    void setKvFormat(core::NumericFormat format);
    bool setModelPreset(const QString &id, QString *error = nullptr);
    bool setDevicePreset(const QString &id, QString *error = nullptr);
    /** Replaces the whole scenario as one undo step named `commandText`. */
    void applyScenario(const core::Scenario &scenario, const QString &commandText);

    /** Starts over with `scenario` (a new or opened file): the undo stack is cleared. */
    void reset(const core::Scenario &scenario, const QString &filePath = {});
    /** Opens a scenario file; on error returns false with "FILE: /path: message" and changes
     *  nothing. Warnings (unknown keys) are returned in `warnings`. */
    bool open(const QString &filePath, QString *error, QStringList *warnings = nullptr);
    /** Replaces the model with one imported from a Hugging Face config.json (one undo step). */
    bool importModel(const QString &configPath, QString *error, QStringList *warnings = nullptr);
    /** Saves atomically (QSaveFile); on error the document stays unsaved. */
    bool save(const QString &filePath, QString *error);

    QString filePath() const { return m_filePath; }
    bool isModified() const;

    /** Recomputes now if an edit is pending and emits changed(). For tests and snapshots. */
    void flush();

signals:
    void changed(views::ScenarioDocument::Changes changes);
    void modifiedChanged(bool modified);

private:
    friend class ScenarioEditCommand;
    void replaceScenario(const core::Scenario &scenario);
    void schedule(Changes changes);
    void emitPending();
    void pushEdit(const core::Scenario &after, const QString &text, int mergeId);

    core::Scenario m_scenario;
    mutable core::Evaluation m_evaluation;
    mutable bool m_evaluationStale = true;
    core::MemoryUnits m_units = core::MemoryUnits::GB;
    QUndoStack *m_undoStack = nullptr;
    QTimer m_coalesce;
    Changes m_pending;
    QString m_filePath;
};

} // namespace views

Q_DECLARE_OPERATORS_FOR_FLAGS(views::ScenarioDocument::Changes)

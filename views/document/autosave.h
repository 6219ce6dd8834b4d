// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Autosave of unsaved work: a minute after the last save and two seconds after each burst of
// edits, the scenario is written (atomically) to the user's data folder; a normal save or close
// removes it. Found at the next start, it means the app did not close cleanly, and can be offered
// back with the time it was saved.

#include <QDateTime>
#include <QObject>
#include <QTimer>

namespace core {
struct Scenario;
}

namespace views {

class ScenarioDocument;

class Autosave : public QObject
{
    Q_OBJECT

public:
    /** Watches `document`; writes to `folder`/autosave.json. */
    Autosave(ScenarioDocument *document, const QString &folder, QObject *parent = nullptr);

    QString filePath() const;
    /** Writes now if the document has unsaved changes; true when written (or nothing to do). */
    bool saveNow();
    /** An autosave left by a session that did not close cleanly. */
    bool hasRecovery() const;
    QDateTime recoveryTime() const;
    /** Reads the autosave; false (with the reason) when it cannot be read. */
    bool recover(core::Scenario &scenario, QString *error) const;
    /** Removes the autosave (after a save, a clean close, or a declined recovery). */
    void discard();
    /** A recovery found at start is left alone (neither overwritten nor removed) until the user
     *  has answered; then autosaving resumes. */
    bool recoveryPending() const { return m_pending; }
    void resolveRecovery() { m_pending = false; }

private:
    ScenarioDocument *m_document;
    QString m_folder;
    QTimer m_minute;
    QTimer m_burst;
    bool m_pending = false;
};

} // namespace views

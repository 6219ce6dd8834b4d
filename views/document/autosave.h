// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Autosave of unsaved work, one file per window: two seconds after each burst of edits and every
// minute, the window's scenario is written (atomically) to the user's data folder together with
// the file it came from and the time; a save or a clean close removes it. Each window holds a
// lock beside its file while it lives, so another window never offers, overwrites or deletes it.
// A file whose lock is free at start-up was left by a window that did not close cleanly: it is
// offered back by the name of the file it belongs to.

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QTimer>

#include <memory>

class QLockFile;

namespace core {
struct Scenario;
}

namespace views {

class ScenarioDocument;

/** Unsaved work left by a window that did not close cleanly. */
struct AutosaveLeftover
{
    QString path;   ///< the autosave file
    QString origin; ///< the scenario file it was editing; empty for an untitled window
    QDateTime saved;
};

class Autosave : public QObject
{
    Q_OBJECT

public:
    /** Watches `document`; writes to a file of its own in `folder`. */
    Autosave(ScenarioDocument *document, const QString &folder, QObject *parent = nullptr);
    ~Autosave() override;

    /** This window's autosave file (it exists only while there is unsaved work). */
    QString filePath() const;
    /** Writes now if the document has unsaved changes; true when written (or nothing to do).
     *  A failure is reported by failed() and kept in lastError() until a write succeeds. */
    bool saveNow();
    QString lastError() const { return m_lastError; }

    /** Work left by windows that did not close cleanly, newest first. Each is locked for this
     *  window until recovered, discarded or released. */
    QList<AutosaveLeftover> leftovers();
    /** Reads a leftover; false (with the file and the reason) when it cannot be read. */
    static bool read(const AutosaveLeftover &leftover, core::Scenario &scenario, QString *error);
    /** Removes a leftover (recovered into a window that autosaves it anew, or declined). */
    void discardLeftover(const AutosaveLeftover &leftover);
    /** Keeps the leftovers for the next start ("not now"): their locks are let go. */
    void releaseLeftovers();

    /** Removes this window's autosave (after a save or a clean close). */
    void discard();

signals:
    /** Autosave could not write (`error` names the file and the reason), or, with an empty
     *  `error`, writes again after a failure. */
    void failed(const QString &error);

private:
    ScenarioDocument *m_document;
    QString m_folder;
    QString m_session; ///< this window's file name without its suffix
    std::unique_ptr<QLockFile> m_lock;
    std::vector<std::pair<QString, std::unique_ptr<QLockFile>>> m_heldLeftovers;
    QTimer m_minute;
    QTimer m_burst;
    QString m_lastError;
};

} // namespace views

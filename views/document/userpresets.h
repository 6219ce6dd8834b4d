// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The user's own presets (devices, models, links): one library file in the user's data folder,
// loaded at start, edited as validated JSON, saved atomically, and shared as files.

#include <QDialog>
#include <QString>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace core {
struct PresetFile;
struct Scenario;
} // namespace core

namespace views {

/** Where the library lives: <AppDataLocation>/presets.json. */
QString userPresetFile();
/** Reads the library at start. No file: true, nothing to do. A bad file: false with the
 *  file, field and reason in `error`, and only the built-ins in use. */
bool loadUserPresets(QString *error);
/** Validates, writes (atomically) and puts the library in use; nothing changes on error. */
bool saveUserPresets(const core::PresetFile &library, QString *error);
/** Adds the presets of a shared file to the library and saves it. */
bool importPresetFile(const QString &path, QString *error);

/** Tools > My Presets: the library as JSON with a live check, entries made from the scenario,
 *  import and share. */
class UserPresetsDialog : public QDialog
{
    Q_OBJECT

public:
    UserPresetsDialog(const core::Scenario &scenario, QWidget *parent = nullptr);

    QPlainTextEdit *editor() const { return m_editor; }
    QLabel *verdict() const { return m_verdict; }
    /** The library in the editor is valid (what Save would write). */
    bool isValid() const { return m_valid; }
    /** Adds the scenario's device, model as entries with a new id ("my-..."). */
    void addDeviceFromScenario();
    void addModelFromScenario();
    /** Validates and saves; false (and the reason shown) when the text is not a valid library. */
    bool save();

signals:
    /** The library in use changed: pickers should list it again. */
    void presetsChanged();

private:
    void check();
    core::PresetFile editedLibrary() const;
    void setLibrary(const core::PresetFile &library);
    void shareSelected();
    void import();

    const core::Scenario &m_scenario;
    QListWidget *m_entries;
    QPlainTextEdit *m_editor;
    QLabel *m_verdict;
    QPushButton *m_save;
    bool m_valid = false;
};

} // namespace views

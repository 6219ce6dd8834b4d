// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The main window: the scenario panel on the left, the views as tabs in the centre, the
// explanation panel below them and the three verdicts in the status bar. All of it reads one
// ScenarioDocument.

#include "views/widgets/appearance.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>

class QActionGroup;
class QComboBox;
class QScreen;
class QScrollArea;
class QLabel;
class QFileSystemWatcher;
class QTimer;
class QMenu;
class QSplitter;
class QDockWidget;
class QTabWidget;
class QToolBar;

namespace core {
struct Scenario;
}

namespace views {
class AllInputsPanel;
class MeasurementsDialog;
struct ViewEntry;
class ExplanationPanel;
class HelpDialog;
class RooflineView;
class Autosave;
struct AutosaveLeftover;
class TourPanel;
class ScenarioDocument;
class ScenarioPanel;
class View;
} // namespace views

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    views::ScenarioDocument *document() const { return m_document; }
    views::ScenarioPanel *scenarioPanel() const { return m_panel; }
    views::ExplanationPanel *explanationPanel() const { return m_explanation; }
    QTabWidget *tabs() const { return m_tabs; }
    /** A view by its snapshot name, building its tab if it has not been shown yet. */
    views::View *view(const QString &snapshotName);
    /** The status bar's three verdicts, as shown. */
    QStringList verdicts() const;

    /** Opens a scenario; on error shows the core's message and changes nothing. */
    bool openFile(const QString &path, bool interactive = true);
    /** Opens a scenario file with `overrides` ("serving.batch=8", as --set takes them) applied
     *  on top as one unsaved edit: Undo goes back to the file as it is on disk. False with the
     *  file, the override and what is wrong in `error`; the file's own error when it cannot be
     *  opened (then nothing changes). */
    bool openFileWithOverrides(const QString &path, const QStringList &overrides, QString *error);
    /** Imports a Hugging Face config.json as the model (one undo step). */
    bool importConfig(const QString &path, bool interactive = true);
    /** File > Import Measurements: the runs against the estimate and their fit, in a dialog
     *  whose Apply switches the scenario to the fit (one undo step). Returns the dialog (shown,
     *  non-modal, deleted on close), or nullptr with the reason in the status bar. */
    views::MeasurementsDialog *importMeasurements(const QStringList &paths,
                                                  bool interactive = true);
    /** Offers back the work of windows that did not close cleanly, each by the name of its file
     *  and the time it was autosaved. Recovered work goes into its own file's window (this one
     *  when it has that file open, or when it is untitled and untouched) or a new window, never
     *  into another file. `accept` answers for the user when not interactive (recover or
     *  discard). Returns how many were recovered. */
    int offerRecovery(bool interactive = true, bool accept = true);
    /** What Save does when another window or program has written the file since this window
     *  opened or saved it: ask (a dialog), overwrite it, reload it (this window's scenario one
     *  Undo away, nothing saved) or leave it (nothing saved). */
    enum class DiskConflict { Ask, Overwrite, Reload, Cancel };
    /** File > Save: to the scenario's own file (Save As when untitled). */
    bool saveToOwnFile(DiskConflict whenChangedOnDisk = DiskConflict::Ask);
    /** Checks the file on disk now (the watcher does so when it changes): unchanged by others,
     *  nothing; changed while this window has no unsaved edit, reloaded (one Undo away);
     *  changed under unsaved edits, or removed, said in the status bar until saved. */
    void checkFileOnDisk();
    /** The status bar's warning that the file changed on disk (empty when it has not). */
    QString diskWarning() const;
    /** The autosave's failure as the status bar shows it (empty while autosave works). */
    QString autosaveWarning() const;
    views::Autosave *autosave() const { return m_autosave; }
    /** Opens the lesson tour at `step` (0-based): its scenario, its view, its number. */
    void startTour(int step);
    views::TourPanel *tourPanel() const { return m_tour; }
    /** Brings forward the tab holding a view (by --snapshot name), building it if needed. */
    void showView(const QString &snapshotName);
    /** B: blanks the screen (a presenter's pause), any key brings it back. */
    void setBlanked(bool blanked);
    bool blanked() const;
    /** The number Reveal shows large over the view, while it is shown (empty otherwise). */
    QString calloutText() const;
    bool calloutShown() const;

    /** Presenter mode: full screen, menu hidden, fonts and lines 1.6x, high contrast, the
     *  explanation panel enlarged. Remembered for the screen the window is on. */
    void setPresenterMode(bool on);
    bool presenterMode() const { return m_presenter; }
    /** The screen height presenter mode sizes itself for (snapshots at a given size); 0: the
     *  height of the screen the window is on. */
    void setPresenterScreenHeight(int height);
    /** Shows or hides the scenario panel and the explanation panel. Presenter mode hides both
     *  so the view under discussion has the screen (F6 and F7 bring them back). */
    void setSidePanelsShown(bool scenario, bool explanation);
    /** View > All Inputs (F8): every number of the scenario, one editor each, in a dock built on
     *  first use; `path` ("load.burstiness") is brought into view with the focus (none: the
     *  find field has it). */
    views::AllInputsPanel *showAllInputs(const QString &path = {});
    /** The theme and contrast (saved in the settings); the views are rebuilt in the new look. */
    void setTheme(views::Theme theme, bool highContrast);
    views::Theme theme() const { return m_theme; }
    /** Help (F1): the user guide at `topic` (a view's snapshot name, "tour", "scenario"). */
    void showHelp(const QString &topic);
    views::HelpDialog *helpDialog() const { return m_help; }
    /** What F1 opens now: the tour, the scenario panel or the view in front. */
    QString helpTopic() const;
    /** The About box: version, preset data date, licences, data sources. */
    static QString aboutText();
    bool highContrast() const { return m_highContrast; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

protected:
    void showEvent(QShowEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    /** The window a leftover's work goes into (see offerRecovery). */
    MainWindow *windowForRecovery(const QString &origin);
    /** Recovered work on top of its own file, unsaved: one undo step back to the file. */
    void restoreRecovered(const views::AutosaveLeftover &leftover, const core::Scenario &scenario);
    void createActions();
    void buildTab(int index);
    void queueViews();
    /** Deletes the built views and builds the shown one again (after a change of look). */
    void rebuildViews();
    void applyAppearance();
    void followScreen(QScreen *screen);
    void showCallout(const QString &label, const QString &value);
    /** The tour closes: nothing stays hidden, the explanation panel comes back. */
    void endTour();
    void layOutPresenter();
    /** Presenter mode: the tour's dock as tall as the step's text needs (within limits). */
    void fitTourDock();
    void showAbout();
    /** The user's presets changed: the pickers list them again. */
    void presetsChanged();
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    bool maybeSave();
    void updateTitle();
    void updateStatus();
    /** The status bar of a training decision: the plan's device, run and layout. */
    void updateTrainingStatus();
    void updateRecentMenu();
    void addRecent(const QString &path);
    void exportCurrentView(const QString &suffix);
    views::View *currentView() const;
    void readSettings();
    /** The first window's size: 1280x800, or maximized on a screen too small for it. */
    void fitFirstWindow();
    void writeSettings();

    views::ScenarioDocument *m_document;
    views::Autosave *m_autosave = nullptr;
    QLabel *m_autosaveStatus = nullptr; ///< shown only while autosave fails
    QLabel *m_diskStatus = nullptr;     ///< shown only while the file changed on disk
    QFileSystemWatcher *m_diskWatcher = nullptr;
    QTimer *m_diskCheck = nullptr; ///< one check after a burst of file system events
    /** Watches the document's file and its folder (an atomic save replaces the file). */
    void watchFile();
    views::TourPanel *m_tour = nullptr;
    QDockWidget *m_tourDock = nullptr;
    QWidget *m_blank = nullptr;
    QLabel *m_callout = nullptr;
    QTimer m_calloutTimer;  ///< hides the Reveal card after a few seconds
    QString m_calloutPlain; ///< the callout's text without its markup
    views::ScenarioPanel *m_panel;
    views::ExplanationPanel *m_explanation;
    QTabWidget *m_tabs;
    QSplitter *m_mainSplitter;
    QScrollArea *m_panelScroll;
    QSplitter *m_centreSplitter;
    QList<views::View *> m_views;
    QHash<int, QList<const views::ViewEntry *>> m_pendingViews; ///< tabs not built yet
    views::RooflineView *m_roofline = nullptr;
    QComboBox *m_units;
    QLabel *m_fitStatus;
    QLabel *m_speedStatus;
    QLabel *m_boundStatus;
    QMenu *m_recentMenu = nullptr;
    QToolBar *m_toolBar = nullptr;
    views::HelpDialog *m_help = nullptr;
    QAction *m_presenterAction = nullptr;
    QAction *m_highContrastAction = nullptr;
    QActionGroup *m_themeGroup = nullptr;
    views::Theme m_theme = views::Theme::System;
    bool m_highContrast = false;
    bool m_presenter = false;
    bool m_screenFollowed = false;
    QByteArray m_normalCentreSplitter; ///< the explanation panel's size before presenter mode
    bool m_wasMaximized = false;
    QRect m_normalGeometry; ///< the window's place before presenter mode, to come back to
    int m_presenterScreenHeight = 0;
    bool m_explanationBeforeTour = false; ///< the tour hid the explanation panel
    QAction *m_scenarioPanelAction = nullptr;
    QAction *m_explanationAction = nullptr;
    QAction *m_allInputsAction = nullptr;
    QDockWidget *m_inputsDock = nullptr;
    views::AllInputsPanel *m_allInputs = nullptr;
    /** The height presenter mode is sized for now. */
    int presenterHeight() const;
};

#pragma once

// The main window: the scenario panel on the left, the views as tabs in the centre, the
// explanation panel below them and the three verdicts in the status bar. All of it reads one
// ScenarioDocument.

#include <QHash>
#include <QMainWindow>

class QComboBox;
class QLabel;
class QMenu;
class QSplitter;
class QDockWidget;
class QTabWidget;

namespace views {
struct ViewEntry;
class ExplanationPanel;
class RooflineView;
class Autosave;
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
    /** Imports a Hugging Face config.json as the model (one undo step). */
    bool importConfig(const QString &path, bool interactive = true);
    /** After a session that did not close cleanly: offers its autosaved work, saying when it was
     *  saved. `accept` answers for the user when not interactive. True when recovered. */
    bool offerRecovery(bool interactive = true, bool accept = true);
    views::Autosave *autosave() const { return m_autosave; }
    /** Opens the lesson tour at `step` (0-based): its scenario, its view, its number. */
    void startTour(int step);
    views::TourPanel *tourPanel() const { return m_tour; }
    /** Brings forward the tab holding a view (by --snapshot name), building it if needed. */
    void showView(const QString &snapshotName);
    /** B: blanks the screen (a presenter's pause), any key brings it back. */
    void setBlanked(bool blanked);
    bool blanked() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void buildTab(int index);
    void newScenario();
    void open();
    bool save();
    bool saveAs();
    bool maybeSave();
    void updateTitle();
    void updateStatus();
    void updateRecentMenu();
    void addRecent(const QString &path);
    void exportCurrentView(const QString &suffix);
    views::View *currentView() const;
    void readSettings();
    void writeSettings();

    views::ScenarioDocument *m_document;
    views::Autosave *m_autosave = nullptr;
    views::TourPanel *m_tour = nullptr;
    QDockWidget *m_tourDock = nullptr;
    QWidget *m_blank = nullptr;
    views::ScenarioPanel *m_panel;
    views::ExplanationPanel *m_explanation;
    QTabWidget *m_tabs;
    QSplitter *m_mainSplitter;
    QSplitter *m_centreSplitter;
    QList<views::View *> m_views;
    QHash<int, QList<const views::ViewEntry *>> m_pendingViews; ///< tabs not built yet
    views::RooflineView *m_roofline = nullptr;
    QComboBox *m_units;
    QLabel *m_fitStatus;
    QLabel *m_speedStatus;
    QLabel *m_boundStatus;
    QMenu *m_recentMenu = nullptr;
};

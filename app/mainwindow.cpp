// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "views/calibration/measurementsdialog.h"
#include "views/document/autosave.h"
#include "views/document/dialogfolder.h"
#include "views/document/scenariodocument.h"
#include "views/document/userpresets.h"
#include "views/export/handout.h"
#include "views/export/report.h"
#include "views/export/slide.h"
#include "views/io/dataexport.h"
#include "views/memory/memoryview.h"
#include "views/roofline/rooflineview.h"
#include "views/tour/tour.h"
#include "views/tour/tourpanel.h"
#include "views/viewregistry.h"
#include "views/widgets/allinputs.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/explanationpanel.h"
#include "views/widgets/helpdialog.h"
#include "views/widgets/scenariopanel.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"
#include "views/widgets/viewlist.h"
#include "views/wizard/selectionwizard.h"

#include "core/calibrate/calibration.h"
#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/physics/explain.h"
#include "core/train/trainingplan.h"

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QWindow>

#include <algorithm>

namespace {

constexpr int kMaxRecent = 8;

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_document(new views::ScenarioDocument(this))
    , m_units(new QComboBox(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    m_panel = new views::ScenarioPanel(m_document, this);
    connect(m_panel, &views::ScenarioPanel::moreInputsRequested, this,
            [this](const QString &filter) { showAllInputs()->setFilter(filter); });
    m_explanation = new views::ExplanationPanel(m_document, this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setElideMode(Qt::ElideNone);

    queueViews();
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::buildTab);

    auto *panelScroll = m_panelScroll = new QScrollArea(this);
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setMinimumWidth(m_panel->minimumSizeHint().width() + 24); // never clip an editor
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_centreSplitter = new QSplitter(Qt::Vertical, this);
    m_centreSplitter->setObjectName(QStringLiteral("centreSplitter"));
    m_centreSplitter->addWidget(m_tabs);
    m_centreSplitter->addWidget(m_explanation);
    m_centreSplitter->setStretchFactor(0, 5);
    m_centreSplitter->setStretchFactor(1, 1);
    m_mainSplitter = new QSplitter(Qt::Horizontal, this);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_mainSplitter->addWidget(panelScroll);
    m_mainSplitter->addWidget(m_centreSplitter);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setSizes({panelScroll->minimumWidth(), 1280 - panelScroll->minimumWidth()});
    setCentralWidget(m_mainSplitter);

    m_fitStatus = new QLabel(this);
    m_speedStatus = new QLabel(this);
    m_boundStatus = new QLabel(this);
    for (QLabel *label : {m_fitStatus, m_speedStatus, m_boundStatus}) {
        label->setObjectName(QStringLiteral("verdict"));
        label->setFrameStyle(QFrame::StyledPanel | QFrame::Sunken);
        label->setContentsMargins(6, 0, 6, 0);
        statusBar()->addWidget(label);
    }

    m_autosave =
        new views::Autosave(m_document,
                            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                                QStringLiteral("/autosave"),
                            this);
    // an autosave that cannot write is said where the user looks, and stays said until it can
    // a warning that stays in the status bar, shown only while it holds
    const auto warningLabel = [this](const QString &name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(views::style::warning().name()));
        label->hide();
        statusBar()->addPermanentWidget(label);
        return label;
    };
    m_autosaveStatus = warningLabel(QStringLiteral("autosaveStatus"));
    connect(m_autosave, &views::Autosave::failed, this, [this](const QString &error) {
        m_autosaveStatus->setText(tr("\u26a0 Autosave is not working"));
        m_autosaveStatus->setToolTip(
            tr("Unsaved work is not being autosaved: %1. Save the scenario to keep it.")
                .arg(error));
        m_autosaveStatus->setVisible(!error.isEmpty());
    });
    // another window or program writing this file is noticed, not overwritten in silence
    m_diskStatus = warningLabel(QStringLiteral("diskStatus"));
    m_diskWatcher = new QFileSystemWatcher(this);
    m_diskCheck = new QTimer(this);
    m_diskCheck->setSingleShot(true);
    m_diskCheck->setInterval(150); // a save is a burst of events: write, rename, folder change
    connect(m_diskCheck, &QTimer::timeout, this, &MainWindow::checkFileOnDisk);
    connect(m_diskWatcher, &QFileSystemWatcher::fileChanged, m_diskCheck,
            qOverload<>(&QTimer::start));
    connect(m_diskWatcher, &QFileSystemWatcher::directoryChanged, m_diskCheck,
            qOverload<>(&QTimer::start));
    m_tour = new views::TourPanel(m_document, this);
    m_tourDock = new QDockWidget(tr("Lesson Tour"), this);
    m_tourDock->setObjectName(QStringLiteral("tourDock"));
    m_tourDock->setWidget(m_tour);
    addDockWidget(Qt::BottomDockWidgetArea, m_tourDock);
    m_tourDock->hide();
    connect(m_tour, &views::TourPanel::showView, this, [this](const QString &name, int figure) {
        m_callout->hide();
        showView(name);
        QTimer::singleShot(0, this, &MainWindow::fitTourDock); // after the step's text is set
        // the lesson's training memory is 16 bytes a parameter: activations one toggle away
        if (auto *memory = qobject_cast<views::MemoryView *>(view(name)))
            memory->setActivationsShown(false);
        m_explanation->showFigure(core::FigureId(figure));
    });
    // Reveal: the number large over the view, for the back row; a click puts it away
    m_callout = new QLabel(this);
    m_callout->setObjectName(QStringLiteral("revealCallout"));
    m_callout->setAlignment(Qt::AlignCenter);
    m_callout->hide();
    m_callout->setToolTip(tr("Click to close"));
    m_callout->installEventFilter(this);
    // the card says the number, then gives the view back: it covered what it revealed (the
    // ridge's corner in step 8) until clicked (issue #42)
    m_calloutTimer.setSingleShot(true);
    m_calloutTimer.setInterval(6000);
    connect(&m_calloutTimer, &QTimer::timeout, m_callout, &QWidget::hide);
    connect(m_tour, &views::TourPanel::answerRevealed, this,
            [this](const QString &label, const QString &value) { showCallout(label, value); });
    m_blank = new QWidget(this);
    m_blank->setObjectName(QStringLiteral("blankScreen"));
    m_blank->setStyleSheet(QStringLiteral("background: black"));
    m_blank->setAutoFillBackground(true);
    m_blank->hide();
    qApp->installEventFilter(this); // presentation clickers: PageUp/PageDown, Left/Right, B
    createActions();
    connect(m_document, &views::ScenarioDocument::changed, this,
            [this](views::ScenarioDocument::Changes changes) {
                updateStatus();
                updateTitle();
                if (changes & views::ScenarioDocument::File)
                    watchFile();
            });
    connect(m_document, &views::ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
    updateStatus();
    updateTitle();
    readSettings();
    QString presetProblem;
    if (!views::loadUserPresets(&presetProblem)) // a bad library: the built-ins, and why
        statusBar()->showMessage(presetProblem, 15000);
    else if (!core::userPresets().devices.empty() || !core::userPresets().models.empty())
        m_panel->reloadPresets();
    buildTab(m_tabs->currentIndex());
}

void MainWindow::queueViews()
{
    // The Roofline tab: the roofline above, throughput against batch below, one slider.
    // One page per tab. A tab's views are built when it is first shown: a hidden tab costs
    // nothing at start-up (see docs/benchmarks.md).
    for (const views::ViewEntry &entry : views::viewRegistry()) {
        int index = -1;
        for (int i = 0; i < m_tabs->count(); ++i) {
            if (m_tabs->widget(i)->objectName() == entry.tab + QStringLiteral("Page"))
                index = i;
        }
        if (index < 0) {
            auto *page = new QSplitter(Qt::Vertical, m_tabs);
            page->setObjectName(entry.tab + QStringLiteral("Page"));
            page->setChildrenCollapsible(false);
            index = m_tabs->addTab(page, tr(entry.tab.toUtf8().constData()));
        }
        m_pendingViews[index].append(&entry);
    }
}

void MainWindow::rebuildViews()
{
    views::View *front = currentView();
    const QString shown = front ? front->snapshotName() : QString();
    for (int i = 0; i < m_tabs->count(); ++i) {
        QList<QWidget *> built; // the splitter deletes a view's handle with the view
        for (QWidget *child :
             m_tabs->widget(i)->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly)) {
            if (!qobject_cast<QSplitterHandle *>(child))
                built << child;
        }
        qDeleteAll(built);
    }
    m_views.clear();
    m_roofline = nullptr;
    m_pendingViews.clear();
    queueViews();
    if (!shown.isEmpty())
        showView(shown);
    buildTab(m_tabs->currentIndex());
}

void MainWindow::presetsChanged()
{
    m_panel->reloadPresets();
    if (!m_views.isEmpty())
        rebuildViews(); // the comparison pickers list presets too
}

void MainWindow::applyAppearance()
{
    views::applyAppearance(
        {m_theme, m_highContrast || m_presenter, m_presenter, m_presenter ? presenterHeight() : 0});
    // explicit, not by the font's change event: a second screen height under the high-contrast
    // style sheet reached the tour with the first one's size
    m_tour->followAppearance();
    if (!m_views.isEmpty())
        rebuildViews();
    // the scenario panel as wide as its editors at this font size: never clip one
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // sizes at the new font
    const int panelWidth = m_panel->minimumSizeHint().width() + 24;
    if (m_panelScroll->minimumWidth() != panelWidth) {
        m_panelScroll->setMinimumWidth(panelWidth);
        const int wanted = std::max(panelWidth, m_panel->sizeHint().width() + 24);
        m_mainSplitter->setSizes({wanted, std::max(width() - wanted, wanted)});
    }
    if (m_themeGroup) {
        for (QAction *action : m_themeGroup->actions())
            action->setChecked(action->data().toInt() == int(m_theme));
    }
    if (m_highContrastAction)
        m_highContrastAction->setChecked(m_highContrast);
    if (m_presenterAction)
        m_presenterAction->setChecked(m_presenter);
    updateStatus();
}

void MainWindow::setTheme(views::Theme theme, bool highContrast)
{
    if (theme == m_theme && highContrast == m_highContrast)
        return;
    m_theme = theme;
    m_highContrast = highContrast;
    QSettings settings;
    settings.setValue(QStringLiteral("display/theme"), views::themeName(theme));
    settings.setValue(QStringLiteral("display/highContrast"), highContrast);
    applyAppearance();
}

int MainWindow::presenterHeight() const
{
    if (m_presenterScreenHeight > 0)
        return m_presenterScreenHeight;
    return screen() ? screen()->geometry().height() : 1080;
}

void MainWindow::setPresenterScreenHeight(int height)
{
    if (height == m_presenterScreenHeight)
        return;
    m_presenterScreenHeight = height;
    if (m_presenter)
        applyAppearance();
}

void MainWindow::setSidePanelsShown(bool scenario, bool explanation)
{
    const bool opening = scenario && !m_panelScroll->isVisible();
    m_panelScroll->setVisible(scenario);
    if (opening) { // as wide as its editors at the font in use: never clip one
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        const int wanted =
            std::max(m_panel->minimumSizeHint().width(), m_panel->sizeHint().width()) + 24;
        m_panelScroll->setMinimumWidth(m_panel->minimumSizeHint().width() + 24);
        m_mainSplitter->setSizes({wanted, std::max(width() - wanted, wanted)});
    }
    m_explanation->setVisible(explanation);
    if (m_scenarioPanelAction)
        m_scenarioPanelAction->setChecked(scenario);
    if (m_explanationAction)
        m_explanationAction->setChecked(explanation);
}

void MainWindow::setPresenterMode(bool on)
{
    if (on == m_presenter) {
        if (m_presenterAction)
            m_presenterAction->setChecked(on);
        return;
    }
    m_presenter = on;
    // On the projector the view under discussion has the screen: menu, toolbar, status bar and
    // the two side panels go (F6 and F7 bring the panels back), issue #23.
    for (QWidget *chrome : std::initializer_list<QWidget *>{menuBar(), statusBar(), m_toolBar})
        if (chrome)
            chrome->setVisible(!on);
    setSidePanelsShown(!on, !on);
    // the tour's own title bar is a line the projector does not need ("Lesson Tour")
    if (on && !m_tourDock->titleBarWidget())
        m_tourDock->setTitleBarWidget(new QWidget(m_tourDock));
    else if (QWidget *bar = m_tourDock->titleBarWidget(); !on && bar) {
        m_tourDock->setTitleBarWidget(nullptr); // the dock's own title bar again
        delete bar;
    }
    if (on) {
        m_wasMaximized = isMaximized();
        m_normalGeometry = geometry();
        m_normalCentreSplitter = m_centreSplitter->saveState();
        showFullScreen();
    } else {
        if (m_wasMaximized) {
            showMaximized();
        } else {
            showNormal();
            // back where it was, once presenter mode's larger type has gone from the layouts:
            // it came back wider (1,499 px for 1,280) and past the screen's right edge
            QTimer::singleShot(0, this, [this] {
                if (m_presenter || isMaximized() || !m_normalGeometry.isValid())
                    return;
                QRect place = m_normalGeometry;
                if (screen()) {
                    const QRect room = screen()->availableGeometry();
                    place.setSize(place.size().boundedTo(room.size()));
                    place.moveLeft(
                        std::clamp(place.left(), room.left(), room.right() - place.width() + 1));
                    place.moveTop(
                        std::clamp(place.top(), room.top(), room.bottom() - place.height() + 1));
                }
                setGeometry(place);
            });
        }
    }
    for (views::ViewList *list : findChildren<views::ViewList *>())
        list->setCompact(on); // the view has the screen's width, its names one line above
    applyAppearance();
    // the explanation panel large enough to read from the back of the room: a third of the
    // centre, and a third of any room the full screen adds
    m_centreSplitter->setStretchFactor(0, on ? 2 : 5);
    m_centreSplitter->setStretchFactor(1, 1);
    if (on) {
        layOutPresenter();
    } else if (!m_normalCentreSplitter.isEmpty()) {
        m_centreSplitter->restoreState(m_normalCentreSplitter);
    }
    if (QScreen *where = screen())
        QSettings().setValue(QStringLiteral("presenter/screens/") + where->name(), on);
}

void MainWindow::followScreen(QScreen *screen)
{
    if (!screen)
        return;
    const bool remembered =
        QSettings().value(QStringLiteral("presenter/screens/") + screen->name(), false).toBool();
    if (remembered != m_presenter)
        setPresenterMode(remembered);
    else if (m_presenter)
        applyAppearance(); // sized for the new screen's height
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // a message shown before the window was (a file opened from the command line) hid the
    // verdict labels only until the window showed them again, drawn over the message: hide
    // them again for as long as it shows
    if (const QString message = statusBar()->currentMessage(); !message.isEmpty()) {
        statusBar()->clearMessage(); // the same message again would be no change to it
        statusBar()->showMessage(message, 10000);
    }
    if (m_screenFollowed || !windowHandle())
        return;
    m_screenFollowed = true;
    // moved to the projector: presenter mode as it was last time on that screen
    connect(windowHandle(), &QWindow::screenChanged, this, &MainWindow::followScreen);
    // --presenter (or F5 before the first show) wins over the screen's memory: it used to be
    // switched off again here whenever this screen remembered "off" (issue #23)
    if (m_presenter && screen()) {
        QSettings().setValue(QStringLiteral("presenter/screens/") + screen()->name(), true);
        // a full-screen state set before the window was mapped is dropped by some window
        // managers (openbox): ask again once it is on the screen
        QTimer::singleShot(0, this, [this] {
            if (m_presenter && !isFullScreen())
                showFullScreen();
        });
    } else {
        followScreen(screen());
    }
}

void MainWindow::buildTab(int index)
{
    const QList<const views::ViewEntry *> entries = m_pendingViews.take(index);
    if (entries.isEmpty())
        return;
    auto *page = qobject_cast<QSplitter *>(m_tabs->widget(index));
    QList<views::View *> created;
    int tallest = 0;
    for (const views::ViewEntry *entry : entries) {
        views::View *view = entry->create(m_document, page);
        created << view;
        tallest += view->minimumSizeHint().height();
        m_views << view;
        connect(view, &views::View::explainRequested, m_explanation,
                &views::ExplanationPanel::showFigure);
        connect(view, &views::View::inputRequested, this,
                [this](const QString &path) { showAllInputs(path); });
        if (auto *roofline = qobject_cast<views::RooflineView *>(view))
            m_roofline = roofline;
    }
    // Views that would not fit a 1280x800 window stacked become tabs of their own in the page;
    // in presenter mode every view has the page to itself, large enough for the back row.
    if (created.size() > 4) {
        // more views than tab names fit: a list of every name beside the one on show
        auto *list = new views::ViewList(page);
        list->setObjectName(page->objectName() + QStringLiteral("Views"));
        for (views::View *view : std::as_const(created))
            list->addView(view, views::listLabel(view->snapshotName(), view->title()),
                          view->title());
        list->setCompact(m_presenter);
        page->addWidget(list);
    } else if (created.size() > 3 || tallest > 440 || (m_presenter && created.size() > 1)) {
        auto *inner = new QTabWidget(page);
        inner->setObjectName(page->objectName() + QStringLiteral("Views"));
        inner->setDocumentMode(true);
        // whole names and scroll arrows, never "The fam..." (issue #23)
        inner->setElideMode(Qt::ElideNone);
        inner->setUsesScrollButtons(true);
        for (views::View *view : std::as_const(created))
            inner->addTab(view, view->title());
        page->addWidget(inner);
    } else {
        for (views::View *view : std::as_const(created))
            page->addWidget(view);
    }
    if (page->objectName() == QStringLiteral("RooflinePage"))
        page->setSizes({560, 300});
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), this, &MainWindow::newScenario);
    newAction->setShortcut(QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open..."), this, &MainWindow::open);
    openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction *saveAction = file->addAction(tr("&Save"), this, [this] { saveToOwnFile(); });
    saveAction->setShortcut(QKeySequence::Save);
    QAction *saveAsAction = file->addAction(tr("Save &As..."), this, &MainWindow::saveAs);
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    file->addAction(tr("&Import Hugging Face config.json as Model..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import config.json"), views::suggestedPath(m_document),
            tr("Model configs (*.json);;All files (*)"));
        views::rememberDialogFolder(path);
        if (!path.isEmpty())
            importConfig(path);
    });
    file->addAction(tr("Import Model &Folder (config.json and safetensors)..."), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Import Model Folder"),
                                                                 views::suggestedPath(m_document));
        if (folder.isEmpty())
            return;
        views::rememberDialogFolder(folder + QStringLiteral("/config.json"));
        importConfig(folder);
    });
    file->addAction(tr("Import &Measurements..."), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Import Measurements"), views::suggestedPath(m_document),
            tr("Measurements (*.csv *.json *.jsonl);;All files (*)"));
        if (!paths.isEmpty())
            views::rememberDialogFolder(paths.first());
        if (!paths.isEmpty())
            importMeasurements(paths);
    });
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export View"));
    for (const QString &suffix :
         {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")})
        exportMenu->addAction(suffix.toUpper() + QStringLiteral("..."), this,
                              [this, suffix] { exportCurrentView(suffix); });
    file->addAction(tr("Export &Slide..."), this, [this] {
        views::View *view = currentView();
        if (!view)
            return;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Slide"),
            views::suggestedPath(m_document, view->snapshotName() + QStringLiteral("-slide.png")),
            tr("PNG (*.png);;PDF (*.pdf);;SVG (*.svg)"));
        views::rememberDialogFolder(path);
        QString error;
        if (!path.isEmpty() && !views::writeSlide(m_document->scenario(), m_document->units(),
                                                  view->snapshotName(), path, &error))
            QMessageBox::warning(this, tr("Export Slide"), error);
    });
    QMenu *dataMenu = file->addMenu(tr("Export &Data"));
    const std::pair<core::SweepKind, QString> sweeps[] = {
        {core::SweepKind::Batch, tr("&Batch Sweep...")},
        {core::SweepKind::Context, tr("&Context Sweep...")},
        {core::SweepKind::Concurrency, tr("C&oncurrency Sweep...")},
        {core::SweepKind::Utilisation, tr("&Utilisation Sweep...")}};
    for (const auto &sweep : sweeps) {
        const core::SweepKind kind = sweep.first;
        dataMenu->addAction(sweep.second, this, [this, kind] {
            const QString name = QString::fromLatin1(core::sweepName(kind).data(),
                                                     qsizetype(core::sweepName(kind).size()));
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export %1 Sweep").arg(name),
                views::suggestedPath(m_document, name + QStringLiteral("-sweep.csv")),
                tr("CSV (*.csv);;JSON (*.json)"));
            views::rememberDialogFolder(path);
            QString error;
            if (!path.isEmpty() && !views::writeSweep(m_document->scenario(), kind, path, &error))
                QMessageBox::warning(this, tr("Export Data"), error);
        });
    }
    dataMenu->addAction(tr("Device &Checks..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Device Checks"),
            views::suggestedPath(m_document, QStringLiteral("device-checks.csv")),
            tr("CSV (*.csv);;JSON (*.json)"));
        views::rememberDialogFolder(path);
        QString error;
        if (!path.isEmpty() && !views::writeChecks(m_document->scenario(), path, &error))
            QMessageBox::warning(this, tr("Export Data"), error);
    });
    file->addAction(tr("Export &Report..."), this, [this] {
        // named after the scenario's file: "llama-70b-fleet-report.pdf"
        const QString stem = m_document->filePath().isEmpty()
                                 ? QStringLiteral("scenario")
                                 : QFileInfo(m_document->filePath()).completeBaseName();
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Report"),
            views::suggestedPath(m_document, stem + QStringLiteral("-report.pdf")),
            tr("PDF report (*.pdf);;Single-file HTML report (*.html)"));
        views::rememberDialogFolder(path);
        if (path.isEmpty())
            return;
        QString error;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        const bool ok =
            views::writeReport(m_document->scenario(), m_document->units(), path, &error);
        QApplication::restoreOverrideCursor();
        if (!ok)
            QMessageBox::warning(this, tr("Export Report"), error);
        else
            statusBar()->showMessage(tr("Report written to %1").arg(path), 5000);
    });
    // the student's copy leaves the predictions and answers blank; the teacher's fills them in
    for (const bool answers : {false, true}) {
        const QString title =
            answers ? tr("Export Lesson Handout, Teacher's Copy") : tr("Export Lesson Handout");
        file->addAction(
            answers ? tr("Export Lesson Handout (&Teacher's Copy)...")
                    : tr("Export Lesson &Handout..."),
            this, [this, answers, title] {
                const QString path = QFileDialog::getSaveFileName(
                    this, title,
                    views::suggestedPath(m_document, answers ? tr("lesson-handout-teacher.pdf")
                                                             : tr("lesson-handout.pdf")),
                    tr("PDF (*.pdf)"));
                views::rememberDialogFolder(path);
                if (path.isEmpty())
                    return;
                QString error;
                QApplication::setOverrideCursor(Qt::WaitCursor);
                const bool ok = views::writeTourHandout(path, answers, &error);
                QApplication::restoreOverrideCursor();
                if (!ok)
                    QMessageBox::warning(this, title, error);
            });
    }
    file->addAction(tr("Copy View Image"), this, [this] {
        if (views::View *view = currentView())
            view->copyImage();
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction *tab =
            view->addAction(m_tabs->tabText(i), this, [this, i] { m_tabs->setCurrentIndex(i); });
        tab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }

    QAction *tour = view->addAction(tr("Lesson &Tour"), this, [this] {
        if (m_tourDock->isVisible()) {
            m_tourDock->hide();
            endTour();
        } else
            startTour(m_tour->step());
    });
    tour->setShortcut(QKeySequence(Qt::Key_F2));
    m_scenarioPanelAction = view->addAction(tr("&Scenario Panel"), this, [this](bool on) {
        setSidePanelsShown(on, m_explanation->isVisible());
    });
    m_scenarioPanelAction->setCheckable(true);
    m_scenarioPanelAction->setChecked(true);
    m_scenarioPanelAction->setShortcut(QKeySequence(Qt::Key_F6));
    m_explanationAction = view->addAction(tr("&Explanation Panel"), this, [this](bool on) {
        setSidePanelsShown(m_panelScroll->isVisible(), on);
    });
    m_explanationAction->setCheckable(true);
    m_explanationAction->setChecked(true);
    m_explanationAction->setShortcut(QKeySequence(Qt::Key_F7));
    m_allInputsAction = view->addAction(tr("All &Inputs"), this, [this](bool on) {
        if (on)
            showAllInputs();
        else if (m_inputsDock)
            m_inputsDock->hide();
    });
    m_allInputsAction->setCheckable(true);
    m_allInputsAction->setShortcut(QKeySequence(Qt::Key_F8));
    m_allInputsAction->setToolTip(
        tr("Every number the scenario holds, one editor each: load, engine, sensitivity too"));
    view->addSeparator();
    m_presenterAction =
        view->addAction(tr("&Presenter Mode"), this, [this](bool on) { setPresenterMode(on); });
    m_presenterAction->setCheckable(true);
    m_presenterAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_presenterAction->setToolTip(
        tr("Full screen, large fonts and lines, high contrast, the view under discussion alone"));
    QMenu *themes = view->addMenu(tr("T&heme"));
    m_themeGroup = new QActionGroup(this);
    const std::pair<views::Theme, QString> themeChoices[] = {{views::Theme::System, tr("&System")},
                                                             {views::Theme::Light, tr("&Light")},
                                                             {views::Theme::Dark, tr("&Dark")}};
    for (const auto &themeChoice : themeChoices) {
        const views::Theme choice = themeChoice.first;
        QAction *action = themes->addAction(themeChoice.second);
        action->setCheckable(true);
        action->setData(int(choice));
        m_themeGroup->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, choice] { setTheme(choice, m_highContrast); });
    }
    themes->addSeparator();
    m_highContrastAction =
        themes->addAction(tr("&High Contrast"), this, [this](bool on) { setTheme(m_theme, on); });
    m_highContrastAction->setCheckable(true);

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *wizard = tools->addAction(tr("Device-Selection &Wizard..."), this, [this] {
        auto *dialog = new views::SelectionWizard(m_document, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    wizard->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    tools->addAction(tr("My &Presets..."), this, [this] {
        auto *dialog = new views::UserPresetsDialog(m_document->scenario(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &views::UserPresetsDialog::presetsChanged, this,
                &MainWindow::presetsChanged);
        dialog->open();
    });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("User &Guide"), this, [this] { showHelp(helpTopic()); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Accelerator Explorer"), this, &MainWindow::showAbout);

    // Presenter mode hides the menu bar: the window itself keeps every shortcut working.
    const QList<QMenu *> menus = menuBar()->findChildren<QMenu *>();
    for (QMenu *menu : menus) {
        for (QAction *action : menu->actions()) {
            if (!action->shortcut().isEmpty())
                addAction(action);
        }
    }

    QToolBar *bar = m_toolBar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    // On the toolbar (a projector shows it) Undo and Redo keep short names; what they would
    // undo ("Undo Tour: The roofline") is their tooltip (issue #23).
    QUndoStack *stack = m_document->undoStack();
    for (const bool isUndo : {true, false}) {
        QAction *button = bar->addAction(isUndo ? tr("Undo") : tr("Redo"));
        button->setObjectName(isUndo ? QStringLiteral("toolbarUndo")
                                     : QStringLiteral("toolbarRedo"));
        button->setEnabled(isUndo ? stack->canUndo() : stack->canRedo());
        connect(button, &QAction::triggered, stack, isUndo ? &QUndoStack::undo : &QUndoStack::redo);
        connect(stack, isUndo ? &QUndoStack::canUndoChanged : &QUndoStack::canRedoChanged, button,
                &QAction::setEnabled);
        connect(stack, isUndo ? &QUndoStack::undoTextChanged : &QUndoStack::redoTextChanged, button,
                [button, isUndo](const QString &text) {
                    button->setToolTip(text.isEmpty()
                                           ? QString()
                                           : (isUndo ? tr("Undo %1") : tr("Redo %1")).arg(text));
                });
    }
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Memory units "), this));
    m_units->addItem(tr("GB"), int(core::MemoryUnits::GB));
    m_units->addItem(tr("GiB"), int(core::MemoryUnits::GiB));
    m_units->addItem(tr("both"), int(core::MemoryUnits::Both));
    m_units->setToolTip(
        tr("Show memory in decimal GB (1e9 bytes), binary GiB (2^30 bytes) or both. "
           "Display only: nothing is recomputed."));
    bar->addWidget(m_units);
    connect(m_units, &QComboBox::activated, this, [this](int index) {
        m_document->setUnits(core::MemoryUnits(m_units->itemData(index).toInt()));
    });

    // +/- move the batch slider from anywhere (Up/Down work on the focused slider).
    const std::pair<Qt::Key, int> batchKeys[] = {
        {Qt::Key_Plus, 1}, {Qt::Key_Equal, 1}, {Qt::Key_Minus, -1}};
    for (const auto &entry : batchKeys) {
        auto *shortcut = new QShortcut(QKeySequence(entry.first), this);
        const int direction = entry.second;
        connect(shortcut, &QShortcut::activated, this, [this, direction] {
            if (auto *roofline =
                    qobject_cast<views::RooflineView *>(this->view(QStringLiteral("roofline"))))
                roofline->batchControl()->step(direction);
        });
    }
}

views::View *MainWindow::view(const QString &snapshotName)
{
    // build the view's tab if it has not been shown yet
    int pendingTab = -1;
    for (auto it = m_pendingViews.cbegin(); it != m_pendingViews.cend() && pendingTab < 0; ++it) {
        for (const views::ViewEntry *entry : it.value()) {
            if (entry->name == snapshotName)
                pendingTab = it.key();
        }
    }
    if (pendingTab >= 0)
        buildTab(pendingTab);
    for (views::View *view : m_views) {
        if (view->snapshotName() == snapshotName)
            return view;
    }
    return nullptr;
}

void MainWindow::startTour(int step)
{
    // the tour's text explains the step: the explanation panel makes room for the view (at
    // 1280x800 the throughput chart was a 40-px strip with both open, issue #23); F7 brings it
    // back, and closing the tour restores it
    if (!m_tourDock->isVisible() && !m_presenter && m_explanation->isVisible()) {
        m_explanationBeforeTour = true;
        setSidePanelsShown(m_panelScroll->isVisible(), false);
    }
    const bool opening = !m_tourDock->isVisible();
    m_tourDock->show();
    if (opening && !m_presenter) // the step's text and buttons, no more: the view keeps the room
        resizeDocks({m_tourDock}, {std::max(150, height() * 19 / 100)}, Qt::Vertical);
    m_tour->goTo(step);
    // the keys go to the view under discussion, not to a field (issue #23)
    m_tabs->setFocus(Qt::OtherFocusReason);
    if (m_presenter)
        layOutPresenter();
}

void MainWindow::endTour()
{
    m_tour->stop(); // nothing stays hidden once the tour is closed
    m_callout->hide();
    if (m_explanationBeforeTour && !m_presenter)
        setSidePanelsShown(m_panelScroll->isVisible(), true);
    m_explanationBeforeTour = false;
}

void MainWindow::layOutPresenter()
{
    // once the full-screen geometry has arrived: a third of the centre for the explanation
    // panel; with the tour open, its panel explains and the views keep the room
    QTimer::singleShot(0, this, [this] {
        if (!m_presenter)
            return;
        const bool touring = m_tourDock->isVisible();
        const int height = std::max(m_centreSplitter->height(), 600);
        const int share = touring ? 20 : 36;
        m_centreSplitter->setSizes({height * (100 - share) / 100, height * share / 100});
        if (touring)
            fitTourDock();
    });
}

void MainWindow::fitTourDock()
{
    if (!m_presenter || !m_tourDock->isVisible())
        return;
    // the step's whole text and question, never under a scroll bar (step 21's question was cut
    // at 1366x768, issue #42) and no more: at least an eighth of the screen, at most two
    // fifths; the view keeps the rest (a fifth left a blank band under a short step's text
    // while the family's notes scrolled at 1920x1080)
    const int wanted = m_tour->heightFor(m_tourDock->width());
    const int height = std::clamp(wanted, this->height() * 12 / 100, this->height() * 40 / 100);
    resizeDocks({m_tourDock}, {height}, Qt::Vertical);
}

void MainWindow::setBlanked(bool blanked)
{
    if (blanked) {
        m_blank->setGeometry(rect());
        m_blank->raise();
    }
    m_blank->setVisible(blanked);
}

bool MainWindow::blanked() const
{
    return m_blank->isVisible();
}

void MainWindow::showCallout(const QString &label, const QString &value)
{
    // the value as large as the back row needs, its name above it at half that
    const QRect area(m_tabs->mapTo(this, QPoint(0, 0)), m_tabs->size());
    int valuePixels = std::max(32, height() / 12);
    QFont probe = m_callout->font();
    probe.setBold(true);
    probe.setPixelSize(valuePixels);
    const int valueWidth = QFontMetrics(probe).horizontalAdvance(value);
    if (valueWidth > area.width() * 8 / 10) // never clipped: smaller on a narrow view
        valuePixels = std::max(12, valuePixels * area.width() * 8 / 10 / valueWidth);
    m_calloutPlain = tr("%1\n%2").arg(label, value);
    m_callout->setTextFormat(Qt::RichText);
    m_callout->setText(QStringLiteral("<div style=\"font-size:%1px\">%2</div>"
                                      "<div style=\"font-size:%3px; font-weight:bold\">%4</div>")
                           .arg(valuePixels / 2)
                           .arg(label.toHtmlEscaped())
                           .arg(valuePixels)
                           .arg(value.toHtmlEscaped()));
    const QColor accent = views::style::kBlue;
    m_callout->setStyleSheet(
        QStringLiteral("QLabel#revealCallout { background: %1; color: %2; border: 3px solid %3; "
                       "border-radius: 12px; padding: 16px 32px; }")
            .arg(palette().color(QPalette::Base).name(), palette().color(QPalette::Text).name(),
                 accent.name()));
    // over the view under discussion, in its upper middle
    m_callout->adjustSize();
    m_callout->move(area.center().x() - m_callout->width() / 2, area.top() + area.height() / 6);
    m_callout->raise();
    m_callout->show();
    m_calloutTimer.start();
}

bool MainWindow::calloutShown() const
{
    return m_callout->isVisible();
}

QString MainWindow::calloutText() const
{
    return m_callout->isVisible() ? m_calloutPlain : QString();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_callout && event->type() == QEvent::MouseButtonPress) {
        m_callout->hide();
        return true;
    }
    if (watched == m_tourDock && event->type() == QEvent::Close)
        endTour(); // closed with its own button
    // only this window's keys (not a dialog's); offscreen tests are never "active"
    const bool ours = isActiveWindow() || testAttribute(Qt::WA_DontShowOnScreen);
    if (event->type() != QEvent::KeyPress || !ours)
        return QMainWindow::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    if (m_blank->isVisible()) { // any key ends the pause
        setBlanked(false);
        return true;
    }
    // keys a text field or slider needs stay with it
    QWidget *focus = QApplication::focusWidget();
    const bool editing = qobject_cast<QLineEdit *>(focus) ||
                         qobject_cast<QAbstractSpinBox *>(focus) ||
                         qobject_cast<QTextEdit *>(focus) ||
                         qobject_cast<QAbstractSlider *>(focus) || qobject_cast<QComboBox *>(focus);
    const bool touring = m_tourDock->isVisible();
    // While the tour is open R and B are the class's keys whatever has the focus (a picker's
    // filter, the tour's number box, a slider: "Lesson 7B (illustrative)r" is what a class
    // saw, issue #23); only a free-text field outside the pickers keeps its letters.
    auto *line = qobject_cast<QLineEdit *>(focus);
    const bool freeText =
        (line && !qobject_cast<QComboBox *>(line->parentWidget()) && !m_tour->isAncestorOf(line)) ||
        qobject_cast<QTextEdit *>(focus);
    const bool tourKey = touring && !freeText && key->modifiers() == Qt::NoModifier;
    switch (key->key()) {
    case Qt::Key_R:
        if (tourKey) {
            m_tour->reveal();
            return true;
        }
        break;
    case Qt::Key_PageDown:
        if (touring) {
            m_tour->next();
            return true;
        }
        break;
    case Qt::Key_PageUp:
        if (touring) {
            m_tour->previous();
            return true;
        }
        break;
    case Qt::Key_Right:
        if (touring && !editing) {
            m_tour->next();
            return true;
        }
        break;
    case Qt::Key_Left:
        if (touring && !editing) {
            m_tour->previous();
            return true;
        }
        break;
    case Qt::Key_Escape:
        if (m_presenter && !QApplication::activePopupWidget()) {
            setPresenterMode(false);
            return true;
        }
        break;
    case Qt::Key_Up:
    case Qt::Key_Down:
        // the batch, as the +/- keys: a clicker's or keyboard's arrows in front of a class
        if (!editing && !qobject_cast<QAbstractItemView *>(focus) &&
            key->modifiers() == Qt::NoModifier) {
            if (auto *roofline =
                    qobject_cast<views::RooflineView *>(view(QStringLiteral("roofline")))) {
                roofline->batchControl()->step(key->key() == Qt::Key_Up ? 1 : -1);
                return true;
            }
        }
        break;
    case Qt::Key_B:
        if ((!editing || tourKey) && key->modifiers() == Qt::NoModifier) {
            setBlanked(true);
            return true;
        }
        break;
    default:
        break;
    }
    return QMainWindow::eventFilter(watched, event);
}

QString MainWindow::helpTopic() const
{
    if (m_tourDock->isVisible() && m_tour->isAncestorOf(QApplication::focusWidget()))
        return QStringLiteral("tour");
    if (m_panel->isAncestorOf(QApplication::focusWidget()))
        return QStringLiteral("scenario");
    const views::View *view = currentView();
    return view ? view->snapshotName() : QStringLiteral("start");
}

void MainWindow::showHelp(const QString &topic)
{
    if (!m_help) {
        m_help = new views::HelpDialog(this);
        m_help->setModal(false);
    }
    m_help->showTopic(topic);
    m_help->show();
    m_help->raise();
    m_help->activateWindow();
}

QString MainWindow::aboutText()
{
    return tr("<h3>Accelerator Explorer %1</h3>"
              "<p>A visual explorer of how AI accelerators work and what decides whether one is "
              "the right choice, following the lesson <i>AI accelerators</i>.</p>"
              "<p><b>Data.</b> Preset data as of %2. Every device, model and link value names "
              "its source (vendor datasheets, model cards and the lesson), says whether a peak "
              "is dense or sparse and whether memory is in GB or GiB; hover a number to see it. "
              "The lesson's accelerators are hypothetical and marked so. The preset files are "
              "installed in <tt>share/accel-explorer/presets</tt>.</p>"
              "<p><b>Licences.</b> Accelerator Explorer is free software under the GNU General "
              "Public License, version 3 or later (the LICENSE file). Built with Qt %3 (LGPL v3; "
              "Qt Charts is GPL v3), Eigen (MPL 2.0) and nlohmann/json (MIT).</p>"
              "<p>The numbers are the lesson's toy model: use them to rank options, then "
              "measure.</p>")
        .arg(QApplication::applicationVersion(),
             QString::fromStdString(std::string(core::presetDataDate())),
             QString::fromLatin1(qVersion()));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Accelerator Explorer"), aboutText());
}

void MainWindow::showView(const QString &snapshotName)
{
    views::View *target = view(snapshotName);
    if (!target)
        return;
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->isAncestorOf(target))
            m_tabs->setCurrentIndex(i);
    }
    // a view on an inner tab or in a page's list: bring it forward too
    for (QWidget *w = target->parentWidget(); w; w = w->parentWidget()) {
        if (auto *stack = qobject_cast<QStackedWidget *>(w)) {
            if (auto *inner = qobject_cast<QTabWidget *>(stack->parentWidget());
                inner && inner != m_tabs)
                inner->setCurrentWidget(target);
            if (auto *list = qobject_cast<views::ViewList *>(stack->parentWidget()))
                list->setCurrentView(target);
            break;
        }
    }
}

views::View *MainWindow::currentView() const
{
    QWidget *page = m_tabs->currentWidget();
    for (views::View *view : m_views) {
        if (page && page->isAncestorOf(view) && view->hasFocus())
            return view;
    }
    // on a tab of inner tabs the one on show, not the first (F5 switched the Inside tab back to
    // its first view, issue #23)
    for (views::View *view : m_views) {
        if (page && page->isAncestorOf(view) && view->isVisible())
            return view;
    }
    for (views::View *view : m_views) {
        if (page && page->isAncestorOf(view))
            return view;
    }
    return nullptr;
}

void MainWindow::updateTrainingStatus()
{
    const core::TrainingPlan &plan = m_document->trainingPlan();
    const core::MemoryUnits units = m_document->units();
    const bool concealed = m_document->isConcealed(core::FigureId::TrainingStateBytesPerDevice) ||
                           m_document->isConcealed(core::FigureId::TrainingStateBytes);
    const QString warning =
        QStringLiteral("color: %1; font-weight: bold").arg(views::style::warning().name());
    if (!plan.problem.empty()) {
        m_fitStatus->setText(tr("Training plan: no layout runs"));
        m_fitStatus->setToolTip(fromStd(plan.problem));
        m_fitStatus->setStyleSheet(warning);
        m_speedStatus->setText(QString());
        m_boundStatus->setText(QString());
        return;
    }
    m_fitStatus->setToolTip(QString());
    const QString used = concealed ? tr("?") : fromStd(core::formatBytes(plan.memory.total, units));
    const QString capacity = fromStd(core::formatBytes(plan.memory.capacity, units));
    if (plan.memory.fits || concealed) {
        m_fitStatus->setText(tr("Fits: %1 of %2 per device").arg(used, capacity));
        views::style::setStyleSheetIfChanged(m_fitStatus, QString());
    } else {
        m_fitStatus->setText(tr("Does not fit: %1 per device, %2 available").arg(used, capacity));
        m_fitStatus->setStyleSheet(warning);
    }
    m_speedStatus->setText(
        tr("%1 devices, %2, %3, MFU %4 %")
            .arg(fromStd(core::formatCount(plan.devices)),
                 fromStd(core::formatDuration(plan.wallSeconds)),
                 std::isfinite(plan.usd) ? fromStd(core::formatUsd(plan.usd)) : tr("no price"),
                 fromStd(core::formatNumber(plan.mfu * 100, 3))));
    const bool missed = !plan.meetsDeadline || !plan.withinBudget;
    m_speedStatus->setStyleSheet(
        missed ? QStringLiteral("color: %1").arg(views::style::warning().name()) : QString());
    if (!plan.meetsDeadline)
        m_speedStatus->setText(m_speedStatus->text() + tr(" (misses the deadline)"));
    else if (!plan.withinBudget)
        m_speedStatus->setText(m_speedStatus->text() + tr(" (over the budget)"));
    m_speedStatus->setToolTip(fromStd(core::estimateLabel(m_document->scenario())));
    m_boundStatus->setText(fromStd(core::describeShape(plan.layout)));
}

QStringList MainWindow::verdicts() const
{
    return {m_fitStatus->text(), m_speedStatus->text(), m_boundStatus->text()};
}

void MainWindow::updateStatus()
{
    const core::Evaluation &e = m_document->evaluation();
    const core::MemoryUnits units = m_document->units();
    using core::FigureId;
    // a training decision's answer is its run, not a serving batch: one device of the plan's
    // layout, the run's length and cost, the layout (the Training tab's numbers)
    if (core::asksForTrainingPlan(m_document->scenario())) {
        updateTrainingStatus();
        m_units->setCurrentIndex(m_units->findData(int(units)));
        return;
    }
    m_fitStatus->setToolTip(QString());
    const QString used = fromStd(core::formatFigure(e, FigureId::ServingBytesTotal, units));
    const QString capacity = fromStd(core::formatFigure(e, FigureId::CapacityBytes, units));
    if (e.fits()) {
        m_fitStatus->setText(
            tr("Fits: %1 of %2 (%3 headroom)")
                .arg(used, capacity,
                     fromStd(core::formatFigure(e, FigureId::HeadroomBytes, units))));
        views::style::setStyleSheetIfChanged(m_fitStatus, QString());
    } else {
        m_fitStatus->setText(
            tr("Does not fit: %1 needed, %2 available (short by %3)")
                .arg(used, capacity,
                     fromStd(core::formatBytes(-e[FigureId::HeadroomBytes], units))));
        m_fitStatus->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(views::style::warning().name()));
    }
    m_speedStatus->setText(
        tr("%1 tokens/s total, %2 per sequence")
            .arg(m_document->unlessConcealed(
                     FigureId::DecodeTokensPerSecond,
                     fromStd(core::formatNumber(e[FigureId::DecodeTokensPerSecond], 3))),
                 m_document->unlessConcealed(
                     FigureId::DecodeTokensPerSecondPerSequence,
                     fromStd(
                         core::formatNumber(e[FigureId::DecodeTokensPerSecondPerSequence], 3)))));
    // the pacing warning would say which side of the target the hidden number lies
    const bool belowPacing = !m_document->isConcealed(FigureId::DecodeTokensPerSecondPerSequence) &&
                             e[FigureId::DecodeTokensPerSecondPerSequence] <
                                 m_document->scenario().serving.pacingTargetTokensPerSecond;
    m_speedStatus->setStyleSheet(
        belowPacing ? QStringLiteral("color: %1").arg(views::style::warning().name()) : QString());
    if (belowPacing)
        m_speedStatus->setText(m_speedStatus->text() + tr(" (below the pacing target)"));
    // which estimate the speeds are, on every tab (issue #24)
    if (e.estimateMode != core::EstimateMode::SpeedOfLight)
        m_speedStatus->setText(
            m_speedStatus->text() +
            (e.estimateMode == core::EstimateMode::Typical ? tr(", typical") : tr(", calibrated")));
    else if (m_document->scenario().calibration.active())
        m_speedStatus->setText(m_speedStatus->text() + tr(", speed of light (no profile entry)"));
    m_speedStatus->setToolTip(fromStd(core::estimateLabel(m_document->scenario())));
    m_boundStatus->setText(e.decodeBound == core::Bound::Compute ? tr("compute-bound")
                                                                 : tr("memory-bound"));
    m_units->setCurrentIndex(m_units->findData(int(units)));
}

void MainWindow::updateTitle()
{
    const QString file = m_document->filePath().isEmpty()
                             ? tr("untitled")
                             : QFileInfo(m_document->filePath()).fileName();
    QString name = fromStd(m_document->scenario().name);
    // a lesson scenario's name can hold the answer ("OOM at the 14th request"): while the class
    // predicts, the title is the step's (issue #23)
    if (m_document->concealsAny() && m_tourDock->isVisible())
        name = views::tourSteps()[m_tour->step()].title;
    setWindowTitle(QStringLiteral("%1%2[*]").arg(
        name.isEmpty() ? QString() : name + QStringLiteral(" - "), file));
    setWindowModified(m_document->isModified());
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::newScenario()
{
    if (maybeSave())
        m_document->reset(core::lessonDefaultScenario());
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Scenario"), views::suggestedPath(m_document),
                                     tr("Scenarios (*.json);;All files (*)"));
    views::rememberDialogFolder(path);
    if (!path.isEmpty())
        openFile(path);
}

namespace {

/** A Hugging Face config names its architecture and is not one of our scenarios. */
bool looksLikeModelConfig(const QString &path)
{
    QFile file(path);
    QByteArray head;
    if (file.open(QIODevice::ReadOnly))
        head = file.read(qint64(64) * 1024);
    return head.contains("\"model_type\"") && !head.contains("accel-explorer/scenario");
}

} // namespace

bool MainWindow::openFile(const QString &path, bool interactive)
{
    // Open on a config.json offers what the user meant: the model imported into this scenario
    if (interactive && looksLikeModelConfig(path)) {
        const auto answer = QMessageBox::question(
            this, tr("Open Scenario"),
            tr("%1 is a model's config.json (Hugging Face), not a scenario. Import it as the "
               "scenario's model instead?")
                .arg(QFileInfo(path).fileName()),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
        return answer == QMessageBox::Yes && importConfig(path);
    }
    QString error;
    QStringList warnings;
    if (!m_document->open(path, &error, &warnings)) {
        if (interactive)
            QMessageBox::warning(this, tr("Cannot open the scenario"), error);
        else
            statusBar()->showMessage(error);
        return false;
    }
    addRecent(m_document->filePath());
    if (!warnings.isEmpty())
        statusBar()->showMessage(warnings.join(QStringLiteral("; ")), 10000);
    return true;
}

bool MainWindow::openFileWithOverrides(const QString &path, const QStringList &overrides,
                                       QString *error)
{
    QStringList warnings;
    if (!m_document->open(path, error, &warnings)) {
        statusBar()->showMessage(*error);
        return false;
    }
    addRecent(m_document->filePath());
    if (!warnings.isEmpty())
        statusBar()->showMessage(warnings.join(QStringLiteral("; ")), 10000);
    if (overrides.isEmpty())
        return true;
    std::vector<std::string> sets;
    for (const QString &set : overrides)
        sets.push_back(set.toStdString());
    // the same reader as the file's, so an override is checked as a value in the file would be
    auto loaded = core::readScenario(core::writeScenario(m_document->scenario()), sets);
    if (!loaded) {
        *error = tr("%1: --set %2: %3")
                     .arg(path, QString::fromStdString(loaded.error().path),
                          QString::fromStdString(loaded.error().message));
        return false;
    }
    m_document->applyScenario(loaded.value().scenario, tr("Command-Line Overrides"));
    m_document->flush();
    return true;
}

bool MainWindow::importConfig(const QString &path, bool interactive)
{
    QString error;
    QStringList warnings;
    if (!m_document->importModel(path, &error, &warnings)) {
        if (interactive)
            QMessageBox::warning(this, tr("Cannot import the config"), error);
        else
            statusBar()->showMessage(error);
        return false;
    }
    statusBar()->showMessage(warnings.isEmpty()
                                 ? tr("Imported %1 as the model").arg(QFileInfo(path).fileName())
                                 : warnings.join(QStringLiteral("; ")),
                             10000);
    return true;
}

views::MeasurementsDialog *MainWindow::importMeasurements(const QStringList &paths,
                                                          bool interactive)
{
    auto *dialog = new views::MeasurementsDialog(m_document, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QString error;
    if (!dialog->load(paths, &error)) {
        delete dialog;
        if (interactive)
            QMessageBox::warning(this, tr("Cannot import the measurements"), error);
        else
            statusBar()->showMessage(error);
        return nullptr;
    }
    dialog->show();
    return dialog;
}

bool MainWindow::save()
{
    return saveToOwnFile(DiskConflict::Ask);
}

bool MainWindow::saveToOwnFile(DiskConflict whenChangedOnDisk)
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    if (m_document->diskState() == views::ScenarioDocument::DiskState::Changed) {
        DiskConflict answer = whenChangedOnDisk;
        if (answer == DiskConflict::Ask) {
            const QString name = QFileInfo(m_document->filePath()).fileName();
            QMessageBox box(QMessageBox::Warning, tr("The file changed on disk"),
                            tr("%1 was changed by another window or program after this window "
                               "opened or saved it. Saving now would replace those changes with "
                               "this window's scenario.")
                                .arg(name),
                            QMessageBox::NoButton, this);
            box.setInformativeText(tr("Reload shows the file as it is now, with this window's "
                                      "scenario one Undo away."));
            QPushButton *overwrite = box.addButton(tr("&Overwrite"), QMessageBox::DestructiveRole);
            QPushButton *reload = box.addButton(tr("&Reload"), QMessageBox::ActionRole);
            QPushButton *saveAsButton = box.addButton(tr("Save &As..."), QMessageBox::AcceptRole);
            box.addButton(QMessageBox::Cancel);
            box.setDefaultButton(saveAsButton);
            box.exec();
            if (box.clickedButton() == overwrite)
                answer = DiskConflict::Overwrite;
            else if (box.clickedButton() == reload)
                answer = DiskConflict::Reload;
            else if (box.clickedButton() == saveAsButton)
                return saveAs();
            else
                answer = DiskConflict::Cancel;
        }
        if (answer == DiskConflict::Reload) {
            QString error;
            QStringList warnings;
            if (!m_document->reloadFromDisk(&error, &warnings))
                QMessageBox::warning(this, tr("Cannot reload the scenario"), error);
            checkFileOnDisk();
            return false; // nothing was saved
        }
        if (answer != DiskConflict::Overwrite)
            return false;
    }
    QString error;
    if (!m_document->save(m_document->filePath(), &error)) {
        QMessageBox::warning(this, tr("Cannot save the scenario"), error);
        return false;
    }
    checkFileOnDisk();
    return true;
}

void MainWindow::watchFile()
{
    if (!m_diskWatcher->files().isEmpty())
        m_diskWatcher->removePaths(m_diskWatcher->files());
    if (!m_diskWatcher->directories().isEmpty())
        m_diskWatcher->removePaths(m_diskWatcher->directories());
    const QString path = m_document->filePath();
    if (path.isEmpty())
        return;
    if (QFileInfo::exists(path))
        m_diskWatcher->addPath(path);
    m_diskWatcher->addPath(QFileInfo(path).absolutePath());
    m_diskCheck->start(); // a change between reading the file and watching it counts too
}

void MainWindow::checkFileOnDisk()
{
    const QString path = m_document->filePath();
    // an atomic save replaces the file: the watch on the old one is gone, watch the new one
    if (!path.isEmpty() && QFileInfo::exists(path) && !m_diskWatcher->files().contains(path))
        m_diskWatcher->addPath(path);
    const QString name = QFileInfo(path).fileName();
    switch (m_document->diskState()) {
    case views::ScenarioDocument::DiskState::Unchanged:
        m_diskStatus->hide();
        m_diskStatus->clear();
        return;
    case views::ScenarioDocument::DiskState::Missing:
        m_diskStatus->setText(tr("\u26a0 %1 is no longer on disk").arg(name));
        m_diskStatus->setToolTip(
            tr("%1 was removed or renamed by another program. Save writes it again.").arg(path));
        m_diskStatus->show();
        return;
    case views::ScenarioDocument::DiskState::Changed:
        break;
    }
    if (!m_document->isModified()) {
        QString error;
        QStringList warnings;
        if (m_document->reloadFromDisk(&error, &warnings)) {
            m_diskStatus->hide();
            m_diskStatus->clear();
            statusBar()->showMessage(
                warnings.isEmpty()
                    ? tr("%1 changed on disk (another window or program saved it): reloaded. "
                         "Undo brings back what this window showed.")
                          .arg(name)
                    : warnings.join(QStringLiteral("; ")),
                15000);
            return;
        }
        // a half-written or broken file: keep what this window holds and say why
        m_diskStatus->setToolTip(error);
    } else {
        m_diskStatus->setToolTip(
            tr("Another window or program saved %1 after this window opened it. Save asks "
               "whether to overwrite it, reload it or save under another name.")
                .arg(path));
    }
    m_diskStatus->setText(tr("\u26a0 %1 changed on disk").arg(name));
    m_diskStatus->show();
}

views::AllInputsPanel *MainWindow::showAllInputs(const QString &path)
{
    if (!m_inputsDock) {
        m_allInputs = new views::AllInputsPanel(m_document, this);
        m_inputsDock = new QDockWidget(tr("All Inputs"), this);
        m_inputsDock->setObjectName(QStringLiteral("allInputsDock"));
        m_inputsDock->setWidget(m_allInputs);
        addDockWidget(Qt::RightDockWidgetArea, m_inputsDock);
        // floating beside the views at first: docked, its editors squeezed the views past a
        // 1280x800 screen; the user may dock it
        m_inputsDock->setFloating(true);
        const QRect frame = geometry();
        const QSize size(std::max(420, m_allInputs->minimumWidth() + 40),
                         std::min(720, frame.height() - 80));
        m_inputsDock->resize(size);
        m_inputsDock->move(frame.right() - size.width() - 24, frame.top() + 80);
        connect(m_inputsDock, &QDockWidget::visibilityChanged, m_allInputsAction,
                &QAction::setChecked);
    }
    m_inputsDock->show();
    m_inputsDock->raise();
    if (m_inputsDock->isFloating())
        m_inputsDock->activateWindow(); // a window of its own: the keys go to it
    m_allInputs->focusInput(path);      // none: the find field, so typing finds an input
    return m_allInputs;
}

QString MainWindow::diskWarning() const
{
    return m_diskStatus->isHidden()
               ? QString()
               : m_diskStatus->text() + QStringLiteral(": ") + m_diskStatus->toolTip();
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Scenario"),
        m_document->filePath().isEmpty() ? views::suggestedPath(m_document, tr("scenario.json"))
                                         : m_document->filePath(),
        tr("Scenarios (*.json)"));
    views::rememberDialogFolder(path);
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_document->save(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save the scenario"), error);
        return false;
    }
    addRecent(m_document->filePath());
    return true;
}

void MainWindow::exportCurrentView(const QString &suffix)
{
    views::View *view = currentView();
    if (!view)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(view->title()),
        views::suggestedPath(m_document, view->snapshotName() + QLatin1Char('.') + suffix));
    views::rememberDialogFolder(path);
    if (path.isEmpty())
        return;
    QString error;
    if (!view->exportTo(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::addRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("files/recent")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("files/recent"), recent);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("files/recent")).toStringList();
    for (const QString &path : recent) {
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave())
                                openFile(path);
                        })
            ->setToolTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.size() != 1 || !urls.first().isLocalFile())
        return;
    const QString path = urls.first().toLocalFile();
    // a model's config.json, or a downloaded model folder holding one
    if (looksLikeModelConfig(path) ||
        (QFileInfo(path).isDir() && QFileInfo::exists(path + QStringLiteral("/config.json"))))
        importConfig(path);
    else if (maybeSave())
        openFile(path);
    event->acceptProposedAction();
}

int MainWindow::offerRecovery(bool interactive, bool accept)
{
    int recovered = 0;
    for (const views::AutosaveLeftover &leftover : m_autosave->leftovers()) {
        const QString name =
            leftover.origin.isEmpty()
                ? tr("an untitled scenario")
                : QStringLiteral("\u201c%1\u201d").arg(QFileInfo(leftover.origin).fileName());
        const QString when = QLocale().toString(leftover.saved, QLocale::LongFormat);
        enum class Answer { Recover, Discard, Later };
        Answer answer = accept ? Answer::Recover : Answer::Discard;
        if (interactive) {
            QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
                            tr("Accelerator Explorer did not close cleanly while %1 had unsaved "
                               "changes. Recover the work autosaved on %2?")
                                .arg(name, when),
                            QMessageBox::NoButton, this);
            box.setInformativeText(
                leftover.origin.isEmpty()
                    ? tr("It was never saved: it opens as an untitled scenario.")
                    : tr("It opens as unsaved changes to %1; Undo goes back to the file as it "
                         "is on disk.")
                          .arg(QDir::toNativeSeparators(leftover.origin)));
            QPushButton *recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
            QAbstractButton *discard = box.addButton(QMessageBox::Discard);
            box.addButton(tr("Not Now"), QMessageBox::RejectRole); // kept for the next start
            box.setDefaultButton(recover);
            box.exec();
            answer = box.clickedButton() == recover   ? Answer::Recover
                     : box.clickedButton() == discard ? Answer::Discard
                                                      : Answer::Later;
        }
        if (answer == Answer::Later)
            continue;
        if (answer == Answer::Discard) {
            m_autosave->discardLeftover(leftover);
            continue;
        }
        core::Scenario scenario;
        QString error;
        if (!views::Autosave::read(leftover, scenario, &error)) {
            // kept, not deleted: Discard removes it at the next start
            if (interactive)
                QMessageBox::warning(this, tr("Recover unsaved work"), error);
            else
                statusBar()->showMessage(error);
            continue;
        }
        MainWindow *window = windowForRecovery(leftover.origin);
        window->restoreRecovered(leftover, scenario);
        // the work is in a window that autosaves it under its own name before the old file goes
        if (window->autosave()->saveNow())
            m_autosave->discardLeftover(leftover);
        ++recovered;
    }
    m_autosave->releaseLeftovers();
    return recovered;
}

QString MainWindow::autosaveWarning() const
{
    return m_autosaveStatus->isHidden() ? QString() : m_autosaveStatus->toolTip();
}

MainWindow *MainWindow::windowForRecovery(const QString &origin)
{
    const QString open = m_document->filePath();
    const bool ownFile = !origin.isEmpty() && !open.isEmpty() &&
                         QFileInfo(origin).absoluteFilePath() == QFileInfo(open).absoluteFilePath();
    const bool untouched = open.isEmpty() && !m_document->isModified();
    if (ownFile || untouched)
        return this;
    auto *window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    return window;
}

void MainWindow::restoreRecovered(const views::AutosaveLeftover &leftover,
                                  const core::Scenario &scenario)
{
    if (!leftover.origin.isEmpty() && m_document->filePath() != leftover.origin &&
        !openFile(leftover.origin, false)) {
        // the file is gone or unreadable: the work keeps its name, and a save writes it there
        m_document->reset(m_document->scenario(), leftover.origin);
    }
    m_document->applyScenario(scenario, tr("Recover Unsaved Work"));
    m_document->flush();
    statusBar()->showMessage(tr("Recovered the work autosaved on %1")
                                 .arg(QLocale().toString(leftover.saved, QLocale::LongFormat)),
                             8000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (maybeSave()) {
        m_autosave->discard(); // closed cleanly: nothing to recover
        writeSettings();
        event->accept();
    } else {
        event->ignore();
    }
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        fitFirstWindow();
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_mainSplitter->restoreState(
        settings.value(QStringLiteral("window/mainSplitter")).toByteArray());
    m_centreSplitter->restoreState(
        settings.value(QStringLiteral("window/centreSplitter")).toByteArray());
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    const int units =
        settings.value(QStringLiteral("display/units"), int(core::MemoryUnits::GB)).toInt();
    if (units >= 0 && units <= 2)
        m_document->setUnits(core::MemoryUnits(units));
    m_theme = views::themeFromName(settings.value(QStringLiteral("display/theme")).toString())
                  .value_or(views::Theme::System);
    m_highContrast = settings.value(QStringLiteral("display/highContrast"), false).toBool();
    applyAppearance();
    updateRecentMenu();
}

void MainWindow::fitFirstWindow()
{
    resize(1280, 800);
    // offscreen renders (snapshots, tests) are drawn at the size asked for, not a screen's
    if (QGuiApplication::platformName() == QLatin1String("offscreen") || !screen())
        return;
    // on a 1280x800 laptop the title bar pushed the status bar off the screen: a screen that
    // cannot hold the window and its frame gets it maximized (the window manager knows its frame)
    constexpr int kFrame = 48;
    const QRect available = screen()->availableGeometry();
    if (available.width() < 1280 || available.height() < 800 + kFrame) {
        resize(std::min(1280, available.width()), std::max(400, available.height() - kFrame));
        setWindowState(windowState() | Qt::WindowMaximized);
    }
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    // the normal layout, not presenter mode's enlarged explanation panel
    settings.setValue(QStringLiteral("window/centreSplitter"),
                      m_presenter ? m_normalCentreSplitter : m_centreSplitter->saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("display/units"), int(m_document->units()));
}

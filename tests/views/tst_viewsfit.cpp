// SPDX-License-Identifier: GPL-3.0-or-later
// Every view fits the screens it is shown on (issue #42, acceptance): at 1280x800 and 1366x768 on
// the desk, and at 1280x720, 1280x800, 1366x768 and 1920x1080 in presenter mode, no view elides a
// chart text, a table cell or a header, clips a label, or scrolls; the tab bar shows every tab.

#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "tools/testpaths.h"
#include "views/calibration/measurementsdialog.h"
#include "views/document/scenariodocument.h"
#include "views/viewregistry.h"
#include "views/widgets/tablefit.h"
#include "views/widgets/view.h"

#include <QAbstractScrollArea>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

namespace {

QString describe(const QWidget *w)
{
    return w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className())
                                     : w->objectName();
}

bool elided(const QString &text)
{
    return text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026));
}

// What a user sees cut short or hidden behind a scroll bar in one view.
QStringList fitProblems(QWidget &view)
{
    QStringList problems;
    // a view laid out smaller than it needs draws its parts over each other
    if (const QSize needed = view.minimumSizeHint();
        needed.width() > view.width() || needed.height() > view.height())
        problems << QStringLiteral("needs %1x%2, has %3x%4")
                        .arg(needed.width())
                        .arg(needed.height())
                        .arg(view.width())
                        .arg(view.height());
    for (QChartView *chart : view.findChildren<QChartView *>()) {
        if (!chart->isVisible())
            continue;
        for (QGraphicsItem *item : chart->scene()->items()) {
            QString text;
            if (auto *t = dynamic_cast<QGraphicsTextItem *>(item))
                text = t->toPlainText();
            else if (auto *t = dynamic_cast<QGraphicsSimpleTextItem *>(item))
                text = t->text();
            if (item->isVisible() && elided(text))
                problems << QStringLiteral("chart text \"%1\"").arg(text);
        }
    }
    for (QScrollBar *bar : view.findChildren<QScrollBar *>()) {
        // a list of options (the wizard's candidates) says so; its rows may scroll
        const QWidget *area = bar->parentWidget() ? bar->parentWidget()->parentWidget() : nullptr;
        if (bar->orientation() == Qt::Vertical && area &&
            area->property("accelRowsScroll").toBool())
            continue;
        if (bar->isVisible() && bar->maximum() > bar->minimum())
            problems << QStringLiteral("%1 scroll bar in %2 (%3 px more)")
                            .arg(bar->orientation() == Qt::Vertical ? QStringLiteral("vertical")
                                                                    : QStringLiteral("horizontal"))
                            .arg(describe(bar->parentWidget() ? bar->parentWidget()->parentWidget()
                                                              : bar))
                            .arg(bar->maximum() - bar->minimum());
    }
    for (QTableView *table : view.findChildren<QTableView *>()) {
        if (!table->isVisible() || !table->model())
            continue;
        const QHeaderView *header = table->horizontalHeader();
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            if (table->isColumnHidden(c))
                continue;
            const int width = table->columnWidth(c);
            const QString title =
                table->model()->headerData(c, Qt::Horizontal).toString().simplified();
            if (header->isVisible() && header->sectionSizeHint(c) > width + 1)
                problems << QStringLiteral("header \"%1\" cut (%2 px of %3)")
                                .arg(title)
                                .arg(width)
                                .arg(header->sectionSizeHint(c));
            if (table->wordWrap())
                continue; // measured row by row below
            if (static_cast<QAbstractItemView *>(table)->sizeHintForColumn(c) > width + 1)
                problems << QStringLiteral("column \"%1\" cut (%2 px of %3)")
                                .arg(title)
                                .arg(width)
                                .arg(static_cast<QAbstractItemView *>(table)->sizeHintForColumn(c));
        }
        // wrapped text: a row shorter than its wrapped cells, or a word wider than its column
        if (!table->wordWrap())
            continue;
        const int rowsToCheck = std::min(table->model()->rowCount(), 60);
        for (int r = 0; r < rowsToCheck; ++r) {
            const int wanted = static_cast<QAbstractItemView *>(table)->sizeHintForRow(r);
            if (wanted > table->rowHeight(r) + 1)
                problems << QStringLiteral("row %1 (%2) cut (%3 px high of %4)")
                                .arg(r)
                                .arg(table->model()->index(r, 0).data().toString().left(30))
                                .arg(table->rowHeight(r))
                                .arg(wanted);
            for (int c = 0; c < table->model()->columnCount(); ++c) {
                if (table->isColumnHidden(c))
                    continue;
                const QModelIndex index = table->model()->index(r, c);
                const QVariant font = index.data(Qt::FontRole);
                const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : table->font());
                for (const QString &word : index.data().toString().split(
                         QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
                    if (metrics.horizontalAdvance(word) + 4 > table->columnWidth(c))
                        problems << QStringLiteral("\"%1\" broken in column %2 (%3 px of %4)")
                                        .arg(word)
                                        .arg(c)
                                        .arg(table->columnWidth(c))
                                        .arg(metrics.horizontalAdvance(word) + 4);
            }
        }
    }
    for (QLabel *label : view.findChildren<QLabel *>()) {
        if (!label->isVisible() || label->text().isEmpty() || label->pixmap().isNull() == false)
            continue;
        const QString text = label->text().left(40);
        if (elided(label->text()))
            problems << QStringLiteral("label \"%1\" elided").arg(text);
        else if (label->wordWrap()) {
            if (label->heightForWidth(label->width()) > label->height() + 1)
                problems << QStringLiteral("label \"%1\" cut (%2 px high of %3)")
                                .arg(text)
                                .arg(label->height())
                                .arg(label->heightForWidth(label->width()));
        } else if (label->sizeHint().width() > label->width() + 1) {
            problems << QStringLiteral("label \"%1\" cut (%2 px wide of %3)")
                            .arg(text)
                            .arg(label->width())
                            .arg(label->sizeHint().width());
        }
    }
    return problems;
}

QStringList tabBarProblems(QWidget &window)
{
    QStringList problems;
    for (QTabBar *bar : window.findChildren<QTabBar *>()) {
        if (!bar->isVisible())
            continue;
        for (QToolButton *scroll : bar->findChildren<QToolButton *>())
            if (scroll->isVisible()) {
                problems << QStringLiteral("tab bar with %1 tabs scrolls").arg(bar->count());
                break;
            }
        for (int i = 0; i < bar->count(); ++i)
            if (elided(bar->tabText(i)))
                problems << QStringLiteral("tab \"%1\" elided").arg(bar->tabText(i));
    }
    return problems;
}

} // namespace

class ViewsFit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void widestColumnsWrapFirst();
    void importMeasurementsShowsWholeRunNames();
    void everyViewFitsItsScreen_data();
    void everyViewFitsItsScreen();
};

void ViewsFit::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_viewsfit"));
}

// A long note wraps before a short number does; nothing goes under its longest word.
void ViewsFit::widestColumnsWrapFirst()
{
    using views::fittedColumnWidths;
    const std::vector<int> natural{50, 300, 80};
    const std::vector<int> minimum{40, 100, 60};
    QCOMPARE(fittedColumnWidths(natural, minimum, 500), natural); // room: as wide as the text
    // 300 px: the note gets what the others leave (170), the number keeps its 80
    QCOMPARE(fittedColumnWidths(natural, minimum, 300), (std::vector<int>{50, 170, 80}));
    // 230 px: the note down to its longest word, the number still whole
    QCOMPARE(fittedColumnWidths(natural, minimum, 230), (std::vector<int>{50, 100, 80}));
    QCOMPARE(fittedColumnWidths(natural, minimum, 220), (std::vector<int>{50, 100, 70}));
    QCOMPARE(fittedColumnWidths(natural, minimum, 100), minimum); // no room: the minimums
}

// Issue #42 item 10: Import Measurements cut run names mid-name ("Llama-3.1-8B, H1...batch 1")
// in a dialog the size it opens at on a 1280x800 screen.
void ViewsFit::importMeasurementsShowsWholeRunNames()
{
    views::ScenarioDocument document;
    views::MeasurementsDialog dialog(&document);
    QString error;
    QVERIFY2(dialog.load(
                 {testpaths::sourceDir() + QStringLiteral("/presets/measurements/published.csv")},
                 &error),
             qPrintable(error));
    viewtestsupport::showOffscreen(dialog, {1100, 760});
    QVERIFY(dialog.table()->rowCount() > 10);
    const QStringList problems = fitProblems(dialog);
    if (const QString folder = qEnvironmentVariable("ACCEL_FIT_SHOTS"); !folder.isEmpty())
        dialog.grab().save(folder + QStringLiteral("/import-measurements.png"));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void ViewsFit::everyViewFitsItsScreen_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<bool>("presenter");
    QTest::addColumn<QString>("scenario");
    const QList<std::pair<QSize, bool>> screens = {{{1280, 800}, false}, {{1366, 768}, false},
                                                   {{1280, 720}, true},  {{1280, 800}, true},
                                                   {{1366, 768}, true},  {{1920, 1080}, true}};
    // the lesson's scenario (the class) and a 70B fleet decision (the engineer, the stakeholder)
    for (const QString &scenario :
         {QStringLiteral("lesson-default"), QStringLiteral("llama-70b-fleet")})
        for (const auto &[size, presenter] : screens)
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2x%3%4")
                               .arg(scenario)
                               .arg(size.width())
                               .arg(size.height())
                               .arg(presenter ? QStringLiteral(" presenter") : QString())))
                << size << presenter << scenario;
}

void ViewsFit::everyViewFitsItsScreen()
{
    QFETCH(QSize, screen);
    QFETCH(bool, presenter);
    QFETCH(QString, scenario);
    viewtestsupport::PresenterScale restore(false); // the next row starts at 1x
    MainWindow window;
    const auto text = core::scenarioPresetText(scenario.toStdString());
    QVERIFY(text);
    window.document()->reset(core::readScenario(*text).value().scenario);
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(screen);
    window.show();
    if (presenter) {
        window.setPresenterScreenHeight(screen.height());
        window.setPresenterMode(true);
        window.setWindowState(Qt::WindowNoState);
    }
    window.resize(screen);
    QCoreApplication::processEvents();
    QStringList problems = tabBarProblems(window);
    for (const QString &name : views::viewNames()) {
        window.showView(name);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        views::View *shown = window.view(name);
        QVERIFY2(shown && shown->isVisible(), qPrintable(name));
        // the load views draw when their simulation is in: look at the drawing, not the wait
        for (const views::LoadRunner *runner : shown->findChildren<views::LoadRunner *>())
            QTRY_VERIFY_WITH_TIMEOUT(!runner->busy(), 30000);
        QCoreApplication::processEvents();
        const QStringList found = fitProblems(*shown);
        for (const QString &problem : found)
            problems << name + QStringLiteral(": ") + problem;
        // ACCEL_FIT_SHOTS=folder keeps a picture of each window that failed, to look at
        // (ACCEL_FIT_SHOTS_ALL=1: every window)
        if (const QString folder = qEnvironmentVariable("ACCEL_FIT_SHOTS");
            (!found.isEmpty() || qEnvironmentVariableIsSet("ACCEL_FIT_SHOTS_ALL")) &&
            !folder.isEmpty())
            window.grab().save(folder +
                               QStringLiteral("/%1 %2.png")
                                   .arg(QString::fromLatin1(QTest::currentDataTag()), name));
    }
    if (presenter)
        window.setPresenterMode(false);
    QVERIFY2(problems.isEmpty(),
             qPrintable(QStringLiteral("\n") + problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(ViewsFit)
#include "tst_viewsfit.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// A seeded monkey drives the main window offscreen through thousands of random edits (valid and
// out of range), undo and redo, preset and format switches, opens of good and bad files and tab
// switches: nothing crashes, no view ever shows NaN or infinity in its text or its series, and
// undoing everything returns to where the last opened file began.

#include "app/mainwindow.h"
#include "tools/testpaths.h"
#include "views/document/scenariodocument.h"
#include "views/load/loadrunner.h"
#include "views/widgets/view.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/parameters.h"

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QLabel>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>
#include <QXYSeries>

#include <cmath>

class Monkey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void thousandsOfRandomActions();

private:
    static QString firstNonFinite(MainWindow &window);
};

void Monkey::initTestCase()
{
    // the Load tab simulates 6 rates x 300 requests: these tests drive the window, not the numbers
    views::LoadRunner::limitForTests(6, 300);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AcceleratorExplorerTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_monkey"));
}

QString Monkey::firstNonFinite(MainWindow &window)
{
    static const QRegularExpression bad(QStringLiteral("(?<![A-Za-z])(nan|inf)(?![A-Za-z])"),
                                        QRegularExpression::CaseInsensitiveOption);
    auto check = [](const QString &where, const QString &text) -> QString {
        return bad.match(text).hasMatch() ? where + QStringLiteral(": ") + text.left(200)
                                          : QString();
    };
    for (QLabel *label : window.findChildren<QLabel *>())
        if (QString found = check(QStringLiteral("label"), label->text()); !found.isEmpty())
            return found;
    for (QTextBrowser *browser : window.findChildren<QTextBrowser *>())
        if (QString found = check(browser->objectName(), browser->toPlainText()); !found.isEmpty())
            return found;
    for (QTableWidget *table : window.findChildren<QTableWidget *>())
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (const QTableWidgetItem *item = table->item(r, c))
                    if (QString found = check(QStringLiteral("table"), item->text());
                        !found.isEmpty())
                        return found;
    for (QChartView *view : window.findChildren<QChartView *>())
        for (QAbstractSeries *series : view->chart()->series())
            if (auto *xy = qobject_cast<QXYSeries *>(series))
                for (const QPointF &p : xy->points())
                    if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                        return QStringLiteral("series %1").arg(xy->name());
    return {};
}

void Monkey::thousandsOfRandomActions()
{
    const quint32 seed = qEnvironmentVariableIntValue("ACCEL_MONKEY_SEED") > 0
                             ? quint32(qEnvironmentVariableIntValue("ACCEL_MONKEY_SEED"))
                             : 20261202u;
    const int actions = qEnvironmentVariableIntValue("ACCEL_MONKEY_ACTIONS") > 0
                            ? qEnvironmentVariableIntValue("ACCEL_MONKEY_ACTIONS")
                            : 2000;
    qInfo("seed %u, %d actions (ACCEL_MONKEY_SEED / ACCEL_MONKEY_ACTIONS replay others)", seed,
          actions);
    QRandomGenerator random(seed);
    MainWindow window;
    window.setAttribute(Qt::WA_DontShowOnScreen);
    window.resize(1280, 800);
    window.show();
    QCoreApplication::processEvents();
    views::ScenarioDocument *doc = window.document();

    std::vector<const core::ParameterInfo *> parameters;
    for (const core::ParameterInfo &info : core::parameterTable())
        if (!info.path.starts_with("device.peak_tflops"))
            parameters.push_back(&info);
    QStringList models;
    QStringList devices;
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "model")
            models << QString::fromStdString(info.id);
        if (info.kind == "device")
            devices << QString::fromStdString(info.id);
    }
    QStringList files;
    for (const QString &name : QDir((testpaths::sourceDir() + QStringLiteral("/presets/scenarios")))
                                   .entryList({QStringLiteral("*.json")}))
        files << (testpaths::sourceDir() + QStringLiteral("/presets/scenarios/")) + name;
    for (const QString &name : QDir((testpaths::fixturesDir() + QStringLiteral("/bad")))
                                   .entryList({QStringLiteral("*.json")}))
        files << (testpaths::fixturesDir() + QStringLiteral("/bad/")) + name;

    QString start = QString::fromStdString(core::writeScenario(doc->scenario()));
    for (int i = 0; i < actions; ++i) {
        const int kind = int(random.bounded(100));
        if (kind < 55) {
            const core::ParameterInfo *p = parameters[random.bounded(quint32(parameters.size()))];
            double value;
            if (random.bounded(10) == 0) { // out of range, or not a number at all
                const double outside[] = {p->minimum - 1, p->maximum * 10, -1e300, std::nan(""),
                                          1e308};
                value = outside[random.bounded(5)];
            } else {
                const double low = std::max(p->minimum, 1e-9);
                const double high = std::min(p->maximum, 1e9);
                value = low * std::pow(high / low, random.generateDouble());
                if (p->integer)
                    value = std::round(value);
            }
            doc->setNumber(QString::fromUtf8(p->path.data(), qsizetype(p->path.size())), value);
        } else if (kind < 65) {
            doc->undoStack()->undo();
        } else if (kind < 72) {
            doc->undoStack()->redo();
        } else if (kind < 77) {
            doc->setModelPreset(models[random.bounded(quint32(models.size()))]);
        } else if (kind < 82) {
            doc->setDevicePreset(devices[random.bounded(quint32(devices.size()))]);
        } else if (kind < 86) {
            doc->setWeightFormat(
                core::kAllFormats[random.bounded(quint32(core::kAllFormats.size()))]);
        } else if (kind < 88) {
            doc->setUnits(core::MemoryUnits(random.bounded(3)));
        } else if (kind < 91) {
            const QString file = files[random.bounded(quint32(files.size()))];
            if (window.openFile(file, false)) {
                doc->flush();
                start = QString::fromStdString(core::writeScenario(doc->scenario()));
            }
        } else {
            window.tabs()->setCurrentIndex(int(random.bounded(quint32(window.tabs()->count()))));
        }
        doc->flush(); // every state is evaluated and every visible view refreshed
        if (i % 25 == 24) {
            QCoreApplication::processEvents();
            const QString found = firstNonFinite(window);
            QVERIFY2(
                found.isEmpty(),
                qPrintable(
                    QStringLiteral("after action %1 (seed %2): %3").arg(i).arg(seed).arg(found)));
        }
    }
    doc->flush();
    while (doc->undoStack()->canUndo())
        doc->undoStack()->undo();
    doc->flush();
    QCOMPARE(QString::fromStdString(core::writeScenario(doc->scenario())), start);
}

QTEST_MAIN(Monkey)
#include "tst_monkey.moc"

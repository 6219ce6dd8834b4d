// SPDX-License-Identifier: GPL-3.0-or-later
// The Precision tab: formats bit by bit and the quantisation workbench.

#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/scale/interconnectview.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/explanationpanel.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "views/document/scenariodocument.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/widgets/scenariopanel.h"

#include "core/decide/selection.h"
#include "core/physics/evaluation.h"
#include "core/physics/inside.h"

#include "views/compare/compareview.h"
#include "views/cost/costview.h"
#include "views/inside/anatomyview.h"
#include "views/inside/familyview.h"
#include "views/inside/hierarchyview.h"
#include "views/inside/matmulview.h"
#include "views/inside/raceview.h"
#include "views/inside/stackview.h"
#include "views/precision/precisionview.h"
#include "views/precision/quantisationview.h"
#include "views/scale/powerview.h"
#include "views/tour/tour.h"
#include "views/tour/tourpanel.h"
#include "views/viewregistry.h"
#include "views/widgets/style.h"
#include "views/wizard/checksview.h"
#include "views/wizard/decisionview.h"
#include "views/wizard/selectionwizard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using viewtestsupport::showOffscreen;

class PrecisionViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void precisionShowsAValueInEveryFormat();
    void quantisationWorkbench();
};

void PrecisionViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_precisionviews"));
}

void PrecisionViews::precisionShowsAValueInEveryFormat()
{
    views::ScenarioDocument doc;
    views::PrecisionView view(&doc);
    showOffscreen(view);
    QVERIFY(!view.setValue(QStringLiteral("not a number")));
    QVERIFY(view.setValue(QStringLiteral("65520")));
    QTableWidget *values = view.valueTable();
    QCOMPARE(values->rowCount(), 8);
    QCOMPARE(values->item(3, 0)->text(), QStringLiteral("FP16"));
    QCOMPARE(values->item(3, 1)->text(), QStringLiteral("infinity")); // IEEE overflow
    QVERIFY(values->item(3, 3)->text().contains(QStringLiteral("65,504")));
    QCOMPARE(values->item(4, 1)->text(), QStringLiteral("448")); // E4M3 saturates, no infinity
    // the current model's weights in every format, the lesson's 3.61 GB for grouped 4-bit (l.50)
    QTableWidget *weights = view.weightTable();
    QCOMPARE(weights->item(weights->rowCount() - 1, 2)->text(), QStringLiteral("3.609 GB"));
    QCOMPARE(weights->item(1, 2)->text(), QStringLiteral("14 GB"));
}

// l.135: [0.020, -0.500, 1.270, 0.003] -> scale 0.01, [2, -50, 127, 0]; l.50: 0.5156 B/param.
void PrecisionViews::quantisationWorkbench()
{
    views::ScenarioDocument doc;
    views::QuantisationView view(&doc);
    showOffscreen(view);
    QTableWidget *table = view.table();
    QCOMPARE(table->rowCount(), 4);
    QStringList codes;
    for (int row = 0; row < 4; ++row)
        codes << table->item(row, 2)->text();
    QCOMPARE(codes, QStringLiteral("2 -50 127 0").split(QLatin1Char(' ')));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("0.01"));
    QCOMPARE(table->item(3, 3)->text(), QStringLiteral("0")); // 0.003 rounded away
    QVERIFY(view.summary().contains(QStringLiteral("Bytes per parameter: 1 ")));
    view.setBits(4);
    view.setGroupSize(128);
    QVERIFY2(view.summary().contains(QStringLiteral("Bytes per parameter: 0.5156")),
             qPrintable(view.summary()));
    QVERIFY(!view.setWeights(QStringLiteral("1, two, 3")));
    QCOMPARE(table->rowCount(), 4); // a bad vector changes nothing
    view.generateWithOutliers();
    QCOMPARE(table->rowCount(), 64);
}

QTEST_MAIN(PrecisionViews)
#include "tst_precisionviews.moc"

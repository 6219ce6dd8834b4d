// SPDX-License-Identifier: GPL-3.0-or-later
// The Scale tab: interconnect and power with the lesson's cases.

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

class ScaleViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void interconnectReadsTheLessonsCases();
    void powerReadsTheLessonsRack();
};

void ScaleViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_scaleviews"));
}

// l.161-168: 24.5 GB per device, 0.245 s inside a node; 64 collectives: 0.50 ms + 0.64 ms.
void ScaleViews::interconnectReadsTheLessonsCases()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("interconnect-data-parallel"))
                  .value()
                  .scenario);
    views::InterconnectView view(&doc);
    showOffscreen(view);
    QVERIFY2(view.summary().contains(QStringLiteral("24.5 GB per device")),
             qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("245 ms")));
    const QList<QPointF> efficiency = view.efficiencyCurve();
    QCOMPARE(efficiency.size(), 6);
    for (int i = 1; i < efficiency.size(); ++i) // more devices, less of each one used
        QVERIFY(efficiency[i].y() <= efficiency[i - 1].y());
    QVERIFY(efficiency[3].y() < efficiency[2].y() * 0.5); // 16 devices: over the network
    QVERIFY(view.applyLink(1, QStringLiteral("infiniband-ndr")));
    doc.flush();
    QCOMPARE(doc.scenario().interconnect.interLinkGbPerSecond, 50.0);
    doc.reset(core::readScenario(*core::scenarioPresetText("interconnect-tensor-parallel"))
                  .value()
                  .scenario);
    doc.flush();
    QVERIFY2(view.summary().contains(QStringLiteral("503.3 µs")), qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("640 µs")));
}

// l.174-176: 8 x 500 W + 1 kW = 5 kW a node; floor(40 / 5) = 8 nodes a rack.
void ScaleViews::powerReadsTheLessonsRack()
{
    views::ScenarioDocument doc;
    views::PowerView view(&doc);
    showOffscreen(view);
    QVERIFY2(view.summary().contains(QStringLiteral("<b>5 kW</b>")), qPrintable(view.summary()));
    QVERIFY(view.summary().contains(QStringLiteral("<b>8 nodes, 64 devices</b>")));
    QVERIFY(doc.setNumber(QStringLiteral("power.device_w"), 700));
    doc.flush(); // 8 x 700 + 1,000 = 6.6 kW: 6 nodes
    QVERIFY2(view.summary().contains(QStringLiteral("<b>6 nodes, 48 devices</b>")),
             qPrintable(view.summary()));
}

QTEST_MAIN(ScaleViews)
#include "tst_scaleviews.moc"

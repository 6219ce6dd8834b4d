// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline tab: the roofline and the throughput views against the core.

#include "viewtestsupport.h"

#include "app/mainwindow.h"
#include "views/memory/kvview.h"
#include "views/memory/memoryview.h"
#include "views/memory/oomview.h"
#include "views/scale/interconnectview.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/explanationpanel.h"

#include "core/presets.h"
#include "core/scenarioio.h"
#include "views/document/scenariodocument.h"
#include "views/roofline/rooflineview.h"
#include "views/roofline/throughputview.h"
#include "views/widgets/scenariopanel.h"

#include "core/evaluation.h"
#include "core/inside.h"
#include "core/selection.h"

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

using core::FigureId;

using viewtestsupport::near;
using viewtestsupport::showOffscreen;

class RooflineViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sliderMovesTheOperatingPoint();
    void deviceChangeMovesTheRoof();
    void rooflineDrawsTheLimitAndPrefill();
    void wallSitsAtMaxConcurrentSequences();
};

void RooflineViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_rooflineviews"));
}

void RooflineViews::sliderMovesTheOperatingPoint()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    const QPointF before = view.operatingPoint();
    QVERIFY(near(before.x(), doc.evaluation()[FigureId::DecodeIntensity]));
    // Drag the slider to its last stop (batch 1024).
    QSlider *slider = view.batchControl()->slider();
    slider->setValue(slider->maximum());
    QCOMPARE(doc.scenario().serving.batch, 1024.0);
    QTRY_VERIFY(view.operatingPoint().x() > before.x());
    QVERIFY(near(view.operatingPoint().x(), doc.evaluation()[FigureId::DecodeIntensity]));
    QVERIFY(
        near(view.operatingPoint().y() * 1e12, doc.evaluation()[FigureId::DecodeAttainableFlops]));
    // One drag, one undo step.
    QCOMPARE(doc.undoStack()->count(), 1);
}

void RooflineViews::deviceChangeMovesTheRoof()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    const QList<QPointF> before = view.roof();
    QVERIFY(before.size() >= 3);
    QVERIFY(near(before[1].x(), 200)); // the ridge of the lesson device
    QVERIFY(doc.setNumber(QStringLiteral("device.bandwidth_gb_s"), 2000));
    QTRY_VERIFY(near(view.roof()[1].x(), 100));
    QVERIFY(near(view.roof()[0].y(), 2 * before[0].y())); // twice the bandwidth, twice the slope
}

void RooflineViews::rooflineDrawsTheLimitAndPrefill()
{
    views::ScenarioDocument doc;
    views::RooflineView view(&doc);
    showOffscreen(view);
    QVERIFY(near(view.intensityLimitDrawn(), doc.evaluation()[FigureId::DecodeIntensityLimit]));
    QVERIFY(view.prefillPoint().x() > doc.evaluation()[FigureId::Ridge]); // compute side
    view.setComparisonDevice(QStringLiteral("lesson-accelerator-24gb"));
    QVERIFY(view.csv().startsWith(QStringLiteral("batch,intensity")));
}

void RooflineViews::wallSitsAtMaxConcurrentSequences()
{
    views::ScenarioDocument doc;
    views::ThroughputView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.wallBatch(), doc.evaluation()[FigureId::MaxConcurrentSequences]); // 118
    QVERIFY(doc.setDevicePreset(QStringLiteral("lesson-accelerator-24gb")));
    QTRY_COMPARE(view.wallBatch(), 0.0); // 32 resident sequences never fit on 24 GB
    QVERIFY(doc.setNumber(QStringLiteral("serving.concurrent_sequences"), 4));
    QTRY_COMPARE(view.wallBatch(), 13.0); // the lesson's 13 (l.255)
}

QTEST_MAIN(RooflineViews)
#include "tst_rooflineviews.moc"

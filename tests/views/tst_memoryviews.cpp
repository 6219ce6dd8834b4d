// SPDX-License-Identifier: GPL-3.0-or-later
// The Memory tab: the memory bars, the KV cache and the OOM diagnosis with the lesson's numbers.

#include "tools/testpaths.h"
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
#include <QLabel>
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

class MemoryViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void memoryBarsMatchTheCore();
    void oomDiagnosisShowsTheLessonsNumbers();
    void kvViewMarksTheFailingRequest();
    void layerGroupsAreShown();
    void fixedStateIsShownApart();
};

void MemoryViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_memoryviews"));
}

// The lesson's 7B: 112 GB of training state (l.63), 14 GB BF16 and 7 GB 1-byte weights (l.45-46),
// a KV cache of 17.18 GB at 32 x 4096 (l.84), against the 80 GB lesson device.
void MemoryViews::memoryBarsMatchTheCore()
{
    views::ScenarioDocument doc;
    views::MemoryView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.categories().size(), 3);
    const QList<double> weights = view.segment(QStringLiteral("Weights"));
    QCOMPARE(weights, (QList<double>{14e9, 14e9, 7e9}));
    double state = 0;
    for (const char *part : {"Weights", "Gradients", "FP32 master copy", "Optimiser moments"})
        state += view.segment(QLatin1String(part))[0];
    QCOMPARE(state, 112e9);
    QVERIFY(view.segment(QStringLiteral("Activations"))[0] >
            0); // its own segment, outside the 112 GB
    QCOMPARE(view.segment(QStringLiteral("KV cache"))[1], 17179869184.0);
    QCOMPARE(view.segment(QStringLiteral("Runtime context"))[1], 1.5e9);
    QCOMPARE(view.segment(QStringLiteral("Workspace"))[1], 1.0e9);
    QCOMPARE(view.capacityDrawn(), 80e9);
    QVERIFY2(view.headroomTexts()[1].contains(QStringLiteral("46.32 GB headroom")),
             qPrintable(view.headroomTexts()[1]));
    QVERIFY2(view.headroomTexts()[0].contains(QStringLiteral("short by")),
             qPrintable(view.headroomTexts()[0]));
    // the 18 B/param convention is one click away; ZeRO-3 over 8 devices divides the state by 8
    QVERIFY(doc.setNumber(QStringLiteral("training.zero_stage"), 3));
    QVERIFY(doc.setNumber(QStringLiteral("training.dp_degree"), 8));
    doc.flush();
    double sharded = 0;
    for (const char *part : {"Weights", "Gradients", "FP32 master copy", "Optimiser moments"})
        sharded += view.segment(QLatin1String(part))[0];
    QCOMPARE(sharded, 14e9);
}

// l.255-265: 7.5 GB for KV, 13 sequences, the 14th fails; 27 with 1-byte weights, 24 guarded.
void MemoryViews::oomDiagnosisShowsTheLessonsNumbers()
{
    views::ScenarioDocument doc;
    auto text = core::scenarioPresetText("oom-14th-request");
    doc.reset(core::readScenario(*text).value().scenario);
    views::OomView view(&doc);
    showOffscreen(view);
    QString shown = view.text();
    for (const char *expected :
         {"7.5 GB for the KV cache", "13.97", "13 sequences fit", "14th request fails",
          "Use 1-byte weights (INT8 or FP8): 27 sequences", "could never have been served"})
        QVERIFY2(shown.contains(QLatin1String(expected)), expected);
    // issue #23: a 24 GB device never "reports 33.68 GB in use"; it is what it would need
    QVERIFY2(!shown.contains(QStringLiteral("reports in use")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("would have to hold: 33.68 GB")) &&
                 shown.contains(QStringLiteral("more than its 24 GB")),
             qPrintable(shown));
    doc.setWeightFormat(core::NumericFormat::Int8);
    doc.flush();
    shown = view.text();
    QVERIFY2(shown.contains(QStringLiteral("24 of a theoretical 27")), qPrintable(shown));

    // Issue #20, item 4: split over 8 devices, every term is per device and none is negative
    doc.setWeightFormat(core::NumericFormat::Bf16);
    QVERIFY(doc.setNumber(QStringLiteral("serving.tensor_parallel"), 8));
    doc.flush();
    shown = view.text();
    for (const char *expected :
         {"on each of the 8 devices", "24 GB of memory - 1.75 GB of weights - 2.5 GB",
          "19.75 GB for the KV cache", "0.06711 GB per 4,096-token sequence",
          "0.5369 GB of KV, split 8 ways) that is 294.3,", "294 sequences fit"})
        QVERIFY2(shown.contains(QLatin1String(expected)),
                 qPrintable(QLatin1String(expected) + QLatin1Char('\n') + shown));
    QVERIFY2(!shown.contains(QStringLiteral("- -")), qPrintable(shown));

    // Issue #41, item 4: 16 devices but 8 KV heads: each device keeps a whole head, so a
    // sequence's KV is split 8 ways (the core's kvDevicesPerSequence), never "16 ways"
    QVERIFY(doc.setNumber(QStringLiteral("serving.tensor_parallel"), 16));
    doc.flush();
    shown = view.text();
    QVERIFY2(shown.contains(QStringLiteral("on each of the 16 devices")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("0.5369 GB of KV, split 8 ways)")), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("split 16 ways")), qPrintable(shown));
    // and the count that follows is the core's: 20.63 GB / 0.06711 GB = 307.34, 307 fit
    QVERIFY2(shown.contains(QStringLiteral("0.06711 GB per 4,096-token sequence")) &&
                 shown.contains(QStringLiteral("that is 307.34, so")) &&
                 shown.contains(QStringLiteral("307 sequences")),
             qPrintable(shown));
}

// l.255: the 14th request fails; cutting the context budget moves the limit (l.89-91).
void MemoryViews::kvViewMarksTheFailingRequest()
{
    views::ScenarioDocument doc;
    doc.reset(core::readScenario(*core::scenarioPresetText("oom-14th-request")).value().scenario);
    views::KvView view(&doc);
    showOffscreen(view);
    QCOMPARE(view.firstFailingDrawn(), 14.0);
    QCOMPARE(view.admissionLimitDrawn(), 11.0);
    // issue #23: the scenario's own concurrency is marked, on the line, and the axis is round
    QCOMPARE(view.configuredDrawn().x(), doc.evaluation()[core::FigureId::ResidentSequences]);
    QVERIFY(view.configuredDrawn().y() > 0);
    const double end = view.xAxisMaximum();
    QVERIFY2(end >= 14 && (std::fmod(end, 5) == 0 || std::fmod(end, 2) == 0),
             qPrintable(QString::number(end)));
    QVERIFY(doc.setNumber(QStringLiteral("serving.context_tokens"), 2048));
    doc.flush();
    QCOMPARE(view.firstFailingDrawn(), 28.0); // floor(7.5e9 / 268,435,456) = 27 fit
    view.gqaToggle()->setChecked(true);       // an overlay only: the scenario is unchanged
    QCOMPARE(doc.scenario().model.kvHeads, 8.0);
    QVERIFY(!view.csv().isEmpty());
}

// Issue #22: models whose layers differ show each group's KV beside the chart, and a training
// bar that dwarfs the serving bars runs off the scale instead of flattening them.
void MemoryViews::layerGroupsAreShown()
{
    views::ScenarioDocument doc;
    core::Scenario s = core::lessonDefaultScenario();
    views::KvView kv(&doc);
    views::MemoryView memory(&doc);
    showOffscreen(kv);
    showOffscreen(memory);
    QVERIFY(kv.layerGroupsLabel()->isHidden()); // the lesson's model: one full-attention group
    QVERIFY(!memory.trainingOffScale());

    s.model = core::modelPreset("gemma-3-27b").value();
    s.device = core::devicePreset("nvidia-h200-sxm").value();
    s.serving.contextTokens = 32768;
    doc.applyScenario(s, QStringLiteral("Gemma 3"));
    doc.flush();
    const QString text = kv.layerGroupsLabel()->text();
    QVERIFY2(!kv.layerGroupsLabel()->isHidden(), qPrintable(text));
    // 52 x 8,192 B x 1,024 tokens = 0.4362 GB; 10 x 8,192 B x 32,768 = 2.684 GB
    QVERIFY2(text.contains(QStringLiteral("52 sliding-window layers (1,024 tokens): 0.4362 GB")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("10 full-attention layers: 2.684 GB")), qPrintable(text));

    s.model = core::modelPreset("deepseek-r1").value();
    s.serving.tensorParallel = 8;
    doc.applyScenario(s, QStringLiteral("DeepSeek"));
    doc.flush();
    QVERIFY(memory.trainingOffScale()); // 11 TB of training state against 141 GB devices
    QVERIFY(memory.headroomTexts().first().contains(QStringLiteral("off the scale")));
}

// Issue #44: a hybrid model's recurrent state is its own segment beside the cache that grows.
// Jamba v0.1's 28 Mamba layers each hold 3 x 8,192 conv inputs and 8,192 x 16 of state in BF16:
// 8,716,288 B a sequence, 139,460,608 B for 16 resident sequences, whatever the context.
void MemoryViews::fixedStateIsShownApart()
{
    views::ScenarioDocument doc;
    views::MemoryView memory(&doc);
    showOffscreen(memory);
    QCOMPARE(memory.segment(QStringLiteral("Fixed state"))[1], 0.0); // the lesson's 7B: none
    QString error;
    QVERIFY2(
        doc.importModel(testpaths::fixturesDir() + QStringLiteral("/hf/jamba-v0.1.json"), &error),
        qPrintable(error));
    for (const auto &[path, value] :
         {std::pair{"serving.batch", 16.0}, std::pair{"serving.concurrent_sequences", 16.0},
          std::pair{"serving.context_tokens", 32768.0}})
        QVERIFY(doc.setNumber(QString::fromLatin1(path), value));
    doc.flush();
    const double state = 28.0 * (3 * 8192 + 8192 * 16) * 2 * 16;
    QCOMPARE(state, 139460608.0);
    QCOMPARE(memory.segment(QStringLiteral("Fixed state"))[1], state);
    const core::Evaluation &e = doc.evaluation();
    QCOMPARE(e[core::FigureId::StateBytesTotal], state);
    QCOMPARE(memory.segment(QStringLiteral("KV cache"))[1] + state,
             e[core::FigureId::KvBytesTotal]);
}

QTEST_MAIN(MemoryViews)
#include "tst_memoryviews.moc"

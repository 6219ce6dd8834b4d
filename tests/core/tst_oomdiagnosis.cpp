// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson's OOM diagnosis (l.239-268) computed for a scenario.

#include "testsupport.h"

#include "core/model/units.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"
#include "core/physics/oomdiagnosis.h"

#include <QObject>

#include <cmath>

class OomDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void lessonCase();
    void levers();
    void configuredConcurrencyThatFits();
    void overheadSplitFollowsTheBreakdown();
    void tensorParallelAccountsPerDevice_data();
    void tensorParallelAccountsPerDevice();
};

// l.255: "Weights 14 + context 1.5 + workspace 1.0 leaves 7.5 GB for KV ... 13 sequences (13.97
// rounded down), so the 14th triggers failure"; l.260: 27 with 1-byte weights; l.265: 24 of 27.
void OomDiagnosis::lessonCase()
{
    const core::OomDiagnosis d =
        core::diagnoseOom(testsupport::loadScenario(QStringLiteral("oom-14th-request")));
    ACCEL_COMPARE_NEAR(d.freeForKvBytes / 1e9, 7.5, 0.05);
    ACCEL_COMPARE_NEAR(d.sequencesExact, 13.97, 0.005);
    QCOMPARE(d.sequencesFit, 13.0);
    QCOMPARE(d.firstFailing, 14.0);
    QCOMPARE(d.configured, 32.0);
    QVERIFY(
        !d.configuredFits); // "The configured limit of 32 sequences could never have been served"
    // the three numbers: tensors < reserved < device
    ACCEL_COMPARE_NEAR(d.tensorBytes, 14e9 + 32 * 536870912.0, 1);
    ACCEL_COMPARE_NEAR(d.reservedBytes, d.tensorBytes + 1.0e9, 1); // + workspace
    ACCEL_COMPARE_NEAR(d.deviceBytes, d.reservedBytes + 1.5e9, 1); // + runtime context
}

void OomDiagnosis::levers()
{
    const core::OomDiagnosis d =
        core::diagnoseOom(testsupport::loadScenario(QStringLiteral("oom-14th-request")));
    auto lever = [&](const char *prefix) -> const core::OomLever * {
        for (const core::OomLever &l : d.levers)
            if (l.name.rfind(prefix, 0) == 0)
                return &l;
        return nullptr;
    };
    QVERIFY(lever("Use 1-byte weights"));
    QCOMPARE(lever("Use 1-byte weights")->sequences, 27.0);          // l.260
    QCOMPARE(lever("Lower the concurrency limit")->sequences, 11.0); // floor(0.9 x 13)
    // halving the context doubles the sequences that fit: floor(7.5e9 / 268,435,456) = 27
    QCOMPARE(lever("Halve the context budget")->sequences, 27.0);
    QVERIFY(lever("Quantise the KV cache")->sequences >= 27.0);
    QVERIFY(lever("Shard the model")->sequences > 13.0);
    for (const core::OomLever &l : d.levers)
        QVERIFY2(!l.price.empty(), l.name.c_str());
}

void OomDiagnosis::configuredConcurrencyThatFits()
{
    const core::OomDiagnosis d =
        core::diagnoseOom(testsupport::loadScenario(QStringLiteral("lesson-default")));
    QVERIFY(d.configuredFits);
    QCOMPARE(d.sequencesFit, 118.0);
}

// l.255: "context 1.5 + workspace 1.0"; without a breakdown the split is unknown.
void OomDiagnosis::overheadSplitFollowsTheBreakdown()
{
    const core::OverheadSplit lesson =
        core::overheadSplit(testsupport::loadScenario(QStringLiteral("oom-14th-request")));
    QVERIFY(lesson.known);
    ACCEL_COMPARE_NEAR(lesson.runtimeContextBytes, 1.5e9, 1);
    ACCEL_COMPARE_NEAR(lesson.workspaceBytes, 1.0e9, 1);
    const core::OverheadSplit plain =
        core::overheadSplit(testsupport::loadScenario(QStringLiteral("support-assistant")));
    QVERIFY(!plain.known);
    ACCEL_COMPARE_NEAR(plain.runtimeContextBytes, 3.0e9, 1);
    QCOMPARE(plain.workspaceBytes, 0.0);
}

// Issue #20, item 4: with tensor parallelism the view showed negative weights ("80 GB - -13.28 GB
// of weights") because per-device bytes were mixed with a sequence's whole KV. Every term of the
// accounting is per device now, and the terms add up to the count.
void OomDiagnosis::tensorParallelAccountsPerDevice_data()
{
    QTest::addColumn<double>("devices");
    QTest::addColumn<double>("fragmentation");
    QTest::newRow("1 device") << 1.0 << 0.0;
    QTest::newRow("8 devices") << 8.0 << 0.0;
    QTest::newRow("4 devices, 10 % fragmentation") << 4.0 << 0.1;
}

void OomDiagnosis::tensorParallelAccountsPerDevice()
{
    QFETCH(double, devices);
    QFETCH(double, fragmentation);
    core::Scenario s = testsupport::loadScenario(QStringLiteral("oom-14th-request"));
    s.serving.tensorParallel = devices;
    s.serving.fragmentationFraction = fragmentation;
    const core::OomDiagnosis d = core::diagnoseOom(s);
    QCOMPARE(d.devices, devices);
    ACCEL_COMPARE_NEAR(d.weightsBytes, 14e9 / devices, 1); // the lesson's 14 GB, split
    QVERIFY(d.weightsBytes > 0);
    // capacity - weights - overhead = free, all per device (l.255)
    ACCEL_COMPARE_NEAR(d.capacityBytes - d.weightsBytes - d.overheadBytes, d.freeForKvBytes, 1);
    // a sequence's 0.537 GB of KV (l.255), split and charged with fragmentation
    ACCEL_COMPARE_NEAR(d.kvBytesPerSequence, 536870912.0, 1);
    ACCEL_COMPARE_NEAR(d.kvBytesPerSequencePerDevice, 536870912.0 * (1 + fragmentation) / devices,
                       1);
    ACCEL_COMPARE_NEAR(d.sequencesExact, d.freeForKvBytes / d.kvBytesPerSequencePerDevice, 1e-9);
    QCOMPARE(d.sequencesFit, std::floor(d.sequencesExact));
    // --explain divides the same per-device terms
    const auto x = core::explain(s, core::evaluate(s), core::FigureId::MaxConcurrentSequences);
    QVERIFY(x);
    const std::string perSequence = devices > 1 || fragmentation > 0
                                        ? "/ (0.5369 GB x (1 + " +
                                              core::formatNumber(fragmentation, 3) + ") / " +
                                              core::formatNumber(devices, 9) + ")"
                                        : "/ 0.5369 GB)";
    QVERIFY2(x->substituted.find(perSequence) != std::string::npos, x->substituted.c_str());
    QVERIFY2(x->substituted.find("- -") == std::string::npos, x->substituted.c_str());
}

QTEST_GUILESS_MAIN(OomDiagnosis)
#include "tst_oomdiagnosis.moc"

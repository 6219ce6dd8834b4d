// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson's OOM diagnosis (l.239-268) computed for a scenario.

#include "testsupport.h"

#include "core/oomdiagnosis.h"

#include <QObject>

class OomDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void lessonCase();
    void levers();
    void configuredConcurrencyThatFits();
    void overheadSplitFollowsTheBreakdown();
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

QTEST_GUILESS_MAIN(OomDiagnosis)
#include "tst_oomdiagnosis.moc"

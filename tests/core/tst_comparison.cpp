// SPDX-License-Identifier: GPL-3.0-or-later
// Two scenarios side by side (lesson l.52-63 and l.100-125): BF16 against 1-byte weights halves
// the weight bytes and nothing else in memory; two devices differ in capacity, not in the
// ridge; each difference and ratio is B against A, and only the inputs that changed are named.

#include "testsupport.h"

#include "core/decide/comparison.h"

#include <QObject>

using core::FigureId;

namespace {

const core::ComparedFigure &row(const std::vector<core::ComparedFigure> &rows, FigureId id)
{
    for (const core::ComparedFigure &r : rows) {
        if (r.id == id)
            return r;
    }
    qFatal("no row");
}

} // namespace

class Comparison : public QObject
{
    Q_OBJECT

private slots:
    void bf16AgainstOneByteWeights();
    void twoDevices();
    void unknownPresetIsAnError();
};

void Comparison::bf16AgainstOneByteWeights()
{
    const core::Scenario a = testsupport::loadScenario(QStringLiteral("lesson-default"),
                                                       {QStringLiteral("serving.batch=1")});
    core::ScenarioVariant variant;
    variant.weightFormat = core::NumericFormat::Int8;
    auto b = core::applyVariant(a, variant);
    QVERIFY(b.ok());
    const auto rows = core::compareFigures(core::evaluate(a), core::evaluate(b.value()));
    QCOMPARE(rows.size(), core::comparisonFigures().size());

    const auto &weights = row(rows, FigureId::WeightsBytes);
    ACCEL_COMPARE_NEAR(weights.a, 14e9, 1); // l.55: 7B x 2 bytes
    ACCEL_COMPARE_NEAR(weights.b, 7e9, 1);  // l.100: 1-byte weights
    ACCEL_COMPARE_NEAR(weights.difference, -7e9, 1);
    ACCEL_COMPARE_NEAR(weights.ratio, 0.5, 1e-12);
    QVERIFY(weights.differs);

    const auto &kv = row(rows, FigureId::KvBytesTotal); // the KV cache stays BF16
    QVERIFY(!kv.differs);
    ACCEL_COMPARE_NEAR(kv.ratio, 1.0, 1e-12);

    // batch 1 with one 4,096-token KV read: 14.54 GB -> 7.54 GB per step (worked-numbers.md)
    const auto &step = row(rows, FigureId::DecodeStepSeconds);
    ACCEL_COMPARE_NEAR(step.a, 14.54e-3, 0.01e-3);
    ACCEL_COMPARE_NEAR(step.b, 7.54e-3, 0.01e-3);
    ACCEL_COMPARE_NEAR(step.difference, step.b - step.a, 1e-15);
    const auto &speed = row(rows, FigureId::DecodeTokensPerSecond);
    ACCEL_COMPARE_NEAR(speed.ratio, step.a / step.b, 1e-12); // speed is the inverse of step time
    QVERIFY(speed.ratio > 1.9);

    const auto inputs = core::differingInputs(a, b.value(), core::MemoryUnits::GB);
    QCOMPARE(inputs.size(), std::size_t(1));
    QCOMPARE(inputs[0].label, std::string("Weights / KV cache"));
    QCOMPARE(inputs[0].a, std::string("BF16 / BF16"));
    QCOMPARE(inputs[0].b, std::string("INT8 / BF16"));
}

void Comparison::twoDevices()
{
    const core::Scenario a = testsupport::loadScenario(QStringLiteral("support-assistant"));
    core::ScenarioVariant variant;
    variant.deviceId = "lesson-accelerator";
    auto b = core::applyVariant(a, variant);
    QVERIFY(b.ok());
    const auto rows = core::compareFigures(core::evaluate(a), core::evaluate(b.value()));
    const auto &capacity = row(rows, FigureId::CapacityBytes);
    QVERIFY(capacity.differs);
    ACCEL_COMPARE_NEAR(capacity.difference, capacity.b - capacity.a, 1);
    QVERIFY(!row(rows, FigureId::Ridge).differs); // same 200 FLOP/B roof shape (l.93)
    QVERIFY(!row(rows, FigureId::WeightsBytes).differs);
    const auto inputs = core::differingInputs(a, b.value(), core::MemoryUnits::GB);
    QCOMPARE(inputs.size(), std::size_t(1));
    QCOMPARE(inputs[0].label, std::string("Device"));
}

void Comparison::unknownPresetIsAnError()
{
    const core::Scenario a = testsupport::loadScenario(QStringLiteral("lesson-default"));
    core::ScenarioVariant variant;
    variant.deviceId = "no-such-device";
    auto b = core::applyVariant(a, variant);
    QVERIFY(!b.ok());
    QCOMPARE(b.error().path, std::string("/device"));
    QVERIFY(b.error().message.find("no-such-device") != std::string::npos);
    QVERIFY(core::ScenarioVariant{}.isEmpty());
}

QTEST_GUILESS_MAIN(Comparison)
#include "tst_comparison.moc"

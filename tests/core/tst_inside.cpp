// SPDX-License-Identifier: GPL-3.0-or-later
// One layer's matrix multiplication tile by tile (l.25-27) and the CPU-versus-accelerator race
// (l.3, l.11), against hand-computed values.

#include "testsupport.h"

#include "core/data/presets.h"
#include "core/physics/inside.h"

#include <QObject>

#include <set>

class Inside : public QObject
{
    Q_OBJECT

private slots:
    void sevenSteps();
    void counters_data();
    void counters();
    void reuseNeedsRows();
    void raceAgainstTheCore();
};

void Inside::sevenSteps()
{
    std::set<std::string_view> titles;
    for (int step = 1; step <= core::kMatmulSteps; ++step)
        titles.insert(core::matmulStep(step).title);
    QCOMPARE(titles.size(), std::size_t(7));
    QCOMPARE(core::matmulStep(0).title, core::matmulStep(1).title); // clamped, never out of range
    QCOMPARE(core::matmulStep(99).title, core::matmulStep(7).title);
    QVERIFY(std::string(core::matmulStep(6).text).find("steps 2 to 6") != std::string::npos);
}

// The lesson's 7B has no FFN size: its layer's matmul is hidden x hidden, 4096 x 4096, BF16.
void Inside::counters_data()
{
    QTest::addColumn<double>("rows");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    const double k = 4096;
    const double n = 4096;
    for (const double m : {1.0, 8.0, 4096.0})
        QTest::addRow("%g rows", m) << m << 2 * m * k * n << 2 * (m * k + k * n + m * n);
}

void Inside::counters()
{
    QFETCH(double, rows);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    const core::MatmulCounters c =
        core::matmulCounters(testsupport::loadScenario(QStringLiteral("lesson-default")), rows);
    QCOMPARE(c.flops, flops);
    QCOMPARE(c.bytes, bytes);
    ACCEL_COMPARE_NEAR(c.reusePerByte, flops / bytes, 1e-12);
    QCOMPARE(c.kSteps, 32.0); // 4096 / 128-wide tiles: steps 2-6 run 32 times
}

// l.27: "high when the activation matrix has many rows ... almost absent when it has one row"
void Inside::reuseNeedsRows()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("lesson-default"));
    QVERIFY(core::matmulCounters(s, 1).reusePerByte < 1.0);
    QVERIFY(core::matmulCounters(s, 4096).reusePerByte > 1000.0);
}

// Each lane is max(bytes / bandwidth, FLOP / peak) with the device's own figures.
void Inside::raceAgainstTheCore()
{
    const core::Scenario s = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const core::DeviceSpec cpu = core::devicePreset("amd-epyc-9654").value();
    for (const double rows : {1.0, 512.0}) {
        const core::Race r = core::race(s, cpu, rows);
        const double flops = 2 * rows * 4096 * 4096;
        const double bytes = 2 * (rows * 4096 + 4096 * 4096 + rows * 4096);
        ACCEL_COMPARE_NEAR(r.accelerator.matmulSeconds, std::max(bytes / 1000e9, flops / 200e12),
                           1e-15);
        ACCEL_COMPARE_NEAR(r.cpu.matmulSeconds, std::max(bytes / 460.8e9, flops / 14.7e12), 1e-15);
        QVERIFY(r.matmulSpeedup > 1.0);
        // a decode step of the whole model: the core's own figure on each device
        core::Scenario onCpu = s;
        onCpu.device = cpu;
        onCpu.serving.batch = rows;
        onCpu.serving.concurrentSequences = std::max(s.serving.concurrentSequences, rows);
        ACCEL_COMPARE_NEAR(r.cpu.decodeSeconds,
                           core::evaluate(onCpu)[core::FigureId::DecodeStepSeconds], 1e-12);
    }
    // one row: both memory-bound; a large batch: the accelerator turns compute-bound
    QCOMPARE(core::race(s, cpu, 1).accelerator.matmulBound, core::Bound::Memory);
    QCOMPARE(core::race(s, cpu, 4096).accelerator.matmulBound, core::Bound::Compute);
}

QTEST_GUILESS_MAIN(Inside)
#include "tst_inside.moc"

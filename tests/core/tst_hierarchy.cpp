// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the device (lesson l.15-33): the memory tiers, the cold start hop by hop and the price of
// spilling to host memory, against hand-computed values.

#include "testsupport.h"

#include "core/physics/hierarchy.h"

#include <QObject>

class Hierarchy : public QObject
{
    Q_OBJECT

private slots:
    void tiersShowTheOrdersOfMagnitude();
    void coldStartHopByHop();
    void coldStartUsesTheDevicesHostLink();
    void spillAcrossTheHostLink();
    void spillIsHypotheticalWhenItFits();
};

// l.33: each step down costs one to two orders of magnitude; the device's own figures where the
// preset has them, typical ones marked typical.
void Hierarchy::tiersShowTheOrdersOfMagnitude()
{
    const auto tiers =
        core::memoryHierarchy(testsupport::loadScenario(QStringLiteral("lesson-default")));
    QCOMPARE(tiers.size(), std::size_t(5));
    QCOMPARE(tiers[1].capacityBytes.value, 80e9); // the lesson's device
    QCOMPARE(tiers[1].capacityBytes.origin, core::FigureOrigin::Device);
    QCOMPARE(tiers[1].bandwidthBytesPerSecond.value, 1000e9);
    QCOMPARE(tiers[0].capacityBytes.origin, core::FigureOrigin::Typical); // no SRAM figure
    QCOMPARE(tiers[4].bandwidthBytesPerSecond.origin, core::FigureOrigin::Link);
    for (std::size_t i = 1; i < tiers.size(); ++i) {
        QVERIFY(tiers[i].capacityBytes.value > tiers[i - 1].capacityBytes.value);
        QVERIFY(tiers[i].latencySeconds.value > tiers[i - 1].latencySeconds.value);
        for (const core::TierFigure *f :
             {&tiers[i].capacityBytes, &tiers[i].bandwidthBytesPerSecond, &tiers[i].latencySeconds})
            QVERIFY(!f->source.empty());
    }
    // a preset with an SRAM figure uses it
    const auto h100 = core::memoryHierarchy(testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("device=\"nvidia-h100-sxm\"")}));
    QCOMPARE(h100[0].capacityBytes.value, 50e6);
    QCOMPARE(h100[0].capacityBytes.origin, core::FigureOrigin::Device);
}

// l.33: 14 GB from object storage to host memory, then across the host link into HBM.
void Hierarchy::coldStartHopByHop()
{
    const core::ColdStart c =
        core::coldStart(testsupport::loadScenario(QStringLiteral("lesson-default")));
    QCOMPARE(c.bytes, 14e9);
    QCOMPARE(c.hops.size(), std::size_t(2));
    ACCEL_COMPARE_NEAR(c.hops[0].seconds, 14e9 / 12.5e9, 1e-12); // 100 GbE: 1.12 s
    ACCEL_COMPARE_NEAR(c.hops[1].seconds, 14e9 / 31.5e9, 1e-12); // PCIe 4.0 x16: 0.444 s
    ACCEL_COMPARE_NEAR(c.totalSeconds, 1.12 + 14.0 / 31.5, 1e-9);
    QCOMPARE(c.slowestHop, std::size_t(0));
    QVERIFY(c.leftOut.find("engine") != std::string::npos); // below "tens of seconds": says why
}

void Hierarchy::coldStartUsesTheDevicesHostLink()
{
    const core::ColdStart c = core::coldStart(testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("device.host_link_gb_s=63")}));
    ACCEL_COMPARE_NEAR(c.hops[1].seconds, 14e9 / 63e9, 1e-12);
    QCOMPARE(c.hops[1].bandwidthBytesPerSecond.origin, core::FigureOrigin::Device);
}

// The 24 GB device configured for 32 x 4096: 9.68 GB does not fit. If it lived in host memory,
// each decode step (14 GB + 32 x 0.537 GB = 31.18 GB) would read 9.68 GB across PCIe 4.0 x16.
void Hierarchy::spillAcrossTheHostLink()
{
    const core::Spill s =
        core::spill(testsupport::loadScenario(QStringLiteral("oom-14th-request")));
    QVERIFY(s.spills);
    QVERIFY(!s.hypothetical);
    const double step = 14e9 + 32 * 536870912.0;
    const double spilled = 14e9 + 32 * 536870912.0 + 2.5e9 - 24e9;
    ACCEL_COMPARE_NEAR(s.stepBytes, step, 1.0);
    ACCEL_COMPARE_NEAR(s.spilledBytes, spilled, 1.0);
    ACCEL_COMPARE_NEAR(s.allInHbmSeconds, step / 1e12, 1e-12);
    ACCEL_COMPARE_NEAR(s.spillSeconds, (step - spilled) / 1e12 + spilled / 31.5e9, 1e-12);
    ACCEL_COMPARE_NEAR(s.slowdown, 10.55, 0.01); // 328.8 ms against 31.18 ms
}

void Hierarchy::spillIsHypotheticalWhenItFits()
{
    const core::Spill s = core::spill(testsupport::loadScenario(QStringLiteral("lesson-default")));
    QVERIFY(!s.spills);
    QVERIFY(s.hypothetical);
    ACCEL_COMPARE_NEAR(s.spilledBytes, 0.1 * s.stepBytes, 1.0);
    QVERIFY(s.slowdown > 1.0);
}

QTEST_GUILESS_MAIN(Hierarchy)
#include "tst_hierarchy.moc"

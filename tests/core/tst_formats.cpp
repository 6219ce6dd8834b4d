// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric formats, group quantisation and the display formatting of units.

#include "testsupport.h"

#include "core/model/formats.h"
#include "core/model/units.h"

#include <QObject>

#include <array>

class Formats : public QObject
{
    Q_OBJECT

private slots:
    void bytesPerParameter_data();
    void bytesPerParameter();
    void formatKeysRoundTrip();
    void tf32IsComputeOnly();
    void asymmetricQuantisation();
    void groupsLimitTheDamageOfAnOutlier();
    void quantiseHandlesEmptyZeroAndNonFinite();
    void formatBytes_data();
    void formatBytes();
    void formatNumbers();
    void figuresBeyondAnyRealValueSaySo();
};

void Formats::bytesPerParameter_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("groupSize");
    QTest::addColumn<int>("scaleBits");
    QTest::addColumn<int>("zeroBits");
    QTest::addColumn<double>("expected");
    // Storage sizes: IEEE 754 binary32/binary16, bfloat16, OCP FP8, 8- and 4-bit integers.
    QTest::newRow("fp32 4 B") << "fp32" << 0 << 16 << 0 << 4.0;
    QTest::newRow("bf16 2 B") << "bf16" << 0 << 16 << 0 << 2.0;
    QTest::newRow("fp16 2 B") << "fp16" << 0 << 16 << 0 << 2.0;
    QTest::newRow("fp8 1 B") << "fp8" << 0 << 16 << 0 << 1.0;
    QTest::newRow("int8 1 B") << "int8" << 0 << 16 << 0 << 1.0;
    QTest::newRow("int4 0.5 B") << "int4" << 0 << 16 << 0 << 0.5;
    // lesson l.49: one 16-bit scale per 128 weights adds 2/128 = 0.0156 B
    QTest::newRow("int4 g128 s16: 0.515625") << "int4" << 128 << 16 << 0 << 0.515625;
    QTest::newRow("int4 g128 s16 z16 (asymmetric): 0.53125")
        << "int4" << 128 << 16 << 16 << 0.53125;
    QTest::newRow("int8 g64 s16: 1.03125") << "int8" << 64 << 16 << 0 << 1.03125;
    QTest::newRow("fp8 g32 s8 (MX-style scale): 1.03125") << "fp8" << 32 << 8 << 0 << 1.03125;
    QTest::newRow("bf16 ignores groups") << "bf16" << 128 << 16 << 0 << 2.0;
}

void Formats::bytesPerParameter()
{
    QFETCH(QString, format);
    QFETCH(int, groupSize);
    QFETCH(int, scaleBits);
    QFETCH(int, zeroBits);
    QFETCH(double, expected);
    auto parsed = core::parseFormat(format.toStdString());
    QVERIFY(parsed);
    ACCEL_COMPARE_NEAR(
        core::bytesPerParameter(*parsed, {double(groupSize), double(scaleBits), double(zeroBits)}),
        expected, 1e-12);
}

void Formats::formatKeysRoundTrip()
{
    for (core::NumericFormat f : core::kAllFormats) {
        auto back = core::parseFormat(core::formatKey(f));
        QVERIFY(back);
        QCOMPARE(*back, f);
    }
    QVERIFY(!core::parseFormat("BF16")); // one spelling in files: lower case
    QVERIFY(!core::parseFormat("fp4"));
}

void Formats::tf32IsComputeOnly()
{
    QVERIFY(!core::isStorageFormat(core::NumericFormat::Tf32));
    QVERIFY(core::isStorageFormat(core::NumericFormat::Bf16));
}

// Asymmetric 8-bit over [-0.5, 1.27]: scale = 1.77 / 255, zero = round(0.5 / scale) = 72.
void Formats::asymmetricQuantisation()
{
    const std::array<double, 4> weights = {0.020, -0.500, 1.270, 0.003};
    const core::Quantisation q = core::quantise(weights, 8, false, 0);
    ACCEL_COMPARE_NEAR(q.scales[0], 1.77 / 255.0, 1e-12);
    QCOMPARE(q.zeroPoints[0], 72.0);
    for (std::int64_t code : q.codes)
        QVERIFY(code >= 0 && code <= 255);
    // Every weight is within one step of its original.
    for (double error : q.errors)
        QVERIFY(std::fabs(error) <=
                q.scales[0] + 1e-12); // half a step of rounding + half of the zero point
}

// One outlier sets the scale of its group; smaller groups keep the small weights apart.
void Formats::groupsLimitTheDamageOfAnOutlier()
{
    const std::array<double, 8> weights = {0.011, -0.012, 0.013, -0.014, 0.015, -0.016, 0.017, 8.0};
    const core::Quantisation perTensor = core::quantise(weights, 4, true, 0);
    const core::Quantisation perGroup = core::quantise(weights, 4, true, 2);
    // 4-bit symmetric: scale = 8 / 7, so every small weight rounds to zero per tensor.
    for (std::size_t i = 0; i < 7; ++i)
        QCOMPARE(perTensor.codes[i], std::int64_t(0));
    QCOMPARE(perGroup.scales.size(), std::size_t(4));
    QVERIFY(perGroup.rmsError < perTensor.rmsError / 2);
    for (std::size_t i = 0; i < 6; ++i) // only the outlier's partner is crushed
        QVERIFY(perGroup.codes[i] != 0);
    QCOMPARE(perGroup.codes[6], std::int64_t(0));
}

void Formats::quantiseHandlesEmptyZeroAndNonFinite()
{
    const core::Quantisation empty = core::quantise({}, 8, true, 0);
    QVERIFY(empty.codes.empty());
    QCOMPARE(empty.rmsError, 0.0);
    const std::array<double, 3> zeros = {0.0, 0.0, 0.0};
    const core::Quantisation z = core::quantise(zeros, 8, false, 2);
    for (double d : z.dequantised)
        QCOMPARE(d, 0.0);
    const std::array<double, 3> odd = {1.0, std::nan(""), HUGE_VAL};
    const core::Quantisation n = core::quantise(odd, 8, true, 0);
    for (double d : n.dequantised)
        QVERIFY(std::isfinite(d));
}

void Formats::formatBytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("units");
    QTest::addColumn<QString>("expected");
    QTest::newRow("14 GB") << 14e9 << int(core::MemoryUnits::GB) << "14 GB";
    QTest::newRow("13.04 GiB (lesson l.45)") << 14e9 << int(core::MemoryUnits::GiB) << "13.04 GiB";
    QTest::newRow("both") << 14e9 << int(core::MemoryUnits::Both) << "14 GB (13.04 GiB)";
    // 0.537 GB is exactly 0.5 GiB and 17.18 GB exactly 16 GiB: a teaching moment.
    QTest::newRow("0.537 GB = 0.5 GiB")
        << 536870912.0 << int(core::MemoryUnits::Both) << "0.5369 GB (0.5 GiB)";
    QTest::newRow("17.18 GB = 16 GiB")
        << 17179869184.0 << int(core::MemoryUnits::Both) << "17.18 GB (16 GiB)";
    QTest::newRow("negative headroom") << -8.7e9 << int(core::MemoryUnits::GB) << "-8.7 GB";
    QTest::newRow("NaN is n/a") << std::nan("") << int(core::MemoryUnits::GB) << "n/a";
}

void Formats::formatBytes()
{
    QFETCH(double, bytes);
    QFETCH(int, units);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(core::formatBytes(bytes, core::MemoryUnits(units))), expected);
}

void Formats::formatNumbers()
{
    QCOMPARE(core::formatNumber(1026.17, 4), std::string("1,026"));
    QCOMPARE(core::formatNumber(437.2787, 3), std::string("437"));
    QCOMPARE(core::formatNumber(0.0), std::string("0"));
    QCOMPARE(core::formatNumber(HUGE_VAL), std::string("n/a"));
    QCOMPARE(core::formatSeconds(0.0183), std::string("18.3 ms"));
    QCOMPARE(core::formatSeconds(1.96), std::string("1.96 s"));
    // message sizes as the lesson prints them (l.166-170, l.161)
    QCOMPARE(core::formatMessageBytes(262144), std::string("262,144 B"));
    QCOMPARE(core::formatMessageBytes(393216), std::string("393,216 B"));
    QCOMPARE(core::formatMessageBytes(25165824), std::string("25.17 MB"));
    QCOMPARE(core::formatMessageBytes(24.5e9), std::string("24.5 GB"));
    QCOMPARE(core::formatSeconds(64e-5), std::string("640 µs"));
    QCOMPARE(core::formatFlopRate(200e12), std::string("200 TFLOP/s"));
    QCOMPARE(core::formatUsd(2.7777), std::string("$2.78"));
    QCOMPARE(core::formatUsd(-1234.5), std::string("-$1,234.50"));
    // below a cent, three significant digits: a hosted API's $0.00144 per request never reads
    // "$0.00" (issue #40)
    QCOMPARE(core::formatUsd(0.00144), std::string("$0.00144"));
    QCOMPARE(core::formatUsd(0.62), std::string("$0.62"));
    QCOMPARE(core::formatUsd(0.0), std::string("$0.00"));
    QCOMPARE(core::formatUsd(-0.000251), std::string("-$0.000251"));
    // counts as a training plan names them (issue #45): device-hours are not given to the
    // thousandth of an hour
    QCOMPARE(core::formatCount(15e12), std::string("15 T"));
    QCOMPARE(core::formatCount(131072), std::string("131,072"));
    QCOMPARE(core::formatCount(429586.638), std::string("429,587"));
    QCOMPARE(core::formatCount(634.973), std::string("635"));
    QCOMPARE(core::formatCount(12.5), std::string("12.5"));
}

// Issue #41, item 3: inputs inside their ranges (ten years of 1000 % growth a month, a throttle
// of 1e-307) gave 9.27e124 replicas, a $4.5e128 fleet and a 300-digit price per million tokens,
// printed digit by digit. From 10^15 on a count, a price, a time or a size says it is beyond any
// real figure; just below it still prints.
void Formats::figuresBeyondAnyRealValueSaySo()
{
    const std::string beyond = "beyond any real figure";
    QCOMPARE(core::formatNumber(9.27e124), beyond + " (over 10^15)");
    QCOMPARE(core::formatNumber(-1e300), beyond + " (over 10^15)");
    QCOMPARE(core::formatUsd(4.5e128), beyond + " (over $10^15)");
    QCOMPARE(core::formatUsd(3.84e305), beyond + " (over $10^15)");
    QCOMPARE(core::formatSeconds(2.7e299), beyond + " (over 10^15 s)");
    QCOMPARE(core::formatBytes(1e40), beyond + " (over 10^15 GB)");
    QCOMPARE(core::formatNumber(9.99e14, 3), std::string("999,000,000,000,000"));
    QCOMPARE(core::formatUsd(9.99e14), std::string("$999,000,000,000,000.00"));
}

QTEST_GUILESS_MAIN(Formats)
#include "tst_formats.moc"

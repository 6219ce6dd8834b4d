// SPDX-License-Identifier: GPL-3.0-or-later
// Number formats bit by bit, checked against IEEE 754 (binary32, binary16), bfloat16, TF32 and the
// OCP 8-bit floating point specification (E4M3, E5M2).

#include "testsupport.h"

#include "core/physics/precision.h"

#include <QObject>

class Precision : public QObject
{
    Q_OBJECT

private slots:
    void layouts_data();
    void layouts();
    void rounding_data();
    void rounding();
};

void Precision::layouts_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("exponent");
    QTest::addColumn<int>("mantissa");
    QTest::addColumn<double>("maxFinite");
    QTest::addColumn<double>("minNormal");
    QTest::addColumn<double>("epsilon");
    QTest::newRow("fp32") << "fp32" << 8 << 23 << 3.4028234663852886e38 << 1.1754943508222875e-38
                          << 1.1920928955078125e-7;
    QTest::newRow("tf32") << "tf32" << 8 << 10 << 3.4011621342146535e38 << 1.1754943508222875e-38
                          << 9.765625e-4;
    QTest::newRow("bf16") << "bf16" << 8 << 7 << 3.3895313892515355e38 << 1.1754943508222875e-38
                          << 0.0078125;
    QTest::newRow("fp16 (65,504)") << "fp16" << 5 << 10 << 65504.0 << 6.103515625e-5 << 9.765625e-4;
    QTest::newRow("fp8 E4M3 (OCP: 448)") << "fp8-e4m3" << 4 << 3 << 448.0 << 0.015625 << 0.125;
    QTest::newRow("fp8 E5M2 (OCP: 57,344)")
        << "fp8-e5m2" << 5 << 2 << 57344.0 << 6.103515625e-5 << 0.25;
    QTest::newRow("int8") << "int8" << 0 << 7 << 127.0 << 1.0 << 1.0;
    QTest::newRow("int4") << "int4" << 0 << 3 << 7.0 << 1.0 << 1.0;
}

void Precision::layouts()
{
    QFETCH(QString, key);
    QFETCH(int, exponent);
    QFETCH(int, mantissa);
    QFETCH(double, maxFinite);
    QFETCH(double, minNormal);
    QFETCH(double, epsilon);
    const core::BitLayout *l = core::findBitLayout(key.toStdString());
    QVERIFY(l);
    QCOMPARE(l->exponent, exponent);
    QCOMPARE(l->mantissa, mantissa);
    QCOMPARE(l->maxFinite, maxFinite);
    QCOMPARE(l->minNormal, minNormal);
    QCOMPARE(l->epsilon, epsilon);
    QCOMPARE(l->bits(), key.startsWith(QLatin1String("fp32")) || key == QLatin1String("tf32")
                            ? (key == QLatin1String("tf32") ? 19 : 32)
                        : key.contains(QLatin1String("16")) ? 16
                        : key == QLatin1String("int4")      ? 4
                                                            : 8);
}

void Precision::rounding_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("expected");
    QTest::addColumn<bool>("overflow");
    QTest::addColumn<bool>("underflow");
    QTest::addColumn<bool>("subnormal");
    QTest::newRow("fp16 65,519 stays finite")
        << "fp16" << 65519.0 << 65504.0 << false << false << false;
    QTest::newRow("fp16 65,520 overflows (IEEE: to infinity)")
        << "fp16" << 65520.0 << 65504.0 << true << false << false;
    QTest::newRow("fp16 1e-8 underflows to zero")
        << "fp16" << 1e-8 << 0.0 << false << true << false;
    QTest::newRow("bf16 0.1") << "bf16" << 0.1 << 0.10009765625 << false << false << false;
    QTest::newRow("bf16 1 + 2^-8 rounds to 1 (ties to even)")
        << "bf16" << 1.0 + std::ldexp(1.0, -8) << 1.0 << false << false << false;
    QTest::newRow("fp8 E4M3 464 rounds to 448 (tie to even)")
        << "fp8-e4m3" << 464.0 << 448.0 << false << false << false;
    QTest::newRow("fp8 E4M3 465 overflows")
        << "fp8-e4m3" << 465.0 << 448.0 << true << false << false;
    QTest::newRow("fp8 E4M3 0.003 is subnormal")
        << "fp8-e4m3" << 0.003 << 0.00390625 << false << false << true;
    QTest::newRow("fp32 0.1") << "fp32" << 0.1 << double(0.1f) << false << false << false;
    QTest::newRow("int8 127.4") << "int8" << 127.4 << 127.0 << false << false << false;
    QTest::newRow("int8 0.1 vanishes without a scale")
        << "int8" << 0.1 << 0.0 << false << true << false;
    QTest::newRow("int8 200 saturates") << "int8" << 200.0 << 127.0 << true << false << false;
    QTest::newRow("int4 -8.6 saturates") << "int4" << -8.6 << -8.0 << true << false << false;
}

void Precision::rounding()
{
    QFETCH(QString, key);
    QFETCH(double, input);
    QFETCH(double, expected);
    QFETCH(bool, overflow);
    QFETCH(bool, underflow);
    QFETCH(bool, subnormal);
    const core::Rounded r = core::roundTo(input, *core::findBitLayout(key.toStdString()));
    QCOMPARE(r.value, expected);
    QCOMPARE(r.overflow, overflow);
    QCOMPARE(r.underflow, underflow);
    QCOMPARE(r.subnormal, subnormal);
    QCOMPARE(r.error, expected - input);
}

QTEST_GUILESS_MAIN(Precision)
#include "tst_precision.moc"

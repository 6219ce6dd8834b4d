// SPDX-License-Identifier: GPL-3.0-or-later
// core/fit: weighted linear least squares with bounds. Known answers worked out by hand, the
// coefficients recovered from synthetic measurements with noise, bounds that bind, and the data
// that cannot determine a coefficient refused with its name.

#include "testsupport.h"

#include "core/calibrate/fit.h"

#include <QObject>

#include <cmath>
#include <random>

class Fit : public QObject
{
    Q_OBJECT

private slots:
    void aLineThroughThreePoints();
    void weightsPullTowardsTheirRows();
    void recoversKnownCoefficientsFromNoisyData();
    void boundsBind_data();
    void boundsBind();
    void undeterminedCoefficientIsNamed();
    void malformedProblemsAreRefused_data();
    void malformedProblemsAreRefused();
};

// y = 1 + 2x through (0, 1), (1, 3), (2, 5): exact, residuals 0.
void Fit::aLineThroughThreePoints()
{
    core::LinearFitProblem p;
    p.columns = 2;
    p.design = {1, 0, 1, 1, 1, 2};
    p.targets = {1, 3, 5};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY(fit);
    ACCEL_COMPARE_NEAR(fit->coefficients[0], 1.0, 1e-12);
    ACCEL_COMPARE_NEAR(fit->coefficients[1], 2.0, 1e-12);
    ACCEL_COMPARE_NEAR(fit->weightedSquaredError, 0.0, 1e-20);
}

// A constant fitted to 0 and 3 with weights 1 and 2 is their weighted mean: (0 + 6) / 3 = 2.
void Fit::weightsPullTowardsTheirRows()
{
    core::LinearFitProblem p;
    p.columns = 1;
    p.design = {1, 1};
    p.targets = {0, 3};
    p.weights = {1, 2};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY(fit);
    ACCEL_COMPARE_NEAR(fit->coefficients[0], 2.0, 1e-12);
    ACCEL_COMPARE_NEAR(fit->residuals[0], 2.0, 1e-12);
    ACCEL_COMPARE_NEAR(fit->residuals[1], -1.0, 1e-12);
}

// The calibration's shape: step = t0 + bytes x (1 / (bandwidth x efficiency)). Data made with
// t0 = 4 ms and 1 / (1 TB/s x 0.8), with 1 % noise, in relative-error weights: both come back
// within 2 %.
void Fit::recoversKnownCoefficientsFromNoisyData()
{
    const double t0 = 0.004;
    const double secondsPerByte = 1.0 / (1e12 * 0.8);
    std::mt19937 random(7);
    std::normal_distribution<double> noise(0.0, 0.01);
    core::LinearFitProblem p;
    p.columns = 2;
    p.names = {"step overhead", "seconds per byte"};
    for (int i = 0; i < 200; ++i) {
        const double bytes = 2e9 + 1e8 * i;
        const double step = (t0 + bytes * secondsPerByte) * (1.0 + noise(random));
        p.design.insert(p.design.end(), {1.0, bytes});
        p.targets.push_back(step);
        p.weights.push_back(1.0 / (step * step)); // relative error
    }
    p.lower = {0.0, 0.0};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY2(fit, fit ? "" : fit.error().message.c_str());
    ACCEL_COMPARE_NEAR(fit->coefficients[0], t0, 0.02 * t0);
    ACCEL_COMPARE_NEAR(fit->coefficients[1], secondsPerByte, 0.02 * secondsPerByte);
    QCOMPARE(fit->atBound, (std::vector<bool>{false, false}));
}

void Fit::boundsBind_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("expected");
    QTest::addColumn<bool>("atBound");
    // the unbounded answer is the mean of 1, 2 and 6: 3
    QTest::newRow("free") << -10.0 << 10.0 << 3.0 << false;
    QTest::newRow("held below 3") << -10.0 << 2.5 << 2.5 << true;
    QTest::newRow("held above 3") << 4.0 << 10.0 << 4.0 << true;
    QTest::newRow("a point") << 1.0 << 1.0 << 1.0 << true;
}

void Fit::boundsBind()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, expected);
    QFETCH(bool, atBound);
    core::LinearFitProblem p;
    p.columns = 1;
    p.design = {1, 1, 1};
    p.targets = {1, 2, 6};
    p.lower = {lower};
    p.upper = {upper};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY(fit);
    ACCEL_COMPARE_NEAR(fit->coefficients[0], expected, 1e-12);
    QCOMPARE(bool(fit->atBound[0]), atBound);
}

// Two measurements at the same size cannot separate an overhead from a per-byte cost.
void Fit::undeterminedCoefficientIsNamed()
{
    core::LinearFitProblem p;
    p.columns = 2;
    p.names = {"step overhead", "seconds per byte"};
    p.design = {1, 5e9, 1, 5e9};
    p.targets = {0.01, 0.011};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY(!fit);
    QVERIFY2(fit.error().message.find("cannot determine") != std::string::npos,
             fit.error().message.c_str());
    QVERIFY2(fit.error().message.find("step overhead") != std::string::npos ||
                 fit.error().message.find("seconds per byte") != std::string::npos,
             fit.error().message.c_str());
    // the overhead held at 0 by its bounds: the rest is determined
    p.lower = {0, 0};
    p.upper = {0, 1};
    auto held = core::fitLinearLeastSquares(p);
    QVERIFY2(held, held ? "" : held.error().message.c_str());
    ACCEL_COMPARE_NEAR(held->coefficients[1], 0.0105 / 5e9, 1e-22);
}

void Fit::malformedProblemsAreRefused_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("no columns") << "columns";
    QTest::newRow("design size") << "design";
    QTest::newRow("zero weight") << "weights";
    QTest::newRow("crossed bounds") << "bounds";
    QTest::newRow("not finite") << "targets";
}

void Fit::malformedProblemsAreRefused()
{
    QFETCH(QString, what);
    core::LinearFitProblem p;
    p.columns = 1;
    p.design = {1, 1};
    p.targets = {1, 2};
    if (what == QStringLiteral("columns"))
        p.columns = 0;
    else if (what == QStringLiteral("design"))
        p.design = {1};
    else if (what == QStringLiteral("weights"))
        p.weights = {1, 0};
    else if (what == QStringLiteral("bounds"))
        p.lower = {2}, p.upper = {1};
    else
        p.targets = {1, std::nan("")};
    auto fit = core::fitLinearLeastSquares(p);
    QVERIFY(!fit);
    QVERIFY2(QString::fromStdString(fit.error().path).startsWith(QLatin1Char('/') + what),
             fit.error().path.c_str());
}

QTEST_GUILESS_MAIN(Fit)
#include "tst_fit.moc"

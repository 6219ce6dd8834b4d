// SPDX-License-Identifier: GPL-3.0-or-later
// The deeper memory and throughput models beyond the lesson's toy: training recipes (optimiser,
// master copy), activation memory with recompute, energy per token with idle power, utilisation
// and replicas from a traffic description, 16-bit embeddings beside quantised weights, and the
// max-context warning. Expected values are worked out here from the cited formulas, never read
// back from the code.

#include "testsupport.h"

#include "core/model/calc.h"
#include "core/model/parameters.h"

#include <QObject>

using core::FigureId;
using testsupport::evaluateScenario;

class DeeperModels : public QObject
{
    Q_OBJECT

private slots:
    void trainingRecipes_data();
    void trainingRecipes();
    void adafactorIsLabelledAnApproximation();
    void activationsFollowKorthikanti_data();
    void activationsFollowKorthikanti();
    void energyChargesIdlePower();
    void trafficGivesUtilisationAndReplicas();
    void embeddingsKeptAt16Bit();
    void contextBeyondTheModelsMaximumWarns();
};

void DeeperModels::trainingRecipes_data()
{
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<double>("bytesPerParameter"); // weights + gradients + master + optimiser
    QTest::newRow("lesson l.61: BF16 + FP32 master + two FP32 Adam moments")
        << "mixed-bf16-adam" << 2.0 + 2 + 4 + 8;
    QTest::newRow("AdamW: the same state as Adam") << "mixed-bf16-adamw" << 16.0;
    QTest::newRow("FP32 gradients") << "mixed-bf16-adam-fp32-grads" << 2.0 + 4 + 4 + 8;
    QTest::newRow("FP32 throughout, no separate master") << "fp32-adam" << 4.0 + 4 + 0 + 8;
    QTest::newRow("SGD with one FP32 momentum") << "mixed-bf16-sgd-momentum" << 2.0 + 2 + 4 + 4;
    QTest::newRow("8-bit Adam (Dettmers et al. 2022): two 1-byte moments")
        << "mixed-bf16-adam-8bit" << 2.0 + 2 + 4 + 1 + 1;
    QTest::newRow("master copy off") << "mixed-bf16-no-master-adam" << 2.0 + 2 + 0 + 8;
}

void DeeperModels::trainingRecipes()
{
    QFETCH(QString, recipe);
    QFETCH(double, bytesPerParameter);
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("training.recipe=\"%1\"").arg(recipe)});
    QCOMPARE(e[FigureId::TrainingBytesPerParameter], bytesPerParameter);
    QCOMPARE(e[FigureId::TrainingStateBytes], 7e9 * bytesPerParameter); // P = 7e9 (l.43)
}

void DeeperModels::adafactorIsLabelledAnApproximation()
{
    const core::TrainingRecipe *adafactor = core::findTrainingRecipe("mixed-bf16-adafactor");
    QVERIFY(adafactor);
    QVERIFY(std::string(adafactor->label).find("approximation") != std::string::npos);
    QVERIFY(std::string(adafactor->note).find("APPROXIMATION") != std::string::npos);
}

void DeeperModels::activationsFollowKorthikanti_data()
{
    // Korthikanti et al. 2022, eq. 1 and section 5, per layer with 16-bit activations:
    // none s b h (34 + 5 a s / h), selective 34 s b h, full 2 s b h. The lesson's 7B: h 4,096,
    // a 32, 32 layers; s 4,096, b 1, so s b h = 16,777,216.
    QTest::addColumn<QString>("mode");
    QTest::addColumn<double>("bytes"); // all 32 layers
    const double sbh = 4096.0 * 1 * 4096;
    QTest::newRow("none: 104.2 GB") << "none" << 32 * sbh * (34 + 5.0 * 32 * 4096 / 4096);
    QTest::newRow("selective: 18.25 GB") << "selective" << 32 * 34 * sbh;
    QTest::newRow("full: 1.07 GB") << "full" << 32 * 2 * sbh;
}

void DeeperModels::activationsFollowKorthikanti()
{
    QFETCH(QString, mode);
    QFETCH(double, bytes);
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("training.recompute=\"%1\"").arg(mode),
                                           QStringLiteral("training.micro_batch=1"),
                                           QStringLiteral("training.sequence_length=4096")});
    ACCEL_COMPARE_NEAR(e[FigureId::TrainingActivationBytes], bytes, 1.0);
    // twice the micro-batch, twice the activations
    const core::Evaluation two = evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("training.recompute=\"%1\"").arg(mode),
                                           QStringLiteral("training.micro_batch=2"),
                                           QStringLiteral("training.sequence_length=4096")});
    ACCEL_COMPARE_NEAR(two[FigureId::TrainingActivationBytes], 2 * bytes, 2.0);
}

// Average power (busy P u + idle P f (1 - u)) over the useful tokens (tokens/s x u).
void DeeperModels::energyChargesIdlePower()
{
    // 500 W, idle at 30 %, 1,000 tokens/s: at u = 1 every joule makes tokens, 0.5 J/token;
    // at u = 0.5: (250 + 500 x 0.3 x 0.5) W / 500 tokens/s = 325 / 500 = 0.65 J/token.
    ACCEL_COMPARE_NEAR(core::joulesPerToken(500, 0.3, 1000, 1.0), 0.5, 1e-12);
    ACCEL_COMPARE_NEAR(core::joulesPerToken(500, 0.3, 1000, 0.5), 0.65, 1e-12);
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("lesson-default"),
        {QStringLiteral("cost.sustained_tokens_per_second=1000"),
         QStringLiteral("cost.utilisation=0.5"), QStringLiteral("power.device_w=500"),
         QStringLiteral("power.idle_fraction=0.3")});
    ACCEL_COMPARE_NEAR(e[FigureId::CostJoulesPerToken], 0.65, 1e-12);
}

void DeeperModels::trafficGivesUtilisationAndReplicas()
{
    // 1,000,000 requests a day, each generating 4,096 - 3,584 = 512 tokens, served at 1,000
    // tokens/s per replica: 1e6 x 512 / 86,400 = 5,925.9 tokens/s on average needs 6 replicas; a
    // peak of 20 requests/s needs 20 x 512 / 1,000 = 10.24, so 11. The fleet that is paid for is
    // 11 replicas: 11 x $4/h x 730 h = $32,120 a month, busy 5,925.9 / 11,000 = 53.9 % of the
    // time. It serves 5,925.9 x 3,600 x 730 = 1.5573e10 tokens a month: $32,120 / 15,573 M =
    // $2.0625 per million (not the $1.1250 one replica at 98.8 % would give).
    const core::Evaluation e = evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.prompt_tokens=3584"),
                                           QStringLiteral("cost.sustained_tokens_per_second=1000"),
                                           QStringLiteral("cost.price_per_hour_usd=4"),
                                           QStringLiteral("traffic.requests_per_day=1000000"),
                                           QStringLiteral("traffic.peak_requests_per_second=20")});
    const double average = 1e6 * 512 / 86400.0;
    ACCEL_COMPARE_NEAR(e[FigureId::TrafficAverageTokensPerSecond], average, 1e-9);
    QCOMPARE(e[FigureId::TrafficReplicasForPeak], 11.0);
    QCOMPARE(e[FigureId::CostReplicas], 11.0);
    ACCEL_COMPARE_NEAR(e[FigureId::TrafficUtilisation], average / 11000, 1e-12);
    QCOMPARE(e[FigureId::TrafficMonthlyCostUsd], 11 * 4.0 * 730);
    QCOMPARE(e[FigureId::CostFleetUsdPerMonth], 11 * 4.0 * 730);
    QCOMPARE(e[FigureId::CostTokensFromTraffic], 1.0);
    ACCEL_COMPARE_NEAR(e[FigureId::CostTokensPerMonth], average * 3600 * 730, 1e-3);
    ACCEL_COMPARE_NEAR(e[FigureId::CostUsdPerMillionTokens], 32120 / (average * 3600 * 730 / 1e6),
                       1e-9);
    ACCEL_COMPARE_NEAR(e[FigureId::CostUsdPerMillionTokens], 2.0625, 5e-5);
    // one model, stated once: tokens x $/M is the month
    ACCEL_COMPARE_NEAR(e[FigureId::CostTokensPerMonth] / 1e6 * e[FigureId::CostUsdPerMillionTokens],
                       e[FigureId::CostFleetUsdPerMonth], 1e-6);
}

// Llama-2-7B at INT8 with its embedding and output head kept at 16 bit: those 2 x 32,000 x 4,096
// = 262,144,000 parameters take 2 bytes, the other 6,476,271,616 take 1.
void DeeperModels::embeddingsKeptAt16Bit()
{
    const QStringList int8 = {QStringLiteral("model=llama-2-7b"),
                              QStringLiteral("serving.weight_format=int8")};
    const core::Evaluation plain = evaluateScenario(QStringLiteral("lesson-default"), int8);
    QCOMPARE(plain[FigureId::WeightsBytes], 6738415616.0);
    const core::Evaluation kept =
        evaluateScenario(QStringLiteral("lesson-default"),
                         int8 + QStringList{QStringLiteral("serving.keep_embeddings_16bit=true")});
    QCOMPARE(kept[FigureId::WeightsBytes], 6738415616.0 - 262144000 + 2 * 262144000.0);
    // a model given by its parameter count alone cannot say which are embeddings: a warning
    const core::Evaluation toy = evaluateScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.weight_format=int8"),
                                           QStringLiteral("serving.keep_embeddings_16bit=true")});
    QVERIFY(toy.has(core::EvalWarning::EmbeddingsNeedArchitecture));
}

void DeeperModels::contextBeyondTheModelsMaximumWarns()
{
    // Llama-2-7B was trained for 4,096 tokens (max_position_embeddings)
    const QStringList llama = {QStringLiteral("model=llama-2-7b"),
                               QStringLiteral("serving.prompt_tokens=2048")};
    QVERIFY(!evaluateScenario(QStringLiteral("lesson-default"),
                              llama + QStringList{QStringLiteral("serving.context_tokens=4096")})
                 .has(core::EvalWarning::ContextExceedsMaxContext));
    QVERIFY(evaluateScenario(QStringLiteral("lesson-default"),
                             llama + QStringList{QStringLiteral("serving.context_tokens=4097")})
                .has(core::EvalWarning::ContextExceedsMaxContext));
}

QTEST_APPLESS_MAIN(DeeperModels)
#include "tst_deepermodels.moc"

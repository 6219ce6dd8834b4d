// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps and checks as data: each sweep row is exactly the one-off evaluation at that value (and
// the lesson's batching table where it applies), CSV reads back to the same numbers, bad CSV
// names its line, and every export carries the app version and the preset data date.

#include "testsupport.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/decide/comparison.h"
#include "core/decide/selection.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/output/exports.h"
#include "core/physics/evaluation.h"

#include <QObject>

#include <nlohmann/json.hpp>

using core::FigureId;

namespace {

std::size_t column(const core::SweepTable &table, FigureId id)
{
    for (std::size_t j = 0; j < table.figures.size(); ++j) {
        if (table.figures[j] == id)
            return j;
    }
    qFatal("no column");
}

const core::ExportStamp kStamp{"1.2.3", "2026-12-02"};

} // namespace

class Exports : public QObject
{
    Q_OBJECT

private slots:
    void batchSweepIsTheLessonsTable_data();
    void batchSweepIsTheLessonsTable();
    void everySweepRowIsTheOneOffEvaluation_data();
    void everySweepRowIsTheOneOffEvaluation();
    void csvRoundTrips();
    void sweepOfOneCopyIsSweepOfFreshCopies();
    void csvQuotesAndBadInput_data();
    void csvQuotesAndBadInput();
    void contextSweepStartsAtThePrompt();
    void jsonCarriesTheStamp();
    void badPathNamesTheValue();
    void checksAsCsv();
    void checksCsvCommentStaysOneLine();
    void formulasAreNeutralised_data();
    void formulasAreNeutralised();
    void checksCsvNeverRunsADeviceName();
    void keyAssumptionsNameTheInputs();
};

void Exports::batchSweepIsTheLessonsTable_data()
{
    QTest::addColumn<double>("batch");
    QTest::addColumn<double>("stepSeconds");
    QTest::addColumn<double>("tokensPerSecond");
    // worked-numbers.md "Batching" (lesson l.122): rounded to the lesson's digits
    QTest::newRow("batch 1") << 1.0 << 14.5e-3 << 68.8;
    QTest::newRow("batch 8") << 8.0 << 18.3e-3 << 437.0;
    QTest::newRow("batch 32") << 32.0 << 31.2e-3 << 1026.0;
}

void Exports::batchSweepIsTheLessonsTable()
{
    QFETCH(double, batch);
    QFETCH(double, stepSeconds);
    QFETCH(double, tokensPerSecond);
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const auto values = core::sweepValues(core::SweepKind::Batch, lesson);
    auto table = core::sweepParameter(lesson, core::sweepPath(core::SweepKind::Batch), values);
    QVERIFY(table.ok());
    QCOMPARE(table->values.front(), 1.0);
    QCOMPARE(table->values.back(), 1024.0);
    const auto row = std::find(table->values.begin(), table->values.end(), batch);
    QVERIFY(row != table->values.end());
    const auto &cells = table->rows[std::size_t(row - table->values.begin())];
    ACCEL_COMPARE_NEAR(cells[column(table.value(), FigureId::DecodeStepSeconds)], stepSeconds,
                       0.05e-3);
    ACCEL_COMPARE_NEAR(cells[column(table.value(), FigureId::DecodeTokensPerSecond)],
                       tokensPerSecond, tokensPerSecond * 0.001 + 0.05);
}

void Exports::everySweepRowIsTheOneOffEvaluation_data()
{
    QTest::addColumn<int>("kind");
    for (core::SweepKind kind : core::kSweepKinds)
        QTest::newRow(std::string(core::sweepName(kind)).c_str()) << int(kind);
}

void Exports::everySweepRowIsTheOneOffEvaluation()
{
    QFETCH(int, kind);
    const core::Scenario base = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const std::string_view path = core::sweepPath(core::SweepKind(kind));
    const auto values = core::sweepValues(core::SweepKind(kind), base);
    QVERIFY(values.size() >= 6);
    auto table = core::sweepParameter(base, path, values);
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().message.c_str());
    QCOMPARE(table->rows.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        core::Scenario point = base;
        QVERIFY(core::setNumberAt(point, path, values[i]).ok());
        const core::Evaluation expected = core::evaluate(point);
        for (std::size_t j = 0; j < table->figures.size(); ++j) {
            const double want = expected[table->figures[j]];
            const double got = table->rows[i][j];
            QVERIFY((std::isnan(want) && std::isnan(got)) || want == got);
        }
    }
}

void Exports::csvRoundTrips()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    for (core::SweepKind kind : core::kSweepKinds) {
        const auto values = core::sweepValues(kind, lesson);
        auto table = core::sweepParameter(lesson, core::sweepPath(kind), values);
        QVERIFY(table.ok());
        const std::string csv = core::sweepToCsv(table.value(), kStamp);
        QVERIFY(csv.starts_with("# Accelerator Explorer 1.2.3; preset data 2026-12-02"));
        auto back = core::sweepFromCsv(csv);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->path, table->path);
        QCOMPARE(back->stamp.appVersion, std::string("1.2.3"));
        QCOMPARE(back->stamp.presetDataDate, std::string("2026-12-02"));
        QVERIFY(back->figures == table->figures);
        QVERIFY(back->values == table->values); // exactly: shortest round-trip digits
        for (std::size_t i = 0; i < table->rows.size(); ++i) {
            for (std::size_t j = 0; j < table->figures.size(); ++j) {
                const double a = table->rows[i][j];
                const double b = back->rows[i][j];
                QVERIFY((!std::isfinite(a) && std::isnan(b)) || a == b);
            }
        }
    }
}

void Exports::csvQuotesAndBadInput_data()
{
    QTest::addColumn<QString>("csv");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("what");
    QTest::newRow("unknown column") << "serving.batch,decode.nope\n1,2\n"
                                    << "line 1"
                                    << "unknown column \"decode.nope\"";
    QTest::newRow("not a number") << "serving.batch,decode.step_seconds\n1,fast\n"
                                  << "line 2"
                                  << "\"fast\" is not a number";
    QTest::newRow("short row") << "serving.batch,decode.step_seconds\n1\n"
                               << "line 2"
                               << "has 1 fields, the header 2";
    QTest::newRow("empty") << ""
                           << "line 1"
                           << "no header row";
    // found by fuzzing: a header of one empty quoted field wrote back as nothing
    QTest::newRow("no input column") << "\"\"\n1\n"
                                     << "line 1"
                                     << "must name the varied input";
}

void Exports::csvQuotesAndBadInput()
{
    QFETCH(QString, csv);
    QFETCH(QString, where);
    QFETCH(QString, what);
    QCOMPARE(core::csvField("a,b\"c"), std::string("\"a,b\"\"c\""));
    QCOMPARE(core::csvField("plain"), std::string("plain"));
    auto read = core::sweepFromCsv(csv.toStdString());
    QVERIFY(!read.ok());
    QCOMPARE(QString::fromStdString(read.error().path), where);
    QVERIFY2(QString::fromStdString(read.error().message).contains(what),
             read.error().message.c_str());
}

// A context shorter than the prompt would be refused: the context sweep starts at the prompt.
void Exports::contextSweepStartsAtThePrompt()
{
    const core::Scenario lesson = testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.prompt_tokens=3000")});
    const auto values = core::sweepValues(core::SweepKind::Context, lesson);
    QCOMPARE(values.front(), 3000.0);
    QCOMPARE(values[1], 4096.0);
    QCOMPARE(values.back(), 131072.0);
    QVERIFY(core::sweepParameter(lesson, "serving.context_tokens", values).ok());

    // issue #20, item 5: a prompt past 128k tokens left the sweep with no values at all
    const core::Scenario longPrompt = testsupport::loadScenario(
        QStringLiteral("lesson-default"), {QStringLiteral("serving.context_tokens=300000"),
                                           QStringLiteral("serving.prompt_tokens=200000")});
    const auto longValues = core::sweepValues(core::SweepKind::Context, longPrompt);
    QCOMPARE(longValues, (std::vector<double>{200000, 262144, 524288, 1048576}));
    auto table = core::sweepParameter(longPrompt, "serving.context_tokens", longValues);
    QVERIFY(table.ok());
    QCOMPARE(table.value().rows.size(), std::size_t(4));
}

void Exports::jsonCarriesTheStamp()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const double batches[] = {1, 8};
    auto table = core::sweepParameter(lesson, "serving.batch", batches);
    QVERIFY(table.ok());
    const auto json = nlohmann::json::parse(core::sweepToJson(table.value(), kStamp));
    QCOMPARE(json.at("app_version").get<std::string>(), std::string("1.2.3"));
    QCOMPARE(json.at("preset_data_date").get<std::string>(), std::string("2026-12-02"));
    QCOMPARE(json.at("rows").size(), std::size_t(2));
    ACCEL_COMPARE_NEAR(json.at("rows")[1].at("decode.tokens_per_second").get<double>(), 437.0,
                       0.5); // l.122
    QCOMPARE(json.at("rows")[1].at("serving.batch").get<double>(), 8.0);
    QCOMPARE(core::exportStamp("0.1.0").presetDataDate, std::string(core::presetDataDate()));
}

void Exports::badPathNamesTheValue()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const double values[] = {1, -4};
    auto table = core::sweepParameter(lesson, "serving.batch", values);
    QVERIFY(!table.ok());
    QVERIFY2(table.error().message.find("sweep value -4") != std::string::npos,
             table.error().message.c_str());
    QVERIFY(!core::sweepParameter(lesson, "serving.nope", values).ok());
    QCOMPARE(table.error().path, std::string("/serving/batch")); // a JSON pointer, as elsewhere
}

void Exports::checksAsCsv()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("support-assistant"));
    const core::Selection selection = core::selectDevice(lesson);
    const std::string csv = core::selectionToCsv(selection, kStamp);
    const QStringList lines =
        QString::fromStdString(csv).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines[0].startsWith(QStringLiteral("# Accelerator Explorer 1.2.3; preset data")));
    QVERIFY(lines[1].startsWith(QStringLiteral("# recommendation: ")));
    QVERIFY(lines[2].startsWith(QStringLiteral(
        "device,weights,verdict,passes,tensor_parallel,pipeline_parallel,replicas,devices,")));
    QVERIFY(
        lines[2].contains(QStringLiteral("usd_per_hour,monthly_cost_usd,usd_per_million_tokens")));
    // the 48 GB device, BF16: 2 devices = 2 replicas of one device, $4/h each: $5,840 a month
    QVERIFY2(csv.find("lesson-accelerator-48gb,bf16,passes,true,1,1,2,2,") != std::string::npos ||
                 csv.find("lesson-accelerator-48gb,bf16,\"passes") != std::string::npos,
             csv.c_str());
    QVERIFY(lines[2].contains(QStringLiteral("memory_status,memory_headline")));
    QCOMPARE(lines.size(), qsizetype(3 + selection.candidates.size()));
    if (const core::Candidate *best = core::recommendedCandidate(selection))
        QVERIFY(lines[1].contains(QString::fromStdString(best->deviceId)));
}

// Issue #20, item 6: a cell a spreadsheet would run as a formula is written as text (OWASP: a
// leading apostrophe, inside quotes).
void Exports::formulasAreNeutralised_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("cell");
    QTest::newRow("=cmd") << "=cmd|' /C calc'!A0"
                          << "\"'=cmd|' /C calc'!A0\"";
    QTest::newRow("=HYPERLINK") << "=HYPERLINK(\"http://x\")"
                                << "\"'=HYPERLINK(\"\"http://x\"\")\"";
    QTest::newRow("+") << "+1+2"
                       << "\"'+1+2\"";
    QTest::newRow("-") << "-2+3"
                       << "\"'-2+3\"";
    QTest::newRow("@") << "@SUM(A1)"
                       << "\"'@SUM(A1)\"";
    QTest::newRow("tab") << "\t=1"
                         << "\"'\t=1\"";
    QTest::newRow("CR") << "\r=1"
                        << "\"'\r=1\"";
    QTest::newRow("inside is fine") << "a=b"
                                    << "a=b";
    QTest::newRow("plain") << "H100 SXM"
                           << "H100 SXM";
}

void Exports::formulasAreNeutralised()
{
    QFETCH(QString, text);
    QFETCH(QString, cell);
    QCOMPARE(QString::fromStdString(core::csvField(text.toStdString())), cell);
}

void Exports::checksCsvNeverRunsADeviceName()
{
    core::Scenario s = testsupport::loadScenario(QStringLiteral("lesson-default"));
    s.device.presetId.clear();
    s.device.name = "=cmd|' /C calc'!A0";
    s.wizard.candidates.emplace(); // the scenario's own device alone
    const core::Selection selection = core::selectDevice(s);
    QVERIFY(!selection.candidates.empty());
    const QString csv = QString::fromStdString(core::selectionToCsv(selection, kStamp));
    QVERIFY2(csv.contains(QStringLiteral("'=cmd")), qPrintable(csv));
    for (const QString &line : csv.split(QLatin1Char('\n'))) {
        QVERIFY2(!line.startsWith(QLatin1Char('=')) && !line.contains(QStringLiteral(",=")) &&
                     !line.contains(QStringLiteral(": =")),
                 qPrintable(line));
    }
}

// Issue #41, item 7: a device named across two lines stays on the recommendation's comment line
// (a reader that skips '#' lines took the second half for the header).
void Exports::checksCsvCommentStaysOneLine()
{
    core::Scenario s = testsupport::loadScenario(QStringLiteral("support-assistant"));
    s.device.presetId.clear();
    s.device.name = "Rack A\nGPU,\r\nB";
    s.wizard.candidates.emplace(); // the scenario's own device alone
    const core::Selection selection = core::selectDevice(s);
    QVERIFY(core::recommendedCandidate(selection));
    const QString csv = QString::fromStdString(core::selectionToCsv(selection, kStamp));
    const QStringList lines = csv.split(QLatin1Char('\n'));
    QVERIFY2(lines[1].startsWith(QStringLiteral("# recommendation: ")) &&
                 lines[1].contains(QStringLiteral("Rack A GPU,  B")),
             qPrintable(csv));
    QVERIFY2(lines[2].startsWith(QStringLiteral("device,weights,verdict")), qPrintable(csv));
}

void Exports::keyAssumptionsNameTheInputs()
{
    const core::Scenario lesson = testsupport::loadScenario(QStringLiteral("lesson-default"));
    const auto gb = core::keyAssumptions(lesson, core::MemoryUnits::GB);
    QCOMPARE(gb.size(), std::size_t(10));
    QCOMPARE(gb[8].second, std::string("100 % / 100 % (speed of light)"));
    QCOMPARE(gb[9].first, std::string("Step overhead"));
    QCOMPARE(gb[0].first, std::string("Model"));
    QVERIFY(gb[0].second.find("7B parameters") != std::string::npos);
    QCOMPARE(gb[2].second, std::string("BF16 / BF16"));
    QCOMPARE(gb[3].second, std::string("8"));
    QCOMPARE(gb[6].second, std::string("2.5 GB"));
    const auto gib = core::keyAssumptions(lesson, core::MemoryUnits::GiB);
    QVERIFY2(gib[6].second.find("GiB") != std::string::npos, gib[6].second.c_str());
    QCOMPARE(gb[7].second, std::string("$4.00 per hour at 70 %"));
    // with traffic the fleet is busy as the traffic makes it, the figure every cost uses: a
    // slide's footer said "at 50 %" (the unused input) beside a report of 42.8 %
    const std::vector<std::string> sets{"traffic.requests_per_day=200000"};
    const auto read = core::readScenario(*core::scenarioPresetText("llama-70b-fleet"), sets);
    QVERIFY(read);
    const core::Scenario busy = read.value().scenario;
    const core::Evaluation e = core::evaluate(busy);
    QVERIFY(e[core::FigureId::CostTokensFromTraffic] != 0.0);
    QVERIFY(std::fabs(e[core::FigureId::CostUtilisation] - busy.cost.utilisation) > 0.01);
    QCOMPARE(core::keyAssumptions(busy, core::MemoryUnits::GB)[7].second,
             core::formatUsd(busy.cost.pricePerHourUsd) + " per hour at " +
                 core::formatNumber(e[core::FigureId::CostUtilisation] * 100, 3) +
                 " % (the traffic's)");
}

// Issue #46: a sweep applies its values to one copy of the scenario (undoNumberAsRead between
// them), not to a fresh copy each. Every numeric input, at three values out of order (so a
// prompt cut to a short context, a ceiling scaled from the value before, or weight parts
// scaled by a parameter count would show), gives what a fresh copy gives, to the bit.
void Exports::sweepOfOneCopyIsSweepOfFreshCopies()
{
    const std::string withParts = R"({"format": "accel-explorer/scenario", "version": 1,
        "model": {"name": "parts", "parameters": 7e9, "layers": 32, "hidden_size": 4096,
                  "attention_heads": 32, "kv_heads": 8, "head_dim": 128,
                  "intermediate_size": 11008, "vocab_size": 32000,
                  "weight_parts": {"embeddings": 2.6e8, "attention": 2.1e9, "mlp": 4.5e9,
                                   "experts": 0, "other": 1.4e8}},
        "device": "nvidia-a100-80gb-sxm",
        "serving": {"weight_format": "fp8", "weight_formats": {"embeddings": "bf16"},
                    "overhead_gb": 3, "overhead_parts": {"runtime": 2, "graphs": 1}}})";
    auto parts = core::readScenario(withParts);
    QVERIFY2(parts.ok(), parts.ok() ? "" : parts.error().message.c_str());
    const std::vector<std::string> onA100 = {"device=nvidia-a100-80gb-sxm"};
    auto lesson = core::readScenario(*core::scenarioPresetText("lesson-default"), onA100);
    QVERIFY(lesson.ok());
    int compared = 0;
    for (const core::Scenario &base : {parts.value().scenario, lesson.value().scenario}) {
        // the table's inputs, and the peak of two formats (one row in the table for them all)
        std::vector<core::ParameterInfo> inputs(core::parameterTable().begin(),
                                                core::parameterTable().end());
        for (const std::string_view peak : {"device.peak_tflops.bf16", "device.peak_tflops.fp8"})
            inputs.push_back({peak, "peak", "TFLOP/s", 1e-3, 1e6, false, false, 0.0, {}, {}});
        for (const core::ParameterInfo &info : inputs) {
            const auto now = core::numberAt(base, info.path);
            if (!now || (!info.field && info.name != "peak"))
                continue;
            const double middle =
                core::isSet(*now) && *now > 0.0 ? *now : std::max(1.0, info.minimum);
            std::vector<double> values;
            for (const double factor : {2.0, 0.5, 1.5}) {
                const double v = std::clamp(middle * factor, info.minimum, info.maximum);
                values.push_back(info.integer ? std::round(v) : v);
            }
            bool freshOk = true;
            std::vector<core::Evaluation> fresh;
            for (const double v : values) {
                core::Scenario point = base;
                freshOk = freshOk && core::setNumberAsRead(point, info.path, v).ok();
                fresh.push_back(core::evaluate(point));
            }
            auto table = core::sweepParameter(base, info.path, values);
            QCOMPARE(table.ok(), freshOk);
            if (!freshOk)
                continue;
            for (std::size_t i = 0; i < values.size(); ++i) {
                for (std::size_t j = 0; j < table->figures.size(); ++j) {
                    const double want = fresh[i][table->figures[j]];
                    const double got = table->rows[i][j];
                    QVERIFY2((std::isnan(want) && std::isnan(got)) || want == got,
                             qPrintable(QStringLiteral("%1 = %2: %3 is %4, fresh %5")
                                            .arg(QString::fromUtf8(info.path.data(),
                                                                   qsizetype(info.path.size())))
                                            .arg(values[i])
                                            .arg(QString::fromUtf8(
                                                core::figureInfo(table->figures[j]).key.data()))
                                            .arg(got)
                                            .arg(want)));
                }
            }
            ++compared;
        }
    }
    QVERIFY2(compared > 60, qPrintable(QString::number(compared)));
}

QTEST_GUILESS_MAIN(Exports)
#include "tst_exports.moc"

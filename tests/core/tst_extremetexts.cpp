// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #41, acceptance: every text the core writes (the evaluation's JSON and explanations, the
// checks' JSON and CSV, the outlook, a sweep's CSV) over generated extreme-but-valid scenarios
// holds no NaN or infinity, and no number of 10^15 or more presented as a count, a price or a
// time without a "beyond" remark (a fleet of 9.27e124 replicas costing $4.5e128 was printed as
// if it were a plan). The views' and the report's texts are scanned by tst_extremeviews.

#include "testsupport.h"

#include "core/data/scenarioio.h"
#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/output/evaluationjson.h"
#include "core/output/exports.h"
#include "core/physics/explain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <vector>

class ExtremeTexts : public QObject
{
    Q_OBJECT

private slots:
    void everyTextHoldsOnlyRealFigures();
};

namespace {

struct Case
{
    QString label;
    core::Scenario scenario;
};

/** Each numeric input of two scenarios (the lesson's, and a 70B fleet with traffic) at each end
 *  of its range, and the combinations that once printed 100-digit figures. */
std::vector<Case> cases()
{
    std::vector<Case> out;
    for (const QString &base :
         {QStringLiteral("lesson-default"), QStringLiteral("llama-70b-fleet")}) {
        const core::Scenario scenario = testsupport::loadScenario(base);
        for (const core::ParameterInfo &info : core::parameterTable()) {
            if (!info.field)
                continue;
            for (const double value : {info.minimum, info.maximum}) {
                core::Scenario s = scenario;
                if (core::setNumberAt(s, info.path, value))
                    out.push_back({QStringLiteral("%1 %2=%3")
                                       .arg(base, QString::fromLatin1(info.path.data(),
                                                                      qsizetype(info.path.size())))
                                       .arg(value),
                                   s});
            }
        }
    }
    const QList<QStringList> combinations{
        {"traffic.growth_per_month=1", "traffic.horizon_months=60"},
        {"traffic.requests_per_day=1e-300"},
        {"traffic.requests_per_day=1e12", "traffic.peak_requests_per_second=1e9"},
        {"cost.price_per_hour_usd=100000", "cost.utilisation=0.01", "cost.throttle_factor=0.05",
         "serving.bandwidth_efficiency=0.01", "serving.compute_efficiency=0.01"},
        {"sensitivity.efficiency_low=0.01", "sensitivity.price_low=0.01",
         "sensitivity.traffic_low=0.01"},
        {"serving.context_tokens=100000000", "serving.prompt_tokens=50000000"},
    };
    for (const QStringList &sets : combinations) {
        auto loaded = core::readScenario(
            core::writeScenario(testsupport::loadScenario(QStringLiteral("llama-70b-fleet"))), [&] {
                std::vector<std::string> out;
                for (const QString &set : sets)
                    out.push_back(set.toStdString());
                return out;
            }());
        if (loaded)
            out.push_back({sets.join(u' '), loaded.value().scenario});
        else
            qWarning("%s refused: %s", qPrintable(sets.join(u' ')), loaded.error().message.c_str());
    }
    return out;
}

QString problemIn(const QString &text)
{
    return testsupport::unrealFigureIn(text);
}

/** A JSON key that holds a count, a price or a time (bytes and FLOP may pass 10^15: a 405B
 *  model's prefill is 10^17 FLOP, a real figure). */
bool countPriceOrTime(const QString &key)
{
    if (key.contains(QLatin1String("tokens_per")) || key.contains(QLatin1String("bytes")))
        return false; // a month's tokens or a long context's bytes: 10^15 may be real
    static const QRegularExpression re(
        QStringLiteral("usd|seconds|(^|_)s$|replicas|devices|per_month|per_hour|per_token"));
    return re.match(key).hasMatch();
}

void scanJson(const QJsonValue &value, const QString &where, QStringList &problems)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const QString path = where + QLatin1Char('/') + it.key();
            if (it.value().isDouble() && countPriceOrTime(it.key()) &&
                std::abs(it.value().toDouble()) >= 1e15)
                problems << QStringLiteral("%1 = %2").arg(path).arg(it.value().toDouble());
            else
                scanJson(it.value(), path, problems);
        }
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            scanJson(array[i], where + QLatin1Char('/') + QString::number(i), problems);
    } else if (value.isString()) {
        if (const QString problem = problemIn(value.toString()); !problem.isEmpty())
            problems << where + QStringLiteral(": ") + problem;
    }
}

void scanJsonText(const std::string &text, const QString &what, QStringList &problems)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (doc.isNull()) { // NaN or inf would make it no JSON at all
        problems << what + QStringLiteral(": not JSON: ") + error.errorString();
        return;
    }
    scanJson(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()), what, problems);
}

void scanLines(const std::string &text, const QString &what, QStringList &problems)
{
    for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
        if (const QString problem = problemIn(line); !problem.isEmpty())
            problems << what + QStringLiteral(": ") + problem;
    }
}

/** A CSV's cells under its header (the first line that is no "#" comment): text cells as text,
 *  numbers by their column's name. */
void scanCsv(const std::string &text, const QString &what, QStringList &problems)
{
    const auto cells = [](const QString &line) {
        QStringList out{QString()};
        bool quoted = false;
        for (const QChar c : line) {
            if (c == QLatin1Char('"'))
                quoted = !quoted;
            else if (c == QLatin1Char(',') && !quoted)
                out << QString();
            else
                out.back() += c;
        }
        return out;
    };
    QStringList header;
    for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('#'))) {
            if (const QString problem = problemIn(line); !problem.isEmpty())
                problems << what + QStringLiteral(": ") + problem;
            continue;
        }
        const QStringList row = cells(line);
        if (header.isEmpty()) {
            header = row;
            continue;
        }
        for (qsizetype i = 0; i < row.size(); ++i) {
            bool number = false;
            const double value = row[i].toDouble(&number);
            const QString column = i < header.size() ? header[i] : QStringLiteral("?");
            if (number) {
                if (countPriceOrTime(column) && std::abs(value) >= 1e15)
                    problems << QStringLiteral("%1: %2 = %3").arg(what, column, row[i]);
            } else if (const QString problem = problemIn(row[i]); !problem.isEmpty()) {
                problems << QStringLiteral("%1: %2: %3").arg(what, column, problem);
            }
        }
    }
}

} // namespace

void ExtremeTexts::everyTextHoldsOnlyRealFigures()
{
    const std::vector<Case> all = cases();
    QVERIFY(all.size() > 200);
    const core::ExportStamp stamp = core::exportStamp("test");
    QStringList problems;
    int decided = 0;
    for (std::size_t index = 0; index < all.size(); ++index) {
        const Case &c = all[index];
        const core::Evaluation e = core::evaluate(c.scenario);
        scanJsonText(core::evaluationToJson(c.scenario, e, true),
                     c.label + QStringLiteral(" evaluate"), problems);
        for (std::size_t f = 0; f < core::kFigureCount; ++f) {
            const auto id = core::FigureId(f);
            scanLines(core::formatFigure(e, id), c.label + QStringLiteral(" figure"), problems);
            if (const auto x = core::explain(c.scenario, e, id)) {
                scanLines(x->substituted, c.label + QStringLiteral(" explain"), problems);
                scanLines(x->note, c.label + QStringLiteral(" explain note"), problems);
            }
        }
        // the checks run every device and format with load simulations: the combinations and
        // every twelfth extreme (the sanitizers' build, every fiftieth)
#if defined(__SANITIZE_ADDRESS__)
        constexpr std::size_t stride = 50;
#else
        constexpr std::size_t stride = 12;
#endif
        if (index % stride != 0 && index + 6 < all.size())
            continue;
        const core::Selection selection = core::selectDevice(c.scenario);
        scanJsonText(core::selectionToJson(selection), c.label + QStringLiteral(" check"),
                     problems);
        scanCsv(core::selectionToCsv(selection, stamp), c.label + QStringLiteral(" check csv"),
                problems);
        scanJsonText(core::outlookToJson(c.scenario, selection),
                     c.label + QStringLiteral(" outlook"), problems);
        ++decided;
        if (problems.size() > 20)
            break;
    }
    qInfo("%zu scenarios evaluated and explained, %d decided", all.size(), decided);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 20).join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(ExtremeTexts)
#include "tst_extremetexts.moc"

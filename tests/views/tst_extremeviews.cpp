// SPDX-License-Identifier: GPL-3.0-or-later
// Issue #20: views that survive every valid scenario. Every view of the registry is rendered to
// SVG for generated extreme-but-valid scenarios (every numeric input at its minimum, its maximum
// and, where the range is open at zero, the smallest positive double; tensor parallelism up to
// the model's heads; long contexts), under an address-space limit: no crash, no NaN or infinity
// in any drawing, and memory that stays bounded.

#include "testsupport.h"
#include "viewtestsupport.h"

#include "views/document/scenariodocument.h"
#include "views/export/report.h"
#include "views/viewregistry.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/view.h"

#include "core/data/scenarioio.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"

#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTest>

#include <sys/resource.h>

#include <limits>
#include <memory>
#include <vector>

class ExtremeViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyViewDrawsEveryExtreme();
};

namespace {

constexpr std::size_t kCombinations = 4;

struct Extreme
{
    QString label;
    core::Scenario scenario;
};

/** The lesson's scenario with one input moved to an end of its range (the core refuses what
 *  is not valid: those are left out). */
std::vector<Extreme> extremes()
{
    const core::Scenario lesson = core::lessonDefaultScenario();
    std::vector<Extreme> out;
    const auto add = [&](const QString &label, core::Scenario s) {
        out.push_back({label, std::move(s)});
    };
    for (const core::ParameterInfo &info : core::parameterTable()) {
        if (!info.field)
            continue;
        std::vector<double> values{info.maximum};
        if (info.minimumExclusive && info.minimum == 0)
            values.push_back(std::numeric_limits<double>::denorm_min()); // 5e-324
        else
            values.push_back(info.minimum);
        for (const double value : values) {
            core::Scenario s = lesson;
            if (core::setNumberAt(s, info.path, value))
                add(QStringLiteral("%1=%2")
                        .arg(QString::fromLatin1(info.path.data(), qsizetype(info.path.size())))
                        .arg(value),
                    s);
        }
    }
    for (const double devices : {2.0, 8.0, 32.0}) { // up to the lesson model's 32 heads
        core::Scenario s = lesson;
        if (core::setNumberAt(s, "serving.tensor_parallel", devices))
            add(QStringLiteral("tensor parallel %1").arg(devices), s);
    }
    for (const double context : {131072.0, 1e6, 1e8}) { // long contexts, the prompt along
        core::Scenario s = lesson;
        if (core::setNumberAt(s, "serving.context_tokens", context) &&
            core::setNumberAt(s, "serving.prompt_tokens", context / 2))
            add(QStringLiteral("context %1").arg(context), s);
    }
    // the combinations that once printed 100-digit figures (issue #41), last
    const std::vector<QStringList> combinations{
        {QStringLiteral("traffic.growth_per_month=1"), QStringLiteral("traffic.horizon_months=60")},
        {QStringLiteral("traffic.requests_per_day=1e-300")},
        {QStringLiteral("traffic.requests_per_day=1e12"),
         QStringLiteral("traffic.peak_requests_per_second=1e9")},
        {QStringLiteral("cost.price_per_hour_usd=100000"), QStringLiteral("cost.utilisation=0.01"),
         QStringLiteral("cost.throttle_factor=0.05"),
         QStringLiteral("serving.bandwidth_efficiency=0.01"),
         QStringLiteral("sensitivity.efficiency_low=0.01")},
    };
    static_assert(kCombinations == 4);
    for (const QStringList &sets : combinations)
        add(sets.join(u' '), testsupport::loadScenario(QStringLiteral("llama-70b-fleet"), sets));
    return out;
}

} // namespace

void ExtremeViews::initTestCase()
{
    viewtestsupport::initViewTests(QStringLiteral("tst_extremeviews"));
#if !defined(__SANITIZE_ADDRESS__)
    // bounded memory: the Cost view once grew by 300 MB/s on such a scenario (ASan reserves
    // terabytes of address space for its shadow, so the limit is left to the plain build)
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = rlim_t(6) * 1024 * 1024 * 1024;
    QCOMPARE(setrlimit(RLIMIT_AS, &limit), 0);
#endif
}

void ExtremeViews::everyViewDrawsEveryExtreme()
{
    views::ScenarioDocument doc;
    std::vector<std::unique_ptr<views::View>> all;
    for (const views::ViewEntry &entry : views::viewRegistry()) {
        all.emplace_back(entry.create(&doc, nullptr));
        views::layOutOffscreen(*all.back(), QSize(800, 500));
    }
    // a number Qt wrote into a drawing: "nan" or "inf" where a coordinate belongs
    const QRegularExpression notANumber(QStringLiteral("(^|[\\s=\",(])-?(nan|inf)($|[\\s\",)])"),
                                        QRegularExpression::CaseInsensitiveOption);
    // the text of a <text> element of the drawing
    const QRegularExpression drawnText(QStringLiteral("<text[^>]*>([^<]*)</text>"));
    const std::vector<Extreme> cases = extremes();
    QVERIFY(cases.size() > 100);
    int drawn = 0;
#if defined(__SANITIZE_ADDRESS__)
    const std::size_t stride = 3; // the sanitizers make a drawing about ten times slower
#else
    const std::size_t stride = 1;
#endif
    for (std::size_t index = 0; index < cases.size(); index += stride) {
        const Extreme &extreme = cases[index];
        doc.reset(extreme.scenario);
        doc.flush();
        for (const auto &view : all) {
            view->ensureCurrent();
            QBuffer svg;
            svg.open(QIODevice::WriteOnly);
            QSvgGenerator generator;
            generator.setOutputDevice(&svg);
            generator.setSize(view->size());
            generator.setViewBox(QRect(QPoint(), view->size()));
            QPainter painter(&generator);
            view->render(painter, QRectF(QPointF(), QSizeF(view->size())));
            painter.end();
            const QString text = QString::fromUtf8(svg.data());
            // the words drawn: no figure beyond any real value without saying so (issue #41)
            for (auto words = drawnText.globalMatch(text); words.hasNext();) {
                const QString drawn = words.next().captured(1).trimmed();
                // a number format's largest value (FP32's and BF16's 3.4e38) is the format's
                // range, no plan's figure
                if (view->snapshotName() == QLatin1String("precision") &&
                    drawn.contains(QLatin1String("e+38")))
                    continue;
                const QString problem = testsupport::unrealFigureIn(drawn);
                QVERIFY2(problem.isEmpty(),
                         qPrintable(QStringLiteral("%1 in %2: %3")
                                        .arg(extreme.label, view->snapshotName(), problem)));
            }
            const QRegularExpressionMatch match = notANumber.match(text);
            QVERIFY2(
                !match.hasMatch(),
                qPrintable(
                    QStringLiteral("%1 in %2: ...%3...")
                        .arg(extreme.label, view->snapshotName(),
                             text.mid(std::max<qsizetype>(0, match.capturedStart() - 80), 160))));
            ++drawn;
        }
    }
    // the report's words over the scenarios that once printed 100-digit figures (issue #41)
    for (std::size_t index = cases.size() - kCombinations; index < cases.size(); ++index) {
        const QString html = views::reportHtml(cases[index].scenario, core::MemoryUnits::GB);
        QString words = html;
        words.replace(QRegularExpression(QStringLiteral("<[^>]*>")), QStringLiteral("\n"));
        for (const QString &line : words.split(QLatin1Char('\n'))) {
            const QString problem = testsupport::unrealFigureIn(line);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(cases[index].label + QStringLiteral(" report: ") + problem));
        }
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    qInfo("%zu scenarios x %zu views drawn (%d drawings); peak memory %.0f MB", cases.size(),
          all.size(), drawn, usage.ru_maxrss / 1024.0);
    QVERIFY2(usage.ru_maxrss < 2L * 1024 * 1024, "more than 2 GB resident");
}

QTEST_MAIN(ExtremeViews)
#include "tst_extremeviews.moc"

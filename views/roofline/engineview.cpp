// SPDX-License-Identifier: GPL-3.0-or-later
#include "engineview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/techniques.h"

#include <QRegularExpression>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

using style::number;

QString s(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString seconds(double value)
{
    return s(core::formatSeconds(value));
}

QString usd(double value)
{
    if (!std::isfinite(value))
        return QObject::tr("n/a (the device has no price)");
    // a request's prefill costs fractions of a cent: cents would print $0.00 for both
    return value < 1.0 ? QStringLiteral("$%1").arg(number(value, 3)) : s(core::formatUsd(value));
}

/** One row of a with/without table. */
QString row(const QString &what, const QString &without, const QString &with)
{
    return QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">"
                          "<b>%3</b></td></tr>")
        .arg(what, without, with);
}

QString table(const QString &withoutHeader, const QString &withHeader, const QString &rows)
{
    return QStringLiteral("<table cellspacing=\"0\" cellpadding=\"4\"><tr><th></th>"
                          "<th align=\"right\">%1</th><th align=\"right\">%2</th></tr>%3</table>")
        .arg(withoutHeader, withHeader, rows);
}

QString problem(const core::Diagnostic &d)
{
    return QStringLiteral("<p>%1 <i>(%2)</i></p>").arg(s(d.message), s(d.path));
}

QString speculativeHtml(const core::Scenario &scenario)
{
    QString html = QObject::tr("<h3>Speculative decoding</h3>");
    if (!(scenario.engine.speculativeTokens >= 1.0))
        return html + QObject::tr("<p>Off. Set <i>Proposed tokens (K)</i> "
                                  "(engine.speculative_tokens) and a draft to see what "
                                  "verifying K tokens in one step pays.</p>");
    auto a = core::analyseSpeculative(scenario);
    if (!a)
        return html + problem(a.error());
    const core::SpeculativePoint &p = a->atBatch;
    html += QObject::tr("<p>%1 proposals from %2, each accepted with chance %3: %4 tokens per "
                        "verify step on average ((1 - a<sup>K+1</sup>) / (1 - a)).</p>")
                .arg(number(a->proposals, 3), s(a->draftName), number(a->acceptance, 3),
                     number(p.tokensPerVerify, 4));
    QString rows;
    rows += row(QObject::tr("Step (verify + draft)"), seconds(p.plain.seconds),
                seconds(p.cycleSeconds));
    rows += row(QObject::tr("FLOP per byte"), number(p.plain.intensity()),
                number(p.verify.intensity()));
    rows += row(
        QObject::tr("Bound"),
        p.plain.bound == core::Bound::Compute ? QObject::tr("compute") : QObject::tr("memory"),
        p.verify.bound == core::Bound::Compute ? QObject::tr("compute") : QObject::tr("memory"));
    rows += row(QObject::tr("Tokens/s per sequence"), number(1.0 / p.plain.seconds),
                number(p.tokensPerSecondPerSequence));
    rows += row(QObject::tr("Tokens/s, batch %1").arg(number(p.batch, 7)),
                number(p.plainTokensPerSecond), number(p.tokensPerSecond));
    html += table(QObject::tr("plain decode"), QObject::tr("speculative"), rows);
    const double last = a->lastPayingBatch;
    html +=
        QObject::tr("<p>%1x at this batch. %2</p>")
            .arg(number(p.speedup),
                 last < 1
                     ? QObject::tr("It pays at no batch: the draft's proposals and the verify step "
                                   "cost more time than the accepted tokens save.")
                 : last >= 1024
                     ? QObject::tr("It pays at every batch up to 1,024: the KV read keeps "
                                   "even the verify step memory-bound.")
                     : QObject::tr("It pays up to batch %1; past it the verify step is "
                                   "compute-bound and the rejected tokens cost more than the "
                                   "accepted ones save.")
                           .arg(number(last, 7)));
    if (a->draftWeightBytesPerDevice > 0.0)
        html += QObject::tr("<p>The draft takes %1 per device beside the target.</p>")
                    .arg(s(core::formatBytes(a->draftWeightBytesPerDevice)));
    return html;
}

QString prefixHtml(const core::Scenario &scenario)
{
    QString html = QObject::tr("<h3>Prefix caching</h3>");
    if (!(scenario.engine.prefixTokens >= 1.0))
        return html + QObject::tr("<p>Off. Set <i>Shared prefix</i> (engine.prefix_tokens) to "
                                  "the tokens requests share, such as a system prompt.</p>");
    auto a = core::analysePrefixCache(scenario);
    if (!a)
        return html + problem(a.error());
    html += QObject::tr("<p>%1 of each %2-token prompt shared; %3 % of requests find it "
                        "cached.</p>")
                .arg(number(a->prefixTokens, 7), number(a->promptTokens, 7),
                     number(a->hitRate * 100, 3));
    QString rows;
    rows += row(QObject::tr("Tokens prefilled"), number(a->tokensPrefilledWithout, 7),
                number(a->tokensPrefilledWith, 7));
    rows += row(QObject::tr("Prefill FLOP"), s(core::formatFlops(a->flopsWithout)),
                s(core::formatFlops(a->flopsWith)));
    rows += row(QObject::tr("Prefill"), seconds(a->prefillSecondsWithout),
                seconds(a->prefillSecondsWith));
    rows += row(QObject::tr("First token"), seconds(a->ttftSecondsWithout),
                seconds(a->ttftSecondsWith));
    rows += row(QObject::tr("Prefill cost per request"), usd(a->usdPerRequestWithout),
                usd(a->usdPerRequestWith));
    rows += row(QObject::tr("Most concurrent sequences"), number(a->maxConcurrentWithout, 7),
                number(a->maxConcurrentWith, 7));
    html += table(QObject::tr("without"), QObject::tr("with (expected)"), rows);
    html += QObject::tr("<p>The cached prefixes hold %1 of KV per device. %2</p>")
                .arg(s(core::formatBytes(a->cachedKvBytesPerDevice)),
                     a->fitsWith ? QObject::tr("The scenario's sequences still fit beside them.")
                                 : QObject::tr("<b>The scenario's sequences no longer fit beside "
                                               "them.</b>"));
    return html;
}

QString disaggregationHtml(const core::Scenario &scenario)
{
    QString html = QObject::tr("<h3>Prefill and decode on separate pools</h3>");
    if (scenario.engine.disaggregated != 1.0)
        return html + QObject::tr("<p>Off. Set <i>Disaggregated</i> (engine.disaggregated) to 1 "
                                  "to put prefill on its own pool and move each request's KV.</p>");
    auto a = core::analyseDisaggregation(scenario);
    if (!a)
        return html + problem(a.error());
    html +=
        QObject::tr("<p>Each request's KV, %1, crosses a %2 link in %3. Prefill runs on %4.</p>")
            .arg(s(core::formatBytes(a->kvBytesPerRequest)),
                 s(core::formatBandwidth(a->linkBytesPerSecond)), seconds(a->transferSeconds),
                 s(a->prefillDeviceName));
    QString rows;
    rows += row(QObject::tr("First token"), seconds(a->ttftSecondsColocated),
                seconds(a->ttftSecondsDisaggregated));
    rows += row(QObject::tr("Requests/s sustained"), number(a->colocatedRequestsPerSecond),
                number(a->disaggregatedRequestsPerSecond));
    rows += row(QObject::tr("Cost per hour"), usd(a->usdPerHourColocated),
                usd(a->usdPerHourDisaggregated));
    html += table(QObject::tr("colocated"), QObject::tr("split"), rows);
    html +=
        QObject::tr("<p>The prefill pool sustains %1 requests/s, the decode pool %2.</p>")
            .arg(number(a->prefillPoolRequestsPerSecond), number(a->decodePoolRequestsPerSecond));
    return html;
}

QString engineHtml(const core::Scenario &scenario)
{
    return speculativeHtml(scenario) + prefixHtml(scenario) + disaggregationHtml(scenario) +
           QObject::tr("<p><i>How each is worked out: docs/formulas.md, \"What serving engines "
                       "do\".</i></p>");
}

} // namespace

EngineView::EngineView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("engineView"));
    m_text->setOpenLinks(false);
    // "Set Proposed tokens (engine.speculative_tokens)": the path is a link to its editor
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("input"))
            emit inputRequested(url.path());
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_text);
}

QString EngineView::figureHtml()
{
    return engineHtml(document()->scenario());
}

QString EngineView::shownText() const
{
    return m_text->toPlainText();
}

void EngineView::refresh()
{
    static const QRegularExpression input(QStringLiteral("\\((engine\\.[a-z_]+)\\)"));
    QString html = engineHtml(document()->scenario());
    html.replace(input, QStringLiteral("(<a href=\"input:\\1\">\\1</a>)"));
    if (html != m_shownHtml) {
        m_shownHtml = html;
        m_text->setHtml(html);
    }
}

} // namespace views

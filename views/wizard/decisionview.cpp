// SPDX-License-Identifier: GPL-3.0-or-later
#include "decisionview.h"

#include "views/document/scenariodocument.h"
#include "views/io/dataexport.h"
#include "views/widgets/style.h"

#include "core/data/presets.h"
#include "core/decide/selection.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace views {

namespace {

QString html(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

} // namespace

DecisionView::DecisionView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_browser(new QTextBrowser(this))
    , m_apply(new QPushButton(tr("Apply to Scenario"), this))
{
    setObjectName(QStringLiteral("decisionView"));
    m_browser->setOpenLinks(false);
    // its scroll bar always there: a text that grows past the view laid itself out twice, once
    // for each width (1.6-6 ms a drag's update, 0.7 ms with the bar kept; issue #46)
    m_browser->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    // a document: the recommendation first, then every other option, as long as the options
    // are many; its lines scroll (the fit test reads this)
    m_browser->setProperty("accelRowsScroll", true);
    m_apply->setToolTip(tr("Make the recommended device and weight format the scenario's "
                           "(one step on the undo stack)"));
    connect(m_apply, &QPushButton::clicked, this, &DecisionView::applyRecommendation);
    m_layoutTimer.setSingleShot(true);
    connect(&m_layoutTimer, &QTimer::timeout, this, &DecisionView::showPendingText);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_browser, 1);
    layout->addLayout(buttons);
}

DecisionView::~DecisionView() = default;

QString DecisionView::text() const
{
    showPendingText();
    return m_browser->toPlainText();
}

QString DecisionView::figureHtml()
{
    // printed: no "a click away", no theme colours; the other options capped as on screen
    return decisionHtml(document()->selection(), kOtherOptionsShown, true);
}

void DecisionView::render(QPainter &painter, const QRectF &target)
{
    ensureCurrent();
    showPendingText();
    View::render(painter, target);
}

void DecisionView::showPendingText() const
{
    if (m_pendingHtml.isEmpty())
        return;
    m_browser->setHtml(m_pendingHtml);
    m_shownHtml = std::exchange(m_pendingHtml, QString());
    m_sinceLayout.start();
}

QString DecisionView::decisionHtml(const core::Selection &selection, int otherOptions, bool printed)
{
    // the core's sentences use decimal GB, the unit of the lesson's walkthrough
    const core::Recommendation &r = selection.recommendation;
    const core::Candidate *best = core::recommendedCandidate(selection);
    QString out;
    if (best) {
        out += tr("<h3>Recommended: %1, %2 weights, %3</h3>")
                   .arg(html(best->device.name),
                        QString::fromStdString(core::weightFormatsLabel(best->scenario.serving)),
                        html(r.shape));
    } else {
        out += tr("<h3 style=\"color:%1\">No candidate passes every check</h3>")
                   .arg(style::warning().name());
    }
    out += tr("<p>%1</p>").arg(html(r.reason));
    if (!r.rejected.empty()) {
        out += tr("<p><b>The other options</b></p><ul>");
        const int listed = otherOptions < 0 ? int(r.rejected.size())
                                            : std::min(otherOptions, int(r.rejected.size()));
        for (int i = 0; i < listed; ++i) {
            // capped (the view): each option's first sentence; its whole reasoning is a click
            // away in the checks table
            const std::string &line = r.rejected[std::size_t(i)];
            const std::size_t end = line.find(". ");
            out += QStringLiteral("<li>%1</li>")
                       .arg(html(otherOptions < 0 || end == std::string::npos
                                     ? line
                                     : line.substr(0, end + 1)));
        }
        if (listed < int(r.rejected.size()))
            out += (printed ? tr("<li>and %1 more: each in the checks table.</li>")
                            : tr("<li>and %1 more: each row of the checks table, its reasons a "
                                 "click away.</li>"))
                       .arg(int(r.rejected.size()) - listed);
        out += QStringLiteral("</ul>");
    }
    if (!r.apiFallback.empty())
        out += tr("<p><b>Hosted-API fallback.</b> %1</p>").arg(html(r.apiFallback));
    if (!r.flip.empty())
        out += tr("<p><b>What would change the verdict.</b> %1</p>").arg(html(r.flip));
    if (!r.split.empty())
        out += tr("<p><b>Prefill and decode apart.</b> %1</p>").arg(html(r.split));
    if (!r.engineSettings.empty()) {
        out += tr("<p><b>Serving-engine settings that enforce it</b></p><ul>");
        for (const std::string &line : r.engineSettings)
            out += QStringLiteral("<li>%1</li>").arg(html(line));
        out += QStringLiteral("</ul>");
    }
    out += selection.regime == core::Regime::Training
               ? tr("<p style=\"color:#666\">The training plan ranks the options; time a few "
                    "hundred steps of the chosen layout on the real cluster before committing "
                    "to the run (l.196). The point is not the verdict but that anyone can check "
                    "how it was reached (l.237).</p>")
               : tr("<p style=\"color:#666\">The lesson's toy model ranks the options; measure "
                    "the real p95 under the real mix before committing (l.220). The point is not "
                    "the verdict but that anyone can check how it was reached (l.237).</p>");
    return out;
}

void DecisionView::refresh()
{
    const core::Selection *ready =
        mustCompleteRefresh() ? &document()->selection() : document()->selectionForLiveView();
    if (!ready) { // being checked on a worker: nothing to apply until the new answer is in
        markStale();
        m_apply->setEnabled(false);
        m_browser->setEnabled(false);
        return;
    }
    m_browser->setEnabled(true);
    const core::Selection &selection = *ready;
    const QString text = style::themed(decisionHtml(selection, kOtherOptionsShown));
    if (text == m_shownHtml) { // laying out the text is most of a refresh's cost
        m_pendingHtml.clear();
        m_layoutTimer.stop();
    } else {
        // the first change after a pause shows at once; during a drag, one layout per interval
        // (throttled, not debounced: a long drag still updates the text as it goes)
        m_pendingHtml = text;
        const qint64 since = m_sinceLayout.isValid() ? m_sinceLayout.elapsed() : kLayoutIntervalMs;
        if (since >= kLayoutIntervalMs)
            showPendingText();
        else if (!m_layoutTimer.isActive())
            m_layoutTimer.start(int(kLayoutIntervalMs - since));
    }
    const core::Candidate *best = core::recommendedCandidate(selection);
    const core::Scenario &s = document()->scenario();
    const bool alreadyApplied = best && core::runsCandidate(s, *best);
    m_apply->setEnabled(best && !alreadyApplied);
    m_apply->setText(alreadyApplied ? tr("Applied to the Scenario") : tr("Apply to Scenario"));
}

bool DecisionView::applyRecommendation()
{
    ensureCurrent();
    const core::Candidate *best = core::recommendedCandidate(document()->selection());
    if (!best)
        return false;
    document()->applyScenario(core::decidedScenario(document()->scenario(), *best),
                              tr("Apply Recommendation"));
    return true;
}

QString DecisionView::csv() const
{
    const core::Recommendation &r = document()->selection().recommendation;
    QStringList lines{QStringLiteral("field,value")};
    auto quote = [](const std::string &text) { return csvCell(QString::fromStdString(text)); };
    lines << QStringLiteral("device,%1").arg(quote(r.deviceId))
          << QStringLiteral("weight_format,%1")
                 .arg(r.found ? QString::fromLatin1(core::formatKey(r.weightFormat).data())
                              : QString())
          << QStringLiteral("replicas,%1").arg(r.replicas)
          << QStringLiteral("reason,%1").arg(quote(r.reason))
          << QStringLiteral("api_fallback,%1").arg(quote(r.apiFallback))
          << QStringLiteral("flip,%1").arg(quote(r.flip))
          << QStringLiteral("split,%1").arg(quote(r.split));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views

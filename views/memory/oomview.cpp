// SPDX-License-Identifier: GPL-3.0-or-later
#include "oomview.h"

#include "views/document/scenariodocument.h"
#include "views/io/dataexport.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"
#include "core/physics/oomdiagnosis.h"

#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

using style::ordinal;

QString bytes(double value, core::MemoryUnits units)
{
    return QString::fromStdString(core::formatBytes(value, units)).toHtmlEscaped();
}

} // namespace

OomView::OomView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("oomView"));
    m_browser->setOpenLinks(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_browser);
}

QString OomView::text() const
{
    return m_browser->toPlainText();
}

void OomView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &s = doc.scenario();
    const core::MemoryUnits units = doc.units();
    const core::OomDiagnosis &d = doc.oomDiagnosis();
    const QString warn = style::warning().name();
    const auto n = [](double v) { return style::number(v, 9); };
    // two decimals whatever the size (13.97, 1,128.71): the reader sees where the floor cuts
    const auto exactCount = [](double v) {
        return style::number(v, std::max(4, int(std::floor(std::log10(std::max(1.0, v)))) + 3));
    };

    QString html = tr("<h3>Why does %1 run out of memory on %2?</h3>")
                       .arg(QString::fromStdString(s.model.name).toHtmlEscaped(),
                            QString::fromStdString(s.device.name).toHtmlEscaped());
    html += tr("<p><b>1. Symptom.</b> Out of memory only under concurrency and long prompts, not "
               "with a "
               "single request: memory that grows with traffic, not a model that does not load. "
               "The engine is configured for <b>%1</b> sequences of %2 tokens.</p>")
                .arg(n(d.configured), n(s.serving.contextTokens));
    html += tr("<p><b>2. Separate allocated from used</b> (estimates):</p><ul>"
               "<li>memory the framework has tensors in: <b>%1</b> (weights + resident KV cache; "
               "the framework's allocator statistics)</li>"
               "<li>memory the framework has reserved: <b>%2</b> (+ workspace and fragmentation; "
               "the allocator's reserved figure)</li>"
               "<li>%3</li></ul>")
                .arg(bytes(d.tensorBytes, units), bytes(d.reservedBytes, units),
                     // a device cannot report more than it has: past its capacity the figure
                     // is what it would need ("a 24 GB device reports 33.68 GB", issue #23)
                     d.deviceBytes > d.capacityBytes
                         ? tr("memory the device would have to hold: <b>%1</b> (+ the runtime's "
                              "own context), more than its %2: the allocation fails before an "
                              "nvidia-smi-style query could show it")
                               .arg(bytes(d.deviceBytes, units), bytes(d.capacityBytes, units))
                         : tr("memory the device reports in use: <b>%1</b> (+ the runtime's own "
                              "context; an nvidia-smi-style device query)")
                               .arg(bytes(d.deviceBytes, units)));
    // every term per device: with tensor parallelism each holds its share of the weights and
    // of each sequence's KV
    const QString perDevice =
        d.devices > 1 ? tr(" on each of the %1 devices (tensor parallel)").arg(n(d.devices))
                      : QString();
    const QString perSequence =
        d.devices > 1 || s.serving.fragmentationFraction > 0
            ? tr("%1 per %2-token sequence (%3 of KV%4%5)")
                  .arg(bytes(d.kvBytesPerSequencePerDevice, units), n(s.serving.contextTokens),
                       bytes(d.kvBytesPerSequence, units),
                       s.serving.fragmentationFraction > 0
                           ? tr(" + %1 % fragmentation")
                                 .arg(style::number(s.serving.fragmentationFraction * 100, 3))
                           : QString(),
                       // the ranks that really split it: a whole KV head each at most
                       d.devices > 1 ? tr(", split %1 ways").arg(n(core::kvDevicesPerSequence(s)))
                                     : QString())
            : tr("%1 per %2-token sequence")
                  .arg(bytes(d.kvBytesPerSequencePerDevice, units), n(s.serving.contextTokens));
    // while a class predicts how many fit, the diagnosis stops at the question (issue #23)
    if (doc.isConcealed(core::FigureId::MaxConcurrentSequences)) {
        html +=
            tr("<p><b>3. Account for every term%1.</b> %2 of memory - %3 of weights - %4 of "
               "runtime context and workspace leaves <b>%5 for the KV cache</b>, at %6: "
               "<b>how many sequences fit, and which request is the first to fail?</b></p>"
               "<p>Predict it first: the rest of the diagnosis, the levers and their prices, "
               "come with the answer.</p>")
                .arg(perDevice, bytes(d.capacityBytes, units), bytes(d.weightsBytes, units),
                     bytes(d.overheadBytes, units), bytes(d.freeForKvBytes, units), perSequence);
        m_html = html;
        m_browser->setHtml(style::themed(html));
        return;
    }
    html += tr("<p><b>3. Account for every term%1.</b> %2 of memory - %3 of weights - %4 of "
               "runtime context and workspace leaves <b>%5 for the KV cache</b>. At %6 that is "
               "%7, so <b>%8 sequences</b> fit and the <b style=\"color:%9\">%10 request "
               "fails</b>.</p>")
                .arg(perDevice, bytes(d.capacityBytes, units), bytes(d.weightsBytes, units),
                     bytes(d.overheadBytes, units), bytes(d.freeForKvBytes, units), perSequence,
                     exactCount(d.sequencesExact), n(d.sequencesFit), warn)
                .arg(ordinal(d.firstFailing));
    if (!d.configuredFits)
        html +=
            tr("<p style=\"color:%1\">The configured limit of %2 sequences could never have been "
               "served.</p>")
                .arg(warn, n(d.configured));
    html +=
        tr("<p><b>4. Pick the right lever.</b> Each has a quality, latency or cost price:</p><ul>");
    for (const core::OomLever &lever : d.levers)
        html += tr("<li>%1: <b>%2 sequences</b> fit. <i>Price: %3.</i></li>")
                    .arg(QString::fromStdString(lever.name).toHtmlEscaped(), n(lever.sequences),
                         QString::fromStdString(lever.price).toHtmlEscaped());
    html += tr("</ul>");
    html +=
        tr("<p><b>5. Verify and guard.</b> Re-run the load test at a limit with a safety margin: "
           "<b>%1 of a theoretical %2</b> sequences (%3 % margin). Alert on memory headroom and on "
           "rejected admissions, so the next change in prompt length shows in a dashboard instead "
           "of an outage.</p>")
            .arg(n(d.admissionLimit), n(d.sequencesFit),
                 style::number(s.serving.admissionMargin * 100, 3));
    html +=
        tr("<p style=\"color:#8a4b00\">Estimates from the lesson's accounting: real allocators "
           "reserve "
           "more than their tensors, and fragmentation (%1 % here) makes them fail earlier.</p>")
            .arg(style::number(s.serving.fragmentationFraction * 100, 3));
    m_html = html;
    m_browser->setHtml(style::themed(html));
}

QString OomView::figureHtml()
{
    ensureCurrent();
    return m_html;
}

QString OomView::csv() const
{
    const core::OomDiagnosis &d = document()->oomDiagnosis();
    QString out = QStringLiteral("lever,sequences,price\n");
    for (const core::OomLever &lever : d.levers)
        out += QStringLiteral("%1,%2,%3\n")
                   .arg(csvCell(QString::fromStdString(lever.name)))
                   .arg(lever.sequences)
                   .arg(csvCell(QString::fromStdString(lever.price)));
    return out;
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "report.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/memory/memoryview.h"
#include "views/roofline/rooflineview.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/style.h"
#include "views/wizard/decisionview.h"

#include "core/evaluation.h"
#include "core/explain.h"
#include "core/parameters.h"
#include "core/presets.h"
#include "core/scenario.h"
#include "core/scenarioaccess.h"
#include "core/scenarioedits.h"
#include "core/selection.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QDate>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextDocument>

#include <memory>

namespace views {

namespace {

QString esc(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

/** The scenario as the decision leaves it: the recommended device and format applied. */
core::Scenario decided(const core::Scenario &scenario, const core::Selection &selection)
{
    if (const core::Candidate *best = core::recommendedCandidate(selection))
        return core::withCandidate(scenario, *best).scenario;
    return scenario;
}

const char *const kStyle =
    "body{font-family:sans-serif;font-size:10pt;color:#222;max-width:60em;margin:auto}"
    "h1{font-size:18pt;margin-bottom:2pt}h2{font-size:13pt;margin-top:14pt}"
    "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 5px;"
    "vertical-align:top;font-size:9pt}th{background:#eee;text-align:left}"
    ".muted{color:#666}.pass{background:#d5efe6}.warn{background:#fbeccc}"
    ".fail{background:#f6dccc}.na{background:#eee}";

QString statusClass(core::CheckStatus status)
{
    switch (status) {
    case core::CheckStatus::Pass:
        return QStringLiteral("pass");
    case core::CheckStatus::Warn:
        return QStringLiteral("warn");
    case core::CheckStatus::Fail:
        return QStringLiteral("fail");
    case core::CheckStatus::NotApplicable:
        break;
    }
    return QStringLiteral("na");
}

QString statusSymbol(core::CheckStatus status)
{
    switch (status) {
    case core::CheckStatus::Pass:
        return QStringLiteral("\u2714");
    case core::CheckStatus::Warn:
        return QStringLiteral("!");
    case core::CheckStatus::Fail:
        return QStringLiteral("\u2718");
    case core::CheckStatus::NotApplicable:
        break;
    }
    return QStringLiteral("\u2013");
}

QString header(const core::Scenario &s)
{
    return QObject::tr("<h1>Device selection: %1</h1><p class=\"muted\">%2 &middot; Accelerator "
                       "Explorer %3 &middot; preset data of %4</p>")
        .arg(esc(s.name.empty() ? s.model.name : s.name),
             QDate::currentDate().toString(Qt::ISODate), QApplication::applicationVersion(),
             fromView(core::presetDataDate()));
}

QString summary(const core::Scenario &s, const core::Selection &selection, core::MemoryUnits units)
{
    const core::Recommendation &r = selection.recommendation;
    const core::Candidate *best = core::recommendedCandidate(selection);
    if (!best)
        return QObject::tr("<h2>Decision</h2><p><b>No candidate passes every check.</b> %1</p>")
            .arg(esc(r.flip));
    const core::Scenario d = decided(s, selection);
    const core::Evaluation e = core::evaluate(d);
    auto fig = [&](core::FigureId id) { return esc(core::formatFigure(e, id, units)); };
    using core::FigureId;
    QString text = QObject::tr("<h2>Decision</h2><p><b>Use %1 with %2 weights: %3.</b> ")
                       .arg(esc(best->device.name), fromView(core::formatLabel(best->weightFormat)),
                            esc(core::fleetLabel(*best)));
    if (selection.regime == core::Regime::Training) {
        text += esc(r.reason) + QStringLiteral("</p>");
        return text;
    }
    text += QObject::tr("The workload (%1 sequences of %2 tokens) needs %3 of each device's %4, "
                        "leaving %5; a decode step at batch %6 takes about %7, %8 tokens/s per "
                        "user, and the first token of a %9-token prompt about %10. ")
                .arg(style::number(s.serving.concurrentSequences, 9),
                     style::number(s.serving.contextTokens, 9), fig(FigureId::ServingBytesTotal),
                     fig(FigureId::CapacityBytes), fig(FigureId::HeadroomBytes),
                     style::number(e[FigureId::DecodeBatch], 9), fig(FigureId::DecodeStepSeconds),
                     style::number(e[FigureId::DecodeTokensPerSecondPerSequence]),
                     style::number(s.serving.promptTokens, 9))
                .arg(fig(FigureId::PrefillTtftSeconds));
    // the one cost model, as the checks computed it for this candidate
    const core::CheckResult &cost = best->check(core::CheckKind::Cost);
    if (core::isSet(best->monthlyCostUsd)) {
        const bool fromTraffic = e[FigureId::CostTokensFromTraffic] != 0.0;
        text += QObject::tr("Cost: %1 a month (%2 a year) for all %3 devices; %4 it serves %5 M "
                            "tokens a month: %6 per million tokens. ")
                    .arg(esc(core::formatUsd(best->monthlyCostUsd)),
                         esc(core::formatUsd(cost.figure("usd_per_year"))),
                         style::number(best->devices, 9),
                         fromTraffic ? QObject::tr("with the traffic given,")
                                     : QObject::tr("at %1 % of its capacity (no traffic given),")
                                           .arg(style::number(cost.figure("utilisation") * 100)),
                         style::number(cost.figure("tokens_per_month") / 1e6),
                         esc(core::formatUsd(best->usdPerMillionTokens)));
    } else {
        text += QObject::tr("Cost: price needed: %1 has no price per device-hour. ")
                    .arg(esc(best->device.name));
    }
    text += QObject::tr("%1 These are the lesson's toy-model estimates, good for ranking options; "
                        "a load test under the real mix must confirm the p95.</p>")
                .arg(esc(r.apiFallback));
    return text;
}

QString workload(const core::Scenario &s, core::MemoryUnits units)
{
    auto row = [](const QString &name, const QString &value) {
        return QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(name, value);
    };
    const auto n = [](double v) { return style::number(v, 9); };
    QString formats;
    for (core::NumericFormat f : s.wizard.formats)
        formats +=
            (formats.isEmpty() ? QString() : QStringLiteral(", ")) + fromView(core::formatLabel(f));
    QString out = QObject::tr("<h2>Workload</h2><table>");
    out += row(QObject::tr("Model"),
               QObject::tr("%1 (%2 parameters)")
                   .arg(esc(s.model.name),
                        QString::fromStdString(core::formatNumber(s.model.parameters, 4))));
    out += row(QObject::tr("Regime"),
               s.wizard.regime == core::Regime::Online     ? QObject::tr("online inference")
               : s.wizard.regime == core::Regime::Training ? QObject::tr("training")
                                                           : QObject::tr("edge inference"));
    out += row(QObject::tr("Weight formats tried"), formats);
    out += row(QObject::tr("KV-cache format"), fromView(core::formatLabel(s.serving.kvFormat)));
    out += row(QObject::tr("Peak concurrent sequences"), n(s.serving.concurrentSequences));
    out += row(QObject::tr("Tokens per sequence"),
               QObject::tr("%1 (%2 prompt + %3 generated)")
                   .arg(n(s.serving.contextTokens), n(s.serving.promptTokens),
                        n(s.serving.contextTokens - s.serving.promptTokens)));
    out += row(QObject::tr("Targets"),
               QObject::tr("first token within %1; at least %2 tokens/s per user")
                   .arg(esc(core::formatSeconds(s.serving.ttftTargetSeconds)),
                        style::number(s.serving.pacingTargetTokensPerSecond)));
    out += row(QObject::tr("Runtime and workspace"),
               esc(core::formatBytes(s.serving.overheadGb * core::kGB, units)));
    out += row(QObject::tr("Prices"),
               QObject::tr("each device's own price per device-hour (its preset's dated on-demand "
                           "figure, or a negotiated rate); a device without one is never given "
                           "another's"));
    out += row(
        QObject::tr("Utilisation"),
        core::isSet(s.traffic.requestsPerDay)
            ? QObject::tr("from the traffic: %1 requests a day").arg(n(s.traffic.requestsPerDay))
            : QObject::tr("%1 % of the fleet's capacity (no traffic given)")
                  .arg(style::number(s.cost.utilisation * 100)));
    out += row(QObject::tr("Replicas, at least"), n(s.wizard.minReplicas));
    out += row(QObject::tr("Data location"), s.wizard.dataOnPremises
                                                 ? QObject::tr("must stay on our network")
                                                 : QObject::tr("a hosted API may be used"));
    out += QStringLiteral("</table>");
    return out;
}

QString checksTable(const core::Selection &selection)
{
    QString out = QObject::tr(
        "<h2>The six checks</h2><table><tr><th>Device</th><th>Weights</th><th>Fleet</th>");
    for (std::size_t i = 0; i < core::kCheckCount; ++i)
        out += QStringLiteral("<th>%1</th>").arg(fromView(core::checkTitle(core::CheckKind(i))));
    out += QObject::tr("<th>Verdict</th></tr>");
    const core::Candidate *best = core::recommendedCandidate(selection);
    for (const core::Candidate &c : selection.candidates) {
        const bool isBest = &c == best;
        out += QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td>")
                   .arg(isBest ? QStringLiteral("\u2605 ") : QString(), esc(c.device.name),
                        fromView(core::formatLabel(c.weightFormat)), esc(core::fleetLabel(c)));
        for (const core::CheckResult &check : c.checks)
            out += QStringLiteral("<td class=\"%1\">%2 %3</td>")
                       .arg(statusClass(check.status), statusSymbol(check.status),
                            esc(check.headline));
        out += QStringLiteral("<td>%1</td></tr>").arg(esc(c.verdict));
    }
    out += QObject::tr("</table><p class=\"muted\">\u2714 pass, ! warning, \u2718 fail, \u2013 not "
                       "applicable. Each cell's reasoning is in the wizard's checks table.</p>");
    return out;
}

QString assumptions(const core::Scenario &s)
{
    static const char *const paths[] = {"model.parameters",
                                        "model.layers",
                                        "model.kv_heads",
                                        "model.head_dim",
                                        "device.memory_gb",
                                        "device.bandwidth_gb_s",
                                        "device.price_per_hour_usd",
                                        "device.power_w",
                                        "serving.concurrent_sequences",
                                        "serving.context_tokens",
                                        "serving.prompt_tokens",
                                        "serving.overhead_gb",
                                        "serving.ttft_target_s",
                                        "serving.pacing_target_tokens_s",
                                        "cost.price_per_hour_usd",
                                        "cost.utilisation",
                                        "serving.bandwidth_efficiency",
                                        "serving.compute_efficiency"};
    QString out = QObject::tr("<h2>Assumptions</h2><table><tr><th>Input</th><th>Value</th>"
                              "<th>Kind</th><th>Source</th><th>Date</th></tr>");
    static const QRegularExpression dated(QStringLiteral("(20\\d\\d-\\d\\d(?:-\\d\\d)?)"));
    for (const char *path : paths) {
        const auto value = core::numberAt(s, path);
        if (!value || !std::isfinite(*value))
            continue;
        const QString source = QString::fromStdString(core::provenanceOf(s, path));
        const QString kind = source.contains(QLatin1String("scenario file")) ||
                                     source.contains(QLatin1String("command line"))
                                 ? QObject::tr("your input")
                             : source.contains(QLatin1String("lesson"), Qt::CaseInsensitive)
                                 ? QObject::tr("the lesson's illustration")
                             : source.contains(QLatin1String("ILLUSTRATIVE"))
                                 ? QObject::tr("illustrative third-party price")
                             : source.contains(QLatin1String("measured"), Qt::CaseInsensitive)
                                 ? QObject::tr("measurement")
                                 : QObject::tr("datasheet or published reference");
        const auto match = dated.match(source);
        const core::ParameterInfo *info = core::findParameter(path);
        out += QStringLiteral("<tr><td>%1</td><td>%2 %3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
                   .arg(info ? fromView(info->name) : QString::fromLatin1(path),
                        QString::fromStdString(core::formatNumber(*value, 4)),
                        info ? fromView(info->unit) : QString(), kind, source.toHtmlEscaped(),
                        match.hasMatch()                    ? match.captured(1)
                        : kind == QObject::tr("your input") ? QStringLiteral("\u2013")
                                                            : fromView(core::presetDataDate()));
    }
    out += QStringLiteral("</table>");
    return out;
}

QString formulas(const core::Scenario &s, core::MemoryUnits units)
{
    using core::FigureId;
    const core::Evaluation e = core::evaluate(s);
    QString out = QObject::tr("<h2>Formulas, with the numbers put in</h2>");
    for (const FigureId id :
         {FigureId::KvBytesPerSequence, FigureId::KvBytesTotal, FigureId::ServingBytesTotal,
          FigureId::HeadroomBytes, FigureId::DecodeBytesPerStep, FigureId::DecodeStepSeconds,
          FigureId::DecodeTokensPerSecondPerSequence, FigureId::PrefillTtftSeconds,
          FigureId::CostUsdPerMillionTokens}) {
        const auto x = core::explain(s, e, id, units);
        if (!x)
            continue;
        out += QStringLiteral("<p><b>%1</b>: <code>%2</code><br>%3")
                   .arg(fromView(core::figureInfo(id).label), esc(x->formula), esc(x->substituted));
        if (!x->note.empty())
            out += QStringLiteral("<br><span class=\"muted\">%1</span>").arg(esc(x->note));
        out += QStringLiteral("</p>");
    }
    return out;
}

struct Parts
{
    QString head;   ///< title, decision summary, workload
    QString checks; ///< the checks table (a landscape page in the PDF)
    QString charts; ///< caption for the charts
    QString tail;   ///< full decision, assumptions, formulas, footer
};

Parts parts(const core::Scenario &scenario, core::MemoryUnits units,
            const core::Selection &selection)
{
    Parts p;
    p.head = header(scenario) + summary(scenario, selection, units) + workload(scenario, units);
    p.checks = checksTable(selection);
    p.charts = QObject::tr("<h2>Roofline and memory, as decided</h2><p class=\"muted\">The "
                           "recommended device and format applied to the workload.</p>");
    const core::Scenario d = decided(scenario, selection);
    p.tail = QObject::tr("<h2>The decision in full</h2>") + DecisionView::decisionHtml(selection) +
             assumptions(d) + formulas(d, units) +
             QObject::tr("<p class=\"muted\">Made with Accelerator Explorer %1 from the lesson "
                         "\"AI accelerators\"; preset data of %2.</p>")
                 .arg(QApplication::applicationVersion(), fromView(core::presetDataDate()));
    return p;
}

/** The two charts, laid out off screen on the decided scenario. */
struct Charts
{
    ScenarioDocument document;
    std::unique_ptr<View> roofline;
    std::unique_ptr<View> memory;

    Charts(const core::Scenario &scenario, core::MemoryUnits units)
    {
        document.reset(scenario);
        document.setUnits(units);
        document.flush();
        roofline = std::make_unique<RooflineView>(&document);
        memory = std::make_unique<MemoryView>(&document);
        for (View *view : {roofline.get(), memory.get()})
            layOutOffscreen(*view, QSize(1400, 720));
    }
};

QString inlineSvg(View &view)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(view.size());
    svg.setViewBox(QRect(QPoint(), view.size()));
    svg.setTitle(view.title());
    QPainter painter(&svg);
    view.render(painter, QRectF(QPointF(), QSizeF(view.size())));
    painter.end();
    QString text = QString::fromUtf8(buffer.data());
    const qsizetype start = text.indexOf(QLatin1String("<svg"));
    text = start >= 0 ? text.mid(start) : text; // drop the XML prologue: it is inline
    // scale with the page
    text.replace(
        QRegularExpression(QStringLiteral("<svg([^>]*) width=\"[^\"]*\" height=\"[^\"]*\"")),
        QStringLiteral("<svg\\1 style=\"width:100%;height:auto\""));
    return text;
}

bool writeHtml(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
               QString *error)
{
    const core::Selection selection = core::selectDevice(scenario);
    const Parts p = parts(scenario, units, selection);
    Charts charts(decided(scenario, selection), units);
    QString html = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1"
                                  "</title><style>%2</style></head><body>")
                       .arg(QObject::tr("Device selection report"), QLatin1String(kStyle));
    html += p.head + p.checks + p.charts + QStringLiteral("<figure>") +
            inlineSvg(*charts.roofline) + QStringLiteral("</figure><figure>") +
            inlineSvg(*charts.memory) + QStringLiteral("</figure>") + p.tail +
            QStringLiteral("</body></html>\n");
    return writeAtomically(path, html.toUtf8(), error);
}

QRectF paintArea(const QPdfWriter &pdf)
{
    return QRectF(QPointF(), QSizeF(pdf.pageLayout().paintRectPixels(pdf.resolution()).size()));
}

/** Lays `html` out at the page width and draws it page by page. */
void drawFlow(QPainter &painter, QPdfWriter &pdf, const QString &html, bool newPageFirst,
              QPageLayout::Orientation orientation = QPageLayout::Portrait)
{
    if (newPageFirst) {
        pdf.setPageOrientation(orientation);
        pdf.newPage();
    }
    const QRectF area = paintArea(pdf);
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(&pdf); // points at the PDF's resolution
    doc.setDefaultStyleSheet(QLatin1String(kStyle));
    doc.setHtml(html);
    doc.setPageSize(area.size());
    doc.setDocumentMargin(0);
    const int pages = doc.pageCount();
    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            pdf.newPage();
        painter.save();
        painter.translate(0, -i * area.height());
        doc.drawContents(&painter, QRectF(0, i * area.height(), area.width(), area.height()));
        painter.restore();
    }
}

bool writePdf(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
              QString *error)
{
    const core::Selection selection = core::selectDevice(scenario);
    const Parts p = parts(scenario, units, selection);
    Charts charts(decided(scenario, selection), units);
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *) {
            QPdfWriter pdf(&device);
            pdf.setTitle(QObject::tr("Device selection report"));
            pdf.setCreator(QStringLiteral("Accelerator Explorer ") +
                           QApplication::applicationVersion());
            pdf.setPageSize(QPageSize(QPageSize::A4));
            pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
            pdf.setResolution(200); // a page about as wide as the charts: drawn near 1:1, vector
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            drawFlow(painter, pdf, p.head, false);
            drawFlow(painter, pdf, p.checks, true, QPageLayout::Landscape); // nine columns
            // the charts: one page, both vector
            pdf.setPageOrientation(QPageLayout::Portrait);
            pdf.newPage();
            const QRectF area = paintArea(pdf);
            QTextDocument caption;
            caption.documentLayout()->setPaintDevice(&pdf);
            caption.setDefaultStyleSheet(QLatin1String(kStyle));
            caption.setHtml(p.charts);
            caption.setTextWidth(area.width());
            caption.drawContents(&painter);
            const double top = caption.size().height() + 8;
            const double each = (area.height() - top - 8) / 2;
            for (int i = 0; i < 2; ++i) {
                View &view = i == 0 ? *charts.roofline : *charts.memory;
                const double width = std::min(area.width(), each * view.width() / view.height());
                view.renderRecorded(painter, QRectF(0, top + i * (each + 8), width, each));
            }
            drawFlow(painter, pdf, p.tail, true);
            return painter.end();
        },
        error);
}

} // namespace

QString reportHtml(const core::Scenario &scenario, core::MemoryUnits units)
{
    const core::Selection selection = core::selectDevice(scenario);
    const Parts p = parts(scenario, units, selection);
    return p.head + p.checks + p.charts + p.tail;
}

bool writeReport(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
                 QString *error)
{
    const PrintAppearance printable; // paper is white whatever the screen's theme
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QStringLiteral("html") || suffix == QStringLiteral("htm"))
        return writeHtml(scenario, units, path, error);
    if (suffix == QStringLiteral("pdf"))
        return writePdf(scenario, units, path, error);
    if (error)
        *error = QObject::tr("%1: a report is .pdf or .html").arg(path);
    return false;
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "slide.h"

#include "views/export/report.h"
#include "views/widgets/lessonlines.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/io/dataexport.h"
#include "views/memory/memoryview.h"
#include "views/viewregistry.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"

#include "core/decide/comparison.h"
#include "core/decide/outlook.h"
#include "core/decide/selection.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/output/exports.h"
#include "core/physics/evaluation.h"
#include "core/physics/explain.h"
#include "core/train/trainingplan.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>
#include <memory>

namespace views {

namespace {

// The figure is laid out at a desktop size and drawn 1.5x: slide text at projector size.
constexpr double kViewScale = 1.5;
constexpr int kMargin = 56;
constexpr int kTitleHeight = 120;
constexpr int kFooterHeight = 132;
constexpr int kKeyColumnWidth = 400;

QFont pixelFont(int pixels, bool bold = false)
{
    QFont font = QApplication::font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

/** Where the figure goes: left of the three key numbers, between title and footer. */
QRectF figureArea()
{
    return QRectF(kMargin, kTitleHeight + 8, kSlideWidth - 2 * kMargin - kKeyColumnWidth - 24,
                  kSlideHeight - kTitleHeight - kFooterHeight - 16);
}

void paintSlide(QPainter &p, View &view, const QString &title, const QString &subtitle,
                const std::vector<std::pair<std::string, std::string>> &keyNumbers,
                const std::vector<std::pair<std::string, std::string>> &assumptions)
{
    p.fillRect(QRect(0, 0, kSlideWidth, kSlideHeight), Qt::white);
    p.setPen(Qt::black);
    p.setFont(pixelFont(46, true));
    p.drawText(QRect(kMargin, 28, kSlideWidth - 2 * kMargin, 60), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(p.font()).elidedText(title, Qt::ElideRight, kSlideWidth - 2 * kMargin));
    p.setPen(QColor(80, 80, 80));
    p.setFont(pixelFont(24));
    p.drawText(
        QRect(kMargin, 86, kSlideWidth - 2 * kMargin, 34), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(p.font()).elidedText(subtitle, Qt::ElideRight, kSlideWidth - 2 * kMargin));

    // one figure: the chart alone, or the view's words and tables as text
    const QRectF area = figureArea();
    if (const QString html = withoutLessonLines(view.figureHtml()); !html.isEmpty())
        drawFittedHtml(p, html, area);
    else
        view.renderFigure(p, area, (area.size() / kViewScale).toSize());

    // three key numbers beside it
    const double keyLeft = kSlideWidth - kMargin - kKeyColumnWidth;
    const double keyHeight = area.height() / 3;
    for (std::size_t i = 0; i < keyNumbers.size() && i < 3; ++i) {
        const QRectF cell(keyLeft, area.top() + double(i) * keyHeight, kKeyColumnWidth, keyHeight);
        p.setPen(QPen(QColor(215, 215, 215), 2));
        p.drawLine(cell.topLeft() + QPointF(0, 8), cell.topRight() + QPointF(0, 8));
        p.setPen(Qt::black);
        // the number whole: its type shrinks to fit the column ("$3.41 per m..." was elided),
        // and below 30 px it wraps between words, never inside one
        const QString value = QString::fromStdString(keyNumbers[i].second);
        int pixels = 50;
        while (pixels > 30 &&
               QFontMetrics(pixelFont(pixels, true)).horizontalAdvance(value) > kKeyColumnWidth)
            pixels -= 2;
        p.setFont(pixelFont(pixels, true));
        p.drawText(cell.adjusted(0, 20, 0, -keyHeight / 2),
                   Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap, value);
        p.setPen(QColor(80, 80, 80));
        p.setFont(pixelFont(22));
        p.drawText(cell.adjusted(0, keyHeight / 2 + 4, 0, 0),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   QString::fromStdString(keyNumbers[i].first));
    }

    // the footnote: the scenario shown, in one wrapped paragraph
    const int top = kSlideHeight - kFooterHeight + 8;
    p.setPen(QPen(QColor(200, 200, 200), 2));
    p.drawLine(kMargin, top - 6, kSlideWidth - kMargin, top - 6);
    QString footer;
    for (const auto &[label, value] : assumptions)
        footer += (footer.isEmpty() ? QString() : QStringLiteral("  \u00b7  ")) +
                  QStringLiteral("<span style=\"color:#5a5a5a\">%1:</span> <b>%2</b>")
                      .arg(QString::fromStdString(label).toHtmlEscaped(),
                           QString::fromStdString(value).toHtmlEscaped());
    QTextDocument note;
    note.setDocumentMargin(0);
    note.setDefaultFont(pixelFont(18));
    note.setHtml(footer);
    note.setTextWidth(kSlideWidth - 2 * kMargin);
    p.save();
    p.translate(kMargin, top);
    note.drawContents(&p, QRectF(0, 0, kSlideWidth - 2 * kMargin, kFooterHeight - 44));
    p.restore();
    p.setPen(QColor(110, 110, 110));
    p.setFont(pixelFont(15));
    p.drawText(QRect(kMargin, kSlideHeight - 30, kSlideWidth - 2 * kMargin, 24),
               Qt::AlignRight | Qt::AlignVCenter,
               QObject::tr("%1. Estimates rank the options; measure before committing.")
                   .arg(exportStampText()));
}

/** The three numbers a slide of `viewName` leads with, from the core's figures. */
std::vector<std::pair<std::string, std::string>> keyNumbersFor(const QString &viewName,
                                                               const core::Scenario &scenario,
                                                               const core::Selection &selection,
                                                               core::MemoryUnits units)
{
    using core::FigureId;
    const core::Evaluation e = core::evaluate(scenario);
    auto figure = [&](FigureId id) {
        return std::pair{std::string(core::figureInfo(id).label), core::formatFigure(e, id, units)};
    };
    if (viewName == QStringLiteral("decision") || viewName == QStringLiteral("checks")) {
        if (const core::Candidate *best = core::recommendedCandidate(selection);
            best && best->trainingPlan && best->trainingPlan->problem.empty()) {
            // a training decision leads with the run: its cost, its length, its MFU
            const core::TrainingPlan &plan = *best->trainingPlan;
            return {{"The run, " + core::fleetLabel(*best), std::isfinite(plan.usd)
                                                                ? core::formatUsd(plan.usd)
                                                                : std::string("price needed")},
                    {"Time to train, " + core::formatCount(plan.deviceHours) + " device-hours",
                     core::formatDuration(plan.wallSeconds)},
                    {"Model FLOP utilisation", core::formatNumber(plan.mfu * 100, 3) + " %"}};
        }
        if (const core::Candidate *best = core::recommendedCandidate(selection)) {
            const core::CostSummary c = core::costSummary(*best);
            return {{"Per month, " + core::fleetLabel(*best),
                     c.priced ? core::formatUsd(c.usdPerMonth) : std::string("price needed")},
                    {"Per million tokens", c.priced ? core::formatUsd(c.usdPerMillionTokens)
                                                    : std::string("price needed")},
                    {"Binding check: " + core::bindingMargin(*best).label + ", to spare",
                     core::formatNumber(core::bindingMargin(*best).value * 100, 3) + " %"}};
        }
        return {{"Options that pass every check", "none"}};
    }
    if (viewName == QStringLiteral("training")) {
        const core::TrainingPlan plan = core::plannedTraining(scenario);
        if (!plan.problem.empty())
            return {{"The plan", "cannot run: " + plan.problem}};
        return {{"The run, " + core::formatCount(plan.devices) + " devices",
                 std::isfinite(plan.usd) ? core::formatUsd(plan.usd) : std::string("price needed")},
                {"Time to train, " + core::formatCount(plan.deviceHours) + " device-hours",
                 core::formatDuration(plan.wallSeconds)},
                {"Model FLOP utilisation", core::formatNumber(plan.mfu * 100, 3) + " %"}};
    }
    if (viewName == QStringLiteral("cost")) {
        // a share reads as a percentage on a slide ("0.486" was a utilisation)
        const double busy = e[FigureId::CostUtilisation];
        return {figure(FigureId::CostUsdPerMillionTokens),
                figure(FigureId::CostFleetUsdPerMonth),
                {std::string(core::figureInfo(FigureId::CostUtilisation).label),
                 e.available(FigureId::CostUtilisation)
                     ? core::formatNumber(busy * 100, 3) + " %"
                     : core::formatFigure(e, FigureId::CostUtilisation, units)}};
    }
    if (viewName == QStringLiteral("memory") || viewName == QStringLiteral("kv") ||
        viewName == QStringLiteral("oom"))
        return {figure(FigureId::ServingBytesTotal), figure(FigureId::HeadroomBytes),
                figure(FigureId::MaxConcurrentSequences)};
    return {figure(FigureId::DecodeTokensPerSecond),
            figure(FigureId::DecodeTokensPerSecondPerSequence),
            figure(FigureId::PrefillTtftSeconds)};
}

} // namespace

namespace {

/** The document of `html` laid out for `box`: its type shrinks from 26 px until it fits the box
 *  with no word broken (a table column narrower than its longest word broke "Compatibil/ity"),
 *  down to 12 px; `scale` then fits what is still too large. */
struct FittedHtml
{
    std::unique_ptr<QTextDocument> doc = std::make_unique<QTextDocument>();
    double scale = 1.0;
};

/** The words a layout breaks across lines (a line that ends inside a word), table cells too. */
QStringList brokenWords(const QTextDocument &doc)
{
    QStringList broken;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        const QTextLayout *layout = block.layout();
        const QString text = block.text();
        for (int i = 0; layout && i + 1 < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const int end = line.textStart() + line.textLength();
            if (end <= 0 || end >= text.size())
                continue;
            if (text[end - 1].isLetterOrNumber() && text[end].isLetterOrNumber())
                broken << text.mid(std::max(0, end - 12), 24);
        }
    }
    return broken;
}

FittedHtml fitHtml(const QString &html, const QRectF &box)
{
    FittedHtml fitted;
    QTextDocument &doc = *fitted.doc;
    doc.setDocumentMargin(0);
    doc.setHtml(html);
    double width = box.width();
    for (int pixels = 26; pixels >= 12; pixels -= 2) {
        doc.setDefaultFont(pixelFont(pixels));
        doc.setTextWidth(width);
        if (doc.size().height() <= box.height() && doc.idealWidth() <= box.width() + 1 &&
            brokenWords(doc).isEmpty())
            break;
    }
    // still breaking words at 12 px: laid out wider until none is, then scaled into the box
    for (int widen = 0; widen < 20 && !brokenWords(doc).isEmpty(); ++widen) {
        width *= 1.1;
        doc.setTextWidth(width);
    }
    fitted.scale = std::min({1.0, box.height() / doc.size().height(),
                             box.width() / std::max({1.0, doc.idealWidth(), width})});
    return fitted;
}

} // namespace

double slideTextPixels(const QString &html)
{
    const FittedHtml fitted = fitHtml(html, figureArea());
    return fitted.doc->defaultFont().pixelSize() * fitted.scale;
}

double drawFittedHtml(QPainter &p, const QString &html, const QRectF &box)
{
    const FittedHtml fitted = fitHtml(html, box);
    p.save();
    p.translate(box.topLeft());
    p.scale(fitted.scale, fitted.scale);
    fitted.doc->drawContents(&p, QRectF(QPointF(), box.size() / fitted.scale));
    p.restore();
    return fitted.doc->size().height() * fitted.scale;
}

QStringList wordsBrokenInFittedHtml(const QString &html, const QRectF &box)
{
    return brokenWords(*fitHtml(html, box).doc);
}

bool writeSlide(const core::Scenario &scenario, core::MemoryUnits units, const QString &viewName,
                const QString &path, QString *error, const QString &title)
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const ViewEntry *entry = findView(viewName);
    if (!entry)
        return fail(QObject::tr("unknown view \"%1\"; valid views: %2")
                        .arg(viewName, viewNames().join(QStringLiteral(", "))));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") &&
        suffix != QStringLiteral("pdf"))
        return fail(QObject::tr("%1: a slide is .png, .svg or .pdf").arg(path));

    const PrintAppearance printable; // slides are on white, whatever the screen's theme
    ScenarioDocument document;
    document.reset(scenario);
    document.setUnits(units);
    document.flush();
    // Every slide shows the fleet the report decides on: the recommended device, format and
    // shape applied. A deck whose cost slide said $49,757 a month for the scenario's H100s
    // beside a decision slide's $9,782 for MI300Xs gave a board two answers (issue #42). The
    // checks and the decision show the options the scenario was checked with.
    const core::Selection selection = document.selection();
    const bool decision =
        viewName == QStringLiteral("decision") || viewName == QStringLiteral("checks");
    const core::Scenario shown = core::decidedScenario(scenario, selection);
    if (!decision) {
        document.reset(shown);
        document.flush();
    }
    std::unique_ptr<View> view(entry->create(&document, nullptr));
    // a serving decision's memory figure: serving bars only, the formats asked for
    if (auto *memory = qobject_cast<MemoryView *>(view.get()))
        memory->setServingOnly(scenario.wizard.regime != core::Regime::Training);
    layOutOffscreen(*view, (figureArea().size() / kViewScale).toSize());
    const QString heading = title.isEmpty() ? view->title() : title;
    const QString subtitle = QString::fromStdString(
        shown.name.empty() ? shown.model.name + " on " + shown.device.name : shown.name);
    auto assumptions = core::keyAssumptions(shown, units);
    if (decision && core::recommendedCandidate(selection))
        for (auto &[label, value] : assumptions)
            if (label == "Device")
                label = "Recommended device";
    const auto keyNumbers = keyNumbersFor(viewName, shown, selection, units);

    if (suffix == QStringLiteral("png")) {
        QImage image(kSlideWidth, kSlideHeight, QImage::Format_ARGB32_Premultiplied);
        QPainter painter;
        if (!painter.begin(&image))
            return fail(QObject::tr("%1: cannot be drawn").arg(path));
        painter.setRenderHint(QPainter::Antialiasing);
        paintSlide(painter, *view, heading, subtitle, keyNumbers, assumptions);
        painter.end();
        image.setText(QStringLiteral("Software"), exportStampText());
        image.setText(QStringLiteral("Title"), heading);
        return writeImageAtomically(path, image, error);
    }
    if (suffix == QStringLiteral("svg")) {
        return writeAtomically(
            path,
            [&](QIODevice &device, QString *) {
                QSvgGenerator svg;
                svg.setOutputDevice(&device);
                svg.setSize(QSize(kSlideWidth, kSlideHeight));
                svg.setViewBox(QRect(0, 0, kSlideWidth, kSlideHeight));
                svg.setTitle(heading);
                svg.setDescription(exportStampText());
                QPainter painter;
                if (!painter.begin(&svg))
                    return false;
                paintSlide(painter, *view, heading, subtitle, keyNumbers, assumptions);
                return painter.end();
            },
            error);
    }
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *) {
            QPdfWriter pdf(&device);
            pdf.setTitle(heading);
            pdf.setCreator(exportStampText());
            pdf.setResolution(96);
            pdf.setPageSize(QPageSize(QSizeF(kSlideWidth * 72.0 / 96, kSlideHeight * 72.0 / 96),
                                      QPageSize::Point));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            paintSlide(painter, *view, heading, subtitle, keyNumbers, assumptions);
            return painter.end();
        },
        error);
}

} // namespace views

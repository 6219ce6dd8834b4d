// SPDX-License-Identifier: GPL-3.0-or-later
#include "handout.h"

#include "views/io/atomicwriter.h"
#include "views/io/dataexport.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"

#include "views/document/scenariodocument.h"
#include "views/tour/tour.h"
#include "views/viewregistry.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"

#include "core/explain.h"
#include "core/scenario.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <memory>

namespace views {

namespace {

QString esc(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString stepHtml(const TourStep &step, int index, int count, const core::Scenario &scenario)
{
    const core::Evaluation e = core::evaluate(scenario);
    const auto x = core::explain(scenario, e, step.figure);
    const core::FigureInfo &info = core::figureInfo(step.figure);
    QString html = QObject::tr("<h2>%1. %2</h2><p>%3</p>")
                       .arg(index + 1)
                       .arg(step.title.toHtmlEscaped(), step.text.toHtmlEscaped());
    html += QObject::tr("<p><b>%1: %2</b> (the lesson, line %3)</p>")
                .arg(QString::fromUtf8(info.label.data(), qsizetype(info.label.size())),
                     esc(core::formatFigure(e, step.figure)))
                .arg(step.line);
    if (x)
        html += QStringLiteral("<p><code>%1</code><br>%2</p>")
                    .arg(esc(x->formula), esc(x->substituted));
    if (!step.question.isEmpty()) {
        const double answer = tourAnswer(step);
        const bool bytes = info.quantity == core::Quantity::Bytes &&
                           core::figureInfo(step.answerFigure).quantity == core::Quantity::Bytes;
        html += QObject::tr("<p><b>Try it.</b> %1<br><i>Answer: %2</i></p>")
                    .arg(step.question.toHtmlEscaped(),
                         style::number(bytes ? answer / 1e9 : answer, 4));
    }
    html += QObject::tr("<p style=\"color:#666\">Step %1 of %2. %3.</p>")
                .arg(index + 1)
                .arg(count)
                .arg(exportStampText());
    return html;
}

} // namespace

bool writeTourHandout(const QString &path, QString *error)
{
    const PrintAppearance printable; // paper is white whatever the screen's theme
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *reason) {
            QPdfWriter pdf(&device);
            pdf.setTitle(QObject::tr("Accelerator Explorer: the lesson tour"));
            pdf.setCreator(exportStampText());
            pdf.setPageSize(QPageSize(QPageSize::A4));
            pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
            pdf.setResolution(200);
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            const QList<TourStep> &steps = tourSteps();
            for (int i = 0; i < steps.size(); ++i) {
                if (i > 0)
                    pdf.newPage();
                const QRectF area(QPointF(),
                                  pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
                core::Scenario scenario;
                if (!tourScenario(steps[i], scenario, reason))
                    return false;
                // the step's view, laid out off screen and recorded as vector drawing
                ScenarioDocument document;
                document.reset(scenario);
                document.flush();
                const ViewEntry *entry = findView(steps[i].view);
                if (entry) {
                    std::unique_ptr<View> view(entry->create(&document, nullptr));
                    layOutOffscreen(*view, QSize(1400, 820));
                    const double width = area.width();
                    const double height = width * view->height() / view->width();
                    view->renderRecorded(painter, QRectF(0, 0, width, height));
                    QTextDocument text;
                    text.documentLayout()->setPaintDevice(&pdf);
                    text.setDocumentMargin(0);
                    text.setHtml(stepHtml(steps[i], i, int(steps.size()), scenario));
                    text.setTextWidth(width);
                    painter.save();
                    painter.translate(0, height + 20);
                    text.drawContents(&painter, QRectF(0, 0, width, area.height() - height - 20));
                    painter.restore();
                }
            }
            return painter.end();
        },
        error);
}

} // namespace views

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
#include <QChartView>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <memory>

namespace views {

namespace {

/** The width a figure is laid out at: 12-px text on it prints at 9 pt across 180 mm. */
constexpr double kFigureWidth = 680;

QString esc(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString stepHtml(const TourStep &step, int index, int count, const core::Scenario &scenario,
                 bool answers)
{
    const core::Evaluation e = core::evaluate(scenario);
    const core::FigureInfo &info = core::figureInfo(step.figure);
    QString html = QObject::tr("<h3>%1. %2</h3><p>%3</p>")
                       .arg(index + 1)
                       .arg(step.title.toHtmlEscaped(), step.text.toHtmlEscaped());
    const QString label = QString::fromUtf8(info.label.data(), qsizetype(info.label.size()));
    // the student's copy leaves a line to fill in where the class predicts
    const bool blank = step.predict && !answers;
    html +=
        QObject::tr("<p><b>%1:</b> %2</p>")
            .arg(label.toHtmlEscaped(),
                 blank ? QObject::tr("your prediction: ______________")
                       : QStringLiteral("<b>%1</b>").arg(esc(core::formatFigure(e, step.figure))));
    if (answers) {
        if (const auto x = core::explain(scenario, e, step.figure))
            html += QStringLiteral("<p><code>%1</code><br>%2 <span style=\"color:#555\">"
                                   "(the lesson, line %3)</span></p>")
                        .arg(esc(x->formula), esc(x->substituted))
                        .arg(step.line);
    }
    if (!step.question.isEmpty()) {
        const double answer = tourAnswer(step);
        const bool bytes = core::figureInfo(step.answerFigure).quantity == core::Quantity::Bytes;
        html += QObject::tr("<p><b>Try it.</b> %1 %2</p>")
                    .arg(step.question.toHtmlEscaped(),
                         answers ? QObject::tr("<i>Answer: %1</i>")
                                       .arg(style::number(bytes ? answer / 1e9 : answer, 4))
                                 : QObject::tr("Answer: ______________"));
    }
    html += QObject::tr("<p style=\"color:#666\">Step %1 of %2.</p>").arg(index + 1).arg(count);
    return html;
}

} // namespace

QString handoutStepHtml(int index, bool answers)
{
    const QList<TourStep> &steps = tourSteps();
    core::Scenario scenario;
    if (index < 0 || index >= steps.size() || !tourScenario(steps[index], scenario))
        return {};
    return stepHtml(steps[index], index, int(steps.size()), scenario, answers);
}

bool writeTourHandout(const QString &path, bool answers, QString *error)
{
    const PrintAppearance printable; // paper is white whatever the screen's theme
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *reason) {
            QPdfWriter pdf(&device);
            pdf.setTitle(answers ? QObject::tr("Accelerator Explorer: the lesson tour (teacher)")
                                 : QObject::tr("Accelerator Explorer: the lesson tour"));
            pdf.setCreator(exportStampText());
            pdf.setPageSize(QPageSize(QPageSize::A4));
            pdf.setPageMargins(QMarginsF(15, 12, 15, 12), QPageLayout::Millimeter);
            pdf.setResolution(200);
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            const QRectF page(QPointF(), pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
            const double half = page.height() / 2;
            QFont body = QApplication::font();
            body.setPointSizeF(10); // at least 9 pt on paper
            const QList<TourStep> &steps = tourSteps();
            for (int i = 0; i < steps.size(); ++i) {
                if (i > 0 && i % 2 == 0)
                    pdf.newPage();
                const double top = (i % 2) * half;
                if (i % 2 == 0) { // the page's header: which copy this is
                    painter.save();
                    QFont small = body;
                    small.setPointSizeF(9);
                    painter.setFont(small);
                    painter.setPen(QColor(0x66, 0x66, 0x66));
                    painter.drawText(QRectF(0, 0, page.width(), 40), Qt::AlignRight | Qt::AlignTop,
                                     (answers ? QObject::tr("Teacher's copy, with the answers")
                                              : QObject::tr("Student's copy")) +
                                         QStringLiteral(" \u2022 ") + exportStampText());
                    painter.restore();
                }
                core::Scenario scenario;
                if (!tourScenario(steps[i], scenario, reason))
                    return false;
                ScenarioDocument document;
                document.reset(scenario);
                if (!answers) // the figure shows no answer the class is to predict
                    document.setConcealed(concealedFigures(steps[i]));
                document.flush();
                // the text first: the figure gets what room it leaves in the half page
                QTextDocument text;
                text.documentLayout()->setPaintDevice(&pdf);
                text.setDefaultFont(body);
                text.setDocumentMargin(0);
                text.setHtml(stepHtml(steps[i], i, int(steps.size()), scenario, answers));
                text.setTextWidth(page.width());
                const double textHeight = text.size().height();
                const double figureTop = top + 50;
                const double room = half - 50 - textHeight - 30;
                if (const ViewEntry *entry = findView(steps[i].view)) {
                    std::unique_ptr<View> view(entry->create(&document, nullptr));
                    // The figure laid out about 680 px wide, so that its 12-px text printed
                    // 180 mm wide is 9 pt (the handout's figures were widget screenshots with
                    // 5-pt text, issue #23): the view is sized for its figure to get that.
                    QSize size(900, 520);
                    layOutOffscreen(*view, size);
                    // ... and about as high as the half page has room for at that width (a tall
                    // drawing printed narrow had 3-pt text)
                    if (const QWidget *f = view->figureWidget();
                        f->width() > 0 && f->height() > 0) {
                        const double kx = kFigureWidth / f->width();
                        const double ky = kFigureWidth * 0.54 / f->height();
                        size = QSize(int(size.width() * kx), int(size.height() * ky))
                                   .expandedTo(view->minimumSizeHint());
                        layOutOffscreen(*view, size);
                    }
                    const QWidget *figure = view->figureWidget();
                    // a chart is laid out at the printed aspect itself
                    const bool chart = qobject_cast<const QChartView *>(figure) != nullptr;
                    const QSize chartSize(int(kFigureWidth), int(kFigureWidth * 0.54));
                    const double aspect =
                        chart ? 0.54 : double(figure->height()) / std::max(1, figure->width());
                    double width = page.width();
                    double height = width * aspect;
                    if (height > room) { // keep the page's two halves apart
                        height = std::max(0.0, room);
                        width = height / aspect;
                    }
                    view->renderFigure(painter,
                                       QRectF((page.width() - width) / 2, figureTop, width, height),
                                       chart ? chartSize : QSize());
                    painter.save();
                    painter.translate(0, figureTop + height + 20);
                    text.drawContents(&painter, QRectF(0, 0, page.width(), textHeight + 4));
                    painter.restore();
                }
            }
            return painter.end();
        },
        error);
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "handout.h"

#include "textsizeprobe.h"

#include "views/io/atomicwriter.h"
#include "views/io/dataexport.h"
#include "views/memory/memoryview.h"
#include "views/widgets/appearance.h"
#include "views/widgets/offscreen.h"

#include "views/document/scenariodocument.h"
#include "views/tour/tour.h"
#include "views/viewregistry.h"
#include "views/widgets/style.h"
#include "views/widgets/view.h"

#include "core/model/scenario.h"
#include "core/physics/explain.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QChartView>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPen>
#include <QTextDocument>

#include <memory>

namespace views {

namespace {

const QMarginsF kMargins(15, 12, 15, 12); // millimetres

QString esc(const std::string &text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString stepHtml(const TourStep &step, int index, int count, const core::Scenario &scenario,
                 bool answers)
{
    const core::Evaluation e = core::evaluate(scenario);
    QString html = QObject::tr("<h3>%1. %2</h3><p>%3</p>")
                       .arg(index + 1)
                       .arg(step.title.toHtmlEscaped(), step.text.toHtmlEscaped());
    const QString label = tourFigureLabel(step);
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

namespace {

constexpr int kDotsPerInch = 200;
/** The smallest type a figure may print with; 9 pt is the floor, the rest is rounding. */
constexpr double kSmallestPoints = 9.2;

/** The smallest text `view`'s figure prints with when drawn into `target` (points). */
double smallestPrinted(View &view, const QRectF &target, QSize chartSize, QSize page)
{
    TextSizeProbe probe(page, kDotsPerInch);
    QPainter painter(&probe);
    // twice: a drawing that measures its parts as it paints settles on the first pass
    view.renderFigure(painter, target, chartSize);
    probe.reset();
    view.renderFigure(painter, target, chartSize);
    painter.end();
    return probe.smallestPoints();
}

/** Lays the view out so that its figure is about `figure` pixels large. */
void layOutFigure(View &view, QSizeF figure)
{
    QSize size(900, 520);
    layOutOffscreen(view, size);
    if (const QWidget *f = view.figureWidget(); f->width() > 0 && f->height() > 0) {
        size = QSize(int(size.width() * figure.width() / f->width()),
                     int(size.height() * figure.height() / f->height()))
                   .expandedTo(view.minimumSizeHint());
        layOutOffscreen(view, size);
    }
}

/** Paints tour step `index` into the slot of the page from `top`, `height` high (half the
 *  page, or all of it for a dense drawing): its figure, laid out at the size that prints its
 *  smallest text at 9 pt or more, then its text. Returns the smallest type the figure printed
 *  with (points), 0 when its text ran out of the slot, -1 on error. */
double paintStep(QPainter &painter, const QRectF &page, double top, double height, int index,
                 bool answers, QString *error)
{
    const QList<TourStep> &steps = tourSteps();
    const TourStep &step = steps[index];
    QFont body = QApplication::font();
    body.setPointSizeF(10); // at least 9 pt on paper
    core::Scenario scenario;
    if (!tourScenario(step, scenario, error))
        return -1;
    ScenarioDocument document;
    document.reset(scenario);
    if (!answers) { // the figure shows no answer the class is to predict, now or later
        document.setConcealed(concealedFigures(index, false));
        document.setCurvesHiddenFromBatch(curvesHiddenFromBatch(index, false));
    }
    document.flush();
    // the text first: the figure gets what room it leaves in the half page
    QTextDocument text;
    text.documentLayout()->setPaintDevice(painter.device());
    text.setDefaultFont(body);
    text.setDocumentMargin(0);
    text.setHtml(stepHtml(step, index, int(steps.size()), scenario, answers));
    text.setTextWidth(page.width());
    const double textHeight = text.size().height();
    const double figureTop = top + 50;
    const double room = std::max(0.0, height - 50 - textHeight - 30);
    const ViewEntry *entry = findView(step.view);
    if (entry == nullptr)
        return -1;
    std::unique_ptr<View> view(entry->create(&document, nullptr));
    // as in the tour: the lesson's training memory is 16 bytes a parameter, activations aside
    if (auto *memory = qobject_cast<MemoryView *>(view.get()))
        memory->setActivationsShown(false);
    if (const QString html = view->figureHtml(); !html.isEmpty()) {
        // words and tables flow as text at the handout's type size, under a rule
        QTextDocument figure;
        figure.documentLayout()->setPaintDevice(painter.device());
        QFont small = body;
        small.setPointSizeF(kSmallestPoints + 0.3);
        figure.setDefaultFont(small);
        figure.setDocumentMargin(0);
        figure.setHtml(html);
        figure.setTextWidth(page.width());
        const double shown = std::min(figure.size().height(), room);
        painter.save();
        painter.translate(0, figureTop);
        painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 2));
        painter.drawLine(QPointF(0, -10), QPointF(page.width(), -10));
        figure.drawContents(&painter, QRectF(0, 0, page.width(), shown));
        painter.translate(0, shown + 20);
        text.drawContents(&painter, QRectF(0, 0, page.width(), textHeight + 4));
        painter.restore();
        return figure.size().height() > room ? 0.0 : small.pointSizeF();
    }
    const QSize pageSize = page.size().toSize();
    // Printed pixels per laid-out pixel: 12-px text at 2.08 prints at 9 pt (200 dpi). A figure
    // whose smallest text is smaller is laid out smaller, so that its text prints larger (the
    // handout's figures were widget screenshots with 5-pt text, issue #23).
    double scale = kDotsPerInch * 9.0 / 72 / 12;
    QRectF target;
    QSize chartSize;
    double smallest = 0;
    for (int attempt = 0; attempt < 4; ++attempt) {
        // a drawing on a page of its own may be as tall as it is wide
        const double tallest = height > page.height() * 0.6 ? 0.9 : 0.54;
        // and a chart no flatter than 0.45 high to 1 wide: narrower, rather than a strip
        const QSizeF printed(std::min(page.width(), room / 0.45),
                             std::min(room, page.width() * tallest));
        layOutFigure(*view, printed / scale);
        const QWidget *figure = view->figureWidget();
        // a chart is laid out at the printed size itself, a drawing keeps its aspect
        const bool chart = qobject_cast<const QChartView *>(figure) != nullptr;
        chartSize = chart ? (printed / scale).toSize() : QSize();
        const double aspect = chart ? printed.height() / printed.width()
                                    : double(figure->height()) / std::max(1, figure->width());
        double width = chart ? printed.width() : page.width();
        double height = width * aspect;
        if (height > room) { // keep the page's two halves apart
            height = room;
            width = height / std::max(aspect, 1e-6);
        }
        target = QRectF((page.width() - width) / 2, figureTop, width, height);
        smallest = smallestPrinted(*view, target, chartSize, pageSize);
        if (!(smallest < kSmallestPoints))
            break;
        scale *= kSmallestPoints / smallest;
    }
    view->renderFigure(painter, target, chartSize);
    painter.save();
    painter.translate(0, target.bottom() + 20);
    text.drawContents(&painter, QRectF(0, 0, page.width(), textHeight + 4));
    painter.restore();
    return smallest;
}

void paintPageHeader(QPainter &painter, const QRectF &page, bool answers)
{
    painter.save();
    QFont small = QApplication::font();
    small.setPointSizeF(9.5);
    painter.setFont(small);
    painter.setPen(QColor(0x66, 0x66, 0x66));
    painter.drawText(QRectF(0, 0, page.width(), 40), Qt::AlignRight | Qt::AlignTop,
                     (answers ? QObject::tr("Teacher's copy, with the answers")
                              : QObject::tr("Student's copy")) +
                         QStringLiteral(" \u2022 ") + exportStampText());
    painter.restore();
}

QRectF a4Page()
{
    QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, kMargins,
                       QPageLayout::Millimeter);
    return QRectF(QPointF(), layout.paintRectPixels(kDotsPerInch).size());
}

/** Where a step prints: on which page, from where and how high. */
struct Slot
{
    int page = 0;
    double top = 0;
    double height = 0;
};

/** The steps flow down the pages, each given the least of half, 60 %, 70 %, 85 % or all of a
 *  page in which its figure and text print at 9 pt or more: two steps a page where they fit,
 *  more room for a dense drawing or a long text. Measured on pages that draw nothing. */
QList<Slot> planHandout(const QRectF &page, bool answers, QString *error)
{
    QList<Slot> plan;
    int pageIndex = 0;
    double used = 0; // of the current page
    for (int i = 0; i < tourSteps().size(); ++i) {
        double needed = page.height();
        for (const double share : {0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9}) {
            TextSizeProbe probe(page.size().toSize(), kDotsPerInch);
            QPainter painter(&probe);
            const double printed =
                paintStep(painter, page, 0, page.height() * share, i, answers, error);
            painter.end();
            if (printed < 0)
                return {};
            if (printed >= 9.0 && probe.smallestPoints() >= 9.0 && probe.overlaps().isEmpty() &&
                probe.elided().isEmpty()) {
                needed = page.height() * share;
                break;
            }
        }
        if (used + needed > page.height() + 1) {
            ++pageIndex;
            used = 0;
        }
        plan.append({pageIndex, used, needed});
        used += needed;
    }
    return plan;
}

} // namespace

QList<HandoutStepCheck> checkHandout(bool answers)
{
    const PrintAppearance printable;
    const QRectF page = a4Page();
    const QList<Slot> plan = planHandout(page, answers, nullptr);
    QList<HandoutStepCheck> checks;
    for (int i = 0; i < plan.size(); ++i) {
        TextSizeProbe probe(page.size().toSize(), kDotsPerInch);
        QPainter painter(&probe);
        const double figure =
            paintStep(painter, page, plan[i].top, plan[i].height, i, answers, nullptr);
        painter.end();
        checks.append({std::min(figure, probe.smallestPoints()), probe.overlaps(), probe.elided(),
                       plan[i].page});
    }
    return checks;
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
            pdf.setPageMargins(kMargins, QPageLayout::Millimeter);
            pdf.setResolution(kDotsPerInch);
            const QRectF page(QPointF(), pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
            const QList<Slot> plan = planHandout(page, answers, reason);
            if (plan.isEmpty())
                return false;
            QPainter painter;
            if (!painter.begin(&pdf))
                return false;
            for (int i = 0; i < plan.size(); ++i) {
                const bool newPage = i == 0 || plan[i].page != plan[i - 1].page;
                if (newPage && i > 0)
                    pdf.newPage();
                if (newPage) // the page's header: which copy this is
                    paintPageHeader(painter, page, answers);
                if (paintStep(painter, page, plan[i].top, plan[i].height, i, answers, reason) < 0)
                    return false;
            }
            return painter.end();
        },
        error);
}

} // namespace views

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

#include <functional>
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

/** Draws `view`'s figure into `target` on `probe`, which then holds what it printed. */
void probeFigure(TextSizeProbe &probe, View &view, const QRectF &target, QSize chartSize)
{
    QPainter painter(&probe);
    // twice: a drawing that measures its parts as it paints settles on the first pass
    view.renderFigure(painter, target, chartSize);
    probe.reset();
    view.renderFigure(painter, target, chartSize);
}

/** Whether what `probe` recorded prints well: 9 pt or more, no text over text, none cut short. */
bool printsWell(const TextSizeProbe &probe)
{
    return probe.smallestPoints() >= 9.0 && probe.overlaps().isEmpty() && probe.elided().isEmpty();
}

/** The view's size its figure is measured at, before it is laid out for a page. */
constexpr QSize kReferenceSize(900, 520);

/** Lays the view out so that its figure is about `figure` pixels large, from the size the figure
 *  takes when the view is kReferenceSize (`reference`, measured once a step). */
void layOutFigure(View &view, QSizeF figure, QSize reference)
{
    QSize size = kReferenceSize;
    if (reference.width() > 0 && reference.height() > 0)
        size = QSize(int(size.width() * figure.width() / reference.width()),
                     int(size.height() * figure.height() / reference.height()))
                   .expandedTo(view.minimumSizeHint());
    layOutOffscreen(view, size);
}

/** One tour step on paper: its scenario's document and view, built once and fitted to each slot
 *  the plan tries, then painted where the plan put it (issue #46: the plan built them afresh for
 *  every page share it tried, and the write pass built and fitted them once more). */
class HandoutStep
{
public:
    HandoutStep(int index, bool answers)
        : m_index(index)
        , m_answers(answers)
    {
        m_body = QApplication::font();
        m_body.setPointSizeF(10); // at least 9 pt on paper
    }

    /** The step's scenario, document and view; false (with the reason) when it has none. */
    bool build(QString *error)
    {
        const TourStep &step = tourSteps()[m_index];
        if (!tourScenario(step, m_scenario, error))
            return false;
        m_document.reset(m_scenario);
        if (!m_answers) { // the figure shows no answer the class is to predict, now or later
            m_document.setConcealed(concealedFigures(m_index, false));
            m_document.setCurvesHiddenFromBatch(curvesHiddenFromBatch(m_index, false));
        }
        m_document.flush();
        m_html = stepHtml(step, m_index, int(tourSteps().size()), m_scenario, m_answers);
        const ViewEntry *entry = findView(step.view);
        if (entry == nullptr)
            return false;
        m_view.reset(entry->create(&m_document, nullptr));
        // as in the tour: the lesson's training memory is 16 bytes a parameter, activations aside
        if (auto *memory = qobject_cast<MemoryView *>(m_view.get()))
            memory->setActivationsShown(false);
        m_figureHtml = m_view->figureHtml();
        if (m_figureHtml.isEmpty()) { // how large the figure is in a view of the reference size
            layOutOffscreen(*m_view, kReferenceSize);
            m_reference = m_view->figureWidget()->size();
        }
        return true;
    }

    /** Fits the step into a slot `height` high (half the page, or all of it for a dense
     *  drawing): its figure laid out at the size that prints its smallest text at 9 pt or more,
     *  the text below it. Whether the step then prints well: its figure at 9 pt or more, all of
     *  its text in the slot at 9 pt or more, no text over text and none cut short. */
    bool fit(const QRectF &page, double height)
    {
        const QSize pageSize = page.size().toSize();
        TextSizeProbe measure(pageSize, kDotsPerInch);
        // the text first: the figure gets what room it leaves in the slot
        QTextDocument text;
        layOutText(text, &measure, page, m_html, m_body);
        const double textHeight = text.size().height();
        const double room = std::max(0.0, height - kFigureTop - textHeight - 30);
        m_room = room;
        if (!m_figureHtml.isEmpty()) {
            QTextDocument figure;
            layOutText(figure, &measure, page, m_figureHtml, figureFont());
            m_printed = figure.size().height() > room ? 0.0 : figureFont().pointSizeF();
            TextSizeProbe probe(pageSize, kDotsPerInch);
            QPainter painter(&probe);
            paint(painter, page, 0);
            painter.end();
            return m_printed >= 9.0 && printsWell(probe);
        }
        // Printed pixels per laid-out pixel: 12-px text at 2.08 prints at 9 pt (200 dpi). A
        // figure whose smallest text is smaller is laid out smaller, so that its text prints
        // larger (the handout's figures were widget screenshots with 5-pt text, issue #23).
        double scale = kDotsPerInch * 9.0 / 72 / 12;
        m_printed = 0;
        std::unique_ptr<TextSizeProbe> probe;
        for (int attempt = 0; attempt < 4; ++attempt) {
            // a drawing on a page of its own may be as tall as it is wide
            const double tallest = height > page.height() * 0.6 ? 0.9 : 0.54;
            // and a chart no flatter than 0.45 high to 1 wide: narrower, rather than a strip
            const QSizeF printed(std::min(page.width(), room / 0.45),
                                 std::min(room, page.width() * tallest));
            layOutFigure(*m_view, printed / scale, m_reference);
            const QWidget *figure = m_view->figureWidget();
            // a chart is laid out at the printed size itself, a drawing keeps its aspect
            const bool chart = qobject_cast<const QChartView *>(figure) != nullptr;
            m_chartSize = chart ? (printed / scale).toSize() : QSize();
            const double aspect = chart ? printed.height() / printed.width()
                                        : double(figure->height()) / std::max(1, figure->width());
            double width = chart ? printed.width() : page.width();
            double figureHeight = width * aspect;
            if (figureHeight > room) { // keep the page's two halves apart
                figureHeight = room;
                width = figureHeight / std::max(aspect, 1e-6);
            }
            m_target = QRectF((page.width() - width) / 2, kFigureTop, width, figureHeight);
            probe = std::make_unique<TextSizeProbe>(pageSize, kDotsPerInch);
            probeFigure(*probe, *m_view, m_target, m_chartSize);
            m_printed = probe->smallestPoints();
            if (!(m_printed < kSmallestPoints))
                break;
            scale *= kSmallestPoints / m_printed;
        }
        // the text under the figure, on the page the figure was measured on: the whole step as
        // it prints, without drawing the figure a third time
        QPainter painter(probe.get());
        painter.translate(0, m_target.bottom() + 20);
        text.drawContents(&painter, QRectF(0, 0, page.width(), textHeight + 4));
        painter.end();
        return m_printed >= 9.0 && printsWell(*probe);
    }

    /** What the last fit printed the figure with (points; 0: the text ran out of the slot). */
    double printed() const { return m_printed; }

    /** Paints the step from `top` as it was last fitted, its text laid out for the painter's
     *  device. */
    void paint(QPainter &painter, const QRectF &page, double top)
    {
        QTextDocument text;
        layOutText(text, painter.device(), page, m_html, m_body);
        const double textHeight = text.size().height();
        painter.save();
        painter.translate(0, top);
        if (!m_figureHtml.isEmpty()) {
            // words and tables flow as text at the handout's type size, under a rule
            QTextDocument figure;
            layOutText(figure, painter.device(), page, m_figureHtml, figureFont());
            const double shown = std::min(figure.size().height(), m_room);
            painter.translate(0, kFigureTop);
            painter.setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 2));
            painter.drawLine(QPointF(0, -10), QPointF(page.width(), -10));
            figure.drawContents(&painter, QRectF(0, 0, page.width(), shown));
            painter.translate(0, shown + 20);
        } else {
            m_view->renderFigure(painter, m_target, m_chartSize);
            painter.translate(0, m_target.bottom() + 20);
        }
        text.drawContents(&painter, QRectF(0, 0, page.width(), textHeight + 4));
        painter.restore();
    }

private:
    static constexpr double kFigureTop = 50;

    QFont figureFont() const
    {
        QFont small = m_body;
        small.setPointSizeF(kSmallestPoints + 0.3);
        return small;
    }

    static void layOutText(QTextDocument &text, QPaintDevice *device, const QRectF &page,
                           const QString &html, const QFont &font)
    {
        text.documentLayout()->setPaintDevice(device);
        text.setDefaultFont(font);
        text.setDocumentMargin(0);
        text.setHtml(html);
        text.setTextWidth(page.width());
    }

    int m_index;
    bool m_answers;
    QFont m_body;
    core::Scenario m_scenario;
    ScenarioDocument m_document;
    std::unique_ptr<View> m_view;
    QString m_html;
    QString m_figureHtml;
    QSize m_reference; ///< the figure's size in a view of kReferenceSize
    double m_room = 0;
    QRectF m_target;
    QSize m_chartSize;
    double m_printed = 0;
};

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

/** The steps flow down the pages, each given the least of 40 % to 90 % of a page (else all of
 *  it) in which its figure and text print at 9 pt or more, with no text over text and none cut
 *  short: two steps a page where they fit, more room for a dense drawing or a long text. Each
 *  step is built once, fitted to the shares in turn on a page that draws nothing, and handed to
 *  `place` with its slot as soon as it is planned: the fit is what is painted. */
bool flowHandout(const QRectF &page, bool answers, QString *error,
                 const std::function<bool(const Slot &, HandoutStep &)> &place)
{
    int pageIndex = 0;
    double used = 0; // of the current page
    for (int i = 0; i < tourSteps().size(); ++i) {
        HandoutStep step(i, answers);
        if (!step.build(error))
            return false;
        double needed = 0;
        for (const double share : {0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9}) {
            if (step.fit(page, page.height() * share)) {
                needed = page.height() * share;
                break;
            }
        }
        if (needed == 0) { // nothing smaller would do: the whole page
            needed = page.height();
            step.fit(page, needed);
        }
        if (used + needed > page.height() + 1) {
            ++pageIndex;
            used = 0;
        }
        if (!place({pageIndex, used, needed}, step))
            return false;
        used += needed;
    }
    return true;
}

} // namespace

QList<HandoutStepCheck> checkHandout(bool answers)
{
    const PrintAppearance printable;
    const QRectF page = a4Page();
    QList<HandoutStepCheck> checks;
    flowHandout(page, answers, nullptr, [&](const Slot &slot, HandoutStep &step) {
        TextSizeProbe probe(page.size().toSize(), kDotsPerInch);
        QPainter painter(&probe);
        step.paint(painter, page, slot.top);
        painter.end();
        checks.append({std::min(step.printed(), probe.smallestPoints()), probe.overlaps(),
                       probe.elided(), slot.page});
        return true;
    });
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
            QPainter painter;
            int lastPage = -1;
            const bool flowed =
                flowHandout(page, answers, reason, [&](const Slot &slot, HandoutStep &step) {
                    if (lastPage < 0 && !painter.begin(&pdf))
                        return false;
                    if (slot.page != lastPage) {
                        if (lastPage >= 0)
                            pdf.newPage();
                        paintPageHeader(painter, page, answers); // which copy this is
                        lastPage = slot.page;
                    }
                    step.paint(painter, page, slot.top);
                    return true;
                });
            if (!flowed) {
                if (painter.isActive())
                    painter.end();
                return false;
            }
            return painter.end();
        },
        error);
}

} // namespace views

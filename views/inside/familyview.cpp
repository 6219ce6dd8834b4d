// SPDX-License-Identifier: GPL-3.0-or-later
#include "familyview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/lessonlines.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/data/presets.h"
#include "core/model/scenario.h"

#include <QAbstractTextDocumentLayout>
#include <QChart>
#include <QChartView>
#include <QFontMetrics>
#include <QGraphicsEllipseItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QSet>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

/** A point's diameter in pixels: its area grows with memory capacity (GB), within limits. */
double markerDiameter(double memoryGb)
{
    return std::min(6 + 1.4 * std::sqrt(memoryGb), 32.0) * style::scale();
}

struct Family
{
    core::DeviceFamily family;
    const char *name;
    QColor colour;
};

const Family kFamilies[] = {
    {core::DeviceFamily::Gpu, QT_TRANSLATE_NOOP("FamilyView", "GPU"), style::kBlue},
    {core::DeviceFamily::Tpu, QT_TRANSLATE_NOOP("FamilyView", "TPU"), style::kGreen},
    {core::DeviceFamily::Npu, QT_TRANSLATE_NOOP("FamilyView", "NPU"), style::kPurple},
    {core::DeviceFamily::Asic, QT_TRANSLATE_NOOP("FamilyView", "Custom ASIC"), style::kOrange},
    {core::DeviceFamily::Cpu, QT_TRANSLATE_NOOP("FamilyView", "CPU"), QColor(110, 110, 110)},
};

/** The dense 16-bit peak, FP32 where the preset has no 16-bit figure, INT8 TOPS where it has
 *  no float figure at all (an NPU); `integer` says which. */
double peakOf(const core::DeviceSpec &d, bool *integer = nullptr)
{
    if (integer)
        *integer = false;
    for (const core::NumericFormat f :
         {core::NumericFormat::Bf16, core::NumericFormat::Fp16, core::NumericFormat::Fp32}) {
        if (core::isSet(d.peak(f)))
            return d.peak(f);
    }
    if (integer)
        *integer = core::isSet(d.peak(core::NumericFormat::Int8));
    return d.peak(core::NumericFormat::Int8);
}

} // namespace

QString FamilyView::shortName(const QString &name)
{
    QString s = name;
    static const QRegularExpression vendor(QStringLiteral(
        "^(NVIDIA GeForce |NVIDIA |AMD Instinct |AMD |Google Cloud |Intel \\(Habana\\) |AWS |Apple "
        "|Qualcomm )"));
    static const QRegularExpression brackets(QStringLiteral("\\s*\\([^)]*\\)"));
    s.remove(vendor);
    s.remove(brackets);
    return s.trimmed();
}

FamilyView::FamilyView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
    , m_current(new QScatterSeries)
    , m_notes(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("familyView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    style::styleChart(m_chart);
    // the key is a wrapping label under the chart (Qt's legend cut "Custom ASIC" and
    // "this scenario" short at 1280x800)
    m_chart->legend()->hide();
    // short enough never to be elided; the fine print is in the notes beside the chart
    m_x->setTitleText(tr("Dense 16-bit peak (TFLOP/s)"));
    m_y->setTitleText(tr("Memory bandwidth (GB/s)"));
    for (QLogValueAxis *axis : {m_x, m_y})
        style::styleLogAxis(axis);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    // ridge iso-lines first, under the points: peak / bandwidth = 10, 100, 1,000 FLOP/B
    for (const double ridge : {10.0, 100.0, 1000.0}) {
        auto *line = new QLineSeries;
        line->setName(ridge == 10.0 ? tr("ridges (FLOP/B)") : QString());
        line->setPen(QPen(style::grey(200), 1.2 * style::scale(), Qt::DashLine));
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_ridges << line;
    }
    for (const Family &family : kFamilies) {
        auto *series = new QScatterSeries;
        series->setName(tr(family.name));
        series->setColor(family.colour);
        series->setBorderColor(family.colour.darker(130));
        series->setMarkerSize(12 * style::scale());
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        m_families << series;
        // the device under the mouse gets its name (the others keep the chart readable)
        connect(series, &QScatterSeries::hovered, this, [this](const QPointF &at, bool state) {
            const Point *nearest = nearestPoint(at);
            const QString hovered = state && nearest ? nearest->id : QString();
            if (hovered != m_hovered) {
                m_hovered = hovered;
                refresh();
            }
        });
        connect(series, &QScatterSeries::clicked, this, [this](const QPointF &clicked) {
            if (const Point *nearest = nearestPoint(clicked))
                choose(nearest->id);
        });
    }
    m_current->setName(tr("this scenario"));
    m_current->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_current->setColor(Qt::transparent);
    m_current->setBorderColor(style::ink());
    m_current->setPen(QPen(style::ink(), 2.5 * style::scale()));
    m_current->setMarkerSize(26 * style::scale());
    m_chart->addSeries(m_current);
    m_current->attachAxis(m_x);
    m_current->attachAxis(m_y);
    m_labels = std::make_unique<ChartLabels>(m_chart);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { placeBubbles(); });

    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumSize(420, 300);
    m_notes->setOpenLinks(false);
    m_notes->setMinimumWidth(250);
    // the notes' text laid out anew (the projector's larger font arrives after the view is
    // sized): measured again, or its last paragraphs went under a scroll bar at 1920x1080
    connect(m_notes->document()->documentLayout(),
            &QAbstractTextDocumentLayout::documentSizeChanged, this, [this] { fitNotes(); });
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    QList<std::pair<QColor, QString>> entries{{QColor(), tr("- - ridges (FLOP/B)")}};
    for (const Family &family : kFamilies)
        entries.append({family.colour, tr(family.name)});
    entries.append({QColor(), tr("\u25a1 this scenario")});
    auto *key = new QLabel(style::keyHtml(entries), this);
    key->setObjectName(QStringLiteral("familyKey"));
    key->setWordWrap(true);
    key->setFont(style::annotationFont(0.9));
    auto *chartColumn = new QVBoxLayout;
    chartColumn->addWidget(chartView, 1);
    chartColumn->addWidget(key);
    layout->addLayout(chartColumn, 0);
    layout->addWidget(m_notes, 1); // up to the width resizeEvent() allows it

    // on a projector the notes are the families alone: the tour's text says "none is a
    // universal winner", and the teacher says how to read the chart (the whole text scrolled at
    // 1280x720, issue #42)
    const bool projector = style::minimumChartPixels() > 0;
    m_notes->setHtml(style::themed(
        (projector
             ? QString()
             : tr("<h3>Two design axes</h3>"
                  "<p><b>Fixed-function versus programmable.</b> Matrix units and compiled "
                  "execution buy arithmetic per watt; programmability buys new operations and "
                  "the software that research code targets first.</p>"
                  "<p><b>Datacenter versus edge.</b> Hundreds of watts, HBM and fast links "
                  "against a few watts, shared memory and quantised small models.</p>")) +
        lessonLinesForTheRoom(tr(
            "<h3>The families</h3>"
            "<p><b>GPU</b>: programmable many-thread design and a deep software ecosystem; the "
            "cost of flexibility is die area and power (l.141).</p>"
            "<p><b>TPU</b>: large systolic matrix units and a compiler-driven model, in pods of "
            "tightly connected chips, mostly as a cloud service (l.143).</p>"
            "<p><b>NPU</b>: small accelerators in phones and laptops for performance per watt; "
            "vendor-specific stacks, narrower operator coverage, memory shared with the system "
            "(l.145).</p>"
            "<p><b>Custom ASIC</b>: designed by a provider for its own mix, cost and efficiency at "
            "volume for a narrower software path (l.147).</p>"
            "<p><b>CPU</b>: a few dozen wide cores and DIMM bandwidth: the baseline the others "
            "are measured against (l.11).</p>")) +
        (projector
             ? QString()
             : tr("<p style=\"color:#666\">None is a universal winner: compare for a specific "
                  "workload, stack and scale (l.139). Click a point to make it the scenario's "
                  "device.</p>"
                  "<p style=\"color:#666\">The chart: a bubble's area is its memory; the peak is "
                  "dense 16-bit (FP32 where a device has none, INT8 TOPS where it has no float "
                  "figure). Hover a bubble for its name.</p>"))));
}

FamilyView::~FamilyView() = default;

// The notes as wide as they must be to show whole (up to 2/5 of the view, 55 % on a projector): a
// fixed quarter of the view left the families' last paragraphs under a scroll bar (issue #42, item
// 2).
void FamilyView::resizeEvent(QResizeEvent *event)
{
    View::resizeEvent(event);
    fitNotes();
}

void FamilyView::fitNotes()
{
    if (m_fittingNotes || !layout())
        return;
    m_fittingNotes = true;
    // the document is laid out at the viewport's width and must fit its height
    const QSize size = this->size();
    const int frame = 2 * m_notes->frameWidth();
    const int room = size.height() - layout()->contentsMargins().top() -
                     layout()->contentsMargins().bottom() - frame - 2;
    // on a projector the notes may take 55 % of the view: the class reads them whole (at 1366x768
    // two fifths left their last paragraph under a scroll bar); on a desk the chart keeps 3/5
    const bool projector = style::minimumChartPixels() > 0;
    const int widest = projector ? size.width() * 11 / 20 : size.width() * 2 / 5;
    // on a desk the notes read like a page: where the screen is short they scroll rather than
    // squeeze the chart; on a projector they must show whole (the fit test reads this)
    m_notes->setProperty("accelRowsScroll", !projector);
    // on a projector the width is chosen to show them whole: no scroll bar that, once shown
    // while the view was still small, narrowed the text into needing it (1920x1080)
    m_notes->setVerticalScrollBarPolicy(projector ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    // a line's slack: at the narrowest width that fits, one word more per line than measured
    // (the viewport's own rounding) wrapped a line, a scroll bar came and took more width
    const int slack = QFontMetrics(m_notes->font()).lineSpacing();
    const int width =
        widthShowingWhole(*m_notes->document(), room - slack, 250 - frame, widest - frame) + frame +
        2;
    // the notes grow first, up to that width, and the chart takes the rest; a maximum, not a
    // fixed width, which would hold the window at its widest (a stretch ratio was not exact)
    if (m_notes->maximumWidth() != width)
        m_notes->setMaximumWidth(width);
    m_fittingNotes = false;
}

bool FamilyView::choose(const QString &id)
{
    return document()->setDevicePreset(id);
}

void FamilyView::refresh()
{
    m_points.clear();
    QList<QList<QPointF>> byFamily(std::size(kFamilies));
    double xMin = 1e9;
    double xMax = 0;
    double yMin = 1e9;
    double yMax = 0;
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind != "device")
            continue;
        const auto device = core::devicePreset(info.id);
        if (!device)
            continue;
        bool integer = false;
        const double peak = peakOf(device.value(), &integer);
        if (!core::isSet(peak) || !core::isSet(device->bandwidthGbPerSecond))
            continue;
        Point point{QString::fromStdString(info.id),
                    QString::fromStdString(info.name),
                    QString(),
                    peak,
                    device->bandwidthGbPerSecond,
                    device->capacityGb()};
        for (std::size_t f = 0; f < std::size(kFamilies); ++f) {
            if (kFamilies[f].family == device->family) {
                point.family = tr(kFamilies[f].name);
                byFamily[qsizetype(f)] << QPointF(peak, device->bandwidthGbPerSecond);
            }
        }
        point.integerPeak = integer;
        m_points << point;
        xMin = std::min(xMin, peak);
        xMax = std::max(xMax, peak);
        yMin = std::min(yMin, device->bandwidthGbPerSecond);
        yMax = std::max(yMax, device->bandwidthGbPerSecond);
    }
    const double x0 = std::pow(10, std::floor(std::log10(xMin)));
    const double x1 = std::pow(10, std::ceil(std::log10(xMax * 1.5)));
    const double y0 = std::pow(10, std::floor(std::log10(yMin)));
    const double y1 = std::pow(10, std::ceil(std::log10(yMax * 1.5)));
    m_x->setRange(x0, x1);
    m_y->setRange(y0, y1);
    for (qsizetype f = 0; f < m_families.size(); ++f)
        replaceIfChanged(m_families[f], byFamily[f]);
    // Bubbles sized by memory, drawn by the view: Qt Charts 6.4 drew no point at all once sizes
    // were configured per point in a tab shown later (the tour's step 10 was an empty chart,
    // issue #23). The series stay for the legend, clicks and hovers.
    while (m_bubbles.size() < m_points.size()) {
        auto *bubble = new QGraphicsEllipseItem(m_chart);
        bubble->setZValue(6); // over the series' own small markers, under the labels
        bubble->setAcceptedMouseButtons(Qt::NoButton); // a click reaches the series beneath
        m_bubbles << bubble;
    }
    for (qsizetype i = 0; i < m_bubbles.size(); ++i) {
        QGraphicsEllipseItem *bubble = m_bubbles[i];
        bubble->setVisible(i < m_points.size());
        if (i >= m_points.size())
            continue;
        QColor colour = style::grey(120);
        for (const Family &family : kFamilies)
            if (tr(family.name) == m_points[i].family)
                colour = family.colour;
        bubble->setBrush(colour);
        bubble->setPen(QPen(colour.darker(130), 1.0));
    }
    placeBubbles();
    // ridges: bandwidth (GB/s) = peak (TFLOP/s) x 1,000 / ridge
    const double ridges[] = {10.0, 100.0, 1000.0};
    for (qsizetype i = 0; i < m_ridges.size(); ++i)
        replaceIfChanged(m_ridges[i],
                         {QPointF(x0, x0 * 1000 / ridges[i]), QPointF(x1, x1 * 1000 / ridges[i])});
    // labels: every point, and the ridges at the chart's right edge
    m_labels->clear();
    // every bubble is an obstacle: a name never sits on another device's point
    const QRectF plot = m_chart->plotArea();
    if (plot.width() > 10 && plot.height() > 10) {
        const double decadesPerPixelX = std::log10(x1 / x0) / plot.width();
        const double decadesPerPixelY = std::log10(y1 / y0) / plot.height();
        for (const Point &p : std::as_const(m_points)) {
            const double radius = markerDiameter(p.memoryGb) / 2;
            const double fx = std::pow(10, radius * decadesPerPixelX);
            const double fy = std::pow(10, radius * decadesPerPixelY);
            m_labels->addObstacle(QPointF(p.peakTflops / fx, p.bandwidthGbs / fy),
                                  QPointF(p.peakTflops * fx, p.bandwidthGbs * fy), m_current);
        }
    }
    const core::DeviceSpec &current = document()->scenario().device;
    QList<QPointF> currentPoint;
    // Names for a few landmarks (each family's fastest and slowest chip), the scenario's device
    // and the one under the mouse: every name on the chart was a heap of labels far from their
    // points (issue #23). Hover any bubble for its name.
    QSet<QString> named{QString::fromStdString(current.presetId), m_hovered};
    for (const Family &family : kFamilies) {
        const Point *fastest = nullptr;
        const Point *slowest = nullptr;
        for (const Point &p : std::as_const(m_points)) {
            if (p.family != tr(family.name))
                continue;
            if (!fastest ||
                p.peakTflops * p.bandwidthGbs > fastest->peakTflops * fastest->bandwidthGbs)
                fastest = &p;
            if (!slowest ||
                p.peakTflops * p.bandwidthGbs < slowest->peakTflops * slowest->bandwidthGbs)
                slowest = &p;
        }
        for (const Point *p : {fastest, slowest})
            if (p)
                named << p->id;
    }
    for (const Point &p : std::as_const(m_points)) {
        const bool isCurrent = p.id == QString::fromStdString(current.presetId);
        if (named.contains(p.id))
            m_labels->add(shortName(p.name) + (p.integerPeak ? tr(" (INT8 TOPS)") : QString()),
                          QPointF(p.peakTflops, p.bandwidthGbs), m_current, style::grey(40),
                          QPointF(markerDiameter(p.memoryGb) / 2 + 2, -8),
                          isCurrent || p.id == m_hovered);
        if (isCurrent)
            currentPoint << QPointF(p.peakTflops, p.bandwidthGbs);
    }
    if (currentPoint.isEmpty() && core::isSet(peakOf(current)) &&
        core::isSet(current.bandwidthGbPerSecond))
        currentPoint << QPointF(peakOf(current), current.bandwidthGbPerSecond);
    replaceIfChanged(m_current, currentPoint);
    for (qsizetype i = 0; i < m_ridges.size(); ++i) {
        const double x = x1 / 1.6;
        const double y = x * 1000 / ridges[i];
        if (y > y0 && y < y1)
            m_labels->add(tr("%1 FLOP/B").arg(style::number(ridges[i], 4)), QPointF(x, y),
                          m_current, style::grey(150), QPointF(-4, -20), false,
                          ChartLabels::Align::End);
    }
    m_labels->reposition();
}

const FamilyView::Point *FamilyView::nearestPoint(QPointF at) const
{
    // in log space, as the chart draws them
    const Point *nearest = nullptr;
    double best = 1e9;
    for (const Point &p : m_points) {
        const double d =
            std::hypot(std::log10(p.peakTflops / at.x()), std::log10(p.bandwidthGbs / at.y()));
        if (d < best) {
            best = d;
            nearest = &p;
        }
    }
    return nearest;
}

void FamilyView::placeBubbles()
{
    // area grows with memory capacity (diameter ~ sqrt(GB))
    for (qsizetype i = 0; i < m_points.size() && i < m_bubbles.size(); ++i) {
        const Point &p = m_points[i];
        const QPointF centre =
            m_chart->mapToPosition(QPointF(p.peakTflops, p.bandwidthGbs), m_current);
        const double d = markerDiameter(p.memoryGb);
        m_bubbles[i]->setRect(centre.x() - d / 2, centre.y() - d / 2, d, d);
    }
}

QString FamilyView::csv() const
{
    QStringList lines{QStringLiteral("id,family,peak_tflops,bandwidth_gb_s,memory_gb")};
    for (const Point &p : m_points)
        lines << QStringLiteral("%1,%2,%3,%4,%5")
                     .arg(p.id, p.family)
                     .arg(p.peakTflops)
                     .arg(p.bandwidthGbs)
                     .arg(p.memoryGb);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views

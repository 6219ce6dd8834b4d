// SPDX-License-Identifier: GPL-3.0-or-later
#include "rooflineview.h"

#include "core/train/trainingplan.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/figurelabel.h"
#include "views/widgets/style.h"

#include "core/calibrate/calibration.h"
#include "core/calibrate/measurements.h"
#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/model/calc.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"
#include "core/physics/evaluation.h"
#include "core/physics/techniques.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace views {

namespace {

using style::number;

/** The range bar's caps reach this far either side of the point, in pixels at scale 1: wider
 *  than the point's marker (16 pixels across), so a narrow range still shows its ends. */
constexpr double kRangeCapPixels = 12.0;

using core::FigureId;
constexpr double kTera = 1e12;

QPen pen(const QColor &color, double width, Qt::PenStyle penStyle = Qt::SolidLine)
{
    QPen p(color, width * style::scale(), penStyle);
    p.setCapStyle(Qt::RoundCap);
    return p;
}

double decadeBelow(double value)
{
    return std::pow(10.0, std::floor(std::log10(value)));
}

double decadeAbove(double value)
{
    return std::pow(10.0, std::ceil(std::log10(value)));
}

/** The roof of one device and format: bandwidth slope up to the ridge, then flat. */
QList<QPointF> roofPoints(double bandwidth, double peak, double xMin, double xMax)
{
    QList<QPointF> points;
    points << QPointF(xMin, core::rooflineAttainable(peak, bandwidth, xMin) / kTera);
    const double ridge = peak / bandwidth; // where the two limbs meet
    if (ridge > xMin && ridge < xMax)
        points << QPointF(ridge, core::rooflineAttainable(peak, bandwidth, ridge) / kTera);
    points << QPointF(xMax, core::rooflineAttainable(peak, bandwidth, xMax) / kTera);
    return points;
}

} // namespace

RooflineView::RooflineView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
    , m_roofTail(new QLineSeries)
    , m_trailLine(new QLineSeries)
    , m_trail(new QScatterSeries)
    , m_point(new QScatterSeries)
    , m_lightPoint(new QScatterSeries)
    , m_range(new QLineSeries)
    , m_ridge(new QScatterSeries)
    , m_ridgeSlideAt(std::numeric_limits<double>::infinity())
    , m_prefill(new QScatterSeries)
    , m_verify(new QScatterSeries)
    , m_training(new QScatterSeries)
    , m_limit(new QLineSeries)
    , m_compareRoof(new QLineSeries)
    , m_comparePoint(new QScatterSeries)
    , m_compare(new QComboBox(this))
{
    setObjectName(QStringLiteral("rooflineView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_chart);
    m_chart->legend()->hide(); // direct labels instead of a legend
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_x->setTitleText(tr("Arithmetic intensity (FLOP per byte from memory)"));
    m_y->setTitleText(tr("Attainable arithmetic (TFLOP/s)"));
    for (QLogValueAxis *axis : {m_x, m_y}) {
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
        axis->setMinorGridLineVisible(true);
        axis->setMinorGridLinePen(QPen(style::grey(235)));
    }
    style::styleAxis(m_x);
    style::styleAxis(m_y);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);

    auto attach = [this](QAbstractSeries *series) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    };
    m_limit->setPen(pen(style::kvCache(), 1.5, Qt::DashLine));
    attach(m_limit);
    m_compareRoof->setPen(pen(style::comparisonDevice(), 2.0, Qt::DashDotLine));
    attach(m_compareRoof);
    m_roofTail->setPen(pen(style::currentDevice(), 3.0));
    attach(m_roofTail);
    m_trailLine->setPen(pen(style::trail(), 1.0));
    attach(m_trailLine);
    m_trail->setMarkerSize(7 * style::scale());
    m_trail->setColor(style::trail());
    m_trail->setBorderColor(style::trail());
    attach(m_trail);
    m_ridge->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_ridge->setMarkerSize(9 * style::scale());
    m_ridge->setColor(style::currentDevice());
    attach(m_ridge);
    m_prefill->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_prefill->setMarkerSize(12 * style::scale());
    m_prefill->setColor(style::prefill());
    attach(m_prefill);
    m_verify->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_verify->setMarkerSize(13 * style::scale());
    m_verify->setColor(style::ink());
    m_verify->setBorderColor(style::paper());
    attach(m_verify);
    m_training->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_training->setMarkerSize(16 * style::scale());
    m_training->setColor(style::kGreen);
    m_training->setBorderColor(style::paper());
    attach(m_training);
    m_comparePoint->setMarkerSize(12 * style::scale());
    m_comparePoint->setColor(style::comparisonDevice());
    attach(m_comparePoint);
    m_measured = new QScatterSeries;
    m_measured->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_measured->setMarkerSize(12 * style::scale());
    m_measured->setColor(style::ink());
    attach(m_measured);
    m_range->setObjectName(QStringLiteral("estimateRange"));
    attach(m_range);
    connect(m_chart, &QChart::plotAreaChanged, this, &RooflineView::drawRange);
    m_lightPoint->setMarkerSize(16 * style::scale());
    m_lightPoint->setColor(Qt::transparent);
    m_lightPoint->setBorderColor(style::ink());
    m_lightPoint->setPen(QPen(style::ink(), 2 * style::scale()));
    attach(m_lightPoint);
    m_point->setMarkerSize(16 * style::scale());
    m_point->setBorderColor(style::paper());
    attach(m_point);
    connect(m_point, &QScatterSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::DecodeIntensity);
    });
    connect(m_prefill, &QScatterSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::PrefillSeconds);
    });
    connect(m_ridge, &QScatterSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::Ridge);
    });
    connect(m_limit, &QLineSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::DecodeIntensityLimit);
    });
    m_labels = std::make_unique<ChartLabels>(m_chart);

    m_chartView = new QChartView(m_chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 260);

    // Readout beside the chart: every number hoverable for its formula.
    auto *readout = new QWidget(this);
    auto *form = new QFormLayout(readout);
    form->setLabelAlignment(Qt::AlignRight);
    addReadoutRow(form, tr("Bytes per step"), FigureId::DecodeBytesPerStep);
    addReadoutRow(form, tr("FLOP per step"), FigureId::DecodeFlopsPerStep);
    addReadoutRow(form, tr("Intensity"), FigureId::DecodeIntensity);
    addReadoutRow(form, tr("Step time"), FigureId::DecodeStepSeconds);
    addReadoutRow(form, tr("Tokens/s total"), FigureId::DecodeTokensPerSecond);
    addReadoutRow(form, tr("Per sequence"), FigureId::DecodeTokensPerSecondPerSequence);
    m_bound = new FigureLabel(FigureId::DecodeMemoryToComputeRatio, readout);
    form->addRow(tr("Bound"), m_bound);
    m_ridgeDistance = new FigureLabel(FigureId::DecodeRidgeDistance, readout);
    form->addRow(tr("Operating point"), m_ridgeDistance); // "32.7x left of the ridge"
    m_fraction = new FigureLabel(FigureId::DecodeFractionOfPeak, readout);
    form->addRow(tr("Peak used"), m_fraction);
    addReadoutRow(form, tr("Ridge point"), FigureId::Ridge);
    addReadoutRow(form, tr("Intensity limit"), FigureId::DecodeIntensityLimit);
    addReadoutRow(form, tr("Prefill"), FigureId::PrefillSeconds);
    addReadoutRow(form, tr("First token"), FigureId::PrefillTtftSeconds);
    for (FigureLabel *label : {m_bound, m_ridgeDistance, m_fraction}) {
        m_readout << label;
        connect(label, &FigureLabel::activated, this, &View::explainRequested);
    }
    m_estimateNote = new QLabel(readout);
    m_estimateNote->setObjectName(QStringLiteral("estimateNote"));
    m_estimateNote->setWordWrap(true);
    m_estimateNote->setStyleSheet(QStringLiteral("color: %1").arg(style::note().name()));
    form->addRow(m_estimateNote);

    m_batch = new LogSliderControl(document, QStringLiteral("serving.batch"), this);
    m_compare->addItem(tr("none"), QString());
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "device")
            m_compare->addItem(QString::fromStdString(info.name), QString::fromStdString(info.id));
    }
    m_compare->setToolTip(tr("Overlay a second device's roof and operating point."));
    connect(m_compare, &QComboBox::activated, this,
            [this](int index) { setComparisonDevice(m_compare->itemData(index).toString()); });

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Batch"), this));
    controls->addWidget(m_batch, 1);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Compare with"), this));
    controls->addWidget(m_compare);

    // A fixed-width readout: numbers changing width on every slider step would otherwise resize
    // the chart, and a resized chart rebuilds every axis item (the slowest part of a step).
    const QFontMetrics metrics(font());
    readout->setFixedWidth(metrics.horizontalAdvance(QStringLiteral(
                               "Intensity limit 26.08 FLOP/B   lesson: about 26 FLOP/B (l.125)")) +
                           24);
    auto *top = new QHBoxLayout;
    top->addWidget(m_chartView, 1);
    top->addWidget(readout);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top, 1);
    layout->addLayout(controls);
}

RooflineView::~RooflineView() = default;

void RooflineView::drawRange()
{
    if (m_rangeAt.x() <= 0.0) {
        m_range->clear();
        return;
    }
    const double width = m_chart->plotArea().width();
    const double decades = std::log10(m_x->max() / m_x->min());
    // before the first layout the plot has no width: a tenth of a decade either side
    const double capDecades =
        width > 0.0 && decades > 0.0 ? kRangeCapPixels * style::scale() * decades / width : 0.1;
    const double cap = std::pow(10.0, capDecades);
    const double x = m_rangeAt.x();
    replaceIfChanged(m_range, {QPointF(x / cap, m_rangeLow), QPointF(x * cap, m_rangeLow),
                               QPointF(x, m_rangeLow), QPointF(x, m_rangeHigh),
                               QPointF(x / cap, m_rangeHigh), QPointF(x * cap, m_rangeHigh)});
}

void RooflineView::addReadoutRow(QFormLayout *form, const QString &name, core::FigureId id)
{
    auto *label = new FigureLabel(id, this);
    form->addRow(name, label);
    m_readout << label;
    connect(label, &FigureLabel::activated, this, &View::explainRequested);
}

void RooflineView::setComparisonDevice(const QString &presetId)
{
    m_compareId = presetId;
    m_compare->setCurrentIndex(std::max(0, m_compare->findData(presetId)));
    refresh();
}

void RooflineView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &s = doc.scenario();
    const core::Evaluation &e = doc.evaluation();
    const double bandwidth = e[FigureId::Bandwidth];
    const double peak = e[FigureId::PeakFlops];
    const double ridge = e[FigureId::Ridge];

    // The operating points: the current batch, a trail of powers of two, the prefill point.
    const std::vector<core::BatchPoint> &trail = document()->batchSweep();

    core::Evaluation compare;
    bool haveCompare = false;
    if (!m_compareId.isEmpty()) {
        if (auto moved = core::onDevicePreset(s, m_compareId.toStdString())) {
            compare = core::evaluate(moved->scenario);
            haveCompare = compare.available(FigureId::DecodeIntensity);
        }
    }

    // Axes in whole decades with room around every point and roof.
    double xLow = std::min({0.1, e[FigureId::DecodeIntensity] / 2, trail.front().intensity / 2});
    double xHigh = std::max({ridge * 20, e[FigureId::PrefillIntensity] * 3, 1000.0});
    // a training decision: its step's largest matmul, from the plan the Training tab shows
    const core::TrainingPlan *training = nullptr;
    if (core::asksForTrainingPlan(s) && doc.trainingPlan().problem.empty() &&
        doc.trainingPlan().gemmIntensity > 0.0)
        training = &doc.trainingPlan();
    if (training)
        for (const auto &gemm : training->gemms)
            xHigh = std::max(xHigh, gemm.intensity * 3);
    double yHigh = peak;
    for (core::NumericFormat f : core::kAllFormats) {
        if (core::isSet(s.device.peak(f)))
            yHigh = std::max(yHigh, s.device.peak(f) * kTera);
    }
    double yLow = std::min(bandwidth * xLow, trail.front().attainableFlops);
    if (haveCompare) {
        yHigh = std::max(yHigh, compare[FigureId::PeakFlops]);
        yLow = std::min(yLow, compare[FigureId::Bandwidth] * xLow);
        xHigh = std::max(xHigh, compare[FigureId::Ridge] * 20);
    }
    xLow = decadeBelow(xLow) * 0.999;
    xHigh = decadeAbove(xHigh) * 1.001;
    const double yLowT = decadeBelow(yLow / kTera) * 0.999;
    const double yHighT = decadeAbove(yHigh * 2 / kTera) * 1.001;
    if (m_x->min() != xLow || m_x->max() != xHigh)
        m_x->setRange(xLow, xHigh);
    if (m_y->min() != yLowT || m_y->max() != yHighT)
        m_y->setRange(yLowT, yHighT);

    // Roofs: the compute format's roof solid; every other format's ceiling thinner. The series
    // are kept between refreshes (adding a series re-lays the chart out); only their points move.
    // One roof per distinct peak; formats sharing a peak share a line and a label ("BF16 / FP16").
    struct Roof
    {
        double peak;
        QStringList formats;
    };
    std::vector<Roof> roofs = {{s.device.peak(e.computeFormat), {}}};
    for (core::NumericFormat f : core::kAllFormats) {
        const double p = s.device.peak(f);
        if (!core::isSet(p))
            continue;
        auto same =
            std::find_if(roofs.begin(), roofs.end(), [&](const Roof &r) { return r.peak == p; });
        const QString label = QString::fromLatin1(core::formatLabel(f).data());
        if (same == roofs.end())
            roofs.push_back({p, {label}});
        else if (f == e.computeFormat)
            same->formats.prepend(label);
        else
            same->formats.append(label);
    }
    const std::size_t roofCount = roofs.size();
    while (m_roofs.size() > qsizetype(roofCount)) {
        QLineSeries *series = m_roofs.takeLast();
        m_chart->removeSeries(series);
        delete series;
    }
    while (m_roofs.size() < qsizetype(roofCount)) {
        auto *series = new QLineSeries;
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        m_roofs << series;
    }
    m_labels->clear();
    // while a class predicts the ridge, nothing on the chart shows it (issue #23): no marker, no
    // number, no kink where the slope meets the roof (a decade each side is left out) and no
    // other format's roof beside it (its kink and peak would give the ratio away, issue #42)
    const bool ridgeConcealed = doc.isConcealed(FigureId::Ridge);
    constexpr double kConcealedDecade = 10.0;
    int roofIndex = 0;
    auto addRoof = [&](const Roof &roof, bool main) {
        const double formatPeak = roof.peak * kTera;
        QLineSeries *series = m_roofs[roofIndex++];
        if (ridgeConcealed && !main) {
            replaceIfChanged(series, {});
            return;
        }
        if (ridgeConcealed) {
            const double kink = formatPeak / bandwidth;
            const double slopeEnd = std::max(xLow, kink / kConcealedDecade);
            const double roofStart = std::min(xHigh, kink * kConcealedDecade);
            replaceIfChanged(series, roofPoints(bandwidth, formatPeak, xLow, slopeEnd));
            replaceIfChanged(m_roofTail, roofPoints(bandwidth, formatPeak, roofStart, xHigh));
        } else {
            replaceIfChanged(series, roofPoints(bandwidth, formatPeak, xLow, xHigh));
            if (main)
                replaceIfChanged(m_roofTail, {});
        }
        const QPen roofPen =
            pen(style::currentDevice(), main ? 3.0 : 1.2, main ? Qt::SolidLine : Qt::DotLine);
        if (series->pen() != roofPen)
            series->setPen(roofPen);
        const QString text =
            tr("%1 %2 TFLOP/s%3")
                .arg(roof.formats.join(QStringLiteral(" / ")), number(formatPeak / kTera, 4),
                     main ? tr(" (dense)") : QString());
        m_labels->add(text, QPointF(xHigh, formatPeak / kTera), series, style::currentDevice(),
                      QPointF(-10, -20), main, ChartLabels::Align::End);
    };
    for (std::size_t i = 0; i < roofs.size(); ++i)
        addRoof(roofs[i], i == 0);
    // labels keep off the bandwidth slope: "batch 1" sat across it and the device's name ran
    // through it in the handout (issue #42, item 4). Sampled
    // evenly on the log axes: a straight piece in value space is a curve on screen.
    {
        const double slopeEnd = std::min(xHigh, peak / bandwidth);
        QList<QPointF> slope;
        constexpr int kPieces = 40;
        for (int i = 0; i <= kPieces; ++i) {
            const double x = xLow * std::pow(slopeEnd / xLow, double(i) / kPieces);
            slope << QPointF(x, core::rooflineAttainable(peak, bandwidth, x) / kTera);
        }
        m_labels->addLineObstacle(slope, m_roofs.front(), 1);
    }
    m_labels->add(tr("%1: memory bandwidth %2")
                      .arg(QString::fromStdString(s.device.name),
                           QString::fromStdString(core::formatBandwidth(bandwidth))),
                  QPointF(xLow * 3, core::rooflineAttainable(peak, bandwidth, xLow * 3) / kTera),
                  m_roofs.front(), style::currentDevice(), QPointF(14, 6));
    // a projector's type on a narrow chart: the bandwidth under the name, not off the plot
    m_labels->setCrowdedText(tr("%1:\nmemory bandwidth %2")
                                 .arg(QString::fromStdString(s.device.name),
                                      QString::fromStdString(core::formatBandwidth(bandwidth))));

    // Reveal: the marker climbs the bandwidth slope from the left edge to the ridge, where the
    // slope meets the roof, as the class watches its prediction met (in a window on screen; a
    // snapshot shows the end state)
    if (m_ridgeWasConcealed && !ridgeConcealed &&
        !window()->testAttribute(Qt::WA_DontShowOnScreen) && isVisible()) {
        if (!m_ridgeSlide) {
            m_ridgeSlide = new QVariantAnimation(this);
            m_ridgeSlide->setDuration(900);
            m_ridgeSlide->setEasingCurve(QEasingCurve::OutCubic);
            connect(m_ridgeSlide, &QVariantAnimation::valueChanged, this,
                    [this](const QVariant &v) {
                        m_ridgeSlideAt = std::pow(10.0, v.toDouble()); // even on the log axis
                        refresh();
                    });
            connect(m_ridgeSlide, &QVariantAnimation::finished, this, [this] {
                m_ridgeSlideAt = std::numeric_limits<double>::infinity();
                refresh();
            });
        }
        m_ridgeSlide->setStartValue(std::log10(xLow * 2));
        m_ridgeSlide->setEndValue(std::log10(ridge));
        m_ridgeSlideAt = xLow * 2;
        m_ridgeSlide->start();
    }
    m_ridgeWasConcealed = ridgeConcealed;
    if (ridgeConcealed) {
        m_ridge->clear();
    } else if (m_ridgeSlideAt < ridge) { // on its way, the number follows when it arrives
        replaceIfChanged(m_ridge, {QPointF(m_ridgeSlideAt, m_ridgeSlideAt * bandwidth / kTera)});
    } else {
        replaceIfChanged(m_ridge, {QPointF(ridge, peak / kTera)});
        m_labels->addMarkerObstacle(QPointF(ridge, peak / kTera), 7, m_ridge);
        m_labels->add(tr("ridge %1 FLOP/B").arg(number(ridge)), QPointF(ridge, peak / kTera),
                      m_ridge, style::currentDevice(), QPointF(8, 6));
    }

    QList<QPointF> trailPoints;
    for (const core::BatchPoint &p : trail)
        trailPoints << QPointF(p.intensity, p.attainableFlops / kTera);
    replaceIfChanged(m_trailLine, trailPoints);
    replaceIfChanged(m_trail, trailPoints);
    m_labels->add(tr("batch 1"), trailPoints.front(), m_trail, style::trail(), QPointF(-20, 8));
    m_labels->add(tr("batch 1024"), trailPoints.back(), m_trail, style::trail(), QPointF(-8, -8),
                  false, ChartLabels::Align::End);

    const QPointF current(e[FigureId::DecodeIntensity], e[FigureId::DecodeAttainableFlops] / kTera);
    replaceIfChanged(m_point, {current});
    m_labels->addMarkerObstacle(current, 9, m_point);
    const QColor boundColour =
        e.decodeBound == core::Bound::Compute ? style::computeBound() : style::memoryBound();
    m_point->setColor(boundColour);
    const bool expected = e.estimateMode != core::EstimateMode::SpeedOfLight;
    const core::EstimateRange range = core::estimateRange(core::estimateTerms(s));
    if (range.known()) {
        // a speed factor moves the attainable FLOP/s with it (the step's FLOP over its time)
        m_rangeAt = current;
        m_rangeLow = current.y() * range.low;
        m_rangeHigh = current.y() * range.high;
        m_range->setPen(pen(boundColour, 2.5));
        for (const double y : {m_rangeLow, m_rangeHigh}) // labels keep off the caps
            m_labels->addMarkerObstacle(QPointF(current.x(), y), kRangeCapPixels + 4, m_range);
    } else {
        m_rangeAt = QPointF();
    }
    drawRange();
    m_labels->add(
        tr("decode, batch %1%4: %2 FLOP/B, %3 TFLOP/s")
            .arg(number(s.serving.batch, 7), number(current.x()), number(current.y()),
                 expected ? (e.estimateMode == core::EstimateMode::Typical ? tr(", typical")
                                                                           : tr(", calibrated"))
                          : QString()),
        current, m_point, boundColour, QPointF(14, 6), true);
    // on a small chart (a handout's half page) the numbers go, over two lines; the side panel
    // and the text say them
    m_labels->setCrowdedText(tr("decode,\nbatch %1").arg(number(s.serving.batch, 7)));
    QList<QPointF> measured;
    std::map<std::string, QPointF> firstByEngine;
    for (const core::Measurement &m : doc.measurements()) {
        if (!core::sameSetup(m.scenario, s))
            continue;
        if (const auto point = core::measuredDecodePoint(m)) {
            measured << QPointF(point->intensity, point->attainableFlops / kTera);
            firstByEngine.emplace(m.engine, measured.back());
        }
    }
    replaceIfChanged(m_measured, measured);
    for (const auto &[engine, at] : firstByEngine)
        m_labels->add(tr("measured, %1").arg(QString::fromStdString(engine)), at, m_measured,
                      style::ink(), QPointF(10, 12));
    if (expected) {
        // the lesson's ceiling beside what engines reach (issue #24): a hollow ring
        core::Scenario light = s;
        light.calibration.mode = core::EstimateMode::SpeedOfLight;
        const core::Evaluation l = core::evaluate(light);
        const QPointF lightPoint(l[FigureId::DecodeIntensity],
                                 l[FigureId::DecodeAttainableFlops] / kTera);
        replaceIfChanged(m_lightPoint, {lightPoint});
        m_labels->add(tr("speed of light: %1 TFLOP/s").arg(number(lightPoint.y())), lightPoint,
                      m_lightPoint, style::ink(), QPointF(-14, -22), false,
                      ChartLabels::Align::End);
    } else {
        m_lightPoint->clear();
    }

    const double limit = e[FigureId::DecodeIntensityLimit];
    replaceIfChanged(m_limit, {QPointF(limit, yLowT), QPointF(limit, yHighT)});
    m_labels->add(tr("limit %1 FLOP/B: every sequence adds its own KV read").arg(number(limit)),
                  QPointF(limit, yLowT * 3), m_limit, style::kvCache(), QPointF(6, -18));
    m_labels->setCrowdedText(tr("limit %1 FLOP/B").arg(number(limit)));

    const QPointF prefill(e[FigureId::PrefillIntensity],
                          e[FigureId::PrefillAttainableFlops] / kTera);
    replaceIfChanged(m_prefill, {prefill});
    m_labels->addMarkerObstacle(prefill, 8, m_prefill); // other labels keep off the marker
    m_labels->add(tr("prefill, %1-token prompt").arg(number(s.serving.promptTokens, 7)), prefill,
                  m_prefill, style::prefill(), QPointF(-60, 16));

    if (training) {
        // every matmul of a layer, the MLP's up projection (labelled) first
        QList<QPointF> points;
        for (const auto &gemm : training->gemms)
            points << QPointF(gemm.intensity, gemm.flopsPerSecond / kTera);
        replaceIfChanged(m_training, points);
        const QPointF at = points.front();
        for (const QPointF &point : std::as_const(points))
            m_labels->addMarkerObstacle(point, 8, m_training);
        m_labels->add(tr("training matmuls, %1 tokens per micro-batch (MFU %2 %)")
                          .arg(number(training->gemmTokens, 7), number(training->mfu * 100, 3)),
                      at, m_training, style::kGreen.darker(130), QPointF(-120, 22));
    } else {
        m_training->clear();
    }

    // Speculative decoding: K proposals verified in one step share the weight read, so the
    // verify step sits right of plain decode at the same batch (issue #27)
    m_verify->clear();
    if (s.engine.speculativeTokens >= 1.0) {
        if (auto spec = core::analyseSpeculative(s)) {
            const core::SpeculativePoint &v = spec->atBatch;
            const QPointF at(v.verify.intensity(), v.verify.attainableFlops() / kTera);
            replaceIfChanged(m_verify, {at});
            // below the slope, to the right: above it sit the roofs' and the ridge's labels
            m_labels->add(
                tr("verify K %1: %2x tokens/s")
                    .arg(number(spec->proposals, 3),
                         doc.unlessConcealed(FigureId::DecodeTokensPerSecond, number(v.speedup))),
                at, m_verify, style::ink(), QPointF(12, 8), false);
        }
    }

    if (haveCompare) {
        const double otherBandwidth = compare[FigureId::Bandwidth];
        const double otherPeak = compare[FigureId::PeakFlops];
        replaceIfChanged(m_compareRoof, roofPoints(otherBandwidth, otherPeak, xLow, xHigh));
        const QPointF otherPoint(compare[FigureId::DecodeIntensity],
                                 compare[FigureId::DecodeAttainableFlops] / kTera);
        replaceIfChanged(m_comparePoint, {otherPoint});
        auto device = core::devicePreset(m_compareId.toStdString());
        m_labels->add(
            tr("%1: %2 tokens/s")
                .arg(QString::fromStdString(device->name),
                     doc.unlessConcealed(FigureId::DecodeTokensPerSecond,
                                         number(compare[FigureId::DecodeTokensPerSecond]))),
            otherPoint, m_comparePoint, style::comparisonDevice(), QPointF(10, 8), true);
    } else {
        m_compareRoof->clear();
        m_comparePoint->clear();
    }

    for (FigureLabel *label : m_readout)
        label->update(doc);
    // every figure here says which estimate it is (issue #24)
    const QString estimateNote =
        e.estimateMode == core::EstimateMode::SpeedOfLight
            ? tr("Speed of light, the lesson's toy model: perfect bandwidth use, no step overhead, "
                 "weight-matrix FLOP only. Use it to rank options, then measure.")
            : tr("Expected (%1): efficiencies and a step overhead fitted to measured runs. The "
                 "ring is the speed of light.")
                      .arg(QString::fromStdString(core::estimateLabel(s))) +
                  (range.known()
                       ? tr(" The bar through the point is where engines measure: %1-%2 tokens/s "
                            "(twice the fit's median error, %3 %).")
                             .arg(doc.unlessConcealed(
                                      FigureId::DecodeTokensPerSecond,
                                      number(e[FigureId::DecodeTokensPerSecond] * range.low)),
                                  doc.unlessConcealed(
                                      FigureId::DecodeTokensPerSecond,
                                      number(e[FigureId::DecodeTokensPerSecond] * range.high)),
                                  number(range.medianError * 100.0))
                       : QString());
    if (m_estimateNote->text() != estimateNote)
        m_estimateNote->setText(estimateNote);
    m_bound->setCustomText(
        e.decodeBound == core::Bound::Compute ? tr("compute-bound") : tr("memory-bound"), doc);
    style::setStyleSheetIfChanged(
        m_bound, QStringLiteral("color: %1").arg(style::readable(boundColour).name()));
    m_ridgeDistance->setCustomText(
        e.decodeBound == core::Bound::Memory
            ? tr("%1x left of the ridge").arg(number(e[FigureId::DecodeRidgeDistance]))
            : tr("right of the ridge"),
        doc);
    m_fraction->setCustomText(
        tr("%1 % of peak arithmetic").arg(number(e[FigureId::DecodeFractionOfPeak] * 100)), doc);
    m_labels->reposition();
}

QPointF RooflineView::operatingPoint() const
{
    return m_point->count() ? m_point->at(0) : QPointF();
}

QList<QPointF> RooflineView::roof() const
{
    return m_roofs.isEmpty() ? QList<QPointF>() : m_roofs.front()->points();
}

QPointF RooflineView::trainingPoint() const
{
    return m_training->count() ? m_training->at(0) : QPointF();
}

QPointF RooflineView::prefillPoint() const
{
    return m_prefill->count() ? m_prefill->at(0) : QPointF();
}

QPointF RooflineView::verifyPoint() const
{
    return m_verify->count() ? m_verify->at(0) : QPointF();
}

double RooflineView::intensityLimitDrawn() const
{
    return m_limit->count() ? m_limit->at(0).x() : 0.0;
}

QString RooflineView::csv() const
{
    QString out = QStringLiteral("batch,intensity_flops_per_byte,attainable_tflops,step_seconds,"
                                 "tokens_per_second,tokens_per_second_per_sequence,fits\n");
    for (const core::BatchPoint &p : document()->batchSweep())
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                   .arg(p.batch)
                   .arg(p.intensity, 0, 'g', 8)
                   .arg(p.attainableFlops / kTera, 0, 'g', 8)
                   .arg(p.stepSeconds, 0, 'g', 8)
                   .arg(p.tokensPerSecond, 0, 'g', 8)
                   .arg(p.tokensPerSecondPerSequence, 0, 'g', 8)
                   .arg(p.fits ? QStringLiteral("yes") : QStringLiteral("no"));
    return out;
}

} // namespace views

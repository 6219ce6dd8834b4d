// SPDX-License-Identifier: GPL-3.0-or-later
#include "throughputview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartlabels.h"

#include "core/physics/lessonfigures.h"
#include "views/widgets/style.h"

#include "core/calibrate/measurements.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"
#include "core/physics/techniques.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include <algorithm>
#include <cmath>
#include <map>

namespace views {

namespace {

using style::number;

using core::FigureId;
constexpr double kMaxBatch = core::kBatchAxisMaximum;

} // namespace

ThroughputView::ThroughputView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QLogValueAxis)
    , m_yTotal(new QLogValueAxis)
    , m_yPerSequence(new QLogValueAxis)
    , m_total(new QLineSeries)
    , m_perSequence(new QLineSeries)
    , m_totalBeyond(new QLineSeries)
    , m_perSequenceBeyond(new QLineSeries)
    , m_pacing(new QLineSeries)
    , m_totalLight(new QLineSeries)
    , m_perSequenceLight(new QLineSeries)
    , m_wall(new QLineSeries)
    , m_speculative(new QLineSeries)
    , m_current(new QScatterSeries)
    , m_measured(new QScatterSeries)
    , m_lessonRows(new QScatterSeries)
{
    setObjectName(QStringLiteral("throughputView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_chart);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_x->setTitleText(tr("Batch (sequences decoded together)"));
    m_yTotal->setTitleText(tr("Tokens/s"));
    m_yPerSequence->setTitleText(tr("Per sequence"));
    for (QLogValueAxis *axis : {m_x, m_yTotal, m_yPerSequence}) {
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(-1);
    }
    m_yTotal->setLabelsColor(style::kBlue);
    m_yPerSequence->setLabelsColor(style::kOrange);
    for (QLogValueAxis *axis : {m_x, m_yTotal, m_yPerSequence})
        style::styleAxis(axis);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_yTotal, Qt::AlignLeft);
    m_chart->addAxis(m_yPerSequence, Qt::AlignRight);
    const double s = style::scale();
    auto attach = [this](QAbstractSeries *series, QLogValueAxis *y) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(y);
    };
    m_total->setPen(QPen(style::kBlue, 3 * s));
    m_totalBeyond->setPen(QPen(style::kBlue, 1.5 * s, Qt::DotLine));
    m_perSequence->setPen(QPen(style::kOrange, 3 * s));
    m_perSequenceBeyond->setPen(QPen(style::kOrange, 1.5 * s, Qt::DotLine));
    m_pacing->setPen(QPen(style::kOrange, 1.2 * s, Qt::DashLine));
    m_wall->setPen(QPen(style::warning(), 3 * s));
    m_current->setMarkerSize(14 * s);
    m_current->setColor(style::kBlue);
    attach(m_total, m_yTotal);
    attach(m_totalBeyond, m_yTotal);
    attach(m_perSequence, m_yPerSequence);
    attach(m_perSequenceBeyond, m_yPerSequence);
    attach(m_pacing, m_yPerSequence);
    m_totalLight->setPen(QPen(style::kBlue, 1.2 * s, Qt::DashLine));
    m_perSequenceLight->setPen(QPen(style::kOrange, 1.2 * s, Qt::DashLine));
    attach(m_totalLight, m_yTotal);
    attach(m_perSequenceLight, m_yPerSequence);
    attach(m_wall, m_yTotal);
    m_speculative->setPen(QPen(style::ink(), 2 * s, Qt::DashDotLine));
    attach(m_speculative, m_yTotal);
    m_lessonRows->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_lessonRows->setMarkerSize(9 * s);
    m_lessonRows->setColor(style::ink());
    attach(m_lessonRows, m_yTotal);
    m_measured->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_measured->setMarkerSize(12 * s);
    m_measured->setColor(style::ink());
    attach(m_measured, m_yTotal);
    attach(m_current, m_yTotal);
    m_labels = std::make_unique<ChartLabels>(m_chart);
    auto *view = new QChartView(m_chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(view);
    connect(m_current, &QScatterSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::DecodeTokensPerSecond);
    });
    connect(m_wall, &QLineSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::MaxConcurrentSequences);
    });
}

ThroughputView::~ThroughputView() = default;

void ThroughputView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &scenario = doc.scenario();
    const core::Evaluation &e = doc.evaluation();
    // A quarter-octave grid plus the wall itself, so the solid line ends exactly there.
    std::vector<double> batches;
    for (double b = 1; b <= kMaxBatch; b *= std::pow(2.0, 0.25))
        batches.push_back(std::round(b));
    batches.push_back(kMaxBatch);
    const double maximum = e[FigureId::MaxConcurrentSequences];
    if (maximum >= 1 && maximum < kMaxBatch)
        batches.push_back(maximum);
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    const auto points = core::sweepBatch(scenario, batches);

    // While the class predicts the throughput at this batch the curves stop at half of it, and
    // the axes end where they stop: the trend is there to extrapolate, the answer is not (issue
    // #23; a curve to batch 27 showed 950 of the 1,026 asked for at 32, issue #42).
    const bool concealed = doc.isConcealed(FigureId::DecodeTokensPerSecond) ||
                           doc.isConcealed(FigureId::DecodeTokensPerSecondPerSequence);
    // Reveal: the curves run on from the batch under discussion to the end, as the class
    // watches its prediction met (in a window on screen only: a snapshot shows the end state)
    if (m_wasConcealed && !concealed && !window()->testAttribute(Qt::WA_DontShowOnScreen) &&
        isVisible()) {
        if (!m_reveal) {
            m_reveal = new QVariantAnimation(this);
            m_reveal->setDuration(900);
            m_reveal->setEasingCurve(QEasingCurve::OutCubic);
            connect(m_reveal, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
                m_revealedUpTo = std::pow(2.0, v.toDouble()); // even on the log axis
                refresh();
            });
            connect(m_reveal, &QVariantAnimation::finished, this, [this] {
                m_revealedUpTo = std::numeric_limits<double>::infinity();
                refresh();
            });
        }
        const double from = std::max(1.0, std::floor(scenario.serving.batch / 2.0));
        m_reveal->setStartValue(std::log2(from));
        m_reveal->setEndValue(std::log2(kMaxBatch));
        m_revealedUpTo = from;
        m_reveal->start();
    }
    // the batch the question is asked at: the one shown when the number was hidden. A class
    // that raises the batch before Reveal must not read the answer off the longer curve or a
    // lesson row (Up three times in step 9 drew "lesson, batch 32: 1,026", issue #42).
    if (concealed && !m_wasConcealed)
        m_askedBatch = scenario.serving.batch;
    m_wasConcealed = concealed;
    double askedBatch =
        concealed ? std::min(scenario.serving.batch, m_askedBatch) : scenario.serving.batch;
    // a later tour step asks the throughput at a batch on this curve (step 9's 1,026 at 32 was
    // read off the whole curve in steps 2 to 8): the curve stops short of it there too
    const double hiddenFrom = doc.curvesHiddenFromBatch();
    const bool capped = std::isfinite(hiddenFrom);
    if (capped)
        askedBatch = concealed ? std::min(askedBatch, hiddenFrom) : hiddenFrom;
    const bool hiding = concealed || capped;
    const double concealedUpTo = std::max(1.0, std::floor(askedBatch / 2.0));
    QList<QPointF> total, totalBeyond, perSequence, perSequenceBeyond;
    double yMin = 1e300, yMax = 0, pMin = 1e300, pMax = 0;
    for (const core::BatchPoint &p : points) {
        const bool drawn = hiding ? p.batch <= concealedUpTo : p.batch <= m_revealedUpTo;
        if (drawn) {
            (p.fits ? total : totalBeyond) << QPointF(p.batch, p.tokensPerSecond);
            (p.fits ? perSequence : perSequenceBeyond)
                << QPointF(p.batch, p.tokensPerSecondPerSequence);
        } else if (hiding) {
            continue; // not even in the axes' range
        }
        yMin = std::min(yMin, p.tokensPerSecond);
        yMax = std::max(yMax, p.tokensPerSecond);
        pMin = std::min(pMin, p.tokensPerSecondPerSequence);
        pMax = std::max(pMax, p.tokensPerSecondPerSequence);
    }
    // Join the two parts at the wall so the line is continuous.
    if (!total.isEmpty() && !totalBeyond.isEmpty()) {
        totalBeyond.prepend(total.last());
        perSequenceBeyond.prepend(perSequence.last());
    }
    // a typical or calibrated estimate: the speed of light dashed above it (issue #24)
    const bool expected = e.estimateMode != core::EstimateMode::SpeedOfLight;
    QList<QPointF> totalLight, perSequenceLight;
    if (expected) {
        core::Scenario light = scenario;
        light.calibration.mode = core::EstimateMode::SpeedOfLight;
        for (const core::BatchPoint &p : core::sweepBatch(light, batches)) {
            if (hiding ? p.batch > concealedUpTo : p.batch > m_revealedUpTo)
                continue;
            totalLight << QPointF(p.batch, p.tokensPerSecond);
            perSequenceLight << QPointF(p.batch, p.tokensPerSecondPerSequence);
            yMax = std::max(yMax, p.tokensPerSecond);
            pMax = std::max(pMax, p.tokensPerSecondPerSequence);
        }
    }
    // imported runs of this model, device and format: measured tokens/s against the estimate
    QList<QPointF> measured;
    std::map<std::string, QPointF> firstByEngine;
    for (const core::Measurement &m : doc.measurements()) {
        if (!core::sameSetup(m.scenario, scenario))
            continue;
        if (const auto point = core::measuredDecodePoint(m)) {
            measured << QPointF(point->batch, point->tokensPerSecond);
            firstByEngine.emplace(m.engine, measured.back());
            yMin = std::min(yMin, point->tokensPerSecond / 1.5); // room for the marker's label
            yMax = std::max(yMax, point->tokensPerSecond);
        }
    }
    // speculative decoding (issue #27): tokens/s with the verify step, beside plain decode
    QList<QPointF> speculative;
    double lastPaying = 0;
    if (scenario.engine.speculativeTokens >= 1.0) {
        if (auto sweep = core::sweepSpeculative(scenario, batches)) {
            for (const core::SpeculativePoint &p : sweep.value()) {
                if (hiding ? p.batch > concealedUpTo : p.batch > m_revealedUpTo)
                    continue;
                speculative << QPointF(p.batch, p.tokensPerSecond);
                yMax = std::max(yMax, p.tokensPerSecond);
                yMin = std::min(yMin, p.tokensPerSecond);
            }
        }
        if (auto a = core::analyseSpeculative(scenario))
            lastPaying = a->lastPayingBatch;
    }
    replaceIfChanged(m_speculative, speculative);
    replaceIfChanged(m_measured, measured);
    replaceIfChanged(m_totalLight, totalLight);
    replaceIfChanged(m_perSequenceLight, perSequenceLight);
    replaceIfChanged(m_total, total);
    replaceIfChanged(m_totalBeyond, totalBeyond);
    replaceIfChanged(m_perSequence, perSequence);
    replaceIfChanged(m_perSequenceBeyond, perSequenceBeyond);

    const double pacing = scenario.serving.pacingTargetTokensPerSecond;
    pMin = std::min(pMin, pacing);
    pMax = std::max(pMax, pacing);
    const double yLow = std::pow(10, std::floor(std::log10(yMin))) * 0.999;
    const double yHigh = std::pow(10, std::ceil(std::log10(yMax * 1.5))) * 1.001;
    auto setRange = [](QLogValueAxis *axis, double low, double high) {
        if (axis->min() != low || axis->max() != high)
            axis->setRange(low, high); // an unchanged range must not rebuild the axis
    };
    setRange(m_x, 0.9, kMaxBatch * 1.15);
    setRange(m_yTotal, yLow, yHigh);
    setRange(m_yPerSequence, std::pow(10, std::floor(std::log10(pMin / 1.5))) * 0.999,
             std::pow(10, std::ceil(std::log10(pMax * 1.5))) * 1.001);
    replaceIfChanged(m_pacing, {QPointF(0.9, pacing), QPointF(kMaxBatch * 1.15, pacing)});

    m_labels->clear();
    // the dashed speed of light, the pacing target and the wall are drawn lines: no label on them
    m_labels->addLineObstacle(total, m_total, 4);
    m_labels->addLineObstacle(perSequence, m_perSequence, 4);
    m_labels->addLineObstacle(totalLight, m_totalLight, 4);
    m_labels->addLineObstacle(perSequenceLight, m_perSequenceLight, 4);
    m_labels->addLineObstacle({QPointF(0.9, pacing), QPointF(kMaxBatch * 1.15, pacing)}, m_pacing,
                              1);
    // Direct labels near batch 2: below-right of the rising total, above the falling per-sequence.
    const core::BatchPoint &early = points[std::min<std::size_t>(1, points.size() - 1)];
    if (!hiding || total.size() > 1) { // not beside a curve hidden from a class
        const QString which = !expected                                       ? QString()
                              : e.estimateMode == core::EstimateMode::Typical ? tr(" (typical)")
                                                                              : tr(" (calibrated)");
        m_labels->add(tr("tokens/s, all sequences%1").arg(which),
                      QPointF(early.batch, early.tokensPerSecond), m_total, style::kBlue,
                      QPointF(14, 6), true);
        if (expected && totalLight.size() > 4) {
            const QPointF at = totalLight[totalLight.size() * 3 / 4];
            m_labels->add(tr("speed of light"), at, m_totalLight, style::kBlue, QPointF(-8, -22),
                          false, ChartLabels::Align::End);
        }
        m_labels->add(tr("tokens/s per sequence%1").arg(which),
                      QPointF(early.batch, early.tokensPerSecondPerSequence), m_perSequence,
                      style::kOrange, QPointF(0, -28), true);
    }
    for (const auto &[engine, at] : firstByEngine)
        m_labels->add(tr("measured, %1").arg(QString::fromStdString(engine)), at, m_measured,
                      style::ink(), QPointF(10, 10));
    if (speculative.size() > 2) {
        m_labels->addLineObstacle(speculative, m_speculative, 4);
        const QString pays = lastPaying >= kMaxBatch ? tr("pays at every batch shown")
                             : lastPaying < 1
                                 ? tr("pays at no batch")
                                 : tr("pays up to batch %1").arg(number(lastPaying, 7));
        m_labels->add(tr("with speculative decoding (K %1, acceptance %2): %3")
                          .arg(number(scenario.engine.speculativeTokens, 3),
                               number(scenario.engine.acceptanceRate, 3), pays),
                      speculative[speculative.size() / 3], m_speculative, style::ink(),
                      QPointF(10, -26), false);
    }
    m_labels->add(tr("pacing target %1 tokens/s").arg(number(pacing)), QPointF(kMaxBatch, pacing),
                  m_pacing, style::kOrange, QPointF(-8, 4), false, ChartLabels::Align::End);

    // The wall: the largest batch whose sequences are all resident in memory.
    const bool concurrencyFits = scenario.serving.concurrentSequences <= maximum;
    m_wallBatch = !concurrencyFits || maximum < 1 ? 0 : (maximum >= kMaxBatch ? -1 : maximum);
    if (m_wallBatch > 0) {
        replaceIfChanged(m_wall, {QPointF(m_wallBatch, yLow), QPointF(m_wallBatch, yHigh)});
        m_labels->addLineObstacle(m_wall->points(), m_wall, 1);
        m_labels->add(tr("memory wall: past batch %1 it does not fit").arg(number(m_wallBatch, 7)),
                      QPointF(m_wallBatch, yHigh), m_wall, style::warning(), QPointF(-8, 4), true,
                      ChartLabels::Align::End);
        // a small chart (the handout's) has no room left of the wall for one line: it was drawn
        // across the wall
        m_labels->setCrowdedText(
            tr("memory wall:\npast batch %1,\nit does not fit").arg(number(m_wallBatch, 7)));
    } else if (m_wallBatch == 0) {
        replaceIfChanged(m_wall, {QPointF(0.9, yLow), QPointF(0.9, yHigh)});
        m_labels->add(tr("does not fit at any batch: %1 concurrent sequences, at most %2")
                          .arg(number(scenario.serving.concurrentSequences, 7), number(maximum, 7)),
                      QPointF(1, yHigh), m_wall, style::warning(), QPointF(8, 4), true);
    } else {
        m_wall->clear();
    }

    // The lesson's rows (batch 1, 8 and 32, l.121-123) where the scenario is the lesson's: what
    // the class compares the curve with, up to the batch under discussion and never ahead of it
    // (step 1 at batch 1 showed "lesson, batch 32: 1,026", the number step 9 asks for, #42).
    QList<QPointF> rows;
    for (const double batch : {1.0, 8.0, 32.0}) {
        if (batch >= askedBatch)
            continue;
        core::Scenario row = scenario;
        row.serving.batch = batch;
        const auto badge = core::lessonBadge(row, FigureId::DecodeTokensPerSecond);
        if (!badge)
            continue;
        const QPointF at(batch, core::evaluate(row)[FigureId::DecodeTokensPerSecond]);
        rows << at;
        m_labels->add(tr("lesson, batch %1: %2")
                          .arg(number(batch, 7), QString::fromStdString(badge->printed)),
                      at, m_lessonRows, style::ink(), QPointF(8, 4));
    }
    replaceIfChanged(m_lessonRows, rows);

    const QPointF current(scenario.serving.batch, e[FigureId::DecodeTokensPerSecond]);
    if (concealed || (capped && scenario.serving.batch >= hiddenFrom)) {
        m_current->clear();
    } else {
        replaceIfChanged(m_current, {current});
        m_current->setColor(e.fits() ? style::kBlue : style::warning());
        m_labels->add(tr("batch %1: %2 tokens/s, %3 per sequence")
                          .arg(number(current.x(), 7), number(current.y()),
                               number(e[FigureId::DecodeTokensPerSecondPerSequence])),
                      current, m_current, e.fits() ? style::kBlue : style::warning(),
                      QPointF(10, 10), true);
        // between the point and the wall (or a target line) the one line may find no room
        m_labels->setCrowdedText(tr("batch %1: %2 tokens/s,\n%3 per sequence")
                                     .arg(number(current.x(), 7), number(current.y()),
                                          number(e[FigureId::DecodeTokensPerSecondPerSequence])));
    }
    m_labels->reposition();
}

QList<QPointF> ThroughputView::speculativeCurve() const
{
    return m_speculative->points();
}

QPointF ThroughputView::currentTotal() const
{
    return m_current->count() ? m_current->at(0) : QPointF();
}

QString ThroughputView::csv() const
{
    QString out = QStringLiteral(
        "batch,tokens_per_second,tokens_per_second_per_sequence,serving_bytes,fits\n");
    for (const core::BatchPoint &p : document()->batchSweep())
        out += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(p.batch)
                   .arg(p.tokensPerSecond, 0, 'g', 8)
                   .arg(p.tokensPerSecondPerSequence, 0, 'g', 8)
                   .arg(p.servingBytes, 0, 'g', 12)
                   .arg(p.fits ? QStringLiteral("yes") : QStringLiteral("no"));
    return out;
}

} // namespace views

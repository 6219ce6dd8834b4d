// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvview.h"

#include "layergroups.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/figurelabel.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/physics/evaluation.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace views {

namespace {

using core::FigureId;
using style::number;
using style::ordinal;

} // namespace

KvView::KvView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QValueAxis)
    , m_y(new QValueAxis)
    , m_used(new QLineSeries)
    , m_other(new QLineSeries)
    , m_floor(new QLineSeries)
    , m_capacity(new QLineSeries)
    , m_admissionLine(new QLineSeries)
    , m_failing(new QScatterSeries)
    , m_configured(new QScatterSeries)
    , m_withoutGqa(new QCheckBox(
          tr("Show without grouped-query attention (KV heads = attention heads)"), this))
{
    setObjectName(QStringLiteral("kvView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_chart);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_x->setTitleText(tr("Concurrent sequences resident in memory"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    style::styleAxis(m_x);
    style::styleAxis(m_y);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    const double sc = style::scale();
    m_used->setPen(QPen(style::kvCache(), 3 * sc));
    m_other->setPen(QPen(style::weights(), 2 * sc, Qt::DashLine));
    m_floor->setPen(QPen(style::overhead(), 1.5 * sc, Qt::DotLine));
    m_capacity->setPen(QPen(style::currentDevice(), 2.5 * sc, Qt::DashLine));
    m_admissionLine->setPen(QPen(style::kGreen, 2 * sc, Qt::DashDotLine));
    m_failing->setColor(style::warning());
    m_failing->setMarkerSize(14 * sc);
    m_configured->setColor(style::currentDevice());
    m_configured->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_configured->setMarkerSize(11 * sc);
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *>{
             m_floor, m_capacity, m_admissionLine, m_other, m_used, m_configured, m_failing}) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    m_labels = std::make_unique<ChartLabels>(m_chart);
    connect(m_used, &QLineSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::KvBytesPerSequence);
    });
    connect(m_failing, &QScatterSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::MaxConcurrentSequences);
    });
    connect(m_admissionLine, &QLineSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::AdmissionLimit);
    });
    connect(m_withoutGqa, &QCheckBox::toggled, this, [this] { refresh(); });

    auto *view = new QChartView(m_chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    m_maxSequences = new FigureLabel(FigureId::MaxConcurrentSequences, this);
    m_maxContext = new FigureLabel(FigureId::MaxContextTokens, this);
    connect(m_maxSequences, &FigureLabel::activated, this, &View::explainRequested);
    connect(m_maxContext, &FigureLabel::activated, this, &View::explainRequested);
    auto *readout = new QFormLayout;
    readout->addRow(tr("Most sequences at this context"), m_maxSequences);
    readout->addRow(tr("Longest context at this concurrency"), m_maxContext);
    auto *bottom = new QHBoxLayout;
    bottom->addLayout(readout);
    bottom->addStretch(1);
    bottom->addWidget(m_withoutGqa);
    m_groups = new QLabel(this);
    m_groups->setObjectName(QStringLiteral("layerGroups"));
    m_groups->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(view, 1);
    layout->addWidget(m_groups);
    layout->addLayout(bottom);
}

KvView::~KvView() = default;

void KvView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &s = doc.scenario();
    const core::Evaluation &e = doc.evaluation();
    const core::MemoryUnits units = doc.units();
    const double unit = units == core::MemoryUnits::GiB ? core::kGiB : core::kGB;
    const QString unitName =
        units == core::MemoryUnits::GiB ? QStringLiteral("GiB") : QStringLiteral("GB");

    const double maximum = e[FigureId::MaxConcurrentSequences];
    const double configured = e[FigureId::ResidentSequences];
    m_firstFailing = maximum + 1;
    m_admission = e[FigureId::AdmissionLimit];
    // a round axis (0, 10, 20, 30, 40, not 0, 11, 23, 34, 45): the lines run to its end
    m_x->setRange(0, std::max({8.0, std::ceil(std::max(configured, m_firstFailing) * 1.25)}));
    m_x->applyNiceNumbers();
    const double xMax = m_x->max();
    const double capacity = e[FigureId::CapacityBytes];

    auto line = [&](const core::Scenario &scenario) {
        return QList<QPointF>{QPointF(0, core::servingBytesAt(scenario, 0) / unit),
                              QPointF(xMax, core::servingBytesAt(scenario, xMax) / unit)};
    };
    const QList<QPointF> used = line(s);
    replaceIfChanged(m_used, used);
    replaceIfChanged(m_floor, {QPointF(0, used[0].y()), QPointF(xMax, used[0].y())});
    replaceIfChanged(m_capacity, {QPointF(0, capacity / unit), QPointF(xMax, capacity / unit)});

    // The comparison line: 1-byte weights (or 4-bit when the weights are already 1 byte).
    const core::Scenario other = core::withFormats(
        s, core::nextSmallerWeightFormat(s.serving.weightFormat).value_or(s.serving.weightFormat));
    core::Scenario shown = m_withoutGqa->isChecked() ? s : other;
    if (m_withoutGqa->isChecked() && core::isSet(s.model.attentionHeads))
        shown.model.kvHeads = s.model.attentionHeads;
    const QList<QPointF> otherLine = line(shown);
    replaceIfChanged(m_other, otherLine);
    const core::Evaluation otherEvaluation = core::evaluate(shown);

    double yTop =
        std::max({capacity, core::servingBytesAt(s, xMax), core::servingBytesAt(shown, xMax)}) /
        unit;
    yTop = std::min(yTop, capacity / unit * 3);
    m_y->setRange(0, yTop * 1.08);
    m_y->applyNiceNumbers();
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setTitleText(tr("Device memory in use (%1)").arg(unitName));

    const double failingY = core::servingBytesAt(s, m_firstFailing) / unit;
    replaceIfChanged(m_failing, {QPointF(m_firstFailing, failingY)});
    replaceIfChanged(m_admissionLine, {QPointF(m_admission, 0), QPointF(m_admission, m_y->max())});
    // the scenario's own concurrency (the lesson's 32 sequences), where the reader starts
    const double configuredY = core::servingBytesAt(s, configured) / unit;
    replaceIfChanged(m_configured, {QPointF(configured, configuredY)});

    m_labels->clear();
    // labels keep off the capacity line (a thin band around it)
    m_labels->addObstacle(QPointF(0, capacity / unit - m_y->max() * 0.006),
                          QPointF(xMax, capacity / unit + m_y->max() * 0.006), m_capacity);
    // and off the two rising lines: no label sits across one (issue #23)
    m_labels->addLineObstacle(used, m_used);
    m_labels->addLineObstacle(otherLine, m_other);
    // the capacity's name at the left end, where the rising lines are still far below it
    m_labels->add(tr("%1: %2").arg(QString::fromStdString(s.device.name),
                                   QString::fromStdString(core::formatBytes(capacity, units))),
                  QPointF(0, capacity / unit), m_capacity, style::currentDevice(), QPointF(8, -22),
                  false);
    m_labels->add(tr("weights + runtime overhead: %1")
                      .arg(QString::fromStdString(core::formatBytes(used[0].y() * unit, units))),
                  QPointF(xMax, used[0].y()), m_floor, style::overhead(), QPointF(-8, 4), false,
                  ChartLabels::Align::End);
    m_labels->add(
        tr("%1 weights: + %2 per %3-token sequence")
            .arg(QString::fromLatin1(core::formatLabel(s.serving.weightFormat).data()),
                 QString::fromStdString(core::formatBytes(e[FigureId::KvBytesPerSequence], units)),
                 number(s.serving.contextTokens, 9)),
        QPointF(xMax * 0.85, core::servingBytesAt(s, xMax * 0.85) / unit), m_used, style::kvCache(),
        QPointF(-12, -26), true, ChartLabels::Align::End); // above-left of a rising line is free
    const QString otherText =
        m_withoutGqa->isChecked()
            ? tr("without GQA (%1 KV heads): %2 per sequence, %3 fit")
                  .arg(number(shown.model.kvHeads, 6),
                       QString::fromStdString(
                           core::formatBytes(otherEvaluation[FigureId::KvBytesPerSequence], units)),
                       number(otherEvaluation[FigureId::MaxConcurrentSequences], 9))
            : tr("%1 weights: %2 fit")
                  .arg(QString::fromLatin1(core::formatLabel(shown.serving.weightFormat).data()),
                       number(otherEvaluation[FigureId::MaxConcurrentSequences], 9));
    m_labels->add(otherText, QPointF(xMax * 0.6, core::servingBytesAt(shown, xMax * 0.6) / unit),
                  m_other, style::weights(), QPointF(12, 6), false); // below-right, likewise
    m_labels->add(
        tr("the %1 request fails (%2 fit)").arg(ordinal(m_firstFailing), number(maximum, 9)),
        QPointF(m_firstFailing, failingY), m_failing, style::warning(), QPointF(12, 8), true);
    m_labels->add(
        tr("%1 configured: %2")
            .arg(configured == 1 ? tr("1 sequence") : tr("%1 sequences").arg(number(configured, 9)),
                 QString::fromStdString(core::formatBytes(configuredY * unit, units))),
        QPointF(configured, configuredY), m_configured, style::currentDevice(), QPointF(-12, 10),
        false, ChartLabels::Align::End);
    m_labels->add(tr("guarded limit %1 (%2 % margin)")
                      .arg(number(m_admission, 9), number(s.serving.admissionMargin * 100, 3)),
                  QPointF(m_admission, m_y->max()), m_admissionLine, style::kGreen, QPointF(-8, 6),
                  false, ChartLabels::Align::End);

    m_maxSequences->update(doc);
    m_maxContext->update(doc);
    const QString groups = layerGroupSummary(s, units);
    m_groups->setText(groups);
    m_groups->setVisible(!groups.isEmpty());
    m_labels->reposition();
}

double KvView::xAxisMaximum() const
{
    return m_x->max();
}

QPointF KvView::configuredDrawn() const
{
    return m_configured->count() > 0 ? m_configured->at(0) : QPointF();
}

QString KvView::csv() const
{
    const core::Scenario &s = document()->scenario();
    QString out = QStringLiteral("resident_sequences,device_bytes\n");
    for (int n = 0; n <= int(std::max(8.0, m_firstFailing * 1.25)); ++n)
        out += QStringLiteral("%1,%2\n").arg(n).arg(core::servingBytesAt(s, n), 0, 'g', 12);
    return out;
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "operatorsview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/chartguard.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/model/calc.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/operators.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

using style::number;
constexpr double kTera = 1e12;

struct KindStyle
{
    core::OperatorKind kind;
    const char *label;
    QColor colour;
};

const QList<KindStyle> &kindStyles()
{
    static const QList<KindStyle> styles = {
        {core::OperatorKind::Projection, QT_TRANSLATE_NOOP("views::OperatorsView", "projections"),
         style::kBlue},
        {core::OperatorKind::Attention, QT_TRANSLATE_NOOP("views::OperatorsView", "attention"),
         style::kVermillion},
        {core::OperatorKind::Mlp, QT_TRANSLATE_NOOP("views::OperatorsView", "MLP"), style::kGreen},
        {core::OperatorKind::Norm, QT_TRANSLATE_NOOP("views::OperatorsView", "norms"),
         style::kPurple},
        {core::OperatorKind::Elementwise, QT_TRANSLATE_NOOP("views::OperatorsView", "adds"),
         style::kSkyBlue},
        {core::OperatorKind::Head, QT_TRANSLATE_NOOP("views::OperatorsView", "head"),
         style::kOrange},
    };
    return styles;
}

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

OperatorsView::OperatorsView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_x(new QLogValueAxis)
    , m_y(new QLogValueAxis)
    , m_roof(new QLineSeries)
    , m_phase(new QComboBox(this))
    , m_attention(new QComboBox(this))
    , m_table(new QTableWidget(this))
    , m_summary(new QLabel(this))
    , m_error(new QLabel(this))
{
    setObjectName(QStringLiteral("operatorsView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_chart);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    // short titles: the chart has half the view's width (the table has the other half)
    m_x->setTitleText(tr("FLOP per byte from memory"));
    m_y->setTitleText(tr("TFLOP/s attained"));
    for (QLogValueAxis *axis : {m_x, m_y})
        style::styleLogAxis(axis);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_roof->setPen(QPen(style::currentDevice(), 3 * style::scale()));
    m_roof->setName(tr("roof"));
    m_chart->addSeries(m_roof);
    m_roof->attachAxis(m_x);
    m_roof->attachAxis(m_y);
    for (const KindStyle &k : kindStyles()) {
        auto *series = new QScatterSeries;
        series->setName(tr(k.label));
        series->setMarkerSize(11 * style::scale());
        series->setColor(k.colour);
        series->setBorderColor(style::paper());
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
        m_kinds << series;
    }
    // the key is a line of coloured words under the chart: a legend this narrow elides them
    m_chart->legend()->hide();
    m_labels = std::make_unique<ChartLabels>(m_chart);
    m_chartView = new QChartView(m_chart, this);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(360, 260);

    m_phase->addItem(tr("Decode step"));
    m_phase->addItem(tr("Prefill of one prompt"));
    m_phase->setToolTip(tr("Decode: the scenario's batch, one token each, attending to the "
                           "context. Prefill: one request's prompt."));
    connect(m_phase, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    m_attention->addItem(tr("Fused attention"));
    m_attention->addItem(tr("Unfused (LLM-Viewer)"));
    m_attention->setToolTip(
        tr("Fused: one FlashAttention-class kernel keeps the scores on chip, as engines run "
           "it. Unfused: QK^T, softmax and scores x V as three operators with the score matrix "
           "through memory, LLM-Viewer's accounting (to compare with its figures)."));
    m_attention->setObjectName(QStringLiteral("operatorsAttention"));
    connect(m_attention, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    m_batch = new LogSliderControl(document, QStringLiteral("serving.batch"), this);
    m_context = new LogSliderControl(document, QStringLiteral("serving.context_tokens"), this);

    // what a reader compares first, then the counts behind it: at 1280x800 and on a projector
    // the table was cut after "Bound" / "Sh(are)" (issue #42)
    const QStringList headers = {tr("Operator"), tr("FLOP/B"),     tr("Bound"),
                                 tr("Time"),     tr("All layers"), tr("Share"),
                                 tr("Layers"),   tr("FLOP"),       tr("Bytes")};
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // the counts behind the times give way first where the table has no room, then the time of
    // one layer (every row says them on hover; "111.5 ns" wrapped as "111.5" over "ns"); on a
    // projector the rows scroll so the summary below stays whole
    m_tableFit = new TableFitter(m_table, TableFitter::Rows::Scroll);
    m_tableFit->setOptionalColumns({3, 6, 7, 8});
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setObjectName(QStringLiteral("operatorsSummary"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_error->hide();

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Step"), this));
    controls->addWidget(m_phase);
    controls->addWidget(m_attention);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Batch"), this));
    controls->addWidget(m_batch, 1);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Context"), this));
    controls->addWidget(m_context, 1);

    auto *key = new QLabel(this);
    key->setObjectName(QStringLiteral("operatorsKey"));
    key->setWordWrap(true);
    QStringList words;
    for (const KindStyle &k : kindStyles())
        words << QStringLiteral("<span style=\"color: %1\">&#9679; %2</span>")
                     .arg(k.colour.darker(115).name(), tr(k.label));
    key->setText(words.join(QStringLiteral("&nbsp;&nbsp; ")));
    auto *left = new QVBoxLayout;
    left->addWidget(m_chartView, 1);
    left->addWidget(key);
    auto *right = new QVBoxLayout;
    right->addWidget(m_table, 3);
    right->addWidget(m_summary, 2);
    auto *top = new QHBoxLayout;
    top->addLayout(left, 4);
    top->addLayout(right, 5); // the table's key columns whole at 1280x800
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_error);
    layout->addLayout(top, 1);
    layout->addLayout(controls);
}

OperatorsView::~OperatorsView() = default;

QWidget *OperatorsView::figureWidget()
{
    return m_chartView;
}

void OperatorsView::setPhase(int phase)
{
    m_phase->setCurrentIndex(std::clamp(phase, 0, 1));
    refresh();
}

QPointF OperatorsView::pointOf(const QString &name) const
{
    return m_points.value(name);
}

int OperatorsView::pointCount() const
{
    int count = 0;
    for (const QScatterSeries *series : m_kinds)
        count += int(series->count());
    return count;
}

int OperatorsView::tableRows() const
{
    return m_table->rowCount();
}

QString OperatorsView::errorText() const
{
    return m_error->isVisible() || !m_error->isHidden() ? m_error->text() : QString();
}

void OperatorsView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::Phase phase =
        m_phase->currentIndex() == 1 ? core::Phase::Prefill : core::Phase::Decode;
    auto result =
        core::operatorBreakdown(s, phase,
                                m_attention->currentIndex() == 1 ? core::AttentionKernel::Unfused
                                                                 : core::AttentionKernel::Fused);
    m_points.clear();
    m_labels->clear();
    // inputs at the ends of their ranges can overflow a sum: say so rather than draw infinity
    const auto usable = [](const core::OperatorBreakdown &b) {
        return std::isfinite(b.flops) && std::isfinite(b.bytes) && std::isfinite(b.seconds) &&
               b.seconds > 0.0 && std::isfinite(b.peakFlops) && b.peakFlops > 0.0 &&
               std::isfinite(b.bandwidth) && b.bandwidth > 0.0;
    };
    if (!result || !usable(result.value())) {
        m_error->setText(
            result ? tr("No operator breakdown: a figure is beyond range at these inputs (FLOP, "
                        "bytes or time overflow, or the device has no peak or bandwidth)")
                   : tr("No operator breakdown: %1 (%2)")
                         .arg(text(result.error().message), text(result.error().path)));
        m_error->show();
        for (QScatterSeries *series : m_kinds)
            series->clear();
        m_roof->clear();
        m_table->setRowCount(0);
        m_summary->clear();
        m_csv.clear();
        return;
    }
    m_error->hide();
    m_error->clear();
    const core::OperatorBreakdown &b = result.value();

    // points per kind; operators with no FLOP (the embedding lookup) have no place on the chart
    QList<QList<QPointF>> points(kindStyles().size());
    double xLow = 1e300, xHigh = 0, yLow = 1e300;
    for (const core::OperatorCost &op : b.operators) {
        if (!(op.flops > 0.0) || !(op.bytes() > 0.0))
            continue;
        const double attainable = op.attainableFlops();
        const QPointF at(op.intensity(), attainable / kTera);
        if (!drawable(at.x(), true) || !drawable(at.y(), true))
            continue;
        points[int(op.kind)] << at;
        m_points.insert(text(op.name), at);
        xLow = std::min(xLow, at.x());
        xHigh = std::max(xHigh, at.x());
        yLow = std::min(yLow, attainable);
    }
    const double ridge = b.peakFlops / b.bandwidth;
    if (m_points.isEmpty()) { // nothing to place: the roof alone, around its ridge
        xLow = xHigh = ridge;
        yLow = b.peakFlops / 1e4;
    }
    xLow = std::pow(10.0, std::floor(std::log10(std::min(xLow, 0.1)))) * 0.999;
    xHigh = std::pow(10.0, std::ceil(std::log10(std::max({xHigh * 3, ridge * 10, 100.0})))) * 1.001;
    const double yLowT = std::pow(10.0, std::floor(std::log10(yLow / kTera))) * 0.999;
    const double yHighT = std::pow(10.0, std::ceil(std::log10(b.peakFlops * 2 / kTera))) * 1.001;
    const auto sane = [](double low, double high) {
        return drawable(low, true) && drawable(high, true) && low < high;
    };
    if (sane(xLow, xHigh) && (m_x->min() != xLow || m_x->max() != xHigh))
        m_x->setRange(xLow, xHigh);
    if (sane(yLowT, yHighT) && (m_y->min() != yLowT || m_y->max() != yHighT))
        m_y->setRange(yLowT, yHighT);
    QList<QPointF> roof;
    roof << QPointF(xLow, core::rooflineAttainable(b.peakFlops, b.bandwidth, xLow) / kTera);
    if (ridge > xLow && ridge < xHigh)
        roof << QPointF(ridge, b.peakFlops / kTera);
    roof << QPointF(xHigh, core::rooflineAttainable(b.peakFlops, b.bandwidth, xHigh) / kTera);
    replaceIfChanged(m_roof, roof);
    for (int k = 0; k < m_kinds.size(); ++k)
        replaceIfChanged(m_kinds[k], points[k]);
    // labels keep off the slope and off other kinds' markers (the handout's operator labels sat
    // under markers and across the slope, issue #42 item 4); sampled evenly on the log axes
    {
        QList<QPointF> slope;
        const double slopeEnd = std::min(xHigh, ridge);
        constexpr int kPieces = 40;
        for (int i = 0; i <= kPieces && slopeEnd > xLow; ++i) {
            const double x = xLow * std::pow(slopeEnd / xLow, double(i) / kPieces);
            slope << QPointF(x, core::rooflineAttainable(b.peakFlops, b.bandwidth, x) / kTera);
        }
        m_labels->addLineObstacle(slope, m_roof, 1);
        for (int k = 0; k < m_kinds.size(); ++k)
            for (const QPointF &at : std::as_const(points[k]))
                m_labels->addMarkerObstacle(at, 7, m_kinds[k]);
    }

    // label the operators that take the most time (a layer's dozen points would crowd)
    std::vector<const core::OperatorCost *> byTime;
    for (const core::OperatorCost &op : b.operators)
        if (op.flops > 0.0)
            byTime.push_back(&op);
    std::sort(byTime.begin(), byTime.end(), [](const auto *l, const auto *r) {
        return l->seconds * l->layers > r->seconds * r->layers;
    });
    QList<QPointF> labelled; // operators at one point (gate, up, down) share one label
    for (std::size_t i = 0; i < byTime.size() && labelled.size() < 5; ++i) {
        const core::OperatorCost &op = *byTime[i];
        const QString name = text(op.name);
        const QPointF at = m_points[name];
        if (std::any_of(labelled.begin(), labelled.end(), [&at](const QPointF &p) {
                return std::abs(std::log10(p.x() / at.x())) < 0.02 &&
                       std::abs(std::log10(p.y() / at.y())) < 0.02;
            }))
            continue;
        const bool first = labelled.isEmpty();
        const bool rightHalf = std::log10(at.x()) > 0.5 * (std::log10(xLow) + std::log10(xHigh));
        labelled << at;
        // every operator drawn at this point: named when few, by kind when many (the eight
        // matrix products of a decode step share one point)
        QStringList names;
        QStringList kinds;
        for (const core::OperatorCost &other : b.operators) {
            const QString otherName = text(other.name);
            if (!m_points.contains(otherName))
                continue;
            const QPointF p = m_points[otherName];
            if (std::abs(std::log10(p.x() / at.x())) < 0.02 &&
                std::abs(std::log10(p.y() / at.y())) < 0.02) {
                names << otherName;
                const QString kind = tr(kindStyles()[int(other.kind)].label);
                if (!kinds.contains(kind))
                    kinds << kind;
            }
        }
        const QString who =
            names.size() > 2 ? tr("%1 (%2)").arg(kinds.join(QStringLiteral(", "))).arg(names.size())
                             : names.join(QStringLiteral(", "));
        m_labels->add(tr("%1: %2 FLOP/B").arg(who, number(op.intensity())), at,
                      m_kinds[int(op.kind)], kindStyles()[int(op.kind)].colour,
                      // right of the axis' middle the text runs left, so it stays on the chart
                      rightHalf ? QPointF(-10, 6) : QPointF(10, 6), first,
                      rightHalf ? ChartLabels::Align::End : ChartLabels::Align::Start);
        // where it has no room (a projector's type): the names over the intensity
        m_labels->setCrowdedText(tr("%1:\n%2 FLOP/B").arg(who, number(op.intensity())));
    }
    m_labels->add(tr("roof: %1, %2")
                      .arg(QString::fromStdString(core::formatFlopRate(b.peakFlops)),
                           QString::fromStdString(core::formatBandwidth(b.bandwidth))),
                  QPointF(xHigh, b.peakFlops / kTera), m_roof, style::currentDevice(),
                  QPointF(-10, -20), false, ChartLabels::Align::End);
    m_labels->reposition();

    // the table, every operator in the order a layer runs them
    // and a last row for what the step pays beside its roofs, so the column sums to the step
    const bool beyond = b.beyondRoofsSeconds > 0.0;
    m_table->setRowCount(int(b.operators.size()) + (beyond ? 1 : 0));
    m_csv = QStringLiteral("phase,operator,kind,layers,flops_per_layer,bytes_per_layer,"
                           "weight_bytes,activation_bytes,kv_bytes,intensity_flops_per_byte,"
                           "bound,seconds_per_layer,seconds_all_layers\n");
    // one row's cells, right-aligned but the name, the name in `nameColour`
    const auto fillRow = [this](int at, const QStringList &cells, const QString &tip,
                                const QColor &nameColour) {
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = m_table->item(at, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(at, c, item);
            }
            item->setText(cells[c]);
            item->setToolTip(tip);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                          : Qt::AlignRight | Qt::AlignVCenter);
            item->setForeground(QBrush(c == 0 ? nameColour : style::ink()));
        }
    };
    int row = 0;
    for (const core::OperatorCost &op : b.operators) {
        const double all = op.seconds * op.layers;
        const QStringList cells = {text(op.name),
                                   number(op.intensity()),
                                   op.bound == core::Bound::Compute ? tr("compute") : tr("memory"),
                                   text(core::formatSeconds(op.seconds)),
                                   text(core::formatSeconds(all)),
                                   QStringLiteral("%1 %").arg(number(
                                       b.stepSeconds > 0 ? 100.0 * all / b.stepSeconds : 0.0)),
                                   number(op.layers, 4),
                                   text(core::formatFlops(op.flops)),
                                   text(core::formatMessageBytes(op.bytes()))};
        const QString counts = tr("%1: %2 layers, %3 and %4 per layer, %5 each")
                                   .arg(cells[0], cells[6], cells[7], cells[8], cells[3]);
        fillRow(row, cells, counts, kindStyles()[int(op.kind)].colour.darker(130));
        m_csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13\n")
                     .arg(QString::fromLatin1(core::phaseKey(b.phase).data()), text(op.name),
                          QString::fromLatin1(core::operatorKindKey(op.kind).data()))
                     .arg(op.layers)
                     .arg(op.flops, 0, 'g', 10)
                     .arg(op.bytes(), 0, 'g', 10)
                     .arg(op.weightBytes, 0, 'g', 10)
                     .arg(op.activationBytes, 0, 'g', 10)
                     .arg(op.kvBytes, 0, 'g', 10)
                     .arg(op.intensity(), 0, 'g', 8)
                     .arg(QString::fromLatin1(core::boundKey(op.bound).data()))
                     .arg(op.seconds, 0, 'g', 8)
                     .arg(all, 0, 'g', 8);
        ++row;
    }
    if (beyond) {
        const QString name = tr("links and engine");
        const QString time = text(core::formatSeconds(b.beyondRoofsSeconds));
        const QStringList cells = {
            name,
            QString(),
            QString(),
            QString(),
            time,
            QStringLiteral("%1 %").arg(number(100.0 * b.beyondRoofsSeconds / b.stepSeconds)),
            QString(),
            QString(),
            QString()};
        const QString why = tr("What the step pays beside its roofs: its all-reduces, the "
                               "estimate's step overhead and time per sequence (%1)")
                                .arg(time);
        fillRow(row, cells, why, style::ink());
        m_csv += QStringLiteral("%1,links_and_engine,,,,,,,,,,,%2\n")
                     .arg(QString::fromLatin1(core::phaseKey(b.phase).data()))
                     .arg(b.beyondRoofsSeconds, 0, 'g', 8);
    }
    m_tableFit->refit();

    QString summary =
        tr("<b>%1</b>: %2 tokens computed; operators %3, %4 moved, %5. Whole-model figure: "
           "%6, %7, %8.")
            .arg(phase == core::Phase::Decode
                     ? tr("Decode step on %3, batch %1 at %2 tokens of context")
                           .arg(number(b.batch, 7), number(b.contextTokens, 7),
                                QString::fromStdString(s.device.name))
                     : tr("Prefill of a %1-token prompt on %2")
                           .arg(number(b.tokens, 7), QString::fromStdString(s.device.name)),
                 number(b.tokens, 7), text(core::formatFlops(b.flops)),
                 text(core::formatBytes(b.bytes)),
                 (beyond ? tr("%1 one after another with the links and engine")
                         : tr("%1 one after another"))
                     .arg(text(core::formatSeconds(b.stepSeconds))),
                 text(core::formatFlops(b.modelFlops)), text(core::formatBytes(b.modelBytes)),
                 text(core::formatSeconds(b.modelSeconds)));
    summary += QStringLiteral("<ul style=\"margin-left: -20px\">");
    for (const std::string &d : b.differences)
        summary += QStringLiteral("<li>%1</li>").arg(text(d).toHtmlEscaped());
    summary += QStringLiteral("</ul>");
    if (m_summary->text() != summary)
        m_summary->setText(summary);
}

QString OperatorsView::csv() const
{
    return m_csv;
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "interconnectview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/chartguard.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/physics/scaling.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QValueAxis>

namespace views {

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QComboBox *linkPicker(const char *kind, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(18);
    combo->addItem(QObject::tr("choose a link preset..."), QString());
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind != "link")
            continue;
        const auto link = core::linkPreset(info.id);
        if (link &&
            (link->kind == kind || (std::string_view(kind) == "network" && link->kind == "device")))
            combo->addItem(QStringLiteral("%1: %2 GB/s per direction")
                               .arg(QString::fromStdString(link->name),
                                    style::number(link->perDirectionGbPerSecond, 4)),
                           QString::fromStdString(info.id));
    }
    return combo;
}

} // namespace

InterconnectView::InterconnectView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_intraLink(linkPicker("device", this))
    , m_interLink(linkPicker("network", this))
    , m_refusal(new QLabel(this))
    , m_bar(new StackedTimeBar(this))
    , m_summary(new QTextBrowser(this))
    , m_chart(new QChart)
    , m_x(new QLogValueAxis)
    , m_y(new QValueAxis)
    , m_speedup(new QLineSeries)
    , m_efficiency(new QLineSeries)
    , m_speedupAxis(new QValueAxis)
{
    setObjectName(QStringLiteral("interconnectView"));
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->setWordWrap(true);
    m_refusal->hide();
    auto *form = new QFormLayout;
    for (const char *path :
         {"interconnect.message_bytes", "interconnect.devices", "interconnect.devices_per_node",
          "interconnect.intra_link_gb_s", "interconnect.inter_link_gb_s", "interconnect.latency_s",
          "interconnect.collectives_per_step"}) {
        auto *editor = new NumberEditor(document, QLatin1String(path), m_refusal, this);
        m_editors << editor;
        form->addRow(editor->label(), editor);
        if (QLatin1String(path) == QLatin1String("interconnect.intra_link_gb_s"))
            form->addRow(QString(), m_intraLink);
        if (QLatin1String(path) == QLatin1String("interconnect.inter_link_gb_s"))
            form->addRow(QString(), m_interLink);
    }
    form->addRow(m_refusal);
    connect(m_intraLink, &QComboBox::activated, this,
            [this] { applyLink(0, m_intraLink->currentData().toString()); });
    connect(m_interLink, &QComboBox::activated, this,
            [this] { applyLink(1, m_interLink->currentData().toString()); });

    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setTitle(tr("A training step over more devices: work / N + all-reduce(N)"));
    m_x->setBase(2);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setRange(1.8, 72);
    m_x->setTitleText(tr("Devices"));
    m_y->setRange(0, 1.0);
    m_y->setTickCount(6);
    m_y->setLabelFormat(QStringLiteral("%.1f"));
    m_y->setTitleText(tr("Efficiency"));
    style::styleAxis(m_x);
    style::styleAxis(m_y);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_efficiency->setName(tr("efficiency"));
    m_efficiency->setPen(QPen(style::kBlue, 3 * style::scale()));
    m_efficiency->setPointsVisible(true);
    m_chart->addSeries(m_efficiency);
    m_efficiency->attachAxis(m_x);
    m_efficiency->attachAxis(m_y);
    m_speedup->setName(tr("speed-up (right)"));
    m_speedup->setPen(QPen(style::kOrange, 2 * style::scale(), Qt::DashLine));
    m_speedupAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_speedupAxis->setTitleText(tr("Speed-up"));
    style::styleAxis(m_speedupAxis);
    m_chart->addAxis(m_speedupAxis, Qt::AlignRight);
    m_chart->addSeries(m_speedup);
    m_speedup->attachAxis(m_x);
    m_speedup->attachAxis(m_speedupAxis);
    // one node against several: the edge of the node, where the link becomes the network
    m_nodeEdge = new QLineSeries(m_chart);
    m_nodeEdge->setName(tr("node edge"));
    m_nodeEdge->setPen(QPen(style::grey(110), 1.5 * style::scale(), Qt::DotLine));
    m_chart->addSeries(m_nodeEdge);
    m_nodeEdge->attachAxis(m_x);
    m_nodeEdge->attachAxis(m_y);
    style::styleChart(m_chart);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setFont(style::annotationFont(0.9));
    auto *chartView = new QChartView(m_chart, this);
    chartView->setRenderHint(QPainter::Antialiasing);
    chartView->setMinimumSize(380, 260);
    m_summary->setOpenLinks(false);

    auto *left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_summary, 1);
    auto *right = new QVBoxLayout;
    right->addWidget(m_bar);
    right->addWidget(chartView, 1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 2);
    layout->addLayout(right, 3);
}

bool InterconnectView::applyLink(int which, const QString &linkId)
{
    const auto link = core::linkPreset(linkId.toStdString());
    auto s = core::withLinkPreset(
        document()->scenario(), which == 0 ? core::LinkTier::IntraNode : core::LinkTier::InterNode,
        linkId.toStdString());
    if (!link || !s)
        return false;
    document()->applyScenario(s.value(),
                              tr("Choose Link %1").arg(QString::fromStdString(link->name)));
    return true;
}

QString InterconnectView::summary() const
{
    return m_summary->toPlainText();
}

QList<QPointF> InterconnectView::efficiencyCurve() const
{
    return m_efficiency->points();
}

void InterconnectView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::Evaluation &e = document()->evaluation();
    for (NumberEditor *editor : std::as_const(m_editors))
        editor->sync(s);
    using F = core::FigureId;
    // while a class predicts the sync time, every time that gives it away is "?" (issue #23)
    const ScenarioDocument &doc = *document();
    const bool concealed = doc.isConcealed(F::InterconnectIntraNodeSeconds) ||
                           doc.isConcealed(F::InterconnectBandwidthSeconds);
    const bool latencyConcealed = doc.isConcealed(F::InterconnectLatencySeconds);
    const bool totalConcealed =
        concealed || latencyConcealed || doc.isConcealed(F::InterconnectSeconds);
    const auto seconds = [](double value, bool hidden) {
        return hidden ? QStringLiteral("?") : fromStd(core::formatSeconds(value));
    };
    m_bar->setTimes(e[F::InterconnectBandwidthSeconds], e[F::InterconnectLatencySeconds], concealed,
                    latencyConcealed);
    const bool inside = s.interconnect.devices <= s.interconnect.devicesPerNode;
    m_summary->setHtml(
        tr("<h3>Ring all-reduce</h3><p>Each of %1 devices sends and receives 2 (N-1)/N of the "
           "%2 message: <b>%3 per device</b>%4, over the %5 link at %6 per direction: "
           "<b>%7</b> of bandwidth time plus <b>%8</b> of latency, <b>%9</b> per step.</p>"
           "<p>Data parallelism syncs large messages once per step; tensor parallelism syncs "
           "small ones after every layer, so latency dominates (l.155-168).</p>")
            .arg(style::number(s.interconnect.devices, 9),
                 fromStd(core::formatMessageBytes(e[F::InterconnectMessageBytes])),
                 fromStd(core::formatMessageBytes(e[F::InterconnectTrafficBytesPerDevice])),
                 s.interconnect.collectivesPerStep > 1
                     ? tr(" per collective, %1 collectives a step")
                           .arg(style::number(s.interconnect.collectivesPerStep, 9))
                     : QString(),
                 inside ? tr("intra-node") : tr("network"),
                 fromStd(core::formatBandwidth(e[F::InterconnectLinkBandwidth])),
                 seconds(e[F::InterconnectBandwidthSeconds], concealed),
                 seconds(e[F::InterconnectLatencySeconds], latencyConcealed))
            .arg(seconds(e[F::InterconnectSeconds], totalConcealed)));
    // one node against several: the same bytes over the node's link and over the network
    // (the lesson's 0.245 s against 1.96 s, l.161-164)
    const double intra = e[F::InterconnectIntraNodeSeconds];
    const double inter = e[F::InterconnectInterNodeSeconds];
    if (std::isfinite(intra) && std::isfinite(inter) && intra > 0)
        m_summary->append(
            tr("<p><b>One node against several:</b> the same %1 per device takes <b>%2</b> over "
               "the %3 link inside a node and <b>%4</b> over the %5 network between nodes, %6x "
               "longer.</p>")
                .arg(fromStd(core::formatMessageBytes(e[F::InterconnectBytesPerStep])),
                     seconds(intra, concealed),
                     fromStd(core::formatBandwidth(s.interconnect.intraLinkGbPerSecond * 1e9)),
                     seconds(inter, concealed),
                     fromStd(core::formatBandwidth(s.interconnect.interLinkGbPerSecond * 1e9)),
                     concealed ? QStringLiteral("?") : style::number(inter / intra, 3)));
    const std::vector<double> counts = {2, 4, 8, 16, 32, 64};
    QList<QPointF> efficiency;
    QList<QPointF> speedup;
    bool leftOff = false;
    // Tensor parallelism (many collectives a step) scales a decode step, whose tiny messages
    // make the latency count; one large gradient sync scales a training step. The chart used
    // to show the training curve for both: 94 % at 64 devices for the lesson's tensor-parallel
    // decode, the opposite of its point (issue #23).
    const bool tensorParallel = core::isTensorParallelSync(s);
    m_chart->setTitle(tensorParallel
                          ? tr("A decode step over more devices: bytes / N + %1 all-reduces(N)")
                                .arg(style::number(s.interconnect.collectivesPerStep, 9))
                          : tr("A training step over more devices: work / N + all-reduce(N)"));
    const double edge = s.interconnect.devicesPerNode;
    if (edge >= 2 && edge < 64)
        replaceIfChanged(m_nodeEdge,
                         {QPointF(edge * std::sqrt(2.0), 0), QPointF(edge * std::sqrt(2.0), 1.0)});
    else
        m_nodeEdge->clear();
    for (const core::ScalingPoint &p :
         tensorParallel ? core::decodeScalingCurve(s, counts) : core::scalingCurve(s, counts)) {
        // a point beyond what can be computed (a near-zero efficiency) is left off, not drawn
        // at NaN (issue #20), and the summary says so
        leftOff = leftOff || !drawable(p.efficiency, false) || !drawable(p.speedup, false);
        if (drawable(p.efficiency, false))
            efficiency << QPointF(p.devices, p.efficiency);
        if (drawable(p.speedup, false))
            speedup << QPointF(p.devices, p.speedup);
    }
    if (leftOff)
        m_summary->append(
            tr("<p style=\"color:%1\">Some scaling points are beyond what can be computed (a "
               "compute or bandwidth efficiency this close to zero makes a step infinite): "
               "they are left off the chart.</p>")
                .arg(style::warning().name()));
    double top = 1;
    for (const QPointF &p : std::as_const(speedup))
        top = std::max(top, p.y());
    m_speedupAxis->setRange(0, std::ceil(top * 1.15 / 5) * 5);
    m_speedupAxis->setTickCount(6);
    replaceIfChanged(m_efficiency, efficiency);
    replaceIfChanged(m_speedup, speedup);
}

QString InterconnectView::csv() const
{
    QStringList lines{QStringLiteral("devices,efficiency")};
    for (const QPointF &p : efficiencyCurve())
        lines << QStringLiteral("%1,%2").arg(p.x()).arg(p.y(), 0, 'g', 6);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

StackedTimeBar::StackedTimeBar(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize StackedTimeBar::sizeHint() const
{
    return {400, int(fontMetrics().height() * 4.2)};
}

void StackedTimeBar::setTimes(double bandwidthSeconds, double latencySeconds,
                              bool bandwidthConcealed, bool latencyConcealed)
{
    m_bandwidth = bandwidthSeconds;
    m_latency = latencySeconds;
    m_concealed = bandwidthConcealed;
    m_latencyConcealed = latencyConcealed;
    update();
}

void StackedTimeBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const double line = fontMetrics().height();
    const double total = m_bandwidth + m_latency;
    const QRectF bar(4, line * 1.4, width() - 8, line * 1.4);
    p.setPen(style::ink());
    p.drawText(QRectF(4, 0, width() - 8, line * 1.3), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Communication per step: %1 bandwidth + %2 latency")
                   .arg(m_concealed ? QStringLiteral("?")
                                    : QString::fromStdString(core::formatSeconds(m_bandwidth)),
                        m_latencyConcealed
                            ? QStringLiteral("?")
                            : QString::fromStdString(core::formatSeconds(m_latency))));
    if (total <= 0 || m_concealed || m_latencyConcealed) // the split would tell
        return;
    const double split = bar.width() * m_bandwidth / total;
    QColor bandwidth = style::kBlue;
    bandwidth.setAlphaF(0.6);
    QColor latency = style::kOrange;
    latency.setAlphaF(0.6);
    p.setPen(Qt::NoPen);
    p.setBrush(bandwidth);
    p.drawRect(QRectF(bar.left(), bar.top(), split, bar.height()));
    p.setBrush(latency);
    p.drawRect(QRectF(bar.left() + split, bar.top(), bar.width() - split, bar.height()));
    p.setPen(style::ink());
    p.drawText(QRectF(bar.left(), bar.bottom(), bar.width(), line * 1.2),
               Qt::AlignLeft | Qt::AlignVCenter,
               tr("bandwidth %1 %   latency %2 %")
                   .arg(style::number(100 * m_bandwidth / total, 3),
                        style::number(100 * m_latency / total, 3)));
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "powerview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace views {

PowerView::PowerView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_refusal(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_rack(new RackCanvas(this))
{
    setObjectName(QStringLiteral("powerView"));
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->setWordWrap(true);
    m_refusal->hide();
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto *form = new QFormLayout;
    for (const char *path : {"power.devices_per_node", "power.device_w", "power.host_w",
                             "power.rack_w", "power.idle_fraction"}) {
        auto *editor = new NumberEditor(
            document, QLatin1String(path), m_refusal, this,
            QLatin1String(path) == QLatin1String("power.idle_fraction") ? 100.0 : 1.0);
        m_editors << editor;
        form->addRow(editor->label(), editor);
    }
    form->addRow(m_refusal);
    auto *left = new QVBoxLayout;
    left->addLayout(form);
    left->addWidget(m_summary, 1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 3);
    layout->addWidget(m_rack, 2);
}

QString PowerView::summary() const
{
    return m_summary->text();
}

void PowerView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::Evaluation &e = document()->evaluation();
    for (NumberEditor *editor : std::as_const(m_editors))
        editor->sync(s);
    using F = core::FigureId;
    const QString node = QString::fromStdString(core::formatNumber(e[F::PowerNodeWatts] / 1000, 4));
    const int nodes = int(e[F::PowerNodesPerRack]);
    const int devices = int(e[F::PowerDevicesPerRack]);
    m_summary->setText(
        tr("<h3>A node and a rack</h3>"
           "<p>A node of %1 devices at %2 W plus %3 W for the host draws <b>%4 kW</b>. A rack "
           "limited to %5 kW holds <b>%6 nodes, %7 devices</b> (the lesson's 5 kW and 8 nodes, "
           "l.174-176): the power limit, not the floor space, sets how many fit.</p>"
           "<h3>Energy per token</h3>"
           "<p><b>%8 J per token</b> at %9 % utilisation: the device draws power while idle too "
           "(here %10 % of its busy draw), so idle hours add to every token served (l.179).</p>")
            .arg(style::number(s.power.devicesPerNode, 9), style::number(s.power.deviceW, 4),
                 style::number(s.power.hostW, 4), node, style::number(s.power.rackW / 1000, 4))
            .arg(nodes)
            .arg(devices)
            .arg(style::number(e[F::CostJoulesPerToken], 3),
                 style::number(s.cost.utilisation * 100, 3),
                 style::number(s.power.idleFraction * 100, 3)));
    m_rack->setRack(
        nodes, int(s.power.devicesPerNode), tr("node: %1 kW").arg(node),
        tr("rack: %1 of %2 kW")
            .arg(QString::fromStdString(core::formatNumber(nodes * e[F::PowerNodeWatts] / 1000, 4)),
                 style::number(s.power.rackW / 1000, 4)));
}

QString PowerView::csv() const
{
    const core::Evaluation &e = document()->evaluation();
    using F = core::FigureId;
    return QStringLiteral(
               "node_watts,nodes_per_rack,devices_per_rack,joules_per_token\n%1,%2,%3,%4\n")
        .arg(e[F::PowerNodeWatts])
        .arg(e[F::PowerNodesPerRack])
        .arg(e[F::PowerDevicesPerRack])
        .arg(e[F::CostJoulesPerToken], 0, 'g', 6);
}

RackCanvas::RackCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(240, 300);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void RackCanvas::setRack(int nodes, int devicesPerNode, const QString &nodeText,
                         const QString &rackText)
{
    m_nodes = nodes;
    m_devicesPerNode = devicesPerNode;
    m_nodeText = nodeText;
    m_rackText = rackText;
    update();
}

void RackCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    const double line = fontMetrics().height();
    const QRectF rack(line, line * 1.6, width() - 2 * line, height() - line * 3.2);
    p.setPen(style::ink());
    p.drawText(QRectF(line, 0, width() - 2 * line, line * 1.5), Qt::AlignCenter, m_rackText);
    p.setPen(QPen(style::grey(80), 2));
    p.setBrush(style::grey(240));
    p.drawRoundedRect(rack, 6, 6);
    const int shown = std::clamp(m_nodes, 0, 32);
    if (shown == 0)
        return;
    const double gap = 4;
    const double nodeHeight = std::min((rack.height() - gap * (shown + 1)) / shown, line * 2.6);
    for (int n = 0; n < shown; ++n) {
        const QRectF node(rack.left() + gap * 2, rack.top() + gap + n * (nodeHeight + gap),
                          rack.width() - gap * 4, nodeHeight);
        p.setPen(QPen(style::grey(120), 1));
        p.setBrush(style::paper());
        p.drawRect(node);
        const int devices = std::clamp(m_devicesPerNode, 0, 16);
        const double w = (node.width() * 0.62) / std::max(1, devices);
        QColor device = style::kBlue;
        device.setAlphaF(0.55);
        p.setBrush(device);
        p.setPen(Qt::NoPen);
        for (int d = 0; d < devices; ++d)
            p.drawRect(QRectF(node.left() + 4 + d * w, node.top() + nodeHeight * 0.2, w - 3,
                              nodeHeight * 0.6));
        if (n == 0) {
            p.setPen(style::ink());
            p.drawText(node.adjusted(node.width() * 0.64, 0, -4, 0),
                       Qt::AlignRight | Qt::AlignVCenter, m_nodeText);
        }
    }
}

QWidget *PowerView::figureWidget()
{
    return m_rack;
}

} // namespace views

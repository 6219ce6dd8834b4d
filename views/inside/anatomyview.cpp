// SPDX-License-Identifier: GPL-3.0-or-later
#include "anatomyview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"

#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextBrowser>
#include <QToolTip>

namespace views {

namespace {

using Block = AnatomyView::Block;

constexpr QSizeF kDesign{1000, 620};

/** The parts of each block on the design grid. */
QList<QRectF> parts(Block block)
{
    switch (block) {
    case Block::Matrix:
        return {QRectF(270, 200, 290, 130)};
    case Block::Vector:
        return {QRectF(575, 200, 155, 130)};
    case Block::Sram:
        return {QRectF(270, 342, 460, 40)};
    case Block::Dma:
        return {QRectF(270, 392, 460, 36)};
    case Block::Controllers:
        return {QRectF(270, 150, 460, 34), QRectF(270, 438, 460, 34)};
    case Block::Hbm: {
        QList<QRectF> stacks;
        for (int i = 0; i < 4; ++i) {
            stacks << QRectF(282 + i * 112, 42, 96, 86);
            stacks << QRectF(282 + i * 112, 494, 96, 86);
        }
        return stacks;
    }
    case Block::Host:
        return {QRectF(62, 250, 150, 120)};
    case Block::Links:
        return {QRectF(788, 250, 150, 120)};
    }
    return {};
}

bool isArithmetic(Block block)
{
    return block == Block::Matrix || block == Block::Vector;
}

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QString gbps(double value)
{
    return AnatomyView::tr("%1 GB/s").arg(style::number(value, 4));
}

} // namespace

AnatomyView::AnatomyView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new AnatomyCanvas(this))
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("anatomyView"));
    m_text->setOpenLinks(false);
    m_text->setMinimumWidth(260);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_canvas, 3);
    layout->addWidget(m_text, 2);
    connect(m_canvas, &AnatomyCanvas::blockClicked, this, &AnatomyView::selectBlock);
}

QString AnatomyView::blockName(Block block)
{
    switch (block) {
    case Block::Matrix:
        return tr("Matrix (tensor) units");
    case Block::Vector:
        return tr("Vector units");
    case Block::Sram:
        return tr("On-chip SRAM");
    case Block::Hbm:
        return tr("HBM stacks");
    case Block::Controllers:
        return tr("Memory controllers");
    case Block::Dma:
        return tr("DMA engines");
    case Block::Host:
        return tr("Host interface");
    case Block::Links:
        return tr("Device links");
    }
    return {};
}

void AnatomyView::selectBlock(Block block)
{
    m_selected = block;
    m_canvas->setSelected(block);
    m_text->setHtml(style::themed(describe(block)));
    if (block == Block::Hbm)
        emit explainRequested(core::FigureId::Bandwidth);
    else if (block == Block::Matrix)
        emit explainRequested(core::FigureId::PeakFlops);
}

QString AnatomyView::description() const
{
    return m_text->toPlainText();
}

void AnatomyView::refresh()
{
    m_canvas->setDeviceName(fromStd(document()->scenario().device.name));
    m_text->setHtml(style::themed(describe(m_selected)));
}

QString AnatomyView::describe(Block block) const
{
    const core::DeviceSpec &d = document()->scenario().device;
    const core::MemoryUnits units = document()->units();
    QString what;
    QString answers;
    QStringList figures;
    auto none = [](const QString &what) {
        return tr("<i>The preset gives no %1 figure.</i>").arg(what);
    };
    switch (block) {
    case Block::Matrix:
        what = tr("Fixed-function arrays that multiply and accumulate whole tiles of two matrices "
                  "in a handful of clock cycles: far more arithmetic per watt than scalar or "
                  "short-vector code (l.19).");
        answers = tr("<b>Arithmetic.</b> They are the roof of the roofline; with one token per "
                     "sequence they mostly wait for bytes.");
        for (const core::NumericFormat format : core::kAllFormats) {
            if (core::isSet(d.peak(format)))
                figures << tr("%1: %2 TFLOP/s dense")
                               .arg(QString::fromLatin1(core::formatLabel(format).data()),
                                    style::number(d.peak(format), 4));
        }
        if (figures.isEmpty())
            figures << none(tr("peak"));
        break;
    case Block::Vector:
        what = tr("Everything that is not a dense matrix product: normalisation, activations, the "
                  "softmax inside attention, elementwise adds, type conversions (l.19).");
        answers = tr("<b>Arithmetic</b>, of the non-matmul kind: far fewer lanes than the matrix "
                     "units, so a model heavy in such work can be limited here.");
        figures << none(tr("vector-unit"));
        break;
    case Block::Sram:
        what = tr("Registers, shared memory or scratchpad, and caches: orders of magnitude "
                  "smaller than HBM, much faster and cheaper in energy per byte. It holds the "
                  "tiles being reused so each byte fetched from HBM is used many times (l.23).");
        answers = tr("<b>Data movement.</b> Reuse on chip is what lets arithmetic, not memory, "
                     "set the pace (tiling).");
        if (core::isSet(d.sramMb)) {
            QString line = tr("%1 MB").arg(style::number(d.sramMb, 4));
            if (auto it = d.notes.find("sram_mb"); it != d.notes.end())
                line += tr(" (%1)").arg(fromStd(it->second).toHtmlEscaped());
            figures << line;
        } else {
            figures << none(tr("on-chip SRAM"));
        }
        break;
    case Block::Hbm:
        what = tr("Stacks of DRAM dies in the same package as the compute die: many parallel "
                  "channels give far more bandwidth than DIMMs, at a capacity limited by what "
                  "can be stacked. Weights, activations, optimiser state and the KV cache live "
                  "here (l.21).");
        answers = tr("<b>Data movement and capacity.</b> Its bandwidth is the slope of the "
                     "roofline; its size decides what fits, and the headroom left for the KV "
                     "cache.");
        figures
            << tr("Capacity: %1").arg(fromStd(core::formatBytes(d.memoryGb * core::kGB, units)));
        if (core::isSet(d.usableMemoryGb))
            figures << tr("Usable beside the operating system: %1")
                           .arg(fromStd(core::formatBytes(d.usableMemoryGb * core::kGB, units)));
        figures << (core::isSet(d.bandwidthGbPerSecond)
                        ? tr("Bandwidth: %1").arg(gbps(d.bandwidthGbPerSecond))
                        : none(tr("bandwidth")));
        break;
    case Block::Controllers:
        what = tr("They schedule thousands of outstanding requests across the HBM channels: "
                  "contiguous, aligned accesses use the bandwidth well, scattered ones do not "
                  "(l.21).");
        answers = tr("<b>Data movement.</b> The bandwidth a kernel achieves is the preset's "
                     "figure only for friendly access patterns (the efficiency input).");
        figures << tr("Part of the HBM bandwidth figure; no separate figure.");
        break;
    case Block::Dma:
        what = tr("Copy engines that move data between memory spaces without occupying the "
                  "arithmetic units, so the next tile loads while the current one computes "
                  "(l.23).");
        answers = tr("<b>Data movement</b>, hidden behind arithmetic when it overlaps.");
        figures << none(tr("DMA"));
        break;
    case Block::Host:
        what = tr("Connects the device to the CPU and host DRAM for loading weights, sending "
                  "inputs and returning outputs. Far narrower than HBM: weights should cross it "
                  "once, at start-up, and never again (l.23, l.33).");
        answers = tr("<b>Data movement.</b> It sets the cold start's last hop and the price of "
                     "anything that spills to host memory (the Hierarchy view).");
        figures << (core::isSet(d.hostLinkGbPerSecond)
                        ? tr("%1 per direction").arg(gbps(d.hostLinkGbPerSecond))
                        : none(tr("host-link")) +
                              tr(" PCIe 4.0 x16 carries 31.5 GB/s per direction, for scale."));
        break;
    case Block::Links:
        what = tr("Connect accelerators to each other for tensor and data parallelism (l.23, "
                  "l.150-155).");
        answers = tr("<b>Data movement</b> between devices: all-reduce time, and how far a model "
                     "can be split.");
        figures << (core::isSet(d.deviceLinkGbPerSecond)
                        ? tr("%1 per direction").arg(gbps(d.deviceLinkGbPerSecond))
                        : none(tr("device-link")));
        if (core::isSet(d.deviceLinkLatencySeconds))
            figures
                << tr("Latency %1").arg(fromStd(core::formatSeconds(d.deviceLinkLatencySeconds)));
        break;
    }
    QString html = tr("<h3>%1</h3><p>%2</p><p>%3</p><p><b>%4</b></p><ul>")
                       .arg(blockName(block), what, answers, fromStd(d.name).toHtmlEscaped());
    for (const QString &figure : figures)
        html += QStringLiteral("<li>%1</li>").arg(figure);
    html += tr("</ul><p style=\"color:#666\">A generic accelerator, not any vendor's floor plan "
               "(l.17). Click another block.</p>");
    return html;
}

QString AnatomyView::csv() const
{
    QStringList lines{QStringLiteral("block,answers")};
    for (int i = 0; i < kBlockCount; ++i)
        lines << QStringLiteral("%1,%2").arg(
            blockName(Block(i)), isArithmetic(Block(i)) ? QStringLiteral("arithmetic")
                                                        : QStringLiteral("data movement"));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// ---- the drawing -----------------------------------------------------------------------------

AnatomyCanvas::AnatomyCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(420, 260);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AnatomyCanvas::setSelected(AnatomyView::Block block)
{
    m_selected = block;
    update();
}

void AnatomyCanvas::setDeviceName(const QString &name)
{
    if (name != m_deviceName) {
        m_deviceName = name;
        update();
    }
}

QTransform AnatomyCanvas::toWidget() const
{
    const double scale = std::min(width() / kDesign.width(), height() / kDesign.height());
    const double dx = (width() - kDesign.width() * scale) / 2;
    const double dy = (height() - kDesign.height() * scale) / 2;
    return QTransform(scale, 0, 0, scale, dx, dy);
}

QRectF AnatomyCanvas::blockRect(AnatomyView::Block block) const
{
    QRectF united;
    for (const QRectF &part : parts(block))
        united = united.united(part);
    return toWidget().mapRect(united);
}

int AnatomyCanvas::blockAt(QPointF point) const
{
    const QPointF design = toWidget().inverted().map(point);
    for (int i = 0; i < AnatomyView::kBlockCount; ++i) {
        for (const QRectF &part : parts(Block(i))) {
            if (part.contains(design))
                return i;
        }
    }
    return -1;
}

void AnatomyCanvas::mousePressEvent(QMouseEvent *event)
{
    const int block = blockAt(event->position());
    if (block >= 0)
        emit blockClicked(Block(block));
}

bool AnatomyCanvas::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int block = blockAt(help->pos());
        if (block >= 0)
            QToolTip::showText(help->globalPos(), AnatomyView::blockName(Block(block)), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void AnatomyCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    p.setTransform(toWidget());
    const QColor arithmetic = style::kBlue;
    const QColor movement = style::kOrange;
    auto tint = [](QColor c, double alpha) {
        c.setAlphaF(alpha);
        return c;
    };
    const double scale = toWidget().m11();
    const QFont font = style::drawingFont(15, scale);
    const QFont small = style::drawingFont(13, scale);

    // the package and the compute die
    p.setPen(QPen(style::grey(120), 2));
    p.setBrush(style::grey(246));
    p.drawRoundedRect(QRectF(40, 28, 920, 566), 16, 16);
    p.setBrush(style::grey(236));
    p.drawRoundedRect(QRectF(255, 140, 490, 342), 10, 10);
    p.setFont(small);
    p.setPen(style::grey(90));
    p.drawText(QRectF(44, 4, 900, 22), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Package: %1").arg(m_deviceName));

    // wires first, under the blocks: HBM to controllers, host and links to the die
    p.setPen(QPen(tint(movement, 0.8), 3));
    for (const QRectF &stack : parts(Block::Hbm)) {
        const double x = stack.center().x();
        if (stack.top() < 300)
            p.drawLine(QPointF(x, stack.bottom()), QPointF(x, 150));
        else
            p.drawLine(QPointF(x, stack.top()), QPointF(x, 472));
    }
    p.drawLine(QPointF(212, 310), QPointF(270, 310));
    p.drawLine(QPointF(730, 310), QPointF(788, 310));
    p.setPen(QPen(style::grey(120), 2, Qt::DashLine));
    p.drawLine(QPointF(62, 310), QPointF(8, 310));    // to the host CPU, off the package
    p.drawLine(QPointF(938, 310), QPointF(992, 310)); // to the other devices

    for (int i = 0; i < AnatomyView::kBlockCount; ++i) {
        const Block block = Block(i);
        const QColor colour = isArithmetic(block) ? arithmetic : movement;
        const bool selected = block == m_selected;
        p.setPen(QPen(selected ? style::ink() : colour.darker(120), selected ? 4 : 1.5));
        p.setBrush(tint(colour, selected ? 0.42 : 0.22));
        for (const QRectF &part : parts(block))
            p.drawRoundedRect(part, 5, 5);
        // the matrix units as a grid of arrays
        if (block == Block::Matrix) {
            p.setPen(QPen(colour.darker(130), 1));
            p.setBrush(tint(colour, 0.35));
            for (int row = 0; row < 3; ++row) {
                for (int col = 0; col < 6; ++col)
                    p.drawRect(QRectF(282 + col * 46, 228 + row * 32, 38, 24));
            }
        }
    }
    // labels
    p.setPen(style::ink());
    p.setFont(font);
    auto label = [&](const QRectF &r, const QString &text, int flags = Qt::AlignCenter) {
        p.drawText(r, flags | Qt::TextWordWrap, text);
    };
    label(QRectF(270, 200, 290, 28), AnatomyView::blockName(Block::Matrix));
    label(parts(Block::Vector).front(), AnatomyView::blockName(Block::Vector));
    // the long name where it fits on the strip (a drawing shown small has room for the short)
    const QString sramLong = tr("On-chip SRAM (registers, shared memory, caches)");
    const QRectF sram = parts(Block::Sram).front();
    label(sram, p.boundingRect(sram, Qt::AlignCenter | Qt::TextWordWrap, sramLong).height() <=
                        sram.height()
                    ? sramLong
                    : AnatomyView::blockName(Block::Sram));
    label(parts(Block::Dma).front(), AnatomyView::blockName(Block::Dma));
    for (const QRectF &strip : parts(Block::Controllers))
        label(strip, AnatomyView::blockName(Block::Controllers));
    p.setFont(small);
    for (const QRectF &stack : parts(Block::Hbm))
        label(stack, tr("HBM"));
    p.setFont(font);
    label(parts(Block::Host).front(), tr("Host interface\n(to CPU and host DRAM)"));
    label(parts(Block::Links).front(), tr("Device links\n(to other accelerators)"));

    // key
    p.setFont(small);
    const QRectF key(48, 596, 900, 20);
    p.setPen(Qt::NoPen);
    p.setBrush(tint(arithmetic, 0.4));
    p.drawRect(QRectF(key.left(), key.top() + 4, 14, 12));
    p.setPen(style::grey(60));
    // the second entry after the first's text, however large the type; no "click" on paper
    const QString first = tr("answers arithmetic");
    const double second = key.left() + 20 + QFontMetricsF(small).horizontalAdvance(first) + 24;
    p.drawText(QRectF(key.left() + 20, key.top(), second - key.left(), 20),
               Qt::AlignVCenter | Qt::TextDontClip, first);
    p.setPen(Qt::NoPen);
    p.setBrush(tint(movement, 0.4));
    p.drawRect(QRectF(second, key.top() + 4, 14, 12));
    p.setPen(style::grey(60));
    p.drawText(QRectF(second + 20, key.top(), key.right() - second - 20, 20),
               Qt::AlignVCenter | Qt::TextDontClip,
               window()->testAttribute(Qt::WA_DontShowOnScreen)
                   ? tr("answers data movement and capacity")
                   : tr("answers data movement and capacity   (click a block)"));
}

QWidget *AnatomyView::figureWidget()
{
    return m_canvas;
}

} // namespace views

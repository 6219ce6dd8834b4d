// SPDX-License-Identifier: GPL-3.0-or-later
#include "stackview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"

#include <QHBoxLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QTextBrowser>

namespace views {

namespace {

using Layer = StackView::Layer;

struct LayerText
{
    const char *does;
    const char *fails;
};

// What each layer does and how it fails, after the lesson (l.188-192, l.281-289).
const LayerText kLayers[] = {
    {QT_TRANSLATE_NOOP("StackView",
                       "Expresses the model as operations on tensors. Its version is pinned with "
                       "the libraries in one container image (l.190-192)."),
     QT_TRANSLATE_NOOP("StackView",
                       "The out-of-memory pattern: failures only under concurrency and long "
                       "prompts, as the KV cache grows past what the engine was sized for; and "
                       "application-level errors that look like everything else from the top "
                       "(l.190, l.241-268).")},
    {QT_TRANSLATE_NOOP("StackView",
                       "Rewrites the graph: fuses adjacent operations so intermediate results "
                       "stay in SRAM instead of round-tripping through HBM, and plans memory "
                       "(l.190)."),
     QT_TRANSLATE_NOOP("StackView",
                       "A shape or operation it cannot compile: an error at start-up, or a graph "
                       "left unfused that runs far slower than the estimate.")},
    {QT_TRANSLATE_NOOP("StackView",
                       "One routine for each combination of operation, data type, tensor shape "
                       "and device generation, from a vendor or open library or generated on the "
                       "fly (l.137, l.190)."),
     QT_TRANSLATE_NOOP("StackView",
                       "A missing kernel: the engine refuses to start with an unsupported-"
                       "operation error, or silently falls back to a generic path several times "
                       "slower; tokens per second far below the data sheet. Check the start-up "
                       "log for fallback warnings and profile one decode step (l.137, l.283).")},
    {QT_TRANSLATE_NOOP("StackView",
                       "Exposes memory allocation, copies and kernel launch to the operating "
                       "system; the host's kernel-mode driver must match the container's user-"
                       "space runtime within the vendor's compatible range (l.190-192)."),
     QT_TRANSLATE_NOOP("StackView",
                       "A version mismatch between driver and runtime: the device is not found or "
                       "initialisation fails after an upgrade. Upgrade deliberately and keep the "
                       "last known-good image for rollback (l.192).")},
    {QT_TRANSLATE_NOOP("StackView",
                       "The accelerator and its links: memory, matrix units, interconnect (the "
                       "Anatomy view)."),
     QT_TRANSLATE_NOOP("StackView",
                       "Device failure: uncorrectable memory errors, falling off the bus, running "
                       "throttled; detect by health checks and telemetry, drain the replica. A "
                       "lost device takes its whole tensor-parallel group down. Interconnect "
                       "saturation: throughput falls as devices are added (l.285-287).")},
};

} // namespace

StackView::StackView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new StackCanvas(this))
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("stackView"));
    m_text->setOpenLinks(false);
    m_text->setMinimumWidth(260);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_canvas, 2);
    layout->addWidget(m_text, 3);
    connect(m_canvas, &StackCanvas::layerClicked, this, &StackView::selectLayer);
}

QString StackView::layerName(Layer layer)
{
    switch (layer) {
    case Layer::Framework:
        return tr("Framework and serving engine");
    case Layer::Compiler:
        return tr("Graph compiler or runtime");
    case Layer::Kernels:
        return tr("Kernel libraries");
    case Layer::Driver:
        return tr("Driver");
    case Layer::Device:
        return tr("Device and interconnect");
    }
    return {};
}

int StackView::diagnosisOrder(Layer layer)
{
    // l.313: device health and thermals, driver, kernels, interconnect, then the application
    switch (layer) {
    case Layer::Device:
        return 1;
    case Layer::Driver:
        return 2;
    case Layer::Kernels:
        return 3;
    case Layer::Compiler:
        return 4;
    case Layer::Framework:
        return 5;
    }
    return 0;
}

void StackView::selectLayer(Layer layer)
{
    m_selected = layer;
    m_canvas->setSelected(layer);
    refresh();
}

QString StackView::description() const
{
    return m_text->toPlainText();
}

void StackView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const int tp = int(std::max(1.0, s.serving.tensorParallel));
    m_canvas->setTensorParallel(tp);
    const LayerText &text = kLayers[int(m_selected)];
    QString html = tr("<h3>%1</h3><p><b>What it does.</b> %2</p><p><b>How it fails.</b> %3</p>")
                       .arg(layerName(m_selected), tr(text.does), tr(text.fails));
    html += tr("<p><b>Diagnose bottom-up</b> (l.313): this layer is step %1 of 5. Failures at "
               "any layer look alike from the top, an exception or a slow job, so check in "
               "order:</p><ol>")
                .arg(diagnosisOrder(m_selected));
    for (const Layer layer :
         {Layer::Device, Layer::Driver, Layer::Kernels, Layer::Compiler, Layer::Framework}) {
        const QString name = layerName(layer);
        html += layer == m_selected ? QStringLiteral("<li><b>%1</b></li>").arg(name)
                                    : QStringLiteral("<li>%1</li>").arg(name);
    }
    html += QStringLiteral("</ol>");
    if (m_selected == Layer::Device && tp > 1)
        html += tr("<p>The scenario splits the model over <b>%1 devices</b> (tensor parallel): "
                   "losing any one of them stops all %1.</p>")
                    .arg(tp);
    m_text->setHtml(html);
}

QString StackView::csv() const
{
    QStringList lines{QStringLiteral("layer,diagnosis_order")};
    for (int i = 0; i < kLayerCount; ++i)
        lines << QStringLiteral("\"%1\",%2").arg(layerName(Layer(i))).arg(diagnosisOrder(Layer(i)));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

StackCanvas::StackCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(320, 300);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void StackCanvas::setSelected(StackView::Layer layer)
{
    m_selected = layer;
    update();
}

void StackCanvas::setTensorParallel(int devices)
{
    if (devices != m_tensorParallel) {
        m_tensorParallel = devices;
        update();
    }
}

QRectF StackCanvas::layerRect(StackView::Layer layer) const
{
    const double margin = 12;
    const double gap = 8;
    const double height = (this->height() - 2 * margin - gap * 4) / StackView::kLayerCount;
    return QRectF(margin, margin + int(layer) * (height + gap), width() - 2 * margin, height);
}

int StackCanvas::layerAt(QPointF point) const
{
    for (int i = 0; i < StackView::kLayerCount; ++i) {
        if (layerRect(StackView::Layer(i)).contains(point))
            return i;
    }
    return -1;
}

void StackCanvas::mousePressEvent(QMouseEvent *event)
{
    const int layer = layerAt(event->position());
    if (layer >= 0)
        emit layerClicked(StackView::Layer(layer));
}

void StackCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    QFont font = style::annotationFont(1.1);
    font.setBold(true);
    QFont small = style::annotationFont(0.9);
    const QColor colours[] = {style::kPurple, style::kGreen, style::kBlue, style::kOrange,
                              style::grey(110)};
    for (int i = 0; i < StackView::kLayerCount; ++i) {
        const auto layer = StackView::Layer(i);
        const QRectF r = layerRect(layer);
        const bool selected = layer == m_selected;
        QColor fill = colours[i];
        fill.setAlphaF(selected ? 0.45 : 0.2);
        p.setPen(QPen(selected ? style::ink() : colours[i].darker(120), selected ? 3.5 : 1.5));
        p.setBrush(fill);
        p.drawRoundedRect(r, 8, 8);
        p.setPen(style::ink());
        p.setFont(font);
        p.drawText(r.adjusted(12, 0, -12, -r.height() * 0.3), Qt::AlignLeft | Qt::AlignVCenter,
                   StackView::layerName(layer));
        p.setFont(small);
        p.setPen(style::grey(60));
        QString detail =
            i == 0   ? tr("in the container image")
            : i == 1 ? tr("in the container image: fuses, plans memory")
            : i == 2 ? tr("in the container image: one per op, type, shape, device")
            : i == 3 ? tr("on the host: kernel-mode, pinned with the image")
                     : (m_tensorParallel > 1
                            ? tr("%1 devices in one tensor-parallel group").arg(m_tensorParallel)
                            : tr("memory, matrix units, links"));
        p.drawText(r.adjusted(12, r.height() * 0.45, -12, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   detail);
        // the diagnosis order, bottom-up
        p.setFont(font);
        p.setPen(colours[i].darker(150));
        p.drawText(r.adjusted(0, 0, -12, 0), Qt::AlignRight | Qt::AlignVCenter,
                   tr("check %1").arg(StackView::diagnosisOrder(layer)));
    }
}

QWidget *StackView::figureWidget()
{
    return m_canvas;
}

} // namespace views

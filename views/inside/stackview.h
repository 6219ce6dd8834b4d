// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The software stack (`stack`, lesson l.186-192, l.281-289, l.313): framework, graph compiler or
// runtime, kernel libraries, driver and device as a layered diagram. Click a layer: what it does,
// how it fails, and where it comes in the lesson's bottom-up diagnosis order.

#include "views/widgets/view.h"

class QTextBrowser;

namespace views {

class StackCanvas;

class StackView : public View
{
    Q_OBJECT

public:
    enum class Layer { Framework, Compiler, Kernels, Driver, Device };
    static constexpr int kLayerCount = 5;

    explicit StackView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("stack"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("The software stack"); }
    QString csv() const override;

    void selectLayer(Layer layer);
    Layer selectedLayer() const { return m_selected; }
    QString description() const;
    StackCanvas *canvas() const { return m_canvas; }

    static QString layerName(Layer layer);
    /** Position in the lesson's bottom-up diagnosis order (1 = check first). */
    static int diagnosisOrder(Layer layer);

protected:
    void refresh() override;

private:
    StackCanvas *m_canvas;
    QTextBrowser *m_text;
    Layer m_selected = Layer::Kernels;
};

class StackCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit StackCanvas(QWidget *parent = nullptr);
    void setSelected(StackView::Layer layer);
    void setTensorParallel(int devices);
    QRectF layerRect(StackView::Layer layer) const;
    int layerAt(QPointF point) const;
    QSize sizeHint() const override { return {560, 460}; }

signals:
    void layerClicked(StackView::Layer layer);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    StackView::Layer m_selected = StackView::Layer::Kernels;
    int m_tensorParallel = 1;
};

} // namespace views

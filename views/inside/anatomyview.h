// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Accelerator anatomy (`anatomy`, lesson l.15-23): a generic accelerator drawn block by block
// (matrix and vector units, on-chip SRAM, HBM stacks, memory controllers, DMA engines, host
// interface, device links), not a vendor's floor plan. Click a block: beside the drawing, what it
// does, which bottleneck it answers, and the current device's figures for it (or that the preset
// has none).

#include "views/widgets/view.h"

class QTextBrowser;

namespace views {

class AnatomyCanvas;

class AnatomyView : public View
{
    Q_OBJECT

public:
    enum class Block { Matrix, Vector, Sram, Hbm, Controllers, Dma, Host, Links };
    static constexpr int kBlockCount = 8;

    explicit AnatomyView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("anatomy"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("Inside an accelerator"); }
    QString csv() const override;

    void selectBlock(Block block);
    Block selectedBlock() const { return m_selected; }
    /** The description beside the drawing, as plain text. */
    QString description() const;
    AnatomyCanvas *canvas() const { return m_canvas; }

    static QString blockName(Block block);

protected:
    void refresh() override;

private:
    QString describe(Block block) const;

    AnatomyCanvas *m_canvas;
    QTextBrowser *m_text;
    Block m_selected = Block::Hbm;
};

/** The drawing: blocks laid out on a fixed 1000 x 620 design grid scaled to the widget. */
class AnatomyCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit AnatomyCanvas(QWidget *parent = nullptr);

    void setSelected(AnatomyView::Block block);
    void setDeviceName(const QString &name);
    /** The block under a point in widget coordinates, or -1. */
    int blockAt(QPointF point) const;
    /** A block's outline in widget coordinates (for tests and hit testing). */
    QRectF blockRect(AnatomyView::Block block) const;

    QSize sizeHint() const override { return {640, 400}; }

signals:
    void blockClicked(AnatomyView::Block block);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    QTransform toWidget() const;

    AnatomyView::Block m_selected = AnatomyView::Block::Hbm;
    QString m_deviceName;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The memory hierarchy (`hierarchy`, lesson l.25-33): tiers from on-chip SRAM to object storage
// with capacity, bandwidth and latency on log scales (the device's figures where the preset has
// them, typical orders of magnitude hatched and marked); the cold start carrying the scenario's
// weights hop by hop, the slowest hop highlighted; and what a decode step costs when part of it
// spills to host memory across the host link.

#include "views/widgets/view.h"

#include "core/model/units.h"
#include "core/physics/hierarchy.h"

#include <vector>

namespace views {

class HierarchyCanvas;

class HierarchyView : public View
{
    Q_OBJECT

public:
    explicit HierarchyView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("hierarchy"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("The memory hierarchy, cold start and spill"); }
    QString csv() const override;

    HierarchyCanvas *canvas() const { return m_canvas; }

protected:
    void refresh() override;

private:
    HierarchyCanvas *m_canvas;
};

class HierarchyCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit HierarchyCanvas(QWidget *parent = nullptr);

    void setData(std::vector<core::MemoryTier> tiers, core::ColdStart coldStart, core::Spill spill,
                 core::MemoryUnits units);
    const std::vector<core::MemoryTier> &tiers() const { return m_tiers; }
    const core::ColdStart &coldStart() const { return m_coldStart; }
    const core::Spill &spill() const { return m_spill; }
    /** Every text drawn in the last paint, with its bounds (tests check nothing is clipped). */
    const QList<QPair<QString, QRectF>> &drawnTexts() const { return m_drawn; }

    QSize sizeHint() const override { return {900, 620}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void text(QPainter &p, const QRectF &box, const QString &text, int flags);

    std::vector<core::MemoryTier> m_tiers;
    core::ColdStart m_coldStart;
    core::Spill m_spill;
    core::MemoryUnits m_units = core::MemoryUnits::GB;
    double m_restHeight = 0; ///< the cold start and spill, as last drawn (pixels, 1x)
    QList<QPair<QString, QRectF>> m_drawn;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Power (`power`, lesson l.170-178): devices per node, watts per device, host watts and the rack's
// limit give the node's power, how many nodes and devices a rack holds (the lesson's 5 kW and 8
// nodes per 40 kW), and the energy per token with idle power.

#include "views/widgets/view.h"

class QLabel;

namespace views {

class NumberEditor;
class RackCanvas;

class PowerView : public View
{
    Q_OBJECT

public:
    explicit PowerView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("power"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("Power: node, rack and token"); }
    QString csv() const override;

    QString summary() const;

protected:
    void refresh() override;

private:
    QList<NumberEditor *> m_editors;
    QLabel *m_refusal;
    QLabel *m_summary;
    RackCanvas *m_rack;
};

class RackCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit RackCanvas(QWidget *parent = nullptr);
    void setRack(int nodes, int devicesPerNode, const QString &nodeText, const QString &rackText);
    QSize sizeHint() const override { return {420, 520}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int m_nodes = 0;
    int m_devicesPerNode = 0;
    QString m_nodeText;
    QString m_rackText;
};

} // namespace views

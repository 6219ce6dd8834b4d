// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Interconnect (`interconnect`, lesson l.150-170): the ring all-reduce calculator with traffic per
// device and the bandwidth and latency times as a stacked bar, link presets, and the step against
// device count (2 to 64) with speed-up and efficiency across the node boundary.

#include "views/widgets/view.h"

class QChart;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QTextBrowser;
class QValueAxis;

namespace views {

class NumberEditor;
class StackedTimeBar;

class InterconnectView : public View
{
    Q_OBJECT

public:
    explicit InterconnectView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("interconnect"); }
    QString title() const override { return tr("Making devices talk"); }
    QString csv() const override;

    QString summary() const;
    QList<QPointF> efficiencyCurve() const; ///< (devices, efficiency)
    /** Applies a link preset to the intra-node (0) or network (1) link. */
    bool applyLink(int which, const QString &linkId);

protected:
    void refresh() override;

private:
    QList<NumberEditor *> m_editors;
    QComboBox *m_intraLink;
    QComboBox *m_interLink;
    QLabel *m_refusal;
    StackedTimeBar *m_bar;
    QTextBrowser *m_summary;
    QChart *m_chart;
    QLogValueAxis *m_x;
    QValueAxis *m_y;
    QLineSeries *m_speedup;
    QLineSeries *m_efficiency;
    QValueAxis *m_speedupAxis;
    QLineSeries *m_nodeEdge; ///< where the devices leave one node for the network
};

/** Two segments of one horizontal bar: bandwidth time and latency time, labelled. */
class StackedTimeBar : public QWidget
{
    Q_OBJECT

public:
    explicit StackedTimeBar(QWidget *parent = nullptr);
    /** A concealed time is "?" and the bar is not split (a class predicts it). */
    void setTimes(double bandwidthSeconds, double latencySeconds, bool bandwidthConcealed = false,
                  bool latencyConcealed = false);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    double m_bandwidth = 0;
    double m_latency = 0;
    bool m_concealed = false;
    bool m_latencyConcealed = false;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Cost (`cost`, lesson l.179-184): cost per million tokens against utilisation (5 % to 100 %) for
// the current device and up to three others, a hosted API's price as a line with the break-even
// marked, a thermal-throttling derate, and the monthly cost from traffic.

#include "views/widgets/view.h"

#include <memory>

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QTextBrowser;
class QValueAxis;

namespace core {
struct Evaluation;
}

namespace views {

class ChartLabels;

class CostView : public View
{
    Q_OBJECT

public:
    explicit CostView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~CostView() override;

    QString snapshotName() const override { return QStringLiteral("cost"); }
    QString title() const override { return tr("What a token costs"); }
    QString csv() const override;

    /** The current device's curve as drawn: (utilisation %, USD per million tokens). */
    QList<QPointF> currentCurve() const;
    /** The cost axis' range (USD per million tokens), as drawn. */
    QPointF costAxisRange() const;
    /** Picks a comparison device (slot 0-2) by preset id; empty clears it. */
    void setComparison(int slot, const QString &deviceId);
    int comparisonCount() const;
    QString notes() const;

protected:
    void refresh() override;

private:
    /** The wizard's fleet for this same setup where it is larger (its latency check simulated
     *  the peak), as a paragraph of the notes; empty where they agree. */
    QString wizardsFleet(const core::Evaluation &e);

    QChart *m_chart;
    QValueAxis *m_x;
    QLogValueAxis *m_y;
    QList<QLineSeries *> m_curves; ///< the current device, then up to three others
    QLineSeries *m_api;
    QScatterSeries *m_marks;
    std::unique_ptr<ChartLabels> m_labels;
    QList<QComboBox *> m_others;
    QDoubleSpinBox *m_throttle;
    QTextBrowser *m_notes;
    bool m_updating = false;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The KV cache against concurrency (`kv`): device memory in use as sequences are admitted
// (weights and overhead as a floor, the KV cache growing per sequence), the capacity line, the
// first sequence that does not fit ("the 14th request fails"), the guarded admission limit, and
// a second line for 1-byte weights. The context slider moves the slope; a GQA toggle shows what
// one KV head per query head would cost.

#include "views/widgets/view.h"

#include <QPointF>

#include <memory>

class QChart;
class QCheckBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace views {

class ChartLabels;
class FigureLabel;

class KvView : public View
{
    Q_OBJECT

public:
    explicit KvView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~KvView() override;

    QString snapshotName() const override { return QStringLiteral("kv"); }
    QString title() const override { return tr("KV cache against concurrency"); }
    QString csv() const override;

    double firstFailingDrawn() const { return m_firstFailing; }
    double admissionLimitDrawn() const { return m_admission; }
    /** The axis's end (a round number) and the configured sequences' marker. */
    double xAxisMaximum() const;
    QPointF configuredDrawn() const;
    QCheckBox *gqaToggle() const { return m_withoutGqa; }
    QLabel *layerGroupsLabel() const { return m_groups; }

protected:
    void refresh() override;

private:
    QChart *m_chart;
    QValueAxis *m_x;
    QValueAxis *m_y;
    QLineSeries *m_used;
    QLineSeries *m_other;
    QLineSeries *m_floor;
    QLineSeries *m_capacity;
    QLineSeries *m_admissionLine;
    QScatterSeries *m_failing;
    QScatterSeries *m_configured; ///< the scenario's resident sequences on the line
    std::unique_ptr<ChartLabels> m_labels;
    QCheckBox *m_withoutGqa;
    FigureLabel *m_maxSequences;
    FigureLabel *m_maxContext;
    QLabel *m_groups; ///< the KV of each layer group, for models whose layers differ
    double m_firstFailing = 0;
    double m_admission = 0;
    bool m_updating = false;
};

} // namespace views

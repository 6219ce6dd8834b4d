// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Stacked memory bars (`memory`): training state (weights, gradients, master copy, optimiser
// moments, activations as their own segment), serving at the chosen weight format (weights, KV
// cache, runtime context, workspace, fragmentation) and serving at a lower-precision format,
// against the device's capacity with the headroom or shortfall written on it. A recipe editor
// beside the chart changes the training state.

#include "views/widgets/view.h"

#include "core/model/formats.h"

#include <memory>

class QBarCategoryAxis;
class QBarSet;
class QChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineSeries;
class QSpinBox;
class QStackedBarSeries;
class QValueAxis;

namespace views {

class ChartLabels;

class MemoryView : public View
{
    Q_OBJECT

public:
    /** True when the training bar is over 10x the serving bars and runs off the scale. */
    bool trainingOffScale() const { return m_trainingOffScale; }

    explicit MemoryView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~MemoryView() override;

    QString snapshotName() const override { return QStringLiteral("memory"); }
    QString title() const override { return tr("Memory: training and serving"); }
    QString csv() const override;

    /** The bars as drawn: one value per category for a segment ("Weights", "KV cache", ...),
     *  in bytes. For tests. */
    QList<double> segment(const QString &name) const;
    QStringList categories() const;
    double capacityDrawn() const; ///< bytes
    QStringList headroomTexts() const;
    /** Draws the training activations on the training bar (on by default). The lesson's 16 bytes
     *  per parameter leave them out, so its tour step turns them off: one toggle away. */
    void setActivationsShown(bool shown);
    bool activationsShown() const;
    /** A serving decision's figure (reports, slides): the serving bar alone, and the next
     *  smaller format's only when the wizard was asked to try it; no training bar, whose scale
     *  squashed the bars that carry the argument (issue #25). Off in the app, where the lesson
     *  compares training with serving. */
    void setServingOnly(bool servingOnly);

protected:
    void refresh() override;

private:
    struct Bar
    {
        bool training = false;
        bool plan = false; ///< the training plan's device (core::plannedTraining), not the lesson's
        bool planFailed = false; ///< no layout of the plan runs: the note says why
        QString note;            ///< the plan's layout, or why it cannot run
        core::NumericFormat format = core::NumericFormat::Bf16; ///< a serving bar's weights
        QString category;
        QList<QPair<QString, double>> segments; ///< name, bytes
        double total = 0;
    };
    QList<Bar> bars() const;

    QChart *m_chart;
    QStackedBarSeries *m_series;
    QBarCategoryAxis *m_categories;
    QValueAxis *m_hiddenX;
    QValueAxis *m_y;
    QLineSeries *m_capacity;
    QList<QBarSet *> m_sets;
    std::unique_ptr<ChartLabels> m_labels;
    QComboBox *m_recipe;
    QLabel *m_recipeNote;
    QLabel *m_key = nullptr; ///< what each colour is, only what is drawn
    QLabel *m_groups;        ///< the KV of each layer group, for models whose layers differ
    bool m_trainingOffScale = false;
    bool m_servingOnly = false;
    QSpinBox *m_zeroStage;
    QSpinBox *m_dpDegree;
    QSpinBox *m_microBatch;
    QSpinBox *m_sequenceLength;
    QComboBox *m_recompute;
    QCheckBox *m_activations;
    QList<Bar> m_drawn;
    double m_capacityBytes = 0;
    QStringList m_headroomTexts;
    bool m_updating = false;
};

} // namespace views

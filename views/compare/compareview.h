// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two scenarios side by side (`compare`): A is the document's scenario, B is A with a device,
// model or weight format swapped (or a scenario of its own, from a file or --compare). The two
// roofs and operating points, the two memory stacks and the two costs, and a table of the key
// figures with B - A and B / A; rows and inputs that differ are highlighted.

#include "views/widgets/view.h"

#include "core/decide/comparison.h"
#include "core/model/scenario.h"
#include "core/physics/evaluation.h"

#include <memory>
#include <optional>

class QBarSet;
class QChart;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QTableWidget;
class QValueAxis;
class QBarCategoryAxis;
class QHorizontalBarSeries;
class QHorizontalStackedBarSeries;

namespace views {

class TableFitter;

class ChartLabels;

class CompareView : public View
{
    Q_OBJECT

public:
    explicit CompareView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~CompareView() override;

    QString snapshotName() const override { return QStringLiteral("compare"); }
    QString title() const override { return tr("A against B"); }
    QString csv() const override;

    /** B as A with these changes (the default: A with 1-byte weights, the lesson's question). */
    void setVariant(const core::ScenarioVariant &variant);
    /** B as a scenario of its own; nullopt goes back to the variant. */
    void setScenarioB(const std::optional<core::Scenario> &scenario, const QString &label = {});

    const core::Scenario &scenarioB() const { return m_b; }
    const std::vector<core::ComparedFigure> &rows() const { return m_rows; }
    QTableWidget *table() const { return m_table; }

protected:
    void refresh() override;

private:
    void fillChoices();
    void readChoices();

    core::ScenarioVariant m_variant;
    std::optional<core::Scenario> m_ownB;
    QString m_ownBLabel;
    core::Scenario m_b;
    core::Evaluation m_evaluationB;
    std::vector<core::ComparedFigure> m_rows;

    QComboBox *m_device;
    QComboBox *m_model;
    QComboBox *m_weights;
    QLabel *m_differences;

    QChart *m_roofChart;
    QLogValueAxis *m_roofX;
    QLogValueAxis *m_roofY;
    QLineSeries *m_roofA;
    QLineSeries *m_roofB;
    QScatterSeries *m_pointA;
    QScatterSeries *m_pointB;
    std::unique_ptr<ChartLabels> m_roofLabels;

    QChart *m_barsChart;
    QBarCategoryAxis *m_barsY;
    QValueAxis *m_barsX;
    QHorizontalStackedBarSeries *m_memory;
    QBarSet *m_weightsSet;
    QBarSet *m_kvSet;
    QBarSet *m_overheadSet;
    QBarSet *m_fragmentationSet;
    QLineSeries *m_capacityA;
    QLineSeries *m_capacityB;

    QChart *m_costChart;
    QBarCategoryAxis *m_costY;
    QValueAxis *m_costX;
    QBarSet *m_costA;
    QBarSet *m_costB;

    QTableWidget *m_table;
    QLabel *m_barsKey;
    TableFitter *m_tableFit = nullptr;
};

} // namespace views

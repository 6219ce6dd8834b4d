// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// File > Import Measurements: the user's runs (the app's CSV, llama-bench, vllm bench serve) set
// against the speed of light and against a fit of them, run by run with its engine and error;
// what the fit could not determine; and "Apply to Scenario", one undo step. The fit and every
// prediction come from the core (core/calibrate/calibration.h).

#include "core/calibrate/calibration.h"

#include <QDialog>

#include <optional>
#include <vector>

class QChart;
class QLabel;
class QPushButton;
class QScatterSeries;
class QTableWidget;
class QTextBrowser;

namespace views {

class TableFitter;

class ScenarioDocument;

class MeasurementsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit MeasurementsDialog(ScenarioDocument *document, QWidget *parent = nullptr);
    ~MeasurementsDialog() override;

    /** Reads the files and fits them. Runs that name no preset (llama-bench, vLLM) are taken as
     *  the scenario's model and device. False with "FILE: reason" when a file cannot be read
     *  at all; rows that are wrong are listed in the dialog and the rest still used. */
    bool load(const QStringList &paths, QString *error);

    const std::optional<core::CalibrationResult> &result() const { return m_result; }
    const std::vector<core::Measurement> &runs() const { return m_runs; }
    QTableWidget *table() const { return m_table; }
    QPushButton *applyButton() const { return m_apply; }
    /** The problems, notes and fitted figures as shown. */
    QString reportText() const;

private:
    void fill();
    void apply();

    ScenarioDocument *m_document;
    std::vector<core::Measurement> m_runs;
    std::vector<core::MeasurementProblem> m_problems;
    std::optional<core::CalibrationResult> m_result;
    QString m_failure;
    bool m_usedDefaults = false; ///< a file named no preset: the scenario's model and device
    QLabel *m_summary;
    QTableWidget *m_table;
    TableFitter *m_tableFit = nullptr;
    QChart *m_chart;
    QScatterSeries *m_light;
    QScatterSeries *m_fitted;
    QTextBrowser *m_report;
    QPushButton *m_apply;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An editor for one scenario number, generated from the core's parameter metadata (name, unit,
// range, help): edits go to the document as undoable commands; a refused value shows the core's
// reason and the editor returns to the value in force.

#include <QDoubleSpinBox>

class QLabel;
class QSpinBox;

namespace core {
struct Scenario;
struct ParameterInfo;
} // namespace core

namespace views {

class ScenarioDocument;

/** Gives an editor of one scenario number the parameter's whole range and enough decimals to
 *  show its smallest value, so it can show any value the scenario file may hold (a throttle of
 *  0.05 showed as 0.05 whatever the file held below it). Names it by the parameter's path and
 *  records `displayScale` (100: shown in %) as its "displayScale" property. */
void fitParameterEditor(QDoubleSpinBox *editor, const core::ParameterInfo &info,
                        double displayScale = 1.0);
void fitParameterEditor(QSpinBox *editor, const core::ParameterInfo &info);
/** Shows `value` (in display units) and remembers what the editor then shows. */
void showParameterValue(QDoubleSpinBox *editor, double value);
/** Whether the user changed the editor from what showParameterValue showed: leaving it
 *  untouched is no edit, even where the shown value is the held one rounded. */
bool changedFromShown(const QDoubleSpinBox *editor);

class NumberEditor : public QDoubleSpinBox
{
    Q_OBJECT

public:
    /** `refusal` (may be null) shows why a value was refused. `displayScale` 100 shows %. */
    NumberEditor(ScenarioDocument *document, const QString &path, QLabel *refusal,
                 QWidget *parent = nullptr, double displayScale = 1.0);

    QString path() const { return m_path; }
    /** The parameter's short name, for form labels. */
    QString label() const;
    /** Shows the scenario's value (no edit is made). */
    void sync(const core::Scenario &scenario);

protected:
    /** Without trailing zeros ("60 days", not "60.000 days"); money keeps its cents. */
    QString textFromValue(double value) const override;

private:
    ScenarioDocument *m_document;
    QString m_path;
    QLabel *m_refusal;
    double m_scale;
    bool m_syncing = false;
    bool m_money = false;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An editor for one scenario number, generated from the core's parameter metadata (name, unit,
// range, help): edits go to the document as undoable commands; a refused value shows the core's
// reason and the editor returns to the value in force.

#include <QDoubleSpinBox>

class QLabel;

namespace core {
struct Scenario;
}

namespace views {

class ScenarioDocument;

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

private:
    ScenarioDocument *m_document;
    QString m_path;
    QLabel *m_refusal;
    double m_scale;
    bool m_syncing = false;
};

} // namespace views

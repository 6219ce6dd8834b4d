// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every number and word the scenario holds, one editor each, grouped by section and found by typing
// (issue #42 item 9: the load, engine and sensitivity inputs could only be set in JSON). The
// editors come from the core's parameter table, so a new input gets its editor here by itself.

#include <QHash>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace views {

class NumberEditor;
class ScenarioDocument;

class AllInputsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit AllInputsPanel(ScenarioDocument *document, QWidget *parent = nullptr);

    /** The editor of a dotted input path ("load.burstiness"), or nullptr. */
    NumberEditor *editor(const QString &path) const;
    /** The picker of a word input ("load.arrivals", core::choiceTable), or nullptr. */
    QComboBox *choice(const QString &path) const;
    /** Shows only the inputs whose name, path or help holds `text` (empty: all). */
    void setFilter(const QString &text);
    /** Brings an input into view and gives it the focus (the views' "Set ..." links); with no
     *  such input, the focus goes to the find field. */
    void focusInput(const QString &path);
    /** The reason the last refused value was refused (empty when none). */
    QString lastRefusal() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();

    ScenarioDocument *m_document;
    QLineEdit *m_filter;
    QLabel *m_refusal;
    QHash<QString, NumberEditor *> m_editors;
    QHash<QString, QComboBox *> m_choices;
    QHash<QString, QWidget *> m_rows;     ///< the label beside each editor
    QHash<QString, QWidget *> m_sections; ///< each section's heading
};

} // namespace views

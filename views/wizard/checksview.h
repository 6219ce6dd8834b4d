// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The device-selection checks (`checks`): candidate devices x the lesson's six checks (l.208-234),
// each cell a pass / warn / fail / n/a with its key figure; a cell opens its reasoning below the
// table. Sortable by any column, the monthly cost included. Linked to the scenario's `wizard`,
// `cost` and `traffic` sections.

#include "views/widgets/view.h"

#include <QFont>
#include <QStringList>

#include <vector>

class QTableWidget;
class QTableWidgetItem;
class QTextBrowser;

namespace core {
struct Selection;
}

namespace views {

class SteadyLabel;
class TableFitter;

class ChecksView : public View
{
    Q_OBJECT

public:
    explicit ChecksView(ScenarioDocument *document, QWidget *parent = nullptr);
    ~ChecksView() override;

    QString snapshotName() const override { return QStringLiteral("checks"); }
    QString title() const override { return tr("Device-selection checks"); }
    QString csv() const override;

    /** What the table shows (for tests and the report). */
    const core::Selection &selection() const;
    QTableWidget *table() const { return m_table; }
    /** The reasoning panel's text (plain). */
    QString reasoning() const;
    /** The checks as an HTML table (device, weights, fleet, month, each check's headline on its
     *  status colour, verdict): what reports and slides print instead of the widget with its
     *  scroll bars (issue #25). `bestPerDevice`: one row per device (its best format, the
     *  recommended option first) and a line counting the others. */
    static QString tableHtml(const core::Selection &selection, bool bestPerDevice = false);
    QString figureHtml() override;
    /** Shows the reasoning of one candidate's check (row in the selection's order). */
    void showReasoning(int candidate, int check);

    static constexpr int kOptionColumn = 0;     ///< the device and its weights' format
    static constexpr int kVerdictColumn = 1;    ///< "passes", "2 warnings", "fails"
    static constexpr int kFleetColumn = 2;      ///< "16 = 2 x TP 8", sorted by the device count
    static constexpr int kCostColumn = 3;       ///< the fleet's month
    static constexpr int kFirstCheckColumn = 4; ///< after option, verdict, fleet, cost

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void refresh() override;

private:
    SteadyLabel *m_heading;
    QTableWidget *m_table;
    TableFitter *m_fit = nullptr;
    QTextBrowser *m_reasoning;
    QString m_shownReasoning;
    /** Where a row's first item keeps its candidate (its index in the selection). */
    static constexpr int kCandidateRole = Qt::UserRole + 1;
    /** Per candidate (the selection's order): its row's items, wherever sorting put them. */
    std::vector<std::vector<QTableWidgetItem *>> m_items;
    /// per candidate: the cells changed since its row was last measured; a row is measured
    /// when it is in view (a drag changes most rows' texts, a few of them are shown)
    std::vector<QList<int>> m_unmeasured;
    bool m_refreshing = false;
    void measureRowsInView();
    QStringList m_candidateKeys; ///< the options the rows were measured for
    QFont m_measuredFont;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Tables that show their cells whole: columns as wide as their text where the table has room,
// the widest wrapping at word boundaries where it has not, rows as tall as their wrapped text,
// and (for a short table) a minimum height that shows every row. Qt's own column sizing either
// cuts a cell ("Compatibil...") or scrolls sideways, and a table's default 30-pixel rows hid the
// last format row of a five-row table at 1280x800 (issue #42, item 10).

#include <QFont>
#include <QHash>
#include <QList>
#include <QObject>
#include <QStyledItemDelegate>

#include <vector>

class QTableWidget;
class QWidget;
class QTextDocument;

namespace views {

/** The column widths that fit `available` pixels: each column's natural width (its widest line,
 *  or its header) where they all fit, else the widest columns capped at one width, never under
 *  a column's minimum (its longest word, or its header), so long text wraps and short numbers
 *  stay on one line. The minimums when even they do not fit. Pure arithmetic. */
std::vector<int> fittedColumnWidths(const std::vector<int> &natural,
                                    const std::vector<int> &minimum, int available);

/** The narrowest width from `minimum` to `maximum` at which `document` is at most `height`
 *  pixels tall (`maximum` when no width is): a side note as wide as it must be to show whole. */
int widthShowingWhole(const QTextDocument &document, int height, int minimum, int maximum);

/** `text` with a no-break space wherever a wrap would part a number from its unit ("16.92 s",
 *  "24 GB", "$1.63 per M") or a count from its name ("TP 8", "2 x"). */
QString keepNumbersWithUnits(const QString &text);

/** Draws each cell with its numbers kept beside their units where its column is wide enough
 *  for them; the cell's own text is unchanged (copies, tooltips and tests read it as it is). */
class UnitKeepingDelegate : public QStyledItemDelegate
{
public:
    explicit UnitKeepingDelegate(QObject *parent);
    /** The room for text in each column (indexed by column): a number and its unit that fit
     *  it are drawn together. */
    void setTextWidths(const QList<int> &widths)
    {
        m_textWidths = widths;
        m_drawn.clear();
    }
    /** The text drawn in `index`'s cell. */
    QString drawnText(const QModelIndex &index) const;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    QString measuredText(const QString &text, int column, const QFont &font) const;

    QList<int> m_textWidths;
    /// drawnText's answers by column, font weight and text: each cell is measured for every
    /// paint and size hint, and a drag repaints the same texts (issue #46: a third of the
    /// Wizard tab's first steps); forgotten when the widths or the font change
    mutable QHash<QString, QString> m_drawn;
    mutable QFont m_drawnFont;
};

class TableFitter : public QObject
{
    Q_OBJECT

public:
    enum class Rows {
        AllShown, // a short table: its minimum height shows every row
        Scroll    // a list of options: as many rows as the layout gives it, the rest scroll
    };

    /** Keeps `table` fitted: columns refit when it is resized. Owned by the table. */
    TableFitter(QTableWidget *table, Rows rows);

    /** Measures the cells again (after a refill) and fits columns and rows. */
    void refit();
    /** Columns that give way, last first, before any other column has to wrap (the view says
     *  their values elsewhere, e.g. in the row's tooltip). */
    void setOptionalColumns(const QList<int> &columns) { m_optional = columns; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fitColumns();

    QTableWidget *m_table;
    UnitKeepingDelegate *m_delegate; ///< draws numbers beside their units where room allows
    QWidget *m_viewport = nullptr;   ///< the table's, kept: asking for it during teardown is UB
    Rows m_rows;
    std::vector<int> m_natural;
    std::vector<int> m_minimum;
    std::vector<int> m_unitsKept; ///< the minimum with each number kept beside its unit
    QList<int> m_optional;
    int m_fittedWidth = -1;
    bool m_fitting = false;
};

} // namespace views

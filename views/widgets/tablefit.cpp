// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/widgets/tablefit.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTextDocument>

#include <algorithm>
#include <memory>
#include <numeric>

namespace views {

std::vector<int> fittedColumnWidths(const std::vector<int> &natural,
                                    const std::vector<int> &minimum, int available)
{
    const long long naturalSum = std::accumulate(natural.begin(), natural.end(), 0LL);
    if (naturalSum <= available)
        return natural;
    const long long minimumSum = std::accumulate(minimum.begin(), minimum.end(), 0LL);
    if (minimumSum >= available)
        return minimum;
    // The widest columns wrap first: every column is capped at one width (never under its
    // minimum), the largest cap that fits, so a long note wraps before a short number does.
    auto total = [&](int cap) {
        long long sum = 0;
        for (std::size_t c = 0; c < natural.size(); ++c)
            sum += std::max(minimum[c], std::min(natural[c], cap));
        return sum;
    };
    int low = 0;
    int high = *std::max_element(natural.begin(), natural.end());
    while (low < high) { // the largest cap whose total fits
        const int cap = (low + high + 1) / 2;
        if (total(cap) <= available)
            low = cap;
        else
            high = cap - 1;
    }
    std::vector<int> widths(natural.size());
    for (std::size_t c = 0; c < natural.size(); ++c)
        widths[c] = std::max(minimum[c], std::min(natural[c], low));
    return widths;
}

int widthShowingWhole(const QTextDocument &document, int height, int minimum, int maximum)
{
    std::unique_ptr<QTextDocument> trial(document.clone());
    auto fits = [&](int width) {
        trial->setTextWidth(width);
        return trial->size().height() <= height;
    };
    if (maximum <= minimum || !fits(maximum))
        return std::max(minimum, maximum);
    int low = minimum; // the narrowest that fits lies in (low, high]
    int high = maximum;
    if (fits(low))
        return low;
    while (high - low > 4) {
        const int middle = (low + high) / 2;
        (fits(middle) ? high : low) = middle;
    }
    return high;
}

QString keepNumbersWithUnits(const QString &text)
{
    static const QRegularExpression afterNumber(QStringLiteral("(?<=[0-9%]) (?!per\\b)(?=[^ ])"));
    static const QRegularExpression beforeCount(QStringLiteral("(?<=\\bTP|\\bx|=) (?=[0-9])"));
    QString kept = text;
    kept.replace(afterNumber, QString(QChar::Nbsp));
    kept.replace(beforeCount, QString(QChar::Nbsp));
    return kept;
}

UnitKeepingDelegate::UnitKeepingDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{}

QString UnitKeepingDelegate::drawnText(const QModelIndex &index) const
{
    // as Qt draws it: its line breaks are line separators
    QString text = displayText(index.data(), QLocale());
    const int column = index.column();
    if (column < 0 || column >= m_textWidths.size())
        return text;
    const QVariant font = index.data(Qt::FontRole);
    const auto *view = qobject_cast<const QWidget *>(parent());
    const QFont viewFont = view ? view->font() : QFont();
    if (viewFont != m_drawnFont) {
        m_drawn.clear();
        m_drawnFont = viewFont;
    }
    const QFont cellFont = font.isValid() ? font.value<QFont>() : viewFont;
    // the cell's own font is the view's or the view's in bold (a chosen row)
    QString key =
        QString::number(column) + (cellFont.bold() ? QLatin1Char('b') : QLatin1Char('r')) +
        (font.isValid() && cellFont != viewFont && !cellFont.bold() ? cellFont.key() : QString()) +
        QLatin1Char('\x1f') + text;
    if (const auto known = m_drawn.constFind(key); known != m_drawn.constEnd())
        return *known;
    QString drawn = measuredText(text, column, cellFont);
    if (m_drawn.size() > 8192) // a bound, far above a table's distinct texts
        m_drawn.clear();
    m_drawn.insert(key, drawn);
    return drawn;
}

QString UnitKeepingDelegate::measuredText(const QString &text, int column, const QFont &font) const
{
    const QString kept = keepNumbersWithUnits(text);
    if (kept == text)
        return text;
    // a number with its unit wider than the column is left free to wrap: better parted than cut
    const QFontMetrics metrics(font);
    QStringList lines = kept.split(QChar::LineSeparator);
    for (QString &line : lines) {
        QStringList words = line.split(QLatin1Char(' '));
        for (QString &word : words)
            if (word.contains(QChar::Nbsp) &&
                metrics.horizontalAdvance(word) > m_textWidths[column])
                word.replace(QChar::Nbsp, QLatin1Char(' '));
        line = words.join(QLatin1Char(' '));
    }
    return lines.join(QChar::LineSeparator);
}

void UnitKeepingDelegate::initStyleOption(QStyleOptionViewItem *option,
                                          const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (option->features & QStyleOptionViewItem::HasDisplay)
        option->text = drawnText(index);
}

TableFitter::TableFitter(QTableWidget *table, Rows rows)
    : QObject(table)
    , m_table(table)
    , m_delegate(new UnitKeepingDelegate(table))
    , m_rows(rows)
{
    table->setItemDelegate(m_delegate);
    table->setWordWrap(true);
    table->setTextElideMode(Qt::ElideNone);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // a list's scroll bar comes and goes with its rows: a stretched last column would narrow
    // under it and wrap text its row was not measured for
    table->horizontalHeader()->setStretchLastSection(rows == Rows::AllShown);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // a list of options may scroll its rows (the fit test reads this); a short table may not
    table->setProperty("accelRowsScroll", rows == Rows::Scroll);
    table->installEventFilter(this);
    m_viewport = table->viewport();
    m_viewport->installEventFilter(this);
}

void TableFitter::refit()
{
    const int columns = m_table->columnCount();
    m_natural.assign(std::size_t(columns), 0);
    m_minimum.assign(std::size_t(columns), 0);
    m_unitsKept.assign(std::size_t(columns), 0);
    // the delegate's text margins, the grid line, and a few pixels because its text layout
    // measures a line a little wider than QFontMetrics does (a bold "Time to first token
    // (floor)" wrapped in a column measured for it)
    const int pad =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 6;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    // where there is room a number keeps its unit: "104.9 tok/s" does not wrap between the two
    static const QRegularExpression breakableSpace(QStringLiteral("[ \\t]+"));
    QHeaderView *header = m_table->horizontalHeader();
    for (int c = 0; c < columns; ++c) {
        const int headerWidth = header->isHidden() ? 0 : header->sectionSizeHint(c);
        int natural = headerWidth;
        int minimum = headerWidth;
        int unitsKept = headerWidth;
        for (int r = 0; r < m_table->rowCount(); ++r) {
            const QTableWidgetItem *item = m_table->item(r, c);
            if (!item || item->text().isEmpty())
                continue;
            const QVariant font = item->data(Qt::FontRole);
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : m_table->font());
            for (const QString &line : item->text().split(QLatin1Char('\n'))) {
                natural = std::max(natural, metrics.horizontalAdvance(line) + pad);
                for (const QString &word : line.split(space, Qt::SkipEmptyParts))
                    minimum = std::max(minimum, metrics.horizontalAdvance(word) + pad);
                for (const QString &word :
                     keepNumbersWithUnits(line).split(breakableSpace, Qt::SkipEmptyParts))
                    unitsKept = std::max(unitsKept, metrics.horizontalAdvance(word) + pad);
            }
        }
        m_natural[std::size_t(c)] = natural;
        m_minimum[std::size_t(c)] = minimum;
        m_unitsKept[std::size_t(c)] = unitsKept;
    }
    m_fittedWidth = -1;
    fitColumns();
}

void TableFitter::fitColumns()
{
    if (m_fitting || m_natural.size() != std::size_t(m_table->columnCount()))
        return;
    // a list's rows scroll: room for its vertical scroll bar, shown or not, so the columns do
    // not jump when it comes and goes
    const int available =
        m_table->maximumViewportSize().width() - 2 -
        (m_rows == Rows::Scroll ? m_table->verticalScrollBar()->sizeHint().width() : 0);
    if (available == m_fittedWidth)
        return;
    m_fitting = true;
    m_fittedWidth = available;
    // the optional columns give way, last first, before any other column has to wrap
    std::vector<bool> shown(m_natural.size(), true);
    auto naturalSum = [&] {
        int sum = 0;
        for (std::size_t c = 0; c < shown.size(); ++c)
            sum += shown[c] ? m_natural[c] : 0;
        return sum;
    };
    for (auto it = m_optional.crbegin(); it != m_optional.crend() && naturalSum() > available; ++it)
        if (*it >= 0 && std::size_t(*it) < shown.size())
            shown[std::size_t(*it)] = false;
    std::vector<int> natural;
    std::vector<int> minimum;
    std::vector<int> unitsKept;
    for (std::size_t c = 0; c < shown.size(); ++c)
        if (shown[c]) {
            natural.push_back(m_natural[c]);
            minimum.push_back(m_minimum[c]);
            unitsKept.push_back(m_unitsKept[c]);
        }
    // every column keeps its numbers beside their units where the room allows; where it does
    // not, the columns that need the fewest extra pixels for that still do
    {
        std::vector<std::size_t> order(minimum.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return unitsKept[a] - minimum[a] < unitsKept[b] - minimum[b];
        });
        long long sum = std::accumulate(minimum.begin(), minimum.end(), 0LL);
        for (const std::size_t c : order) {
            const int extra = std::max(0, unitsKept[c] - minimum[c]);
            if (sum + extra > available)
                break;
            sum += extra;
            minimum[c] = std::max(minimum[c], unitsKept[c]);
        }
    }
    const std::vector<int> widths = fittedColumnWidths(natural, minimum, available);
    // each number drawn beside its unit where its column has the room (greedy wrapping left
    // "s" of "16.92 s" alone on a line)
    const int margins =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1);
    QList<int> textWidths(int(shown.size()), 0);
    std::size_t next = 0;
    for (int c = 0; c < int(shown.size()); ++c) {
        m_table->setColumnHidden(c, !shown[std::size_t(c)]);
        if (!shown[std::size_t(c)])
            continue;
        textWidths[c] = widths[next] - margins;
        m_table->setColumnWidth(c, widths[next++]);
    }
    m_delegate->setTextWidths(textWidths);
    m_table->resizeRowsToContents();
    if (m_rows == Rows::AllShown) {
        int height =
            2 * m_table->frameWidth() + (m_table->horizontalHeader()->isHidden()
                                             ? 0
                                             : m_table->horizontalHeader()->sizeHint().height());
        for (int r = 0; r < m_table->rowCount(); ++r)
            height += m_table->rowHeight(r);
        m_table->setMinimumHeight(height);
    }
    m_fitting = false;
}

bool TableFitter::eventFilter(QObject *watched, QEvent *event)
{
    // pointers compared, nothing called: events still arrive while the table is torn down
    if (watched == m_viewport) {
        if (event->type() == QEvent::Resize)
            fitColumns();
        return false;
    }
    if (watched != m_table)
        return false;
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Show:
        fitColumns();
        break;
    case QEvent::FontChange: // presenter size: every width measured again
    case QEvent::StyleChange:
        if (!m_natural.empty())
            refit();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace views

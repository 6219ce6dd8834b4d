// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a user sees cut short or hidden behind a scroll bar in a view (issue #42): elided chart
// texts, cut headers, cells and labels, a view laid out smaller than it needs, scroll bars
// (lists and documents that say so, with the property accelRowsScroll, may scroll their rows).

#include <QAbstractScrollArea>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabBar>
#include <QTableView>
#include <QTextEdit>
#include <QTextLayout>
#include <QToolButton>

#include "views/widgets/tablefit.h"

namespace viewfit {

inline QString describe(const QWidget *w)
{
    return w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className())
                                     : w->objectName();
}

inline bool elided(const QString &text)
{
    return text.endsWith(QStringLiteral("...")) || text.endsWith(QChar(0x2026));
}

// Chart texts Qt Charts cut short ("Training 16 B/p...", an axis title, a legend entry).
inline QStringList elidedChartTexts(QWidget &root)
{
    QStringList cut;
    for (QChartView *chart : root.findChildren<QChartView *>()) {
        if (!chart->isVisible())
            continue;
        for (QGraphicsItem *item : chart->scene()->items()) {
            QString text;
            if (auto *t = dynamic_cast<QGraphicsTextItem *>(item))
                text = t->toPlainText();
            else if (auto *t = dynamic_cast<QGraphicsSimpleTextItem *>(item))
                text = t->text();
            if (item->isVisible() && elided(text))
                cut << text;
        }
    }
    return cut;
}

// Chart labels (views::ChartLabels, z 20) that run past the plot's left or right edge: a
// label wider than a narrow chart at a projector's type ran off it, clamped at its left
// ("projections, MLP, head (8): 7.98 FLOP/" on the Operators view at 1366x768, issue #43).
inline QStringList offPlotLabels(QWidget &root)
{
    QStringList off;
    for (QChartView *view : root.findChildren<QChartView *>()) {
        if (!view->isVisible() || !view->chart())
            continue;
        const QRectF plot = view->chart()->mapRectToScene(view->chart()->plotArea());
        for (QGraphicsItem *item : view->scene()->items()) {
            auto *label = dynamic_cast<QGraphicsSimpleTextItem *>(item);
            if (!label || !label->isVisible() || label->zValue() != 20 || label->text().isEmpty())
                continue;
            const QRectF box = label->sceneBoundingRect();
            if (box.left() < plot.left() - 2 || box.right() > plot.right() + 2)
                off << QStringLiteral("%1 (%2 px past the plot)")
                           .arg(label->text().simplified().left(40))
                           .arg(std::max(plot.left() - box.left(), box.right() - plot.right()), 0,
                                'f', 0);
        }
    }
    return off;
}

// A number parted from its unit where `text` wraps at `width` ("waits 16.92" over "s", "2 x TP"
// over "8" in the wizard's checks table): the first such break, or empty.
inline QString numberPartedFromUnit(const QString &text, const QFont &font, int width)
{
    static const QRegularExpression endsInNumber(QStringLiteral("[0-9]$"));
    static const QRegularExpression startsWithUnit(QStringLiteral(
        "^(%|s|ms|\\x{00b5}s|us|ns|[KMGT]i?B|B|W|kW|h|x|tokens?|tok/s|[GT]?FLOP(/[sB])?|[GT]B/s|"
        "devices?|replicas?|sequences?|warnings?|USD)\\b"));
    static const QRegularExpression endsBeforeNumber(QStringLiteral("\\b(TP|x|=)$"));
    static const QRegularExpression startsWithNumber(QStringLiteral("^[0-9]"));
    static const QRegularExpression lineBreak(QStringLiteral("[\\n\\x{2028}]"));
    for (const QString &paragraph : text.split(lineBreak)) {
        QTextLayout layout(paragraph, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WordWrap);
        layout.setTextOption(option);
        layout.beginLayout();
        QStringList lines;
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            lines << paragraph.mid(line.textStart(), line.textLength()).trimmed();
        }
        layout.endLayout();
        for (qsizetype i = 1; i < lines.size(); ++i)
            if ((endsInNumber.match(lines[i - 1]).hasMatch() &&
                 startsWithUnit.match(lines[i]).hasMatch()) ||
                (endsBeforeNumber.match(lines[i - 1]).hasMatch() &&
                 startsWithNumber.match(lines[i]).hasMatch()))
                return lines[i - 1] + QStringLiteral(" | ") + lines[i];
    }
    return {};
}

// What a user sees cut short or hidden behind a scroll bar in one view.
inline QStringList fitProblems(QWidget &view)
{
    QStringList problems;
    // a view laid out smaller than it needs draws its parts over each other
    if (const QSize needed = view.minimumSizeHint();
        needed.width() > view.width() || needed.height() > view.height())
        problems << QStringLiteral("needs %1x%2, has %3x%4")
                        .arg(needed.width())
                        .arg(needed.height())
                        .arg(view.width())
                        .arg(view.height());
    for (const QString &text : elidedChartTexts(view))
        problems << QStringLiteral("chart text \"%1\"").arg(text);
    for (const QString &text : offPlotLabels(view))
        problems << QStringLiteral("chart label off the plot: %1").arg(text);
    for (QScrollBar *bar : view.findChildren<QScrollBar *>()) {
        // a list of options (the wizard's candidates) says so; its rows may scroll
        const QWidget *area = bar->parentWidget() ? bar->parentWidget()->parentWidget() : nullptr;
        if (bar->orientation() == Qt::Vertical && area &&
            area->property("accelRowsScroll").toBool())
            continue;
        if (bar->isVisible() && bar->maximum() > bar->minimum())
            problems << QStringLiteral("%1 scroll bar in %2 (%3 px more)")
                            .arg(bar->orientation() == Qt::Vertical ? QStringLiteral("vertical")
                                                                    : QStringLiteral("horizontal"))
                            .arg(describe(bar->parentWidget() ? bar->parentWidget()->parentWidget()
                                                              : bar))
                            .arg(bar->maximum() - bar->minimum());
    }
    // a text with its scroll bar switched off must show whole: its document within its viewport
    for (QTextEdit *text : view.findChildren<QTextEdit *>())
        if (text->isVisible() && text->verticalScrollBarPolicy() == Qt::ScrollBarAlwaysOff &&
            text->document()->size().height() > text->viewport()->height() + 1)
            problems << QStringLiteral("text cut in %1 (%2 px of %3)")
                            .arg(describe(text))
                            .arg(text->viewport()->height())
                            .arg(text->document()->size().height());
    for (QTableView *table : view.findChildren<QTableView *>()) {
        if (!table->isVisible() || !table->model())
            continue;
        const QHeaderView *header = table->horizontalHeader();
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            if (table->isColumnHidden(c))
                continue;
            const int width = table->columnWidth(c);
            const QString title =
                table->model()->headerData(c, Qt::Horizontal).toString().simplified();
            if (header->isVisible() && header->sectionSizeHint(c) > width + 1)
                problems << QStringLiteral("header \"%1\" cut (%2 px of %3)")
                                .arg(title)
                                .arg(width)
                                .arg(header->sectionSizeHint(c));
            if (table->wordWrap())
                continue; // measured row by row below
            if (static_cast<QAbstractItemView *>(table)->sizeHintForColumn(c) > width + 1)
                problems << QStringLiteral("column \"%1\" cut (%2 px of %3)")
                                .arg(title)
                                .arg(width)
                                .arg(static_cast<QAbstractItemView *>(table)->sizeHintForColumn(c));
        }
        // wrapped text: a row shorter than its wrapped cells, or a word wider than its column
        if (!table->wordWrap())
            continue;
        const int rowsToCheck = std::min(table->model()->rowCount(), 60);
        for (int r = 0; r < rowsToCheck; ++r) {
            const int wanted = static_cast<QAbstractItemView *>(table)->sizeHintForRow(r);
            if (wanted > table->rowHeight(r) + 1)
                problems << QStringLiteral("row %1 (%2) cut (%3 px high of %4)")
                                .arg(r)
                                .arg(table->model()->index(r, 0).data().toString().left(30))
                                .arg(table->rowHeight(r))
                                .arg(wanted);
            for (int c = 0; c < table->model()->columnCount(); ++c) {
                if (table->isColumnHidden(c))
                    continue;
                const QModelIndex index = table->model()->index(r, c);
                const QVariant font = index.data(Qt::FontRole);
                const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : table->font());
                // the delegate's text margins: the style's focus frame margin and a pixel, each
                // side
                const int textWidth =
                    table->columnWidth(c) -
                    2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) +
                         1);
                // the text as drawn (a delegate may keep a number beside its unit)
                const auto *delegate = dynamic_cast<const views::UnitKeepingDelegate *>(
                    table->itemDelegateForIndex(index));
                const QString drawn =
                    delegate ? delegate->drawnText(index) : index.data().toString();
                if (const QString parted = numberPartedFromUnit(
                        drawn, font.isValid() ? font.value<QFont>() : table->font(), textWidth);
                    !parted.isEmpty())
                    problems << QStringLiteral("a number parted from its unit in column %1: %2")
                                    .arg(c)
                                    .arg(parted);
                for (const QString &word : index.data().toString().split(
                         QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
                    if (metrics.horizontalAdvance(word) + 4 > table->columnWidth(c))
                        problems << QStringLiteral("\"%1\" broken in column %2 (%3 px of %4)")
                                        .arg(word)
                                        .arg(c)
                                        .arg(table->columnWidth(c))
                                        .arg(metrics.horizontalAdvance(word) + 4);
            }
        }
    }
    for (QLabel *label : view.findChildren<QLabel *>()) {
        if (!label->isVisible() || label->text().isEmpty() || label->pixmap().isNull() == false)
            continue;
        const QString text = label->text().left(40);
        if (elided(label->text()))
            problems << QStringLiteral("label \"%1\" elided").arg(text);
        else if (label->wordWrap()) {
            if (label->heightForWidth(label->width()) > label->height() + 1)
                problems << QStringLiteral("label \"%1\" cut (%2 px high of %3)")
                                .arg(text)
                                .arg(label->height())
                                .arg(label->heightForWidth(label->width()));
        } else if (label->sizeHint().width() > label->width() + 1) {
            problems << QStringLiteral("label \"%1\" cut (%2 px wide of %3)")
                            .arg(text)
                            .arg(label->width())
                            .arg(label->sizeHint().width());
        }
    }
    return problems;
}

inline QStringList tabBarProblems(QWidget &window)
{
    QStringList problems;
    for (QTabBar *bar : window.findChildren<QTabBar *>()) {
        if (!bar->isVisible())
            continue;
        for (QToolButton *scroll : bar->findChildren<QToolButton *>())
            if (scroll->isVisible()) {
                problems << QStringLiteral("tab bar with %1 tabs scrolls").arg(bar->count());
                break;
            }
        for (int i = 0; i < bar->count(); ++i)
            if (elided(bar->tabText(i)))
                problems << QStringLiteral("tab \"%1\" elided").arg(bar->tabText(i));
    }
    return problems;
}

} // namespace viewfit

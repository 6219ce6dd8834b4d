// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/export/pageflow.h"

#include <QAbstractTextDocumentLayout>
#include <QMap>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextTable>

#include <algorithm>
#include <utility>

namespace views {

namespace {

/** A piece a page edge may not cut: a line, a table row, a heading with its next piece. */
struct Piece
{
    double top;
    double bottom;
};

QList<Piece> piecesOf(const QTextDocument &document)
{
    QList<Piece> pieces;
    QMap<std::pair<const QTextTable *, int>, qsizetype> rowPiece; // a table row: one piece
    bool headingBefore = false;
    const QAbstractTextDocumentLayout *layout = document.documentLayout();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        const QTextLayout *lines = block.layout();
        if (!lines || !block.isVisible())
            continue;
        const QRectF box = layout->blockBoundingRect(block);
        const QTextCursor at(block);
        if (const QTextTable *table = at.currentTable()) {
            const int row = table->cellAt(at).row();
            const auto key = std::make_pair(table, row);
            if (const auto it = rowPiece.constFind(key); it != rowPiece.constEnd()) {
                Piece &piece = pieces[*it];
                piece.top = std::min(piece.top, box.top());
                piece.bottom = std::max(piece.bottom, box.bottom());
            } else {
                if (headingBefore && !pieces.isEmpty()) // a heading keeps its table's first row
                    pieces.last().bottom = std::max(pieces.last().bottom, box.bottom());
                rowPiece.insert(key, pieces.size());
                pieces.append({box.top(), box.bottom()});
            }
            headingBefore = false;
            continue;
        }
        for (int i = 0; i < lines->lineCount(); ++i) {
            const QRectF line = lines->lineAt(i).rect().translated(box.topLeft());
            if (headingBefore && !pieces.isEmpty()) // a heading keeps its next line
                pieces.last().bottom = std::max(pieces.last().bottom, line.bottom());
            headingBefore = false;
            pieces.append({line.top(), line.bottom()});
        }
        headingBefore = block.blockFormat().headingLevel() > 0 && lines->lineCount() > 0;
    }
    std::sort(pieces.begin(), pieces.end(),
              [](const Piece &a, const Piece &b) { return a.top < b.top; });
    return pieces;
}

} // namespace

QList<double> pageStarts(const QTextDocument &document, double pageHeight)
{
    QList<double> starts{0.0};
    if (!(pageHeight > 0))
        return starts;
    const QList<Piece> pieces = piecesOf(document);
    const double end = document.size().height();
    double top = 0.0;
    while (top + pageHeight < end) {
        const double edge = top + pageHeight;
        double cut = edge;
        // the page ends above the first piece the edge would cut (never at the page's own top)
        for (const Piece &piece : pieces)
            if (piece.top > top + 0.5 && piece.top < edge && piece.bottom > edge)
                cut = std::min(cut, piece.top);
        starts.append(cut);
        top = cut;
    }
    return starts;
}

} // namespace views

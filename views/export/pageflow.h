// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A long document on pages: where each page starts so that no line of text and no table row is
// cut by a page's edge, and a heading stays with what follows it. Qt's own pagination of a
// QTextDocument split lines inside lists and table rows across two pages (the report's options
// list printed a line half on page 10, half on page 11; a checks row ran onto the next page).

#include <QList>

class QTextDocument;

namespace views {

/** The top of each page of `document`, laid out at its text width without a page size (one
 *  long page), for pages `pageHeight` high: the first is 0. A line or a table row taller than a
 *  page is cut where the page ends. */
QList<double> pageStarts(const QTextDocument &document, double pageHeight);

} // namespace views

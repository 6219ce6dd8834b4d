// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The stakeholder report (PDF or single-file HTML): a one-paragraph decision with its main
// numbers, the workload, the checks table, the roofline and memory charts (vector in the PDF,
// inline SVG in the HTML), the decision in full, the assumptions with their sources, and the
// formulas with the numbers put in. No dialogs: errors come back as text.

#include "core/model/units.h"

#include <QString>

namespace core {
struct Scenario;
}

namespace views {

/** Writes FILE.pdf or FILE.html by the suffix (all or nothing: views/atomicwriter.h). */
bool writeReport(const core::Scenario &scenario, core::MemoryUnits units, const QString &path,
                 QString *error);

/** The report's text as HTML with the charts left out (for tests and previews). */
QString reportHtml(const core::Scenario &scenario, core::MemoryUnits units);
/** How many A4 pages the PDF's first part (the question, the answer, its cost, the options and
 *  the glossary) takes: one, so its last lines never stand alone on page 2 (issue #42). */
int reportSummaryPages(const core::Scenario &scenario, core::MemoryUnits units);

} // namespace views

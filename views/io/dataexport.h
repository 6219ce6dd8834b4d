// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Data out of the app: the standard sweeps and the device checks written as CSV or JSON (by the
// file's suffix), atomically, each stamped with the app version and the preset data date.

#include "core/output/exports.h"

#include <QString>

#include <string>

namespace core {
struct Scenario;
}

namespace views {

/** Writes `text` to `path` atomically (views/atomicwriter.h), making its folder first; false with
 * the file and the reason in `error`. */
bool writeFileAtomically(const QString &path, const std::string &text, QString *error);

/** One CSV cell of text, quoted and neutralised as core::csvField does (every view's "Copy data
 *  as CSV" uses it for any text a user or a file can name). */
QString csvCell(const QString &text);

/** "Accelerator Explorer 0.1.0; preset data 2026-12-02": what every export says about itself. */
QString exportStampText();
core::ExportStamp exportStamp();

/** Writes `kind`'s sweep of `scenario` to `path` (.csv or .json). False with `error` set. */
bool writeSweep(const core::Scenario &scenario, core::SweepKind kind, const QString &path,
                QString *error);
/** Writes the device checks (the wizard's candidates and formats) to `path` (.csv or .json). */
bool writeChecks(const core::Scenario &scenario, const QString &path, QString *error);

} // namespace views

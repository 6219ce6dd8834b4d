// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every file the app writes goes through here: scenarios, autosaves, PNG, SVG and PDF views,
// slides, reports, handouts, CSV and JSON data, user presets. The bytes go to a QSaveFile in
// the target's folder and replace the old file only when everything was written, so a failing
// writer, a full disk or a crash leaves the old file as it was. A build check
// (tests/views/onewriter.cmake) refuses any other way of writing a file in views/ and app/.

#include <QString>

#include <functional>

class QByteArray;
class QImage;
class QIODevice;

namespace views {

/** Fills the device; returns false (with a reason in `error`, if it has one) on failure. */
using DeviceWriter = std::function<bool(QIODevice &device, QString *error)>;

/** Writes `path` all or nothing with `writer`. On failure returns false with
 *  "PATH: what went wrong" in `error` and leaves any old file untouched. */
bool writeAtomically(const QString &path, const DeviceWriter &writer, QString *error);

/** The same for bytes already in memory. */
bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error);

/** An image in the format its suffix names (png, jpg), written the same way. */
bool writeImageAtomically(const QString &path, const QImage &image, QString *error);

} // namespace views

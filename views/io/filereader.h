// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every file the app reads goes through here, so one size bound holds for regular files, pipes
// and devices alike (QFile::size() is 0 for /dev/zero, which then filled memory).

#include <QByteArray>
#include <QString>

namespace views {

/** Reads `path` into `bytes`, never more than `limit` bytes. False with "PATH: reason" in
 *  `error` when it cannot be opened or read, or holds more than `limit` (`what` names what it
 *  should have been: "a scenario file"). */
bool readFileAtMost(const QString &path, qint64 limit, const QString &what, QByteArray *bytes,
                    QString *error);

} // namespace views

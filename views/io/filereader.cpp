// SPDX-License-Identifier: GPL-3.0-or-later
#include "filereader.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>

namespace views {

bool readFileAtMost(const QString &path, qint64 limit, const QString &what, QByteArray *bytes,
                    QString *error)
{
    const auto fail = [&](const QString &reason) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, reason);
        return false;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(
            QCoreApplication::translate("views", "cannot be opened: %1").arg(file.errorString()));
    QByteArray read;
    // chunk by chunk to one byte past the bound: a pipe or a device has no size to ask for
    while (read.size() <= limit) {
        const QByteArray chunk = file.read(std::min<qint64>(1 << 20, limit + 1 - read.size()));
        if (chunk.isEmpty())
            break;
        read += chunk;
    }
    if (read.size() > limit)
        return fail(QCoreApplication::translate("views", "is larger than %1 MB: not %2")
                        .arg(limit / (qint64(1024) * 1024))
                        .arg(what));
    if (file.error() != QFileDevice::NoError)
        return fail(
            QCoreApplication::translate("views", "cannot be read: %1").arg(file.errorString()));
    *bytes = read;
    return true;
}

} // namespace views

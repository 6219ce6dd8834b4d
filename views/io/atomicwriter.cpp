// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomicwriter.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QSaveFile>

namespace views {

bool writeAtomically(const QString &path, const DeviceWriter &writer, QString *error)
{
    auto fail = [&](const QString &reason) {
        if (error)
            *error = QCoreApplication::translate("AtomicWriter", "%1: cannot be written (%2)")
                         .arg(path, reason);
        return false;
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    QString reason;
    if (!writer(file, &reason)) {
        file.cancelWriting();
        return fail(reason.isEmpty() ? QCoreApplication::translate("AtomicWriter",
                                                                   "the content could not be made")
                                     : reason);
    }
    if (!file.commit())
        return fail(file.errorString());
    return true;
}

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    return writeAtomically(
        path,
        [&bytes](QIODevice &device, QString *reason) {
            if (device.write(bytes) == bytes.size())
                return true;
            *reason = device.errorString();
            return false;
        },
        error);
}

bool writeImageAtomically(const QString &path, const QImage &image, QString *error)
{
    const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    return writeAtomically(
        path,
        [&](QIODevice &device, QString *reason) {
            QImageWriter writer(&device, format);
            if (writer.write(image))
                return true;
            *reason = writer.errorString();
            return false;
        },
        error);
}

} // namespace views

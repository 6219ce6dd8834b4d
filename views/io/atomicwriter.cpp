// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomicwriter.h"

#include <QBuffer>
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
    // The content is made in memory first, then written in one go and counted: a generator that
    // streams to the file (QSvgGenerator) lost a short write on a full disk, and the commit then
    // replaced the old file with a cut one (issue #41).
    QBuffer content;
    content.open(QIODevice::WriteOnly);
    QString reason;
    if (!writer(content, &reason))
        return fail(reason.isEmpty() ? QCoreApplication::translate("AtomicWriter",
                                                                   "the content could not be made")
                                     : reason);
    const QByteArray &bytes = content.data();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    // a short write is no error to Qt: write the rest until the disk says why it stops
    qint64 written = 0;
    while (written < bytes.size()) {
        const qint64 step = file.write(bytes.constData() + written, bytes.size() - written);
        if (step <= 0)
            break;
        written += step;
    }
    if (written != bytes.size() || !file.flush() || file.error() != QFileDevice::NoError) {
        const QString why =
            file.error() != QFileDevice::NoError
                ? file.errorString()
                : QCoreApplication::translate("AtomicWriter", "the disk took only part of it");
        file.cancelWriting();
        return fail(why);
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "dialogfolder.h"

#include "views/document/scenariodocument.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace views {

namespace {

const QString kLastFolderKey = QStringLiteral("files/lastFolder");

} // namespace

QString suggestedPath(const ScenarioDocument *document, const QString &fileName)
{
    QString folder;
    if (document && !document->filePath().isEmpty())
        folder = QFileInfo(document->filePath()).absolutePath();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QSettings().value(kLastFolderKey).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = QDir::homePath();
    return fileName.isEmpty() ? folder : QDir(folder).filePath(fileName);
}

void rememberDialogFolder(const QString &chosenPath)
{
    if (!chosenPath.isEmpty())
        QSettings().setValue(kLastFolderKey, QFileInfo(chosenPath).absolutePath());
}

} // namespace views

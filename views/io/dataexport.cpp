// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataexport.h"

#include "views/io/atomicwriter.h"

#include "core/data/presets.h"
#include "core/decide/selection.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace views {

namespace {

QString suffixOf(const QString &path)
{
    return QFileInfo(path).suffix().toLower();
}

bool refuseSuffix(const QString &path, QString *error)
{
    if (error)
        *error = QCoreApplication::translate("DataExport", "%1: data exports are .csv or .json")
                     .arg(path);
    return false;
}

} // namespace

bool writeFileAtomically(const QString &path, const std::string &text, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath()); // the user's data folder on first use
    return writeAtomically(path, QByteArray::fromStdString(text), error);
}

core::ExportStamp exportStamp()
{
    return core::exportStamp(QCoreApplication::applicationVersion().toStdString());
}

QString csvCell(const QString &text)
{
    return QString::fromStdString(core::csvField(text.toStdString()));
}

QString exportStampText()
{
    const core::ExportStamp stamp = exportStamp();
    return QCoreApplication::translate("DataExport", "Accelerator Explorer %1; preset data %2")
        .arg(QString::fromStdString(stamp.appVersion),
             QString::fromStdString(stamp.presetDataDate));
}

bool writeSweep(const core::Scenario &scenario, core::SweepKind kind, const QString &path,
                QString *error)
{
    const QString suffix = suffixOf(path);
    if (suffix != QStringLiteral("csv") && suffix != QStringLiteral("json"))
        return refuseSuffix(path, error);
    const auto values = core::sweepValues(kind, scenario);
    if (values.empty()) { // a header without rows would look like a sweep that found nothing
        if (error)
            *error = QStringLiteral("%1: this scenario leaves the %2 sweep no values")
                         .arg(path, QString::fromLatin1(core::sweepName(kind).data(),
                                                        qsizetype(core::sweepName(kind).size())));
        return false;
    }
    auto table = core::sweepParameter(scenario, core::sweepPath(kind), values);
    if (!table) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(QString::fromStdString(table.error().path),
                                                  QString::fromStdString(table.error().message));
        return false;
    }
    const std::string text = suffix == QStringLiteral("csv")
                                 ? core::sweepToCsv(table.value(), exportStamp())
                                 : core::sweepToJson(table.value(), exportStamp()) + "\n";
    return writeFileAtomically(path, text, error);
}

bool writeChecks(const core::Scenario &scenario, const QString &path, QString *error)
{
    const QString suffix = suffixOf(path);
    if (suffix != QStringLiteral("csv") && suffix != QStringLiteral("json"))
        return refuseSuffix(path, error);
    const core::Selection selection = core::selectDevice(scenario);
    std::string text;
    if (suffix == QStringLiteral("csv")) {
        text = core::selectionToCsv(selection, exportStamp());
    } else {
        // the accel-calc check document, stamped
        text = core::stampJson(core::selectionToJson(selection), exportStamp()) + "\n";
    }
    return writeFileAtomically(path, text, error);
}

} // namespace views

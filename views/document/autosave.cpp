// SPDX-License-Identifier: GPL-3.0-or-later
#include "autosave.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"

#include "core/scenarioio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace views {

Autosave::Autosave(ScenarioDocument *document, const QString &folder, QObject *parent)
    : QObject(parent)
    , m_document(document)
    , m_folder(folder)
{
    m_minute.setInterval(60 * 1000);
    m_burst.setInterval(2000);
    m_burst.setSingleShot(true);
    connect(&m_minute, &QTimer::timeout, this, &Autosave::saveNow);
    connect(&m_burst, &QTimer::timeout, this, &Autosave::saveNow);
    connect(document, &ScenarioDocument::changed, this, [this] {
        if (m_document->isModified())
            m_burst.start(); // restarted by every edit: written when the burst ends
    });
    connect(document, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            discard(); // saved: nothing left to recover
    });
    m_minute.start();
    m_pending = hasRecovery();
}

QString Autosave::filePath() const
{
    return QDir(m_folder).filePath(QStringLiteral("autosave.json"));
}

bool Autosave::saveNow()
{
    if (m_pending)
        return false; // the last session's work first
    if (!m_document->isModified())
        return true;
    if (!QDir().mkpath(m_folder))
        return false;
    // the scenario as it is now, including where it came from
    return writeAtomically(filePath(),
                           QByteArray::fromStdString(core::writeScenario(m_document->scenario())),
                           nullptr);
}

bool Autosave::hasRecovery() const
{
    return QFileInfo::exists(filePath());
}

QDateTime Autosave::recoveryTime() const
{
    return QFileInfo(filePath()).lastModified();
}

bool Autosave::recover(core::Scenario &scenario, QString *error) const
{
    QFile file(filePath());
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: cannot be read: %2").arg(filePath(), file.errorString());
        return false;
    }
    const QByteArray text = file.readAll();
    auto loaded = core::readScenario(std::string_view(text.constData(), std::size_t(text.size())));
    if (!loaded) {
        if (error)
            *error = tr("%1: %2: %3")
                         .arg(filePath(), QString::fromStdString(loaded.error().path),
                              QString::fromStdString(loaded.error().message));
        return false;
    }
    scenario = loaded.value().scenario;
    return true;
}

void Autosave::discard()
{
    if (m_pending)
        return;
    m_burst.stop();
    QFile::remove(filePath());
}

} // namespace views

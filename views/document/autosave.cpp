// SPDX-License-Identifier: GPL-3.0-or-later
#include "autosave.h"

#include "views/document/scenariodocument.h"
#include "views/io/atomicwriter.h"
#include "views/io/filereader.h"

#include "core/data/scenarioio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QUuid>

#include <algorithm>

namespace views {

namespace {

constexpr auto kFormat = "accel-explorer/autosave";

QString lockPathFor(const QString &autosavePath)
{
    return autosavePath.left(autosavePath.size() - int(qstrlen(".json"))) + QStringLiteral(".lock");
}

std::unique_ptr<QLockFile> lockFile(const QString &path)
{
    auto lock = std::make_unique<QLockFile>(path);
    // a live window's lock is never stale, however old: only a dead owner frees it
    lock->setStaleLockTime(0);
    return lock;
}

/** The autosave's envelope: {"format", "origin", "saved", "scenario"}; an autosave written
 *  before the envelope is the scenario alone. */
bool readEnvelope(const QString &path, AutosaveLeftover *leftover, QByteArray *scenario,
                  QString *error)
{
    QByteArray bytes;
    if (!readFileAtMost(path, qint64(core::kLargestInputBytes), Autosave::tr("an autosave"), &bytes,
                        error))
        return false;
    const QJsonObject root = QJsonDocument::fromJson(bytes).object();
    if (leftover) {
        leftover->path = path;
        leftover->saved = QFileInfo(path).lastModified();
    }
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kFormat)) {
        if (scenario)
            *scenario = bytes; // the scenario alone (or not JSON: the reader says why)
        return true;
    }
    if (leftover) {
        leftover->origin = root.value(QStringLiteral("origin")).toString();
        const QDateTime saved = QDateTime::fromString(
            root.value(QStringLiteral("saved")).toString(), Qt::ISODateWithMs);
        if (saved.isValid())
            leftover->saved = saved;
    }
    if (scenario)
        *scenario = QJsonDocument(root.value(QStringLiteral("scenario")).toObject()).toJson();
    return true;
}

} // namespace

Autosave::Autosave(ScenarioDocument *document, const QString &folder, QObject *parent)
    : QObject(parent)
    , m_document(document)
    , m_folder(folder)
    , m_session(QStringLiteral("session-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    // the lock first: a window's file is never without its lock
    QDir().mkpath(m_folder);
    m_lock = lockFile(QDir(m_folder).filePath(m_session + QStringLiteral(".lock")));
    m_lock->tryLock(0);
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
}

// Not a clean close (that calls discard() first): the file stays for the next start, and the
// lock goes, which is what marks it as left behind.
Autosave::~Autosave() = default;

QString Autosave::filePath() const
{
    return QDir(m_folder).filePath(m_session + QStringLiteral(".json"));
}

bool Autosave::saveNow()
{
    if (!m_document->isModified())
        return true;
    QString error;
    bool written = false;
    if (!QDir().mkpath(m_folder)) {
        error = tr("%1: the autosave folder cannot be created").arg(m_folder);
    } else {
        if (!m_lock->isLocked() && !m_lock->tryLock(0))
            error = tr("%1: cannot be created (is the folder writable?)").arg(m_lock->fileName());
        QJsonObject root;
        root.insert(QStringLiteral("format"), QLatin1String(kFormat));
        root.insert(QStringLiteral("origin"), m_document->filePath());
        root.insert(QStringLiteral("saved"),
                    QDateTime::currentDateTime().toString(Qt::ISODateWithMs));
        // the scenario as it is now, including where each value came from
        const std::string scenario = core::writeScenario(m_document->scenario());
        root.insert(QStringLiteral("scenario"),
                    QJsonDocument::fromJson(QByteArray::fromStdString(scenario)).object());
        if (error.isEmpty())
            written = writeAtomically(filePath(), QJsonDocument(root).toJson(), &error);
    }
    if (written != m_lastError.isEmpty() || error != m_lastError) {
        m_lastError = written ? QString() : error;
        emit failed(m_lastError);
    }
    return written;
}

QList<AutosaveLeftover> Autosave::leftovers()
{
    QList<AutosaveLeftover> found;
    const QDir dir(m_folder);
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        const QString path = dir.filePath(name);
        if (path == filePath())
            continue;
        const auto held = std::find_if(m_heldLeftovers.begin(), m_heldLeftovers.end(),
                                       [&](const auto &entry) { return entry.first == path; });
        if (held == m_heldLeftovers.end()) {
            std::unique_ptr<QLockFile> lock = lockFile(lockPathFor(path));
            if (!lock->tryLock(0))
                continue; // a live window's work: not ours to offer or remove
            m_heldLeftovers.emplace_back(path, std::move(lock));
        }
        AutosaveLeftover leftover;
        readEnvelope(path, &leftover, nullptr, nullptr);
        leftover.path = path;
        found << leftover;
    }
    // locks of windows that died with nothing unsaved: free ones are let go (which removes them)
    for (const QString &name : dir.entryList({QStringLiteral("*.lock")}, QDir::Files)) {
        const QString lockPath = dir.filePath(name);
        const QString autosavePath =
            lockPath.left(lockPath.size() - int(qstrlen(".lock"))) + QStringLiteral(".json");
        if (lockPath != m_lock->fileName() && !QFileInfo::exists(autosavePath))
            lockFile(lockPath)->tryLock(0); // unlocked again when the temporary goes
    }
    std::sort(found.begin(), found.end(), [](const AutosaveLeftover &a, const AutosaveLeftover &b) {
        return a.saved > b.saved;
    });
    return found;
}

bool Autosave::read(const AutosaveLeftover &leftover, core::Scenario &scenario, QString *error)
{
    QByteArray text;
    if (!readEnvelope(leftover.path, nullptr, &text, error))
        return false;
    auto loaded = core::readScenario(std::string_view(text.constData(), std::size_t(text.size())));
    if (!loaded) {
        if (error)
            *error = tr("%1: %2: %3")
                         .arg(leftover.path, QString::fromStdString(loaded.error().path),
                              QString::fromStdString(loaded.error().message));
        return false;
    }
    scenario = loaded.value().scenario;
    return true;
}

void Autosave::discardLeftover(const AutosaveLeftover &leftover)
{
    const auto held = std::find_if(m_heldLeftovers.begin(), m_heldLeftovers.end(),
                                   [&](const auto &entry) { return entry.first == leftover.path; });
    if (held == m_heldLeftovers.end())
        return; // not locked by this window: someone else's
    QFile::remove(leftover.path);
    m_heldLeftovers.erase(held); // unlocking removes the lock file
}

void Autosave::releaseLeftovers()
{
    m_heldLeftovers.clear();
}

void Autosave::discard()
{
    m_burst.stop();
    QFile::remove(filePath());
    if (!m_lastError.isEmpty()) { // nothing unsaved any more: nothing failing either
        m_lastError.clear();
        emit failed({});
    }
}

} // namespace views

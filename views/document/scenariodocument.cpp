// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariodocument.h"

#include "views/io/atomicwriter.h"
#include "views/io/filereader.h"

#include "core/calibrate/calibration.h"
#include "core/data/hfimport.h"
#include "core/data/presetedits.h"
#include "core/data/presets.h"
#include "core/data/safetensors.h"
#include "core/data/scenarioio.h"
#include "core/decide/comparison.h"
#include "core/decide/selection.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/model/scenarioedits.h"
#include "core/model/weightparts.h"
#include "core/output/exports.h"
#include "core/physics/oomdiagnosis.h"
#include "core/train/trainingplan.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QThreadPool>
#include <QUndoCommand>
#include <QUndoStack>

#include <mutex>
#include <optional>

namespace views {

namespace {

QByteArray digestOf(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

/** The digest of the file as it is now; empty when there is none or it cannot be read. */
QByteArray fileDigest(const QString &path)
{
    QByteArray bytes;
    if (path.isEmpty() ||
        !readFileAtMost(path, qint64(core::kLargestInputBytes), QString(), &bytes, nullptr))
        return {};
    return digestOf(bytes);
}

} // namespace

/** The memoised derived results, each with the revision it was computed for. */
struct ScenarioDocument::Derived
{
    template <typename T> struct Memo
    {
        std::optional<T> value;
        quint64 revision = 0;
        bool currentAt(quint64 now) const { return value && revision == now; }
    };
    Memo<std::vector<core::BatchPoint>> batchSweep;
    Memo<core::Selection> selection;
    Memo<core::OomDiagnosis> oom;
    Memo<core::TrainingPlan> trainingPlan;
    Memo<core::TrainingPlan> bestTrainingPlan;
    Memo<Comparison> comparison;
    core::ScenarioVariant comparedVariant;
};

/** One edit: the scenario before and after. Edits of the same input merge (id = its row). */
class ScenarioEditCommand : public QUndoCommand
{
public:
    ScenarioEditCommand(ScenarioDocument *document, core::Scenario before, core::Scenario after,
                        const QString &text, int mergeId)
        : QUndoCommand(text)
        , m_document(document)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeId(mergeId)
    {}

    void redo() override { m_document->replaceScenario(m_after); }
    void undo() override { m_document->replaceScenario(m_before); }
    int id() const override { return m_mergeId; }

    bool mergeWith(const QUndoCommand *other) override
    {
        if (other->id() != id() || m_mergeId < 0)
            return false;
        m_after = static_cast<const ScenarioEditCommand *>(other)->m_after;
        // Back where it started: nothing left to undo.
        setObsolete(core::writeScenario(m_after) == core::writeScenario(m_before));
        return true;
    }

private:
    ScenarioDocument *m_document;
    core::Scenario m_before;
    core::Scenario m_after;
    int m_mergeId;
};

namespace {

constexpr int kFormatMergeId = 100000;

int mergeIdFor(const QString &path)
{
    const auto table = core::parameterTable();
    const std::string key = path.toStdString();
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (table[i].path == key)
            return int(i) + 1;
    }
    // peaks share one row; give each format its own id
    return int(qHash(path) % 50000) + 1000;
}

QString changeText(const QString &path)
{
    if (const core::ParameterInfo *info = core::findParameter(path.toStdString())) {
        // "Change Batch Size": the parameter's name in title case
        QString name = QString::fromUtf8(info->name.data(), qsizetype(info->name.size()));
        QStringList words = name.split(QLatin1Char(' '));
        for (QString &word : words) {
            if (!word.isEmpty() && word.at(0).isLower())
                word[0] = word.at(0).toUpper();
        }
        return ScenarioDocument::tr("Change %1").arg(words.join(QLatin1Char(' ')));
    }
    return ScenarioDocument::tr("Change %1").arg(path);
}

} // namespace

ScenarioDocument::ScenarioDocument(QObject *parent)
    : QObject(parent)
    , m_scenario(core::lessonDefaultScenario())
    , m_undoStack(new QUndoStack(this))
    , m_derived(std::make_unique<Derived>())
{
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &ScenarioDocument::emitPending);
    connect(m_undoStack, &QUndoStack::cleanChanged, this, [this](bool clean) {
        emit modifiedChanged(!clean);
        schedule(File);
    });
}

const core::Evaluation &ScenarioDocument::evaluation() const
{
    if (m_evaluationStale) {
        m_evaluation = core::evaluate(m_scenario);
        m_evaluationStale = false;
    }
    return m_evaluation;
}

const std::vector<core::BatchPoint> &ScenarioDocument::batchSweep() const
{
    auto &memo = m_derived->batchSweep;
    if (!memo.currentAt(m_revision)) {
        memo.value =
            core::sweepBatch(m_scenario, core::sweepValues(core::SweepKind::Batch, m_scenario));
        memo.revision = m_revision;
    }
    return *memo.value;
}

const core::Selection &ScenarioDocument::selection() const
{
    auto &memo = m_derived->selection;
    if (!memo.currentAt(m_revision)) {
        QElapsedTimer timer;
        timer.start();
        memo.value = core::selectDevice(m_scenario);
        memo.revision = m_revision;
        ++m_selectionRuns;
        m_lastSelectionMs = double(timer.nsecsElapsed()) / 1e6;
    }
    return *memo.value;
}

/** One selection on a worker: what the worker and the GUI thread share. The document may be
 *  gone when the worker finishes; `receiver` is cleared under the mutex before it is. */
struct ScenarioDocument::SelectionJob
{
    std::mutex mutex;
    ScenarioDocument *receiver = nullptr;
    quint64 revision = 0;
    std::optional<core::Selection> result; ///< written by the worker before it posts
    double milliseconds = 0;
};

ScenarioDocument::~ScenarioDocument()
{
    if (m_selectionJob) {
        const std::lock_guard lock(m_selectionJob->mutex);
        m_selectionJob->receiver = nullptr;
    }
}

const core::Selection *ScenarioDocument::selectionForLiveView()
{
    const auto &memo = m_derived->selection;
    if (memo.currentAt(m_revision))
        return &*memo.value;
    if (m_lastSelectionMs < kSelectionOnTheSpotMs && !m_selectionJob)
        return &selection();
    if (m_selectionJob)
        m_selectionWanted = true; // an older revision's run: this one starts after it
    else
        startSelectionJob();
    return nullptr;
}

void ScenarioDocument::startSelectionJob()
{
    m_selectionWanted = false;
    auto job = std::make_shared<SelectionJob>();
    job->receiver = this;
    job->revision = m_revision;
    m_selectionJob = job;
    QThreadPool::globalInstance()->start([job, scenario = m_scenario] {
        QElapsedTimer timer;
        timer.start();
        core::Selection result = core::selectDevice(scenario);
        const std::lock_guard lock(job->mutex);
        job->result = std::move(result);
        job->milliseconds = double(timer.nsecsElapsed()) / 1e6;
        if (job->receiver) // queued to the GUI thread; dropped if the document goes first
            QMetaObject::invokeMethod(
                job->receiver, [receiver = job->receiver, job] { receiver->deliverSelection(job); },
                Qt::QueuedConnection);
    });
}

void ScenarioDocument::deliverSelection(const std::shared_ptr<SelectionJob> &job)
{
    if (job != m_selectionJob)
        return;
    m_selectionJob.reset();
    m_lastSelectionMs = job->milliseconds;
    auto &memo = m_derived->selection;
    if (job->revision == m_revision && !memo.currentAt(m_revision)) {
        memo.value = std::move(job->result);
        memo.revision = job->revision;
        ++m_selectionRuns;
        emit selectionReady();
    } else if (m_selectionWanted && !memo.currentAt(m_revision)) {
        startSelectionJob(); // the edits went on while it ran: check the latest
    }
}

const core::TrainingPlan &ScenarioDocument::trainingPlan() const
{
    auto &memo = m_derived->trainingPlan;
    if (!memo.currentAt(m_revision)) {
        memo.value = core::plannedTraining(m_scenario);
        memo.revision = m_revision;
    }
    return *memo.value;
}

const core::TrainingPlan &ScenarioDocument::bestTrainingPlan() const
{
    auto &memo = m_derived->bestTrainingPlan;
    if (!memo.currentAt(m_revision)) {
        memo.value = core::bestTrainingPlan(m_scenario);
        memo.revision = m_revision;
    }
    return *memo.value;
}

const core::OomDiagnosis &ScenarioDocument::oomDiagnosis() const
{
    auto &memo = m_derived->oom;
    if (!memo.currentAt(m_revision)) {
        memo.value = core::diagnoseOom(m_scenario);
        memo.revision = m_revision;
    }
    return *memo.value;
}

const ScenarioDocument::Comparison &
ScenarioDocument::comparison(const core::ScenarioVariant &variant) const
{
    auto &memo = m_derived->comparison;
    if (!memo.currentAt(m_revision) || !(m_derived->comparedVariant == variant)) {
        Comparison result;
        if (auto b = core::applyVariant(m_scenario, variant)) {
            result.b = std::move(b.value());
        } else {
            result.b = m_scenario;
            result.problem = QString::fromStdString(b.error().message);
        }
        result.evaluation = core::evaluate(result.b);
        memo.value = std::move(result);
        memo.revision = m_revision;
        m_derived->comparedVariant = variant;
    }
    return *memo.value;
}

void ScenarioDocument::setUnits(core::MemoryUnits units)
{
    if (units == m_units)
        return;
    m_units = units;
    schedule(Units);
}

void ScenarioDocument::setConcealed(const QList<core::FigureId> &figures)
{
    if (figures == m_concealed)
        return;
    m_concealed = figures;
    schedule(Concealed);
}

void ScenarioDocument::setCurvesHiddenFromBatch(double batch)
{
    if (batch == m_curvesHiddenFrom)
        return;
    m_curvesHiddenFrom = batch;
    schedule(Concealed);
}

QString ScenarioDocument::unlessConcealed(core::FigureId id, const QString &text) const
{
    return isConcealed(id) ? QStringLiteral("?") : text;
}

bool ScenarioDocument::setNumber(const QString &path, double value, QString *error,
                                 Following following)
{
    const std::string key = path.toStdString();
    const auto current = core::numberAt(m_scenario, key);
    if (current && *current == value)
        return true; // nothing changes, nothing to undo
    core::Scenario after = m_scenario;
    // as `accel-calc evaluate --set` reads it: a prompt or batch the file leaves out follows
    // the context or the concurrent sequences (one answer in the app, the CLI and the sweeps)
    auto result = following == Following::AsRead ? core::setNumberAsRead(after, key, value)
                                                 : core::setNumberAt(after, key, value);
    if (!result) {
        if (error)
            *error = QString::fromStdString(result.error().message);
        return false;
    }
    pushEdit(after, changeText(path), mergeIdFor(path));
    return true;
}

bool ScenarioDocument::setChoice(const QString &path, const QString &value, QString *error)
{
    const std::string key = path.toStdString();
    if (core::choiceAt(m_scenario, key) == value.toStdString())
        return true; // nothing changes, nothing to undo
    core::Scenario after = m_scenario;
    auto result = core::setChoiceAt(after, key, value.toStdString());
    if (!result) {
        if (error)
            *error = QString::fromStdString(result.error().message);
        return false;
    }
    const core::ChoiceInfo *info = core::findChoice(key);
    pushEdit(
        after,
        tr("Change %1").arg(QString::fromUtf8(info->name.data(), qsizetype(info->name.size()))),
        int(qHash(path) % 50000) + 60000);
    return true;
}

void ScenarioDocument::setWeightFormat(core::NumericFormat format)
{
    if (format == m_scenario.serving.weightFormat || !core::isStorageFormat(format))
        return;
    core::Scenario after = m_scenario;
    after.serving.weightFormat = format;
    pushEdit(after, tr("Change Weight Format"), kFormatMergeId);
}

void ScenarioDocument::useOneWeightFormat()
{
    if (!core::partsDiffer(m_scenario.serving))
        return;
    core::Scenario after = m_scenario;
    after.serving.partFormats = {};
    after.serving.keepEmbeddings16Bit = false;
    after.givenInputs.erase("serving.weight_formats");
    pushEdit(after, tr("Use One Weight Format"), -1);
}

void ScenarioDocument::setKvFormat(core::NumericFormat format)
{
    if (format == m_scenario.serving.kvFormat || !core::isStorageFormat(format))
        return;
    core::Scenario after = m_scenario;
    after.serving.kvFormat = format;
    pushEdit(after, tr("Change KV Format"), kFormatMergeId + 1);
}

bool ScenarioDocument::setModelPreset(const QString &id, QString *error)
{
    if (id.toStdString() == m_scenario.model.presetId)
        return true;
    auto model = core::modelPreset(id.toStdString());
    if (!model) {
        if (error)
            *error = QString::fromStdString(model.error().message);
        return false;
    }
    pushEdit(core::withModel(m_scenario, std::move(model.value())), tr("Change Model"), -1);
    return true;
}

bool ScenarioDocument::setDevicePreset(const QString &id, QString *error)
{
    if (id.toStdString() == m_scenario.device.presetId)
        return true;
    auto moved = core::onDevicePreset(m_scenario, id.toStdString());
    if (!moved || moved->refusal) {
        if (error)
            *error =
                QString::fromStdString(moved ? moved->refusal->message : moved.error().message);
        return false;
    }
    pushEdit(moved->scenario, tr("Change Device"), -1);
    return true;
}

void ScenarioDocument::applyScenario(const core::Scenario &scenario, const QString &commandText)
{
    pushEdit(scenario, commandText, -1);
}

void ScenarioDocument::pushEdit(const core::Scenario &after, const QString &text, int mergeId)
{
    m_undoStack->push(new ScenarioEditCommand(this, m_scenario, after, text, mergeId));
}

void ScenarioDocument::replaceScenario(const core::Scenario &scenario)
{
    m_scenario = scenario;
    m_evaluationStale = true;
    ++m_revision; // every derived result is now stale
    schedule(Inputs | Results);
}

void ScenarioDocument::reset(const core::Scenario &scenario, const QString &filePath)
{
    m_undoStack->clear();
    m_filePath = filePath;
    m_diskDigest = fileDigest(filePath);
    replaceScenario(scenario);
    m_undoStack->setClean();
    schedule(File);
}

bool ScenarioDocument::readScenarioFile(const QString &filePath, core::Scenario *scenario,
                                        QByteArray *fileBytes, QString *error,
                                        QStringList *warnings) const
{
    QByteArray &bytes = *fileBytes;
    if (!readFileAtMost(filePath, qint64(core::kLargestInputBytes), tr("a scenario file"), &bytes,
                        error))
        return false;
    auto loaded =
        core::readScenario(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!loaded) {
        const QString where = QString::fromStdString(loaded.error().path);
        if (error)
            *error = QStringLiteral("%1: %2: %3")
                         .arg(filePath, where.isEmpty() ? QStringLiteral("/") : where,
                              QString::fromStdString(loaded.error().message));
        return false;
    }
    if (warnings) {
        for (const core::Diagnostic &w : loaded.value().warnings)
            warnings->append(QStringLiteral("%1: %2: warning: %3")
                                 .arg(filePath, QString::fromStdString(w.path),
                                      QString::fromStdString(w.message)));
    }
    *scenario = std::move(loaded.value().scenario);
    core::CalibrationConfig &calibration = scenario->calibration;
    if (!calibration.profilePath.empty() && !calibration.profile) {
        // the profile file the scenario names, beside it
        const QString path =
            QFileInfo(filePath).dir().filePath(QString::fromStdString(calibration.profilePath));
        QByteArray profileBytes;
        QString problem;
        if (!readFileAtMost(path, qint64(core::kLargestInputBytes), tr("a calibration profile"),
                            &profileBytes, &problem)) {
            if (error)
                *error = QStringLiteral("%1: /calibration/profile: %2").arg(filePath, problem);
            return false;
        }
        auto profile = core::readCalibrationProfile(
            std::string_view(profileBytes.constData(), std::size_t(profileBytes.size())));
        if (!profile) {
            if (error)
                *error = QStringLiteral("%1: %2: %3")
                             .arg(path, QString::fromStdString(profile.error().path),
                                  QString::fromStdString(profile.error().message));
            return false;
        }
        calibration.profile = std::move(profile.value());
    }
    return true;
}

bool ScenarioDocument::open(const QString &filePath, QString *error, QStringList *warnings)
{
    core::Scenario scenario;
    QByteArray bytes;
    if (!readScenarioFile(filePath, &scenario, &bytes, error, warnings))
        return false;
    reset(scenario, QFileInfo(filePath).absoluteFilePath());
    m_diskDigest = digestOf(bytes); // what was read, not what is there a moment later
    return true;
}

ScenarioDocument::DiskState ScenarioDocument::diskState() const
{
    if (m_filePath.isEmpty())
        return DiskState::Unchanged;
    QFile file(m_filePath);
    if (!file.exists())
        return DiskState::Missing;
    QByteArray bytes;
    if (!readFileAtMost(m_filePath, qint64(core::kLargestInputBytes), QString(), &bytes, nullptr))
        return DiskState::Changed; // unreadable now: not the file this document knows
    return digestOf(bytes) == m_diskDigest ? DiskState::Unchanged : DiskState::Changed;
}

bool ScenarioDocument::reloadFromDisk(QString *error, QStringList *warnings)
{
    core::Scenario scenario;
    QByteArray bytes;
    if (!readScenarioFile(m_filePath, &scenario, &bytes, error, warnings))
        return false;
    pushEdit(scenario, tr("Reload from Disk"), -1);
    m_undoStack->setClean();
    m_diskDigest = digestOf(bytes);
    schedule(File);
    return true;
}

void ScenarioDocument::setMeasurements(std::vector<core::Measurement> runs)
{
    m_measurements = std::move(runs);
    schedule(Results);
}

const std::vector<core::Measurement> &ScenarioDocument::measurements() const
{
    return m_measurements;
}

void ScenarioDocument::setEstimateMode(core::EstimateMode mode)
{
    if (mode == m_scenario.calibration.mode)
        return;
    core::Scenario after = m_scenario;
    after.calibration.mode = mode;
    after.givenInputs["calibration"] = core::InputOrigin::App; // chosen: no longer the device's
    const QString name = mode == core::EstimateMode::SpeedOfLight ? tr("Speed of Light")
                         : mode == core::EstimateMode::Typical    ? tr("Typical")
                                                                  : tr("Calibrated");
    pushEdit(after, tr("Estimate: %1").arg(name), -1);
}

void ScenarioDocument::applyCalibration(const core::CalibrationProfile &profile,
                                        const QString &engine)
{
    core::Scenario after = m_scenario;
    after.calibration.mode = core::EstimateMode::Calibrated;
    after.givenInputs["calibration"] = core::InputOrigin::App;
    after.calibration.profile = profile;
    after.calibration.profilePath.clear(); // saved inline: the scenario carries its own fit
    after.calibration.engine = engine.toStdString();
    applyScenario(after, tr("Apply Calibration"));
}

bool ScenarioDocument::importModel(const QString &configPath, QString *error, QStringList *warnings)
{
    // a model folder (or its index or a shard): config.json and the safetensors headers
    if (QFileInfo(configPath).isDir() ||
        configPath.endsWith(QStringLiteral(".safetensors.index.json")) ||
        configPath.endsWith(QStringLiteral(".safetensors"))) {
        auto folder = core::importCheckpointFolder(QFile::encodeName(configPath).toStdString());
        if (!folder) {
            if (error)
                *error =
                    QStringLiteral("%1: %2").arg(QString::fromStdString(folder.error().path),
                                                 QString::fromStdString(folder.error().message));
            return false;
        }
        if (warnings) {
            for (const core::Diagnostic &w : folder->import.warnings)
                warnings->append(QStringLiteral("%1: %2: warning: %3")
                                     .arg(configPath, QString::fromStdString(w.path),
                                          QString::fromStdString(w.message)));
            for (const core::Diagnostic &n : folder->weights.notes)
                warnings->append(QStringLiteral("%1: note: %2")
                                     .arg(configPath, QString::fromStdString(n.message)));
        }
        return applyImport(folder->import);
    }
    QByteArray bytes;
    if (!readFileAtMost(configPath, qint64(16) * 1024 * 1024, tr("a model config"), &bytes, error))
        return false;
    auto imported = core::importHuggingFaceConfig(
        std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!imported) {
        const QString where = QString::fromStdString(imported.error().path);
        if (error)
            *error = QStringLiteral("%1: %2: %3")
                         .arg(configPath, where.isEmpty() ? QStringLiteral("/") : where,
                              QString::fromStdString(imported.error().message));
        return false;
    }
    if (warnings) {
        for (const core::Diagnostic &w : imported->warnings)
            warnings->append(QStringLiteral("%1: %2: warning: %3")
                                 .arg(configPath, QString::fromStdString(w.path),
                                      QString::fromStdString(w.message)));
    }
    return applyImport(imported.value());
}

bool ScenarioDocument::applyImport(const core::HfImport &imported)
{
    core::Scenario after = core::withModel(m_scenario, imported.model);
    if (imported.checkpointFormat) {
        // a quantised checkpoint is served in its own format (its note says which)
        after.serving.weightFormat = *imported.checkpointFormat;
        after.serving.partFormats = imported.partFormats; // what it leaves at 16 bits
        // its own groups, or none: an earlier checkpoint's groups are not this one's
        after.serving.quant.groupSize =
            core::isSet(imported.checkpointGroupSize) && imported.checkpointGroupSize > 0
                ? imported.checkpointGroupSize
                : 0.0;
        after.givenInputs["serving.weight_format"] = core::InputOrigin::App;
        after.givenInputs["serving.weight_formats"] = core::InputOrigin::App;
    }
    pushEdit(after, tr("Import Model"), -1);
    return true;
}

bool ScenarioDocument::save(const QString &filePath, QString *error)
{
    const QByteArray bytes = QByteArray::fromStdString(core::writeScenario(m_scenario));
    if (!writeAtomically(filePath, bytes, error))
        return false;
    m_filePath = QFileInfo(filePath).absoluteFilePath();
    m_diskDigest = digestOf(bytes);
    m_undoStack->setClean();
    schedule(File);
    return true;
}

bool ScenarioDocument::isModified() const
{
    return !m_undoStack->isClean();
}

void ScenarioDocument::schedule(Changes changes)
{
    m_pending |= changes;
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void ScenarioDocument::flush()
{
    if (m_pending)
        emitPending();
}

void ScenarioDocument::emitPending()
{
    m_coalesce.stop();
    const Changes changes = m_pending;
    m_pending = {};
    if (!changes)
        return;
    if (changes & Results)
        evaluation(); // one evaluate() per burst, before anyone reads it
    emit changed(changes);
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "userpresets.h"

#include "views/document/dialogfolder.h"
#include "views/io/dataexport.h"
#include "views/io/filereader.h"

#include "core/data/presets.h"
#include "core/data/scenarioio.h"
#include "core/model/scenario.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace views {

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

/** An id not yet used by a built-in or by `library`: "my-" and the name, kebab-cased. */
std::string freshId(const std::string &name, const core::PresetFile &library)
{
    std::string base = "my-";
    for (char c : name) {
        const char lower = char(std::tolower(static_cast<unsigned char>(c)));
        if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9'))
            base += lower;
        else if (base.back() != '-')
            base += '-';
    }
    while (base.size() > 3 && base.back() == '-')
        base.pop_back();
    if (base.size() > 60)
        base.resize(60);
    auto taken = [&](const std::string &id) {
        if (core::isBuiltinPreset(id))
            return true;
        for (const auto &m : library.models)
            if (m.presetId == id)
                return true;
        for (const auto &d : library.devices)
            if (d.presetId == id)
                return true;
        for (const auto &l : library.links)
            if (l.presetId == id)
                return true;
        return false;
    };
    std::string id = base;
    for (int n = 2; taken(id); ++n)
        id = base + "-" + std::to_string(n);
    return id;
}

} // namespace

QString userPresetFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/presets.json");
}

bool loadUserPresets(QString *error)
{
    const QString path = userPresetFile();
    QFile file(path);
    if (!file.exists())
        return true;
    QByteArray text;
    if (!readFileAtMost(path, qint64(core::kLargestInputBytes), QObject::tr("a preset library"),
                        &text, error))
        return false;
    auto library =
        core::readPresetLibrary(std::string_view(text.constData(), std::size_t(text.size())));
    if (!library) {
        if (error)
            *error =
                QObject::tr("%1: %2: %3; only the built-in presets are in use")
                    .arg(path, fromStd(library.error().path.empty() ? "/" : library.error().path),
                         fromStd(library.error().message));
        return false;
    }
    if (auto applied = core::setUserPresets(library.value()); !applied) {
        if (error)
            *error =
                QObject::tr("%1: %2: %3; only the built-in presets are in use")
                    .arg(path, fromStd(applied.error().path), fromStd(applied.error().message));
        return false;
    }
    return true;
}

bool saveUserPresets(const core::PresetFile &library, QString *error)
{
    if (auto valid = core::validateUserPresets(library); !valid) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(fromStd(valid.error().path),
                                                  fromStd(valid.error().message));
        return false;
    }
    if (!writeFileAtomically(userPresetFile(), core::presetLibraryToJson(library), error))
        return false;
    return core::setUserPresets(library).ok();
}

bool importPresetFile(const QString &path, QString *error)
{
    QByteArray text;
    if (!readFileAtMost(path, qint64(core::kLargestInputBytes), QObject::tr("a preset library"),
                        &text, error))
        return false;
    auto shared =
        core::readPresetLibrary(std::string_view(text.constData(), std::size_t(text.size())));
    if (!shared) {
        if (error)
            *error =
                QStringLiteral("%1: %2: %3")
                    .arg(path, fromStd(shared.error().path.empty() ? "/" : shared.error().path),
                         fromStd(shared.error().message));
        return false;
    }
    core::PresetFile library = core::userPresets();
    for (const auto &m : shared->models)
        library.models.push_back(m);
    for (const auto &d : shared->devices)
        library.devices.push_back(d);
    for (const auto &l : shared->links)
        library.links.push_back(l);
    QString why;
    if (!saveUserPresets(library, &why)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    }
    return true;
}

UserPresetsDialog::UserPresetsDialog(const core::Scenario &scenario, QWidget *parent)
    : QDialog(parent)
    , m_scenario(scenario)
    , m_entries(new QListWidget(this))
    , m_editor(new QPlainTextEdit(this))
    , m_verdict(new QLabel(this))
{
    setObjectName(QStringLiteral("userPresetsDialog"));
    setWindowTitle(tr("My Presets"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_verdict->setWordWrap(true);
    m_entries->setMaximumWidth(320);
    m_entries->setSelectionMode(QAbstractItemView::ExtendedSelection);

    auto *intro = new QLabel(
        tr("Your own devices, models and links, beside the built-in presets. Each value should "
           "say where it comes from in \"sources\" (a datasheet, a quote, a measurement) and "
           "whether a peak is dense or sparse. Saved in %1.")
            .arg(userPresetFile().toHtmlEscaped()),
        this);
    intro->setWordWrap(true);

    auto *fromDevice = new QPushButton(tr("Add the Scenario's &Device"), this);
    auto *fromModel = new QPushButton(tr("Add the Scenario's &Model"), this);
    auto *importButton = new QPushButton(tr("&Import File..."), this);
    auto *share = new QPushButton(tr("&Share Selected..."), this);
    connect(fromDevice, &QPushButton::clicked, this, &UserPresetsDialog::addDeviceFromScenario);
    connect(fromModel, &QPushButton::clicked, this, &UserPresetsDialog::addModelFromScenario);
    connect(importButton, &QPushButton::clicked, this, &UserPresetsDialog::import);
    connect(share, &QPushButton::clicked, this, &UserPresetsDialog::shareSelected);
    auto *actions = new QHBoxLayout;
    for (QPushButton *button : {fromDevice, fromModel, importButton, share})
        actions->addWidget(button);
    actions->addStretch(1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    m_save = buttons->button(QDialogButtonBox::Save);
    connect(m_save, &QPushButton::clicked, this, [this] {
        if (save())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *body = new QHBoxLayout;
    body->addWidget(m_entries);
    body->addWidget(m_editor, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(actions);
    layout->addLayout(body, 1);
    layout->addWidget(m_verdict);
    layout->addWidget(buttons);
    connect(m_editor, &QPlainTextEdit::textChanged, this, &UserPresetsDialog::check);
    setLibrary(core::userPresets());
    resize(980, 640);
}

void UserPresetsDialog::setLibrary(const core::PresetFile &library)
{
    m_editor->setPlainText(fromStd(core::presetLibraryToJson(library)));
}

void UserPresetsDialog::check()
{
    const std::string text = m_editor->toPlainText().toStdString();
    auto library = core::readPresetLibrary(text);
    QString problem;
    if (!library) {
        problem = QStringLiteral("%1: %2").arg(
            fromStd(library.error().path.empty() ? "/" : library.error().path),
            fromStd(library.error().message));
    } else if (auto valid = core::validateUserPresets(library.value()); !valid) {
        problem = QStringLiteral("%1: %2").arg(fromStd(valid.error().path),
                                               fromStd(valid.error().message));
    }
    // an empty library is valid: it removes every user preset
    const bool empty = m_editor->toPlainText().trimmed().isEmpty();
    m_valid = problem.isEmpty() || empty;
    m_save->setEnabled(m_valid);
    m_entries->clear();
    if (library) {
        for (const auto &m : library->models)
            m_entries->addItem(tr("model: %1 (%2)").arg(fromStd(m.name), fromStd(m.presetId)));
        for (const auto &d : library->devices)
            m_entries->addItem(tr("device: %1 (%2)").arg(fromStd(d.name), fromStd(d.presetId)));
        for (const auto &l : library->links)
            m_entries->addItem(tr("link: %1 (%2)").arg(fromStd(l.name), fromStd(l.presetId)));
    }
    if (empty)
        m_verdict->setText(tr("Empty: saving removes every preset of yours."));
    else if (m_valid)
        m_verdict->setText(tr("\u2714 Valid: %n preset(s).", nullptr, m_entries->count()));
    else
        m_verdict->setText(tr("\u2718 %1").arg(problem));
}

core::PresetFile UserPresetsDialog::editedLibrary() const
{
    // what the editor holds, or the library in use while the text does not read
    auto library = core::readPresetLibrary(m_editor->toPlainText().toStdString());
    return library ? library.value() : core::userPresets();
}

void UserPresetsDialog::addDeviceFromScenario()
{
    core::PresetFile current = editedLibrary();
    core::DeviceSpec device = m_scenario.device;
    device.presetId = freshId(device.name.empty() ? "device" : device.name, current);
    current.devices.push_back(device);
    setLibrary(current);
}

void UserPresetsDialog::addModelFromScenario()
{
    core::PresetFile current = editedLibrary();
    core::ModelSpec model = m_scenario.model;
    model.presetId = freshId(model.name.empty() ? "model" : model.name, current);
    current.models.push_back(model);
    setLibrary(current);
}

bool UserPresetsDialog::save()
{
    check();
    if (!m_valid)
        return false;
    core::PresetFile library;
    if (!m_editor->toPlainText().trimmed().isEmpty())
        library = core::readPresetLibrary(m_editor->toPlainText().toStdString()).value();
    QString error;
    if (!saveUserPresets(library, &error)) {
        m_verdict->setText(tr("\u2718 %1").arg(error));
        return false;
    }
    emit presetsChanged();
    return true;
}

void UserPresetsDialog::shareSelected()
{
    auto library = core::readPresetLibrary(m_editor->toPlainText().toStdString());
    if (!library)
        return;
    // the selected rows, in the list's order: models, then devices, then links
    core::PresetFile chosen;
    const int models = int(library->models.size());
    const int devices = int(library->devices.size());
    for (int row = 0; row < m_entries->count(); ++row) {
        if (!m_entries->item(row)->isSelected())
            continue;
        if (row < models)
            chosen.models.push_back(library->models[std::size_t(row)]);
        else if (row < models + devices)
            chosen.devices.push_back(library->devices[std::size_t(row - models)]);
        else
            chosen.links.push_back(library->links[std::size_t(row - models - devices)]);
    }
    if (chosen.models.empty() && chosen.devices.empty() && chosen.links.empty())
        chosen = library.value(); // nothing selected: share them all
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Share Presets"), suggestedPath(nullptr, QStringLiteral("presets.json")),
        tr("Presets (*.json)"));
    rememberDialogFolder(path);
    QString error;
    if (!path.isEmpty() && !writeFileAtomically(path, core::presetLibraryToJson(chosen), &error))
        QMessageBox::warning(this, tr("Share Presets"), error);
}

void UserPresetsDialog::import()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import Presets"), suggestedPath(nullptr), tr("Presets (*.json);;All files (*)"));
    rememberDialogFolder(path);
    if (path.isEmpty())
        return;
    QString error;
    if (!importPresetFile(path, &error)) {
        m_verdict->setText(tr("\u2718 %1").arg(error));
        return;
    }
    setLibrary(core::userPresets());
    emit presetsChanged();
}

} // namespace views

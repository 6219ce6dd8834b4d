// SPDX-License-Identifier: GPL-3.0-or-later
#include "selectionwizard.h"

#include "views/document/dialogfolder.h"
#include "views/document/scenariodocument.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"
#include "views/wizard/checksview.h"
#include "views/wizard/decisionview.h"

#include "core/data/presets.h"
#include "core/decide/selection.h"
#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/scenarioaccess.h"
#include "core/model/scenarioedits.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QLabel *explanation(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    return label;
}

} // namespace

SelectionWizard::SelectionWizard(ScenarioDocument *target, QWidget *parent)
    : QWizard(parent)
    , m_target(target)
    , m_working(new ScenarioDocument(this))
{
    setObjectName(QStringLiteral("selectionWizard"));
    setWindowTitle(tr("Device-Selection Wizard"));
    setWizardStyle(QWizard::ClassicStyle);
    m_working->reset(target->scenario());
    m_working->setUnits(target->units());
    setPage(RegimePage, createRegimePage());
    setPage(WorkloadPage, createWorkloadPage());
    setPage(CandidatesPage, createCandidatesPage());
    setPage(ChecksPage, createChecksPage());
    setPage(DecisionPage, createDecisionPage());
    setButtonText(QWizard::FinishButton, tr("Apply to Scenario"));
    connect(m_working, &ScenarioDocument::changed, this, &SelectionWizard::refreshEditors);
    refreshEditors();
    resize(980, 700);
}

QWizardPage *SelectionWizard::createRegimePage()
{
    auto *page = new QWizardPage(this);
    page->setTitle(tr("What will the device do?"));
    page->setSubTitle(tr("The same six questions, asked in the terms of the work (l.195-200)."));
    auto *layout = new QVBoxLayout(page);
    m_regime = new QButtonGroup(page);
    const struct
    {
        core::Regime regime;
        QString name;
        QString text;
    } regimes[] = {
        {core::Regime::Online, tr("Online inference"),
         tr("Many short requests under a latency target: time to first token, then pacing. "
            "Memory bandwidth, KV capacity and batching within the p95 decide.")},
        {core::Regime::Training, tr("Training"),
         tr("Days or weeks on many devices: sustained arithmetic, memory for the training state, "
            "fast links for gradient synchronisation, and resuming from checkpoints.")},
        {core::Regime::Edge, tr("Edge and on-device inference"),
         tr("Small quantised models under power, thermal and cost limits, next to the operating "
            "system's own memory: energy per answer and the toolchain decide.")},
    };
    for (const auto &regime : regimes) {
        auto *button = new QRadioButton(regime.name, page);
        button->setObjectName(QStringLiteral("regime%1").arg(int(regime.regime)));
        m_regime->addButton(button, int(regime.regime));
        layout->addWidget(button);
        auto *text = explanation(regime.text, page);
        text->setContentsMargins(24, 0, 0, 8);
        layout->addWidget(text);
    }
    layout->addStretch(1);
    connect(m_regime, &QButtonGroup::idClicked, this, [this](int id) {
        core::Scenario s = m_working->scenario();
        s.wizard.regime = core::Regime(id);
        m_working->applyScenario(s, tr("Change Regime"));
        m_working->flush();
    });
    return page;
}

void SelectionWizard::addNumber(QFormLayout *form, const QString &path, double displayScale)
{
    const core::ParameterInfo *info = core::findParameter(path.toStdString());
    Q_ASSERT(info);
    auto *spin = new QDoubleSpinBox(form->parentWidget());
    spin->setDecimals(info->integer ? 0 : (displayScale == 100.0 ? 0 : 2));
    fitParameterEditor(spin, *info, displayScale);
    spin->setGroupSeparatorShown(true);
    spin->setKeyboardTracking(false);
    const QString unit = displayScale == 100.0 ? QStringLiteral("%") : fromView(info->unit);
    if (!unit.isEmpty())
        spin->setSuffix(QLatin1Char(' ') + unit);
    spin->setToolTip(fromView(info->help));
    connect(spin, &QDoubleSpinBox::editingFinished, this, [this, spin, path, displayScale] {
        if (m_updating || !changedFromShown(spin))
            return;
        QString error;
        const bool ok = m_working->setNumber(path, spin->value() / displayScale, &error);
        m_refusal->setText(ok ? QString() : error);
        m_refusal->setVisible(!ok);
        m_working->flush();
        if (!ok)
            refreshEditors(); // the editor shows the value still in force
    });
    form->addRow(fromView(info->name), spin);
    m_editors.insert(path, spin);
    m_scales.insert(path, displayScale);
}

void SelectionWizard::setGeneratedTokens(double generated)
{
    // generated = context - prompt: the prompt stays, the context moves
    QString error;
    const double prompt = m_working->scenario().serving.promptTokens;
    const bool ok =
        m_working->setNumber(QStringLiteral("serving.context_tokens"), prompt + generated, &error,
                             ScenarioDocument::Following::InputOnly);
    m_refusal->setText(ok ? QString() : error);
    m_refusal->setVisible(!ok);
    m_working->flush();
    if (!ok)
        refreshEditors();
}

QWizardPage *SelectionWizard::createWorkloadPage()
{
    auto *page = new QWizardPage(this);
    page->setTitle(tr("The workload"));
    page->setSubTitle(tr("Peak concurrency, tokens per sequence and targets come from a load test "
                         "(l.204); prices from your provider."));
    auto *columns = new QHBoxLayout(page);
    auto *left = new QFormLayout;
    auto *right = new QFormLayout;
    auto *leftBox = new QWidget(page);
    auto *rightBox = new QWidget(page);
    leftBox->setLayout(left);
    rightBox->setLayout(right);
    columns->addWidget(leftBox, 1);
    columns->addWidget(rightBox, 1);

    auto *model = new QComboBox(leftBox);
    model->setObjectName(QStringLiteral("model"));
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == "model")
            model->addItem(QString::fromStdString(info.name), QString::fromStdString(info.id));
    }
    model->setCurrentIndex(
        model->findData(QString::fromStdString(m_working->scenario().model.presetId)));
    connect(model, &QComboBox::activated, this, [this, model](int index) {
        m_working->setModelPreset(model->itemData(index).toString());
        m_working->flush();
    });
    auto *importButton = new QPushButton(tr("Import config.json..."), leftBox);
    importButton->setToolTip(tr("A Hugging Face config.json as the model"));
    connect(importButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Import config.json"), suggestedPath(m_target),
                                         tr("Model configs (*.json);;All files (*)"));
        rememberDialogFolder(path);
        if (!path.isEmpty())
            importModel(path);
    });
    m_model = model;
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(model, 1);
    modelRow->addWidget(importButton);
    left->addRow(tr("Model"), modelRow);
    auto *formats = new QWidget(leftBox);
    auto *formatRow = new QHBoxLayout(formats);
    formatRow->setContentsMargins(0, 0, 0, 0);
    for (const core::NumericFormat format : core::kAllFormats) {
        if (!core::isStorageFormat(format))
            continue;
        auto *box = new QCheckBox(fromView(core::formatLabel(format)), formats);
        box->setObjectName(QStringLiteral("format-") + fromView(core::formatKey(format)));
        box->setProperty("format", int(format));
        formatRow->addWidget(box);
        m_formats << box;
        connect(box, &QCheckBox::toggled, this, [this] {
            if (m_updating)
                return;
            core::Scenario s = m_working->scenario();
            s.wizard.formats.clear();
            for (QCheckBox *b : std::as_const(m_formats)) {
                if (b->isChecked())
                    s.wizard.formats.push_back(core::NumericFormat(b->property("format").toInt()));
            }
            m_working->applyScenario(s, tr("Change Formats"));
            m_working->flush();
        });
    }
    left->addRow(tr("Weight formats to try"), formats);
    addNumber(left, QStringLiteral("serving.concurrent_sequences"));
    // the concurrency from the traffic (Little's law), offered beside the number it replaces
    m_inFlight = new QLabel(leftBox);
    m_inFlight->setObjectName(QStringLiteral("sequences_in_flight"));
    m_inFlight->setWordWrap(true);
    m_inFlight->setTextFormat(Qt::PlainText);
    m_useInFlight = new QPushButton(leftBox);
    m_useInFlight->setObjectName(QStringLiteral("use_sequences_in_flight"));
    connect(m_useInFlight, &QPushButton::clicked, this, [this] {
        const core::SequencesInFlight inFlight = core::sequencesInFlight(m_working->scenario());
        if (!inFlight.available)
            return;
        QString error;
        const bool ok = m_working->setNumber(QStringLiteral("serving.concurrent_sequences"),
                                             inFlight.sequences, &error);
        m_refusal->setText(ok ? QString() : error);
        m_refusal->setVisible(!ok);
        m_working->flush();
        refreshEditors();
    });
    auto *inFlightRow = new QVBoxLayout;
    inFlightRow->addWidget(m_inFlight);
    inFlightRow->addWidget(m_useInFlight, 0, Qt::AlignLeft);
    left->addRow(tr("Sequences in flight"), inFlightRow);
    addNumber(left, QStringLiteral("serving.prompt_tokens"));
    auto *generated = new QDoubleSpinBox(leftBox);
    generated->setObjectName(QStringLiteral("generated_tokens"));
    generated->setRange(0, 1e8);
    generated->setDecimals(0);
    generated->setGroupSeparatorShown(true);
    generated->setKeyboardTracking(false);
    generated->setSuffix(tr(" tokens"));
    generated->setToolTip(
        tr("Tokens generated per request: the context is the prompt plus these."));
    connect(generated, &QDoubleSpinBox::editingFinished, this, [this, generated] {
        if (!m_updating)
            setGeneratedTokens(generated->value());
    });
    left->addRow(tr("Generated tokens"), generated);
    m_editors.insert(QStringLiteral("generated"), generated);
    addNumber(left, QStringLiteral("serving.ttft_target_s"));
    addNumber(left, QStringLiteral("serving.pacing_target_tokens_s"));
    addNumber(left, QStringLiteral("serving.overhead_gb"));
    addNumber(right, QStringLiteral("cost.price_per_hour_usd"));
    addNumber(right, QStringLiteral("cost.utilisation"), 100.0);
    addNumber(right, QStringLiteral("traffic.requests_per_day"));
    addNumber(right, QStringLiteral("traffic.peak_requests_per_second"));
    addNumber(right, QStringLiteral("cost.api_usd_per_million_input"));
    addNumber(right, QStringLiteral("cost.api_usd_per_million_output"));
    addNumber(right, QStringLiteral("wizard.min_replicas"));
    addNumber(right, QStringLiteral("training.micro_batch"));
    addNumber(right, QStringLiteral("training.sequence_length"));
    m_onPremises =
        new QCheckBox(tr("Data must stay on our network (no hosted-API fallback)"), rightBox);
    m_onPremises->setObjectName(QStringLiteral("data_on_premises"));
    connect(m_onPremises, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        core::Scenario s = m_working->scenario();
        s.wizard.dataOnPremises = on;
        m_working->applyScenario(s, tr("Change Data Location"));
        m_working->flush();
    });
    right->addRow(m_onPremises);
    m_refusal = new QLabel(rightBox);
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->hide();
    right->addRow(m_refusal);
    return page;
}

QWizardPage *SelectionWizard::createCandidatesPage()
{
    auto *page = new QWizardPage(this);
    page->setTitle(tr("Candidate devices"));
    page->setSubTitle(tr("Tick the devices to compare; type your price over a list price. Until "
                         "you tick, the model chooses: the lesson's accelerators for its model, "
                         "else six widely rented data-centre GPUs and the scenario's own. A "
                         "device without a price cannot win on cost (none is borrowed)."));
    auto *layout = new QVBoxLayout(page);
    m_filter = new QLineEdit(page);
    m_filter->setPlaceholderText(tr("Filter by name or id"));
    m_filter->setClearButtonEnabled(true);
    m_candidates = new QTableWidget(0, 4, page);
    m_candidates->setObjectName(QStringLiteral("candidates"));
    m_candidates->setHorizontalHeaderLabels(
        {tr("Device"), tr("Memory"), tr("Bandwidth"), tr("Price per hour (editable)")});
    m_candidates->verticalHeader()->setVisible(false);
    m_candidates->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_candidates->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto *addCustom = new QPushButton(tr("Add Custom Device..."), page);
    addCustom->setToolTip(tr("A device that is no preset: a quote, or a part not yet listed"));
    connect(addCustom, &QPushButton::clicked, this, [this] { addCustomDeviceWithDialog(); });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int row = 0; row < m_candidates->rowCount(); ++row) {
            const QTableWidgetItem *item = m_candidates->item(row, 0);
            m_candidates->setRowHidden(
                row, !text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive) &&
                         !item->data(Qt::UserRole).toString().contains(text, Qt::CaseInsensitive));
        }
    });
    connect(m_candidates, &QTableWidget::itemChanged, this, [this] {
        if (!m_updating)
            applyCandidates();
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_filter, 1);
    buttons->addWidget(addCustom);
    layout->addLayout(buttons);
    layout->addWidget(m_candidates, 1);
    fillCandidates();
    return page;
}

void SelectionWizard::fillCandidates()
{
    m_updating = true;
    const core::Scenario &s = m_working->scenario();
    m_candidates->setRowCount(0);
    auto addRow = [&](const QString &id, const core::DeviceSpec &device, bool checked,
                      bool custom) {
        const int row = m_candidates->rowCount();
        m_candidates->insertRow(row);
        auto *name = new QTableWidgetItem(QString::fromStdString(device.name) +
                                          (custom ? tr(" (custom)") : QString()));
        name->setData(Qt::UserRole, id);
        name->setData(Qt::UserRole + 1, custom);
        name->setFlags((name->flags() | Qt::ItemIsUserCheckable) & ~Qt::ItemIsEditable);
        name->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
        auto fixed = [](const QString &text) {
            auto *item = new QTableWidgetItem(text);
            item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return item;
        };
        const core::DeviceFollowers follow = core::deviceFollowers(device, s.wizard);
        const bool overridden = follow.negotiated;
        const double price = follow.pricePerHourUsd;
        auto *priceItem =
            new QTableWidgetItem(core::isSet(price) ? style::number(price, 4) : QString());
        priceItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        priceItem->setToolTip(overridden ? tr("Your price (the preset's: %1)")
                                               .arg(core::isSet(device.pricePerHourUsd)
                                                        ? style::number(device.pricePerHourUsd)
                                                        : tr("none"))
                                         : tr("The preset's list price; type yours over it"));
        QFont font = priceItem->font();
        font.setBold(overridden);
        priceItem->setFont(font);
        m_candidates->setItem(row, 0, name);
        m_candidates->setItem(row, 1, fixed(tr("%1 GB").arg(style::number(device.capacityGb()))));
        m_candidates->setItem(row, 2,
                              fixed(tr("%1 GB/s").arg(style::number(device.bandwidthGbPerSecond))));
        m_candidates->setItem(row, 3, priceItem);
    };
    const std::vector<std::string> checked = core::candidateIds(s);
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind != "device")
            continue;
        const auto device = core::devicePreset(info.id);
        if (!device)
            continue;
        const bool chosen = std::find(checked.begin(), checked.end(), info.id) != checked.end();
        addRow(QString::fromStdString(info.id), device.value(), chosen, false);
    }
    for (const core::DeviceSpec &device : s.wizard.customDevices)
        addRow(QString(), device, true, true);
    m_candidates->resizeColumnsToContents();
    m_candidates->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_updating = false;
}

void SelectionWizard::addCustomDeviceWithDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Add Custom Device"));
    auto *form = new QFormLayout(&dialog);
    auto *name = new QLineEdit(&dialog);
    auto spin = [&](double maximum, const QString &suffix) {
        auto *box = new QDoubleSpinBox(&dialog);
        box->setRange(0, maximum);
        box->setDecimals(2);
        box->setSuffix(suffix);
        return box;
    };
    QDoubleSpinBox *memory = spin(1e6, tr(" GB"));
    QDoubleSpinBox *bandwidth = spin(1e6, tr(" GB/s"));
    QDoubleSpinBox *peak = spin(1e7, tr(" TFLOP/s"));
    QDoubleSpinBox *price = spin(1e5, tr(" USD/h"));
    form->addRow(tr("Name"), name);
    form->addRow(tr("Memory"), memory);
    form->addRow(tr("Memory bandwidth"), bandwidth);
    form->addRow(tr("BF16 peak (dense)"), peak);
    form->addRow(tr("Price per hour (0: none)"), price);
    auto *refusal = new QLabel(&dialog);
    refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    form->addRow(refusal);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        if (name->text().trimmed().isEmpty() || memory->value() <= 0 || bandwidth->value() <= 0 ||
            peak->value() <= 0)
            refusal->setText(tr("A name, memory, bandwidth and peak are needed to check it."));
        else
            dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return;
    addCustomDevice(name->text().trimmed(), memory->value(), bandwidth->value(), peak->value(),
                    price->value());
}

void SelectionWizard::addCustomDevice(const QString &name, double memoryGb, double bandwidth,
                                      double bf16Tflops, double pricePerHour)
{
    core::DeviceSpec device;
    device.name = name.toStdString();
    device.memoryGb = memoryGb;
    device.bandwidthGbPerSecond = bandwidth;
    device.peakTflops[static_cast<std::size_t>(core::NumericFormat::Bf16)] = bf16Tflops;
    device.nativeFormats = std::vector<core::NumericFormat>{core::NumericFormat::Bf16};
    if (pricePerHour > 0)
        device.pricePerHourUsd = pricePerHour;
    device.sources["*"] = "entered in the device-selection wizard";
    core::Scenario s = m_working->scenario();
    s.wizard.customDevices.push_back(device);
    m_working->applyScenario(s, tr("Add Custom Device"));
    m_working->flush();
    fillCandidates();
}

void SelectionWizard::applyCandidates()
{
    const core::Scenario &current = m_working->scenario();
    core::Scenario s = current;
    s.wizard.candidates.emplace(); // ticked by hand: exactly the ticked ones from now on
    s.wizard.customDevices.clear();
    std::size_t customIndex = 0;
    for (int row = 0; row < m_candidates->rowCount(); ++row) {
        const QTableWidgetItem *name = m_candidates->item(row, 0);
        const QTableWidgetItem *priceItem = m_candidates->item(row, 3);
        if (!name || !priceItem)
            return; // still being filled
        const bool custom = name->data(Qt::UserRole + 1).toBool();
        const bool checked = name->checkState() == Qt::Checked;
        std::string key;
        double listed = core::kUnset;
        if (custom) {
            // custom rows follow the presets, in the scenario's order
            if (customIndex >= current.wizard.customDevices.size())
                return;
            const core::DeviceSpec &device = current.wizard.customDevices[customIndex++];
            key = device.name;
            listed = device.pricePerHourUsd;
            if (checked) // unticking a custom device removes it
                s.wizard.customDevices.push_back(device);
        } else {
            key = name->data(Qt::UserRole).toString().toStdString();
            if (checked)
                s.wizard.candidates->push_back(key);
            if (const auto preset = core::devicePreset(key))
                listed = preset->pricePerHourUsd;
        }
        // a price typed over the list price is the wizard's own
        bool ok = false;
        const double typed =
            QString(priceItem->text()).remove(QLatin1Char(',')).trimmed().toDouble(&ok);
        if (ok && typed >= 0 && typed <= 1e5 && !(core::isSet(listed) && typed == listed))
            s.wizard.prices[key] = typed;
        else
            s.wizard.prices.erase(key);
    }
    const bool removed = s.wizard.customDevices.size() != current.wizard.customDevices.size();
    m_working->applyScenario(s, tr("Change Candidates"));
    m_working->flush();
    if (removed) // the table changes under the signal that asked: refill it afterwards
        QMetaObject::invokeMethod(this, &SelectionWizard::fillCandidates, Qt::QueuedConnection);
}

void SelectionWizard::setCandidatePrice(const QString &id, double pricePerHour)
{
    for (int row = 0; row < m_candidates->rowCount(); ++row) {
        const QTableWidgetItem *name = m_candidates->item(row, 0);
        if (name->data(Qt::UserRole).toString() == id || name->text() == id + tr(" (custom)"))
            m_candidates->item(row, 3)->setText(QString::number(pricePerHour));
    }
}

QWizardPage *SelectionWizard::createChecksPage()
{
    auto *page = new QWizardPage(this);
    page->setTitle(tr("The six checks"));
    page->setSubTitle(tr("Click a cell for its reasoning; click a column header to sort."));
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(new ChecksView(m_working, page), 1);
    return page;
}

QWizardPage *SelectionWizard::createDecisionPage()
{
    auto *page = new QWizardPage(this);
    page->setTitle(tr("The decision"));
    page->setSubTitle(tr("\"Apply to Scenario\" makes this the scenario's device and format, with "
                         "the workload above, as one step you can undo."));
    auto *layout = new QVBoxLayout(page);
    auto *decision = new DecisionView(m_working, page);
    decision->applyButton()->hide(); // the wizard's own Finish button applies
    layout->addWidget(decision, 1);
    return page;
}

void SelectionWizard::refreshEditors()
{
    m_updating = true;
    const core::Scenario &s = m_working->scenario();
    if (m_regime && m_regime->button(int(s.wizard.regime)))
        m_regime->button(int(s.wizard.regime))->setChecked(true);
    for (QCheckBox *box : std::as_const(m_formats)) {
        const auto format = core::NumericFormat(box->property("format").toInt());
        box->setChecked(std::find(s.wizard.formats.begin(), s.wizard.formats.end(), format) !=
                        s.wizard.formats.end());
    }
    if (m_onPremises)
        m_onPremises->setChecked(s.wizard.dataOnPremises);
    for (auto it = m_editors.constBegin(); it != m_editors.constEnd(); ++it) {
        auto *spin = qobject_cast<QDoubleSpinBox *>(it.value());
        if (!spin)
            continue;
        if (it.key() == QStringLiteral("generated")) {
            spin->setValue(s.serving.contextTokens - s.serving.promptTokens);
            continue;
        }
        const auto value = core::numberAt(s, it.key().toStdString());
        const bool known = value && std::isfinite(*value);
        spin->setSpecialValueText(known ? QString() : tr("not set"));
        showParameterValue(spin, known ? *value * m_scales.value(it.key(), 1.0) : spin->minimum());
    }
    showSequencesInFlight();
    if (m_candidates && !s.wizard.candidates) {
        // nothing ticked by hand yet: the ticks follow the model and the regime as they change
        const std::vector<std::string> automatic = core::candidateIds(s);
        for (int row = 0; row < m_candidates->rowCount(); ++row) {
            QTableWidgetItem *name = m_candidates->item(row, 0);
            if (!name || name->data(Qt::UserRole + 1).toBool())
                continue; // a custom device is always ticked
            const std::string id = name->data(Qt::UserRole).toString().toStdString();
            const bool ticked =
                std::find(automatic.begin(), automatic.end(), id) != automatic.end();
            name->setCheckState(ticked ? Qt::Checked : Qt::Unchecked);
        }
    }
    const bool training = s.wizard.regime == core::Regime::Training;
    for (const char *path : {"training.micro_batch", "training.sequence_length"}) {
        if (QWidget *editor = m_editors.value(QLatin1String(path)))
            editor->setEnabled(training);
    }
    m_updating = false;
}

void SelectionWizard::showSequencesInFlight()
{
    if (!m_inFlight)
        return;
    const core::Scenario &s = m_working->scenario();
    const core::SequencesInFlight inFlight = core::sequencesInFlight(s);
    m_inFlight->setText(QString::fromStdString(inFlight.reasoning));
    m_useInFlight->setText(
        inFlight.available
            ? tr("Use %1 Concurrent Sequences").arg(style::number(inFlight.sequences))
            : tr("Use the Traffic's Concurrency"));
    m_useInFlight->setEnabled(inFlight.available &&
                              inFlight.sequences != s.serving.concurrentSequences);
}

void SelectionWizard::initializePage(int id)
{
    QWizard::initializePage(id);
    if (id == CandidatesPage) // unticked candidates follow the model chosen on the last page
        fillCandidates();
}

bool SelectionWizard::importModel(const QString &configPath)
{
    QString error;
    if (!m_working->importModel(configPath, &error)) {
        m_refusal->setText(error);
        m_refusal->setVisible(true);
        return false;
    }
    m_working->flush();
    m_refusal->hide();
    const QString name =
        tr("%1 (imported)").arg(QString::fromStdString(m_working->scenario().model.name));
    if (m_model->itemData(0).toString().isEmpty() && m_model->count() > 0 &&
        m_model->itemText(0).endsWith(tr("(imported)")))
        m_model->setItemText(0, name);
    else
        m_model->insertItem(0, name, QString());
    m_model->setCurrentIndex(0);
    return true;
}

QString SelectionWizard::lastRefusal() const
{
    return m_refusal->isHidden() ? QString() : m_refusal->text();
}

void SelectionWizard::accept()
{
    core::Scenario result = m_working->scenario();
    m_target->applyScenario(core::decidedScenario(result, core::selectDevice(result)),
                            tr("Apply Device Selection"));
    QWizard::accept();
}

} // namespace views

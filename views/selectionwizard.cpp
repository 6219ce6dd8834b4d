#include "selectionwizard.h"

#include "checksview.h"
#include "decisionview.h"
#include "scenariodocument.h"
#include "style.h"

#include "core/parameters.h"
#include "core/presets.h"
#include "core/scenario.h"
#include "core/scenarioaccess.h"
#include "core/selection.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
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

const core::Candidate *recommended(const core::Selection &selection)
{
    const core::Recommendation &r = selection.recommendation;
    for (const core::Candidate &c : selection.candidates) {
        if (r.found && c.deviceId == r.deviceId && c.weightFormat == r.weightFormat)
            return &c;
    }
    return nullptr;
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
    spin->setObjectName(path);
    spin->setDecimals(info->integer ? 0 : (displayScale == 100.0 ? 0 : 2));
    const double low = info->minimumExclusive ? info->minimum + 0.01 : info->minimum;
    spin->setRange(low * displayScale, std::min(info->maximum, 1e9) * displayScale);
    spin->setGroupSeparatorShown(true);
    spin->setKeyboardTracking(false);
    const QString unit = displayScale == 100.0 ? QStringLiteral("%") : fromView(info->unit);
    if (!unit.isEmpty())
        spin->setSuffix(QLatin1Char(' ') + unit);
    spin->setToolTip(fromView(info->help));
    connect(spin, &QDoubleSpinBox::editingFinished, this, [this, spin, path, displayScale] {
        if (m_updating)
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
        m_working->setNumber(QStringLiteral("serving.context_tokens"), prompt + generated, &error);
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
    left->addRow(tr("Model"), model);
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
    page->setSubTitle(tr("Tick the devices to compare. The scenario's own device is always "
                         "checked too, edited or custom; devices without a price use the "
                         "scenario's price per hour."));
    auto *layout = new QVBoxLayout(page);
    m_filter = new QLineEdit(page);
    m_filter->setPlaceholderText(tr("Filter by name or id"));
    m_filter->setClearButtonEnabled(true);
    m_candidates = new QListWidget(page);
    m_candidates->setObjectName(QStringLiteral("candidates"));
    const core::Scenario &s = m_working->scenario();
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind != "device")
            continue;
        const auto device = core::devicePreset(info.id);
        QString text = QString::fromStdString(info.name);
        if (device)
            text += tr(": %1 GB, %2 GB/s")
                        .arg(style::number(device->capacityGb()),
                             style::number(device->bandwidthGbPerSecond));
        if (device && core::isSet(device->pricePerHourUsd))
            text += tr(", $%1/h").arg(style::number(device->pricePerHourUsd));
        auto *item = new QListWidgetItem(text, m_candidates);
        item->setData(Qt::UserRole, QString::fromStdString(info.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool chosen = std::find(s.wizard.candidates.begin(), s.wizard.candidates.end(),
                                      info.id) != s.wizard.candidates.end();
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
    }
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_candidates->count(); ++i) {
            QListWidgetItem *item = m_candidates->item(i);
            item->setHidden(
                !text.isEmpty() && !item->text().contains(text, Qt::CaseInsensitive) &&
                !item->data(Qt::UserRole).toString().contains(text, Qt::CaseInsensitive));
        }
    });
    connect(m_candidates, &QListWidget::itemChanged, this, [this] { applyCandidates(); });
    layout->addWidget(m_filter);
    layout->addWidget(m_candidates, 1);
    return page;
}

void SelectionWizard::applyCandidates()
{
    core::Scenario s = m_working->scenario();
    s.wizard.candidates.clear();
    for (int i = 0; i < m_candidates->count(); ++i) {
        if (m_candidates->item(i)->checkState() == Qt::Checked)
            s.wizard.candidates.push_back(
                m_candidates->item(i)->data(Qt::UserRole).toString().toStdString());
    }
    m_working->applyScenario(s, tr("Change Candidates"));
    m_working->flush();
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
        spin->setValue(known ? *value * m_scales.value(it.key(), 1.0) : spin->minimum());
    }
    const bool training = s.wizard.regime == core::Regime::Training;
    for (const char *path : {"training.micro_batch", "training.sequence_length"}) {
        if (QWidget *editor = m_editors.value(QLatin1String(path)))
            editor->setEnabled(training);
    }
    m_updating = false;
}

QString SelectionWizard::lastRefusal() const
{
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

void SelectionWizard::accept()
{
    core::Scenario result = m_working->scenario();
    const core::Selection selection = core::selectDevice(result);
    if (const core::Candidate *best = recommended(selection)) {
        result.device = best->device;
        result.serving.weightFormat = best->weightFormat;
    }
    m_target->applyScenario(result, tr("Apply Device Selection"));
    QWizard::accept();
}

} // namespace views

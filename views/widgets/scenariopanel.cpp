// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariopanel.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/batchcontrol.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/calibrate/calibration.h"
#include "core/data/presets.h"
#include "core/model/parameters.h"
#include "core/model/scenarioaccess.h"
#include "core/model/weightparts.h"

#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString tooltipFor(const core::ParameterInfo &info)
{
    return ScenarioPanel::tr("%1 (%2)\n%3\nValid: %4 to %5.")
        .arg(fromView(info.name),
             info.unit.empty() ? ScenarioPanel::tr("no unit") : fromView(info.unit),
             fromView(info.help))
        .arg(info.minimum)
        .arg(info.maximum);
}

} // namespace

ScenarioPanel::ScenarioPanel(ScenarioDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new QComboBox(this))
    , m_device(new QComboBox(this))
    , m_weightFormat(new QComboBox(this))
    , m_kvFormat(new QComboBox(this))
    , m_partFormats(new QLabel(this))
    , m_estimate(new QComboBox(this))
    , m_estimateNote(new QLabel(this))
    , m_refusal(new QLabel(this))
{
    setObjectName(QStringLiteral("scenarioPanel"));
    auto *layout = new QVBoxLayout(this);
    auto *title = new QLabel(tr("<b>SCENARIO</b>"), this);
    layout->addWidget(title);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);

    for (QComboBox *picker : {m_model, m_device}) {
        picker->setEditable(true);
        picker->setInsertPolicy(QComboBox::NoInsert);
        picker->completer()->setFilterMode(Qt::MatchContains);
        picker->completer()->setCompletionMode(QCompleter::PopupCompletion);
        picker->setMinimumContentsLength(10);
        picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    fillPresets(m_model, "model");
    fillPresets(m_device, "device");
    m_model->setToolTip(tr("The model: every preset, filtered as you type."));
    m_device->setToolTip(tr("The device: every preset, filtered as you type."));
    // grouped as the questions come: what runs on what, how it is served, what it costs, and
    // the rest one click away (issue #42 item 9)
    const auto heading = [&](const QString &text) {
        auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(text), this);
        label->setContentsMargins(0, 6, 0, 0);
        form->addRow(label);
    };
    heading(tr("Model and device"));
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Device"), m_device);

    // which estimate every figure is: the lesson's speed of light, or efficiencies and a step
    // overhead fitted to measured runs (issue #24)
    m_estimate->addItem(tr("Speed of light"), int(core::EstimateMode::SpeedOfLight));
    m_estimate->addItem(tr("Typical (published runs)"), int(core::EstimateMode::Typical));
    m_estimate->addItem(tr("Calibrated (your runs)"), int(core::EstimateMode::Calibrated));
    m_estimate->setToolTip(
        tr("Speed of light: the lesson's perfect hardware, a ceiling. Typical: efficiencies and a "
           "step overhead fitted to 18 published runs. Calibrated: fitted to your own runs (File "
           "> Import Measurements)."));
    m_estimate->setAccessibleName(tr("Estimate"));
    form->addRow(tr("Estimate"), m_estimate);
    m_estimateNote->setWordWrap(true);
    m_estimateNote->setObjectName(QStringLiteral("estimateNote"));
    form->addRow(QString(), m_estimateNote);

    for (core::NumericFormat f : core::kAllFormats) {
        if (!core::isStorageFormat(f))
            continue;
        m_weightFormat->addItem(fromView(core::formatLabel(f)), int(f));
        m_kvFormat->addItem(fromView(core::formatLabel(f)), int(f));
    }
    m_weightFormat->setToolTip(tr("Weight format: bytes per parameter of the stored weights."));
    m_kvFormat->setToolTip(tr("KV-cache format: bytes per cached key or value element."));
    heading(tr("Serving"));
    form->addRow(tr("Weights"), m_weightFormat);
    // a quantised checkpoint keeps some parts at 16 bits: said under the format it changes
    m_partFormats->setWordWrap(true);
    m_partFormats->setObjectName(QStringLiteral("partFormatsNote"));
    m_partFormats->setTextFormat(Qt::RichText);
    m_partFormats->setVisible(false);
    connect(m_partFormats, &QLabel::linkActivated, this,
            [this] { m_document->useOneWeightFormat(); });
    form->addRow(QString(), m_partFormats);
    form->addRow(tr("KV cache"), m_kvFormat);

    m_batch = new LogSliderControl(document, QStringLiteral("serving.batch"), this);
    m_context = new LogSliderControl(document, QStringLiteral("serving.context_tokens"), this);
    form->addRow(tr("Batch"), m_batch);
    form->addRow(tr("Context"), m_context);
    addNumber(form, QStringLiteral("serving.prompt_tokens"));
    addNumber(form, QStringLiteral("serving.concurrent_sequences"));
    addNumber(form, QStringLiteral("serving.overhead_gb"));
    addNumber(form, QStringLiteral("serving.tensor_parallel"));
    addNumber(form, QStringLiteral("serving.pipeline_parallel"));
    heading(tr("Cost"));
    addNumber(form, QStringLiteral("cost.price_per_hour_usd"));
    addNumber(form, QStringLiteral("cost.utilisation"), 100.0);
    heading(tr("More inputs"));
    m_more = new QLabel(this);
    m_more->setObjectName(QStringLiteral("moreInputs"));
    m_more->setWordWrap(true);
    m_more->setTextFormat(Qt::RichText);
    m_more->setText(tr("<a href=\"traffic.\">Traffic</a> \u00b7 <a href=\"load.\">Load "
                       "simulation</a> \u00b7 <a href=\"engine.\">Engine techniques</a> "
                       "\u00b7 <a href=\"all\">All inputs (F8)</a>"));
    m_more->setToolTip(tr("Opens View > All Inputs at that section"));
    connect(m_more, &QLabel::linkActivated, this, [this](const QString &link) {
        emit moreInputsRequested(link == QStringLiteral("all") ? QString() : link);
    });
    form->addRow(m_more);

    m_refusal->setWordWrap(true);
    m_refusal->setObjectName(QStringLiteral("refusal"));
    style::setStyleSheetIfChanged(m_refusal,
                                  QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->hide();
    layout->addWidget(m_refusal);
    layout->addStretch(1);

    connect(m_model, &QComboBox::activated, this, [this](int index) {
        const QString id = m_model->itemData(index).toString();
        QString error;
        if (!id.isEmpty() && !m_document->setModelPreset(id, &error))
            showRefusal(error);
    });
    connect(m_device, &QComboBox::activated, this, [this](int index) {
        const QString id = m_device->itemData(index).toString();
        QString error;
        if (!id.isEmpty() && !m_document->setDevicePreset(id, &error))
            showRefusal(error);
        refresh();
    });
    connect(m_weightFormat, &QComboBox::activated, this, [this](int index) {
        m_document->setWeightFormat(core::NumericFormat(m_weightFormat->itemData(index).toInt()));
    });
    connect(m_kvFormat, &QComboBox::activated, this, [this](int index) {
        m_document->setKvFormat(core::NumericFormat(m_kvFormat->itemData(index).toInt()));
    });
    connect(m_estimate, &QComboBox::activated, this, [this](int index) {
        m_document->setEstimateMode(core::EstimateMode(m_estimate->itemData(index).toInt()));
    });
    connect(document, &ScenarioDocument::changed, this, &ScenarioPanel::refresh);
    refresh();
}

QString ScenarioPanel::partFormatsText() const
{
    return m_partFormats->isVisibleTo(this) ? m_partFormats->text() : QString();
}

QString ScenarioPanel::estimateText() const
{
    return m_estimateNote->text();
}

void ScenarioPanel::reloadPresets()
{
    for (QComboBox *combo : {m_model, m_device}) {
        const QSignalBlocker blocker(combo);
        combo->clear();
    }
    fillPresets(m_model, "model");
    fillPresets(m_device, "device");
    refresh(); // selects the scenario's model and device again
}

void ScenarioPanel::fillPresets(QComboBox *combo, const char *kind)
{
    for (const core::PresetInfo &info : core::presetList()) {
        if (info.kind == kind)
            combo->addItem(QString::fromStdString(info.name), QString::fromStdString(info.id));
    }
}

QAbstractSpinBox *ScenarioPanel::addNumber(QFormLayout *form, const QString &path,
                                           double displayScale)
{
    const core::ParameterInfo *info = core::findParameter(path.toStdString());
    Q_ASSERT(info);
    QAbstractSpinBox *editor = nullptr;
    const QString unit = displayScale == 100.0 ? QStringLiteral("%") : fromView(info->unit);
    if (info->integer) {
        auto *spin = new QSpinBox(this);
        fitParameterEditor(spin, *info);
        spin->setGroupSeparatorShown(true);
        if (!unit.isEmpty())
            spin->setSuffix(QLatin1Char(' ') + unit);
        // a count noun in the singular at 1 ("1 device", not "1 devices"; issue #23)
        static const QRegularExpression countNoun(QStringLiteral("^[a-z]{2,}s$"));
        if (countNoun.match(unit).hasMatch()) {
            const QString singular = unit.chopped(1);
            const auto suffix = [spin, unit, singular](int value) {
                spin->setSuffix(QLatin1Char(' ') + (value == 1 ? singular : unit));
            };
            connect(spin, &QSpinBox::valueChanged, spin, suffix);
            suffix(spin->value()); // the first value emits no change ("1 devices" at launch)
        }
        connect(spin, &QSpinBox::editingFinished, this, [this, spin, path] {
            if (m_updating)
                return;
            QString error;
            if (!m_document->setNumber(path, spin->value(), &error))
                showRefusal(error);
            else
                showRefusal({});
        });
        editor = spin;
    } else {
        auto *spin = new QDoubleSpinBox(this);
        spin->setDecimals(displayScale == 100.0 ? 0 : 2);
        fitParameterEditor(spin, *info, displayScale);
        spin->setSingleStep(displayScale == 100.0 ? 5 : 0.5);
        if (!unit.isEmpty())
            spin->setSuffix(QLatin1Char(' ') + unit);
        connect(spin, &QDoubleSpinBox::editingFinished, this, [this, spin, path, displayScale] {
            if (m_updating || !changedFromShown(spin))
                return;
            QString error;
            if (!m_document->setNumber(path, spin->value() / displayScale, &error))
                showRefusal(error);
            else
                showRefusal({});
        });
        editor = spin;
    }
    editor->setKeyboardTracking(false);
    editor->setToolTip(tooltipFor(*info));
    editor->setAccessibleName(fromView(info->name));
    form->addRow(fromView(info->name), editor);
    m_editors.insert(path, editor);
    m_displayScale.insert(path, displayScale);
    return editor;
}

void ScenarioPanel::showRefusal(const QString &message)
{
    m_refusal->setText(message);
    m_refusal->setVisible(!message.isEmpty());
}

QString ScenarioPanel::lastRefusal() const
{
    return m_refusal->isVisible() ? m_refusal->text() : QString();
}

void ScenarioPanel::refresh()
{
    m_updating = true;
    const core::Scenario &s = m_document->scenario();
    auto select = [](QComboBox *combo, const std::string &presetId, const std::string &name) {
        const int index = combo->findData(QString::fromStdString(presetId));
        if (!presetId.empty() && index >= 0) {
            if (combo->currentIndex() == index)
                return; // nothing to do on the common path (a slider step)
            combo->setCurrentIndex(index);
            if (const int stale = combo->findData(QString()); stale >= 0)
                combo->removeItem(stale); // back on a preset: drop the "(edited)" entry
            return;
        }
        // an inline or edited model/device: show its name, marked as such
        const QString text = ScenarioPanel::tr("%1 (edited)").arg(QString::fromStdString(name));
        int inlineIndex = combo->findData(QString());
        if (inlineIndex < 0) {
            combo->insertItem(0, text, QString());
            inlineIndex = 0;
        } else {
            combo->setItemText(inlineIndex, text);
        }
        combo->setCurrentIndex(inlineIndex);
    };
    // the start of a long name is the telling part: "Lesson accelerator, 80 G...", never
    // "tor, 80 GB (hypothetical)" (the first preset was shown from its end; issue #23)
    auto showStart = [](QComboBox *combo) {
        if (combo->lineEdit() && !combo->lineEdit()->hasFocus() &&
            combo->lineEdit()->cursorPosition() != 0)
            combo->lineEdit()->setCursorPosition(0);
    };
    select(m_model, s.model.presetId, s.model.name);
    select(m_device, s.device.presetId, s.device.name);
    showStart(m_model);
    showStart(m_device);
    m_weightFormat->setCurrentIndex(m_weightFormat->findData(int(s.serving.weightFormat)));
    m_kvFormat->setCurrentIndex(m_kvFormat->findData(int(s.serving.kvFormat)));
    const QString parts = QString::fromStdString(core::describePartFormats(s.model, s.serving));
    m_partFormats->setVisible(!parts.isEmpty());
    if (!parts.isEmpty()) {
        const QString text =
            tr("By part: %1. <a href=\"one\">Use one format</a>").arg(parts.toHtmlEscaped());
        if (m_partFormats->text() != text)
            m_partFormats->setText(text);
    }
    m_weightFormat->setToolTip(
        parts.isEmpty()
            ? tr("Weight format: bytes per parameter of the stored weights.")
            : tr("Weight format of the parts the checkpoint quantised; the others keep their own "
                 "(%1).")
                  .arg(parts));
    m_estimate->setCurrentIndex(m_estimate->findData(int(s.calibration.mode)));
    if (auto *model = qobject_cast<QStandardItemModel *>(m_estimate->model())) {
        // Calibrated needs a profile: fitted from File > Import Measurements or named in the file
        const int calibrated = m_estimate->findData(int(core::EstimateMode::Calibrated));
        if (QStandardItem *item = model->item(calibrated))
            item->setEnabled(s.calibration.profile.has_value());
    }
    const core::Evaluation &e = m_document->evaluation();
    const QString note =
        tr("%1: bandwidth %2 %, compute %3 %, %4 per step")
            .arg(QString::fromStdString(core::estimateLabel(s)),
                 QString::number(e[core::FigureId::EstimateBandwidthEfficiency] * 100.0, 'f', 0),
                 QString::number(e[core::FigureId::EstimateComputeEfficiency] * 100.0, 'f', 0),
                 fromView(core::formatSeconds(e[core::FigureId::EstimateStepOverheadSeconds])));
    // a device outside the fitted data says so beside its estimate (issue #43: an MI300X got
    // the NVIDIA-fitted efficiencies with no remark)
    const core::ReachInfo reach = core::estimateReach(s);
    const bool outside =
        reach.reach == core::EstimateReach::ClassOnly || reach.reach == core::EstimateReach::NoData;
    const QString shown =
        outside ? note + tr(" (outside the fitted data: no measured run of this device)") : note;
    if (m_estimateNote->text() != shown)
        m_estimateNote->setText(shown);
    // where the efficiencies come from: the runs a typical or calibrated profile was fitted on
    QString sources;
    const core::CalibrationProfile *profile =
        s.calibration.mode == core::EstimateMode::Typical ? &core::typicalProfile()
        : s.calibration.mode == core::EstimateMode::Calibrated && s.calibration.profile
            ? &*s.calibration.profile
            : nullptr;
    if (profile) {
        sources = tr("%1, fitted %2 on:")
                      .arg(QString::fromStdString(profile->name),
                           QString::fromStdString(profile->created));
        for (const std::string &source : profile->sources)
            sources += QStringLiteral("\n- ") + QString::fromStdString(source);
    }
    m_estimateNote->setToolTip(QString::fromStdString(reach.text) +
                               (sources.isEmpty() ? QString() : QStringLiteral("\n") + sources));
    for (auto it = m_editors.begin(); it != m_editors.end(); ++it) {
        const auto value = core::numberAt(s, it.key().toStdString());
        if (!value)
            continue;
        const double shown = *value * m_displayScale.value(it.key(), 1.0);
        if (auto *spin = qobject_cast<QSpinBox *>(it.value())) {
            spin->setValue(int(shown));
        } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(it.value())) {
            // an unset value (a device without a price) says so: a spin box shows NaN as its
            // maximum ("100000.00 USD/h")
            const bool known = std::isfinite(shown);
            dspin->setSpecialValueText(known ? QString() : tr("not set"));
            showParameterValue(dspin, known ? shown : dspin->minimum());
        }
    }
    // one utilisation: with traffic given the fleet's busy time is the traffic's (issue #40), so
    // the assumed one is shown as that and cannot be typed over
    if (QAbstractSpinBox *utilisation = m_editors.value(QStringLiteral("cost.utilisation"))) {
        const bool fromTraffic = e[core::FigureId::CostTokensFromTraffic] != 0.0;
        utilisation->setEnabled(!fromTraffic);
        if (fromTraffic) {
            if (auto *dspin = qobject_cast<QDoubleSpinBox *>(utilisation);
                dspin && std::isfinite(e[core::FigureId::CostUtilisation]))
                showParameterValue(dspin, e[core::FigureId::CostUtilisation] * 100.0);
            utilisation->setToolTip(
                tr("Set by the traffic: the fleet is busy this share of its paid hours (average "
                   "requests/s x the seconds a request busies a replica, its prefill and its "
                   "output, / replicas)."));
        } else {
            utilisation->setToolTip(tooltipFor(*core::findParameter("cost.utilisation")));
        }
    }
    m_updating = false;
}

} // namespace views

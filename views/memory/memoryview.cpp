// SPDX-License-Identifier: GPL-3.0-or-later
#include "memoryview.h"

#include "layergroups.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/appearance.h"
#include "views/widgets/chartlabels.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/model/parameters.h"
#include "core/model/scenario.h"
#include "core/model/scenarioedits.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"
#include "core/physics/evaluation.h"
#include "core/physics/lessonfigures.h"
#include "core/train/trainingplan.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QSpinBox>
#include <QStackedBarSeries>

#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include <cmath>

namespace views {

namespace {

using core::FigureId;

struct Segment
{
    const char *name;
    QColor colour;
};

// One colour per concept, the same in every view.
QList<Segment> segmentKinds() // not cached: the greys follow the theme
{
    return {
        {"Weights", style::weights()},          {"Gradients", style::kSkyBlue},
        {"FP32 master copy", style::kYellow},   {"Optimiser moments", style::kVermillion},
        {"Activations", style::kGreen},         {"Logits", style::kGreen.darker(150)},
        {"KV cache", style::kvCache()},         {"Fixed state", style::fixedState()},
        {"Runtime context", style::overhead()}, {"Workspace", style::grey(150)},
        {"Fragmentation", style::grey(90)},
    };
}

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

double unitBytes(core::MemoryUnits units)
{
    return units == core::MemoryUnits::GiB ? core::kGiB : core::kGB;
}

/** While a class predicts the training state, in all or per device, the training bar waits
 *  for Reveal (issues #23, #45). */
bool trainingConcealed(const views::ScenarioDocument &doc)
{
    return doc.isConcealed(FigureId::TrainingStateBytes) ||
           doc.isConcealed(FigureId::TrainingStateBytesPerDevice);
}

} // namespace

MemoryView::MemoryView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_chart(new QChart)
    , m_series(new QStackedBarSeries)
    , m_categories(new QBarCategoryAxis)
    , m_hiddenX(new QValueAxis)
    , m_y(new QValueAxis)
    , m_capacity(new QLineSeries)
    , m_recipe(new QComboBox(this))
    , m_recipeNote(new QLabel(this))
    , m_zeroStage(new QSpinBox(this))
    , m_dpDegree(new QSpinBox(this))
    , m_microBatch(new QSpinBox(this))
    , m_sequenceLength(new QSpinBox(this))
    , m_recompute(new QComboBox(this))
    , m_activations(new QCheckBox(tr("Show activations"), this))
{
    setObjectName(QStringLiteral("memoryView"));
    m_chart->setAnimationOptions(QChart::NoAnimation);
    style::styleChart(m_chart);
    // the key is a wrapping label under the chart: Qt's legend beside the chart took a sixth of
    // its width and cut the bars' names ("Serving BF...") at 1280x800 (issue #42)
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    for (const Segment &kind : segmentKinds()) {
        auto *set = new QBarSet(tr(kind.name));
        set->setColor(kind.colour);
        set->setBorderColor(style::paper());
        m_sets << set;
        m_series->append(set);
    }
    m_series->setBarWidth(0.36);
    m_chart->addSeries(m_series);
    style::styleAxis(m_categories);
    style::styleAxis(m_y);
    m_chart->addAxis(m_categories, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_series->attachAxis(m_categories);
    m_series->attachAxis(m_y);
    // The capacity line spans every bar on a hidden numeric axis beside the category axis.
    m_hiddenX->setVisible(false);
    m_chart->addAxis(m_hiddenX, Qt::AlignTop);
    m_chart->addSeries(m_capacity);
    m_capacity->attachAxis(m_hiddenX);
    m_capacity->attachAxis(m_y);
    m_capacity->setPen(QPen(style::currentDevice(), 2.5 * style::scale(), Qt::DashLine));
    m_labels = std::make_unique<ChartLabels>(m_chart);
    connect(m_series, &QStackedBarSeries::hovered, this, [this](bool state, int, QBarSet *set) {
        if (!state)
            return;
        const QString name = set->label();
        emit explainRequested(name == tr("KV cache")        ? FigureId::KvBytesTotal
                              : name == tr("Fixed state")   ? FigureId::StateBytesTotal
                              : name == tr("Weights")       ? FigureId::WeightsBytes
                              : name == tr("Activations")   ? FigureId::TrainingActivationBytes
                              : name == tr("Fragmentation") ? FigureId::FragmentationBytes
                              : name.startsWith(tr("Runtime")) || name == tr("Workspace")
                                  ? FigureId::OverheadBytes
                                  : FigureId::TrainingStateBytesPerDevice);
    });
    connect(m_capacity, &QLineSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            emit explainRequested(FigureId::HeadroomBytes);
    });

    auto *view = new QChartView(m_chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(360, 260);

    // The training-recipe editor.
    auto *editor = new QWidget(this);
    auto *form = new QFormLayout(editor);
    m_recipe->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_recipe->setMinimumContentsLength(16);
    for (const core::TrainingRecipe &recipe : core::trainingRecipes())
        m_recipe->addItem(fromView(recipe.label), fromView(recipe.key));
    m_recipe->setToolTip(
        tr("Bytes per parameter of the training state. The lesson's recipe is 16 B; "
           "tools that keep FP32 gradients count 18 B."));
    m_recipeNote->setWordWrap(true);
    m_recipeNote->setStyleSheet(QStringLiteral("color: %1").arg(style::grey(0x55).name()));
    fitParameterEditor(m_zeroStage, *core::findParameter("training.zero_stage"));
    m_zeroStage->setToolTip(
        tr("ZeRO: 1 shards the optimiser state (with the master copy), 2 also "
           "the gradients, 3 also the weights, over the data-parallel devices."));
    fitParameterEditor(m_dpDegree, *core::findParameter("training.dp_degree"));
    fitParameterEditor(m_microBatch, *core::findParameter("training.micro_batch"));
    fitParameterEditor(m_sequenceLength, *core::findParameter("training.sequence_length"));
    m_sequenceLength->setSingleStep(1024);
    m_sequenceLength->setGroupSeparatorShown(true);
    m_recompute->addItem(tr("none"), QStringLiteral("none"));
    m_recompute->addItem(tr("selective"), QStringLiteral("selective"));
    m_recompute->addItem(tr("full"), QStringLiteral("full"));
    m_recompute->setToolTip(
        tr("Activation recomputation trades memory for arithmetic (Korthikanti et al. 2022)."));
    // the recipe's whole name on a row of its own ("Mixed precision BF16 + Ada" was cut off)
    form->addRow(new QLabel(tr("Recipe"), editor));
    form->addRow(m_recipe);
    // as wide as the panel, not as its longest recipe: a combo wider than the panel cut the
    // form at its right edge and laid the recipe's note over the next row
    m_recipe->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_recipe->setMinimumContentsLength(16);
    form->addRow(m_recipeNote);
    form->addRow(tr("ZeRO stage"), m_zeroStage);
    form->addRow(tr("Data-parallel devices"), m_dpDegree);
    form->addRow(tr("Micro-batch"), m_microBatch);
    form->addRow(tr("Sequence length"), m_sequenceLength);
    form->addRow(tr("Recompute"), m_recompute);
    m_activations->setChecked(true);
    m_activations->setToolTip(tr("The activations of the micro-batch and sequence above, on the "
                                 "training bar; the lesson's 16 bytes per parameter leave them "
                                 "out"));
    connect(m_activations, &QCheckBox::toggled, this, [this] { refresh(); });
    // The recipe editor folds away: on a projector the bars need the width (issue #23)
    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto *fold = new QToolButton(side);
    fold->setObjectName(QStringLiteral("recipeFold"));
    fold->setText(tr("Training recipe"));
    fold->setCheckable(true);
    fold->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    fold->setAutoRaise(true);
    sideLayout->addWidget(fold);
    sideLayout->addWidget(editor);
    sideLayout->addWidget(m_activations);
    sideLayout->addStretch(1);
    const auto unfold = [fold, editor, side](bool open) {
        fold->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        editor->setVisible(open);
        side->setFixedWidth(open ? int(330 * style::scale()) : side->sizeHint().width());
    };
    connect(fold, &QToolButton::toggled, this, unfold);
    const bool open = !currentAppearance().presenter;
    fold->setChecked(open);
    unfold(open);

    connect(m_recipe, &QComboBox::activated, this, [this](int index) {
        const auto *recipe =
            core::findTrainingRecipe(m_recipe->itemData(index).toString().toStdString());
        if (!recipe)
            return;
        if (auto s = core::withTrainingRecipe(this->document()->scenario(), recipe->key))
            this->document()->applyScenario(s.value(), tr("Change Training Recipe"));
    });
    auto number = [this](QSpinBox *spin, const char *path) {
        connect(spin, &QSpinBox::editingFinished, this, [this, spin, path] {
            // leaving an editor untouched is no edit (a plan's searched value stays unstated)
            if (!m_updating && spin->value() != spin->property("shownValue").toInt())
                this->document()->setNumber(QString::fromLatin1(path), spin->value());
        });
    };
    number(m_zeroStage, "training.zero_stage");
    number(m_dpDegree, "training.dp_degree");
    number(m_microBatch, "training.micro_batch");
    number(m_sequenceLength, "training.sequence_length");
    connect(m_recompute, &QComboBox::activated, this, [this](int index) {
        core::Scenario s = this->document()->scenario();
        const QString mode = m_recompute->itemData(index).toString();
        s.training.recomputeStated = true;
        s.training.recompute = mode == QStringLiteral("full") ? core::RecomputeMode::Full
                               : mode == QStringLiteral("selective")
                                   ? core::RecomputeMode::Selective
                                   : core::RecomputeMode::None;
        this->document()->applyScenario(s, tr("Change Recompute"));
    });

    m_groups = new QLabel(this);
    m_groups->setObjectName(QStringLiteral("layerGroups"));
    m_groups->setWordWrap(true);
    m_key = new QLabel(this);
    m_key->setObjectName(QStringLiteral("memoryKey"));
    m_key->setWordWrap(true);
    m_key->setTextFormat(Qt::RichText);
    m_key->setFont(style::annotationFont(0.9));
    auto *chartColumn = new QVBoxLayout;
    chartColumn->addWidget(view, 1);
    chartColumn->addWidget(m_key);
    chartColumn->addWidget(m_groups);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(chartColumn, 1);
    layout->addWidget(side);
}

MemoryView::~MemoryView() = default;

QList<MemoryView::Bar> MemoryView::bars() const
{
    const core::Scenario &s = document()->scenario();
    const core::Evaluation &e = document()->evaluation();
    QList<Bar> bars;

    Bar training;
    training.training = true;
    const QString recipe =
        s.training.recipe.empty() ? tr("custom") : QString::fromStdString(s.training.recipe);
    // short categories: Qt elides an axis label wider than its column ("Training 16 B/par...",
    // issue #23); the bytes per parameter go in the bar's note
    training.category = tr("Training");
    Q_UNUSED(recipe)
    if (core::asksForTrainingPlan(s)) {
        // a training decision: one device of the plan's layout (the Training tab's bar, the
        // same core::TrainingMemory), not the lesson's whole state on one device
        const core::TrainingPlan &plan = document()->trainingPlan();
        const core::TrainingMemory &m = plan.memory;
        training.plan = plan.problem.empty();
        training.planFailed = !training.plan;
        training.category = tr("Training plan");
        training.note =
            QString::fromStdString(training.plan ? core::describeShape(plan.layout) : plan.problem);
        training.segments = {
            {QStringLiteral("Weights"), m.weights},
            {QStringLiteral("Gradients"), m.gradients},
            {QStringLiteral("FP32 master copy"), m.master},
            {QStringLiteral("Optimiser moments"), m.optimizer},
            {QStringLiteral("Activations"), m_activations->isChecked() ? m.activations : 0.0},
            // the output head's FP32 logits of a micro-batch, apart as the
            // Training tab shows them (40.71 GB read as activations alone)
            {QStringLiteral("Logits"), m_activations->isChecked() ? m.logits : 0.0},
            {QStringLiteral("Runtime context"), m.overhead}};
        if (!training.plan)
            for (auto &segment : training.segments)
                segment.second = 0;
    } else
        training.segments = {
            {QStringLiteral("Weights"), e[FigureId::TrainingWeightsBytesPerDevice]},
            {QStringLiteral("Gradients"), e[FigureId::TrainingGradsBytesPerDevice]},
            {QStringLiteral("FP32 master copy"), e[FigureId::TrainingMasterBytesPerDevice]},
            {QStringLiteral("Optimiser moments"), e[FigureId::TrainingOptimizerBytesPerDevice]},
            {QStringLiteral("Activations"),
             e.available(FigureId::TrainingActivationBytes) && m_activations->isChecked()
                 ? e[FigureId::TrainingActivationBytes]
                 : 0.0}};
    // while a class predicts the training state the bar waits for Reveal (issue #23)
    if (trainingConcealed(*document())) {
        for (auto &segment : training.segments)
            segment.second = 0;
    }
    if (!m_servingOnly)
        bars << training;

    auto servingBar = [&](const core::Scenario &scenario, const core::Evaluation &ev) {
        Bar bar;
        bar.format = scenario.serving.weightFormat;
        bar.category = tr("Serving %1")
                           .arg(QString::fromStdString(core::weightFormatsLabel(scenario.serving)));
        const core::OverheadSplit split = core::overheadSplit(scenario);
        // a hybrid model's recurrent state apart from the cache that grows (issue #44)
        const double state =
            ev.available(FigureId::StateBytesTotal) ? ev[FigureId::StateBytesTotal] : 0.0;
        bar.segments = {{QStringLiteral("Weights"), ev[FigureId::WeightsBytes]},
                        {QStringLiteral("KV cache"), ev[FigureId::KvBytesTotal] - state},
                        {QStringLiteral("Fixed state"), state},
                        {QStringLiteral("Runtime context"), split.runtimeContextBytes},
                        {QStringLiteral("Workspace"), split.workspaceBytes},
                        {QStringLiteral("Fragmentation"), ev[FigureId::FragmentationBytes]}};
        return bar;
    };
    bars << servingBar(s, e);
    const auto &asked = s.wizard.formats;
    if (auto lower = core::nextSmallerWeightFormat(s.serving.weightFormat);
        lower && (!m_servingOnly || std::find(asked.begin(), asked.end(), *lower) != asked.end())) {
        const core::Scenario other = core::withFormats(s, *lower);
        bars << servingBar(other, core::evaluate(other));
    }
    for (Bar &bar : bars) {
        for (const auto &segment : bar.segments)
            bar.total += segment.second;
    }
    return bars;
}

void MemoryView::refresh()
{
    const ScenarioDocument &doc = *document();
    const core::Scenario &s = doc.scenario();
    const core::Evaluation &e = doc.evaluation();
    const double unit = unitBytes(doc.units());
    const QString unitName =
        doc.units() == core::MemoryUnits::GiB ? QStringLiteral("GiB") : QStringLiteral("GB");
    m_drawn = bars();
    m_capacityBytes = e[FigureId::CapacityBytes];
    const QString groups = layerGroupSummary(s, doc.units());
    m_groups->setText(groups);
    m_groups->setVisible(!groups.isEmpty());

    QStringList categories;
    for (const Bar &bar : m_drawn)
        categories << bar.category;
    if (m_categories->categories() != categories) {
        m_categories->clear();
        m_categories->append(categories);
    }
    for (QBarSet *set : std::as_const(m_sets)) {
        QList<qreal> values;
        for (const Bar &bar : m_drawn) {
            double value = 0;
            for (const auto &segment : bar.segments) {
                if (tr(segment.first.toUtf8().constData()) == set->label())
                    value = segment.second;
            }
            values << value / unit;
        }
        if (set->count() != values.size()) {
            set->remove(0, set->count());
            set->append(values);
        } else {
            for (int i = 0; i < values.size(); ++i) {
                if (set->at(i) != values[i])
                    set->replace(i, values[i]);
            }
        }
    }
    // The key names only what is drawn.
    {
        QList<std::pair<QColor, QString>> key;
        for (QBarSet *set : std::as_const(m_sets)) {
            bool drawn = false;
            for (int i = 0; i < set->count(); ++i)
                drawn = drawn || set->at(i) > 0;
            if (drawn)
                key.append({set->color(), set->label()});
        }
        const QString text = style::keyHtml(key);
        if (m_key->text() != text)
            m_key->setText(text);
    }
    // The serving bars carry the argument; a training bar ten times taller (gpt-oss-120b: 15x; a
    // 671 B model's 11 TB of training state against 141 GB devices) would flatten them, so it runs
    // off the scale and says so. The lesson's 216 GB against 24 GB stays whole: it is the lesson's
    // point.
    double servingTop = m_capacityBytes;
    double trainingTotal = 0;
    for (const Bar &bar : std::as_const(m_drawn)) {
        if (bar.training)
            trainingTotal = bar.total;
        else
            servingTop = std::max(servingTop, bar.total);
    }
    const bool trainingOffScale = trainingTotal > 10 * servingTop;
    double top = trainingOffScale ? servingTop * 1.3 : servingTop;
    if (!trainingOffScale)
        top = std::max(top, trainingTotal);
    const double yMax = std::ceil(top * 1.18 / unit / 10.0) * 10.0;
    m_trainingOffScale = trainingOffScale;
    m_y->setRange(0, yMax);
    m_y->applyNiceNumbers();
    m_y->setTitleText(tr("Device memory (%1)").arg(unitName));
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    const double n = double(m_drawn.size());
    m_hiddenX->setRange(-0.5, n - 0.5);
    replaceIfChanged(m_capacity, {QPointF(-0.5, m_capacityBytes / unit),
                                  QPointF(n - 0.5, m_capacityBytes / unit)});

    // Direct labels: each large enough segment, and the headroom or shortfall above every bar.
    m_labels->clear();
    m_headroomTexts.clear();
    auto badge = [&](FigureId id, core::NumericFormat format) -> QString {
        auto lesson = core::lessonBadge(core::withFormats(s, format), id);
        return lesson ? tr("\nlesson: %1").arg(QString::fromStdString(lesson->printed)) : QString();
    };
    const double halfBar = m_series->barWidth() / 2;
    for (int i = 0; i < m_drawn.size(); ++i) // labels keep off the bars and the capacity line
        m_labels->addObstacle(QPointF(i - halfBar, 0),
                              QPointF(i + halfBar, std::min(m_drawn[i].total / unit, yMax)),
                              m_capacity);
    m_labels->addObstacle(QPointF(-0.5, m_capacityBytes / unit - yMax * 0.004),
                          QPointF(n - 0.5, m_capacityBytes / unit + yMax * 0.004), m_capacity);
    for (int i = 0; i < m_drawn.size(); ++i) {
        const Bar &bar = m_drawn[i];
        const bool trainingBar = bar.training;
        const core::NumericFormat format = bar.format;
        double base = 0;
        for (const auto &segment : bar.segments) {
            // the part of the segment inside the axis (all of it unless the bar is off the scale)
            const double shown = std::max(0.0, std::min(base + segment.second, yMax * unit) - base);
            const bool clipped = shown < segment.second; // its label would meet the bar's note
            if (!clipped && shown / unit >= yMax * 0.025) {
                const QString name = tr(segment.first.toUtf8().constData());
                const QString value =
                    QString::fromStdString(core::formatBytes(segment.second, doc.units()));
                QString badgeText;
                if (!trainingBar && segment.first == QStringLiteral("Weights"))
                    badgeText = badge(FigureId::WeightsBytes, format);
                if (!trainingBar && segment.first == QStringLiteral("KV cache"))
                    badgeText = badge(FigureId::KvBytesTotal, format);
                // a fixed state too thin to label its own segment is said beside the cache
                QString stateText;
                if (segment.first == QStringLiteral("KV cache")) {
                    for (const auto &other : bar.segments)
                        if (other.first == QStringLiteral("Fixed state") && other.second > 0.0 &&
                            other.second / unit < yMax * 0.025)
                            stateText = tr(" + fixed state %1")
                                            .arg(QString::fromStdString(
                                                core::formatBytes(other.second, doc.units())));
                }
                // beside the bar, in the segment's colour family: readable whatever the fill
                m_labels->add(tr("%1 %2").arg(name, value) + stateText + badgeText,
                              QPointF(i + halfBar, (base + shown / 2) / unit), m_capacity,
                              style::currentDevice(), QPointF(4, -8), false);
                // in a narrow column (presenter size, both units) the value goes under the name
                QString narrowValue = value;
                m_labels->setNarrowText(
                    tr("%1\n%2").arg(
                        name, narrowValue.replace(QStringLiteral(" ("), QStringLiteral("\n("))) +
                        (stateText.isEmpty() ? QString() : QLatin1Char('\n') + stateText.mid(3)) +
                        badgeText,
                    1 - 2 * halfBar);
            }
            base += segment.second;
        }
        if (trainingBar && bar.planFailed) {
            const QString text = tr("no layout runs:\n%1").arg(bar.note);
            m_headroomTexts << text;
            m_labels->add(text, QPointF(i, yMax * 0.5), m_capacity, style::warning(), QPointF(0, 0),
                          true, ChartLabels::Align::Centre);
            continue;
        }
        if (trainingBar && trainingConcealed(doc)) {
            m_headroomTexts << QString();
            continue; // no "in all" over a bar the class has yet to predict
        }
        const double headroom = m_capacityBytes - bar.total;
        QString text =
            headroom >= 0
                ? tr("fits: %1 headroom")
                      .arg(QString::fromStdString(core::formatBytes(headroom, doc.units())))
                : tr("short by %1")
                      .arg(QString::fromStdString(core::formatBytes(-headroom, doc.units())));
        text = tr("%1 in all\n%2")
                   .arg(QString::fromStdString(core::formatBytes(bar.total, doc.units())), text);
        if (trainingBar && bar.plan) {
            text += tr("\nper device, %1").arg(bar.note);
        } else if (trainingBar) {
            const QString perParameter = QString::fromStdString(
                core::formatNumber(e[FigureId::TrainingBytesPerParameter], 3));
            text += core::lessonBadge(s, FigureId::TrainingStateBytes)
                        ? tr("\nstate %1 at %2 B/param (lesson: 112 GB)")
                              .arg(QString::fromStdString(core::formatBytes(
                                       e[FigureId::TrainingStateBytes], doc.units())),
                                   perParameter)
                        : tr("\n%1 B/param").arg(perParameter);
        }
        const bool offScale = trainingBar && trainingOffScale;
        if (offScale)
            text = tr("%1\n(the bar runs off the scale)").arg(text);
        m_headroomTexts << text;
        m_labels->add(text,
                      QPointF(offScale ? i + 0.5 : i, std::min(bar.total / unit, yMax * 0.97)),
                      m_capacity, headroom >= 0 ? style::currentDevice() : style::warning(),
                      QPointF(0, -44), true, ChartLabels::Align::Centre);
    }
    m_labels->add(
        tr("%1: %2").arg(QString::fromStdString(s.device.name),
                         QString::fromStdString(core::formatBytes(m_capacityBytes, doc.units()))),
        QPointF(n - 0.5, m_capacityBytes / unit), m_capacity, style::currentDevice(),
        QPointF(-8, -22), false, ChartLabels::Align::End);
    m_labels->setCrowdedText(
        tr("%1:\n%2").arg(QString::fromStdString(s.device.name),
                          QString::fromStdString(core::formatBytes(m_capacityBytes, doc.units()))));

    // The recipe editor shows the scenario.
    m_updating = true;
    const int recipeIndex = m_recipe->findData(QString::fromStdString(s.training.recipe));
    m_recipe->setCurrentIndex(recipeIndex);
    if (const auto *recipe = core::findTrainingRecipe(s.training.recipe))
        m_recipeNote->setText(fromView(recipe->note));
    else
        m_recipeNote->setText(tr("Custom components: %1 B/param.")
                                  .arg(QString::fromStdString(
                                      core::formatNumber(s.training.bytesPerParameter(), 3))));
    // a training decision's editors show the layout its bar is drawn for: what the scenario
    // states, else what the plan searched (ZeRO-1 and micro-batch 2, not an unset 0 and 1)
    const bool planned = core::asksForTrainingPlan(s);
    const core::TrainingPlan *plan = planned ? &doc.trainingPlan() : nullptr;
    const bool planRuns = plan && plan->problem.empty();
    const auto show = [](QSpinBox *spin, double value) {
        spin->setValue(int(value));
        spin->setProperty("shownValue", spin->value());
    };
    show(m_zeroStage, planRuns ? plan->layout.zeroStage : s.training.zeroStageOrNone());
    show(m_dpDegree, planRuns ? plan->layout.data : s.training.dpDegree);
    // a training plan shards over its own layout (the Training tab's degrees)
    m_dpDegree->setEnabled(!planned);
    m_dpDegree->setToolTip(planned ? tr("A training decision's bar is one device of the plan's "
                                        "layout: its data parallelism is on the Training tab")
                                   : fromView(core::findParameter("training.dp_degree")->help));
    show(m_microBatch, planRuns ? plan->layout.microBatch : s.training.microBatchOrOne());
    show(m_sequenceLength, s.training.sequenceLength);
    m_recompute->setCurrentIndex(int(planRuns ? plan->layout.recompute : s.training.recompute));
    m_updating = false;
    m_labels->reposition();
}

void MemoryView::setServingOnly(bool servingOnly)
{
    if (m_servingOnly == servingOnly)
        return;
    m_servingOnly = servingOnly;
    refresh();
}

void MemoryView::setActivationsShown(bool shown)
{
    m_activations->setChecked(shown);
}

bool MemoryView::activationsShown() const
{
    return m_activations->isChecked();
}

QList<double> MemoryView::segment(const QString &name) const
{
    QList<double> values;
    for (const Bar &bar : m_drawn) {
        double value = 0;
        for (const auto &segment : bar.segments) {
            if (segment.first == name)
                value = segment.second;
        }
        values << value;
    }
    return values;
}

QStringList MemoryView::categories() const
{
    QStringList names;
    for (const Bar &bar : m_drawn)
        names << bar.category;
    return names;
}

double MemoryView::capacityDrawn() const
{
    return m_capacityBytes;
}

QStringList MemoryView::headroomTexts() const
{
    return m_headroomTexts;
}

QString MemoryView::csv() const
{
    QString out = QStringLiteral("bar,segment,bytes\n");
    for (const Bar &bar : m_drawn) {
        for (const auto &segment : bar.segments)
            out += QStringLiteral("\"%1\",%2,%3\n")
                       .arg(QString(bar.category).replace(QLatin1Char('\n'), QLatin1Char(' ')),
                            segment.first)
                       .arg(segment.second, 0, 'g', 12);
    }
    return out;
}

} // namespace views

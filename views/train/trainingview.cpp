// SPDX-License-Identifier: GPL-3.0-or-later
#include "trainingview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/numbereditor.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/estimateterms.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

QString text(const std::string &s)
{
    return QString::fromStdString(s);
}

/** One colour per part, in its kind's family: compute blue, communication orange, the bubble
 *  grey, interruptions purple (Okabe-Ito; the key names each). */
QColor partColour(const core::TimelinePart &part, int indexInKind)
{
    using K = core::TimelinePart::Kind;
    switch (part.kind) {
    case K::Compute: {
        const QColor shades[] = {style::kBlue, style::kSkyBlue, style::kBlue.lighter(150),
                                 style::kBlue.darker(140)};
        return shades[indexInKind % 4];
    }
    case K::Communication: {
        const QColor shades[] = {style::kOrange, style::kVermillion, style::kYellow,
                                 style::kOrange.darker(140), style::kVermillion.lighter(140)};
        return shades[indexInKind % 5];
    }
    case K::Idle:
        return style::grey(190);
    case K::Resilience: {
        const QColor shades[] = {style::kPurple, style::kPurple.darker(150),
                                 style::kPurple.lighter(125)};
        return shades[indexInKind % 3];
    }
    }
    return style::grey(128);
}

StepTimelineCanvas::Section stepSection(const core::TrainingPlan &plan, const core::Scenario &s)
{
    StepTimelineCanvas::Section section;
    int seen[4] = {0, 0, 0, 0};
    double total = 0;
    for (const core::TimelinePart &part : core::stepTimeline(plan)) {
        section.parts.append({text(part.name), part.seconds,
                              text(core::formatSeconds(part.seconds)),
                              partColour(part, seen[int(part.kind)]++)});
        total += part.seconds;
    }
    section.endText = text(core::formatSeconds(total));
    section.heading =
        TrainingView::tr("One optimiser step on the busiest device, interruptions averaged in: "
                         "%1 (%2 estimate)")
            .arg(section.endText, text(core::estimateLabel(s)));
    return section;
}

StepTimelineCanvas::Section memorySection(const core::TrainingPlan &plan, core::MemoryUnits units)
{
    const core::TrainingMemory &m = plan.memory;
    StepTimelineCanvas::Section section;
    auto add = [&](const QString &name, double bytes, const QColor &colour) {
        if (bytes > 0.0)
            section.parts.append({name, bytes, text(core::formatBytes(bytes, units)), colour});
    };
    add(TrainingView::tr("Weights"), m.weights, style::weights());
    add(TrainingView::tr("Gradients"), m.gradients, style::kSkyBlue);
    // the Memory tab's colours for the same parts
    add(TrainingView::tr("FP32 master copy"), m.master, style::kYellow);
    add(TrainingView::tr("Optimiser moments"), m.optimizer, style::kVermillion);
    add(m.microBatchesInFlight == 1.0 ? TrainingView::tr("Activations (one micro-batch in flight)")
                                      : TrainingView::tr("Activations (%1 micro-batches in flight)")
                                            .arg(style::number(m.microBatchesInFlight, 3)),
        m.activations, style::kGreen);
    add(TrainingView::tr("Logits (FP32, last stage)"), m.logits, style::kGreen.darker(150));
    add(TrainingView::tr("Runtime overhead"), m.overhead, style::overhead());
    section.limit = m.capacity;
    section.limitText =
        TrainingView::tr("device: %1").arg(text(core::formatBytes(m.capacity, units)));
    section.heading =
        TrainingView::tr("What each device holds on the busiest stage: %1 of %2, %3")
            .arg(text(core::formatBytes(m.total, units)),
                 text(core::formatBytes(m.capacity, units)),
                 m.fits ? TrainingView::tr("fits") : TrainingView::tr("does not fit"));
    return section;
}

} // namespace

TrainingView::TrainingView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_refusal(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_better(new QLabel(this))
    , m_useBest(new QPushButton(tr("Use this layout"), this))
    , m_canvas(new StepTimelineCanvas(this))
{
    setObjectName(QStringLiteral("trainingView"));
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->setWordWrap(true);
    m_refusal->hide();
    for (QLabel *label : {m_summary, m_better}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::RichText);
        label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    }
    auto *form = new QFormLayout;
    for (const char *path :
         {"training.tokens", "training.deadline_days", "training.budget_usd", "training.devices",
          "training.tensor_parallel", "training.pipeline_parallel", "training.data_parallel",
          "training.zero_stage", "training.micro_batch", "training.sequence_length"}) {
        auto *editor = new NumberEditor(document, QLatin1String(path), m_refusal, this);
        m_editors << editor;
        form->addRow(editor->label(), editor);
    }
    form->addRow(m_refusal);
    m_useBest->setToolTip(tr("States the search's layout in the scenario (undoable): devices, "
                             "every degree, ZeRO stage, recomputation and micro-batch"));
    connect(m_useBest, &QPushButton::clicked, this, [this] {
        const core::TrainingPlan &best = this->document()->bestTrainingPlan();
        if (best.problem.empty())
            this->document()->applyScenario(
                core::withTrainingLayout(this->document()->scenario(), best),
                tr("Use the Searched Training Layout"));
    });
    auto *side = new QVBoxLayout;
    side->addLayout(form);
    side->addWidget(m_better);
    side->addWidget(m_useBest);
    side->addStretch(1);
    // the summary and the bars scroll together where the window is short (presenter size)
    auto *content = new QWidget;
    auto *main = new QVBoxLayout(content);
    main->setContentsMargins(0, 0, 0, 0);
    main->addWidget(m_summary);
    main->addWidget(m_canvas);
    main->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(scroll, 3);
    layout->addLayout(side, 1);
}

QWidget *TrainingView::figureWidget()
{
    return m_canvas;
}

QString TrainingView::summaryText() const
{
    QString plain = m_summary->text();
    plain.replace(QRegularExpression(QStringLiteral("<[^>]*>")), QStringLiteral(" "));
    return plain.simplified();
}

void TrainingView::refresh()
{
    const core::Scenario &s = document()->scenario();
    for (NumberEditor *editor : std::as_const(m_editors))
        editor->sync(s);
    const core::TrainingPlan &plan = document()->trainingPlan();
    const core::TrainingPlan &best = document()->bestTrainingPlan();
    const QString model = text(s.model.name);
    const QString device = text(s.device.name);
    const QString tokens = text(core::formatCount(plan.tokens));

    QString html;
    if (!plan.problem.empty()) {
        html = tr("<h3>%1 on %2: no layout runs</h3><p style='color:%3'>%4</p>")
                   .arg(model.toHtmlEscaped(), device.toHtmlEscaped(), style::warning().name(),
                        text(plan.problem).toHtmlEscaped());
        m_canvas->setSections({}, tr("No step to show: the plan cannot run."));
    } else {
        const core::TrainingMemory &m = plan.memory;
        const core::TrainingReliability &r = plan.reliability;
        html =
            tr("<h3>Train %1 on %2 tokens: %3 x %4</h3>"
               "<p>%5 (%6).</p>"
               "<p><b>%7</b> to train &middot; <b>%8 device-hours</b> &middot; <b>%9</b> &middot; "
               "MFU <b>%10 %</b> &middot; %11 tokens/s per device &middot; %12 kWh</p>"
               "<p>Interruptions: about %13 over the run (one every %14 on %15 devices); a "
               "checkpoint of %16 every %17; goodput %18 %.</p>")
                .arg(model.toHtmlEscaped(), tokens, text(core::formatCount(plan.devices)),
                     device.toHtmlEscaped(), text(core::describeLayout(plan.layout)),
                     tr("global batch %1 sequences of %2 tokens, %3")
                         .arg(text(core::formatCount(plan.globalBatch)),
                              text(core::formatCount(plan.sequenceLength)),
                              plan.format == core::NumericFormat::Fp8 ? tr("FP8 matmuls")
                                                                      : tr("BF16")),
                     text(core::formatDuration(plan.wallSeconds)),
                     text(core::formatCount(plan.deviceHours)),
                     std::isfinite(plan.usd) ? text(core::formatUsd(plan.usd))
                                             : tr("no price for this device"),
                     style::number(plan.mfu * 100, 3),
                     style::number(plan.tokensPerSecondPerDevice, 3),
                     text(core::formatCount(plan.energyKwh)))
                .arg(style::number(r.expectedInterruptions, 3),
                     text(core::formatDuration(r.jobMtbfHours * 3600)),
                     text(core::formatCount(plan.devices)),
                     text(core::formatBytes(r.checkpointBytes, document()->units())),
                     text(core::formatDuration(r.intervalSeconds)),
                     style::number(r.goodput * 100, 3));
        QStringList warnings;
        if (!m.fits)
            warnings << tr("It does not fit: %1 per device against %2.")
                            .arg(text(core::formatBytes(m.total, document()->units())),
                                 text(core::formatBytes(m.capacity, document()->units())));
        // where no count meets it, that is said: this is the nearest, not a choice
        const bool noCount = plan.countReason.starts_with("no count");
        if (!plan.meetsDeadline)
            warnings << (noCount ? tr("It misses the deadline of %1 days: %2.")
                                       .arg(style::number(s.training.deadlineDays, 4),
                                            text(plan.countReason))
                                 : tr("It misses the deadline of %1 days.")
                                       .arg(style::number(s.training.deadlineDays, 4)));
        if (!plan.withinBudget)
            warnings << tr("It is over the budget of %1.")
                            .arg(text(core::formatUsd(s.training.budgetUsd)));
        if (plan.tokensAssumed)
            warnings << tr("No token budget given: 20 tokens per parameter (Chinchilla).");
        if (!warnings.isEmpty())
            html += QStringLiteral("<p style='color:%1'>%2</p>")
                        .arg(style::warning().name(), warnings.join(QLatin1Char(' ')));
        // what was asked and met, and how the count was chosen where the scenario left it out
        QStringList met;
        if (core::isSet(s.training.deadlineDays) && plan.meetsDeadline)
            met << tr("It meets the deadline of %1 days.")
                       .arg(style::number(s.training.deadlineDays, 4));
        if (core::isSet(s.training.budgetUsd) && plan.withinBudget && std::isfinite(plan.usd))
            met << tr("It is within the budget of %1.")
                       .arg(text(core::formatUsd(s.training.budgetUsd)));
        if (!plan.countReason.empty() && !noCount)
            met << tr("Devices: %1.").arg(text(plan.countReason));
        if (!met.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(met.join(QLatin1Char(' ')));
        // while a class predicts the state per device (the tour), the device's bar waits
        if (document()->isConcealed(core::FigureId::TrainingStateBytesPerDevice)) {
            StepTimelineCanvas::Section hidden;
            hidden.heading = tr("What each device holds: predict its training state, then "
                                "Reveal");
            m_canvas->setSections({stepSection(plan, s), hidden});
        } else {
            m_canvas->setSections({stepSection(plan, s), memorySection(plan, document()->units())});
        }
    }
    if (!plan.notes.empty()) {
        QStringList notes;
        for (const std::string &note : plan.notes)
            notes << text(note).toHtmlEscaped();
        html += QStringLiteral("<p style='color:%1'><small>%2</small></p>")
                    .arg(style::muted().name(),
                         tr("Left out or assumed: %1.").arg(notes.join(QStringLiteral("; "))));
    }
    m_summary->setText(style::themed(html));

    // the search over every layout, where it differs from the stated one
    const bool differs =
        best.problem.empty() &&
        (!plan.problem.empty() || !plan.memory.fits || best.wallSeconds < 0.99 * plan.wallSeconds ||
         (std::isfinite(best.usd) && std::isfinite(plan.usd) && best.usd < 0.99 * plan.usd));
    m_better->setVisible(differs);
    m_useBest->setVisible(differs);
    if (differs)
        m_better->setText(
            tr("<p>The search over every layout (<code>accel-calc train --search</code>) "
               "picks <b>%1 devices as %2</b>: %3, %4, MFU %5 %.</p>")
                .arg(text(core::formatCount(best.devices)),
                     text(core::describeLayout(best.layout)).toHtmlEscaped(),
                     text(core::formatDuration(best.wallSeconds)),
                     std::isfinite(best.usd) ? text(core::formatUsd(best.usd)) : tr("no price"),
                     style::number(best.mfu * 100, 3)));
}

QString TrainingView::csv() const
{
    QString out = QStringLiteral("part,kind,seconds\n");
    static const char *kinds[] = {"compute", "communication", "idle", "interruptions"};
    for (const core::TimelinePart &part : core::stepTimeline(document()->trainingPlan()))
        out += QStringLiteral("%1,%2,%3\n")
                   .arg(text(part.name), QLatin1String(kinds[int(part.kind)]))
                   .arg(part.seconds, 0, 'g', 6);
    return out;
}

StepTimelineCanvas::StepTimelineCanvas(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void StepTimelineCanvas::setSections(QList<Section> sections, const QString &emptyText)
{
    m_sections = std::move(sections);
    m_emptyText = emptyText;
    setMinimumHeight(neededHeight(width()));
    updateGeometry();
    update();
}

int StepTimelineCanvas::neededHeight(double width) const
{
    return int(std::ceil(drawSections(nullptr, width)));
}

void StepTimelineCanvas::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // narrower: the key in one column, taller; the scroll area follows
    const int needed = neededHeight(width());
    if (needed != minimumHeight()) {
        setMinimumHeight(needed);
        updateGeometry();
    }
}

void StepTimelineCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    m_drawn.clear();
    drawSections(&p, this->width());
}

double StepTimelineCanvas::drawSections(QPainter *p, double canvasWidth) const
{
    // one pass lays out and (with a painter) draws, so the height asked for is the height drawn
    const QFontMetricsF metrics(font());
    const double line = metrics.height();
    const double margin = line * 0.8;
    const double width = canvasWidth - 2 * margin;
    auto draw = [&](const QRectF &box, const QString &s, int flags) {
        if (!p)
            return;
        p->drawText(box, flags, s);
        m_drawn.append({s, p->boundingRect(box, flags, s)});
    };
    auto pen = [&](const QPen &to) {
        if (p)
            p->setPen(to);
    };
    QFont bold = font();
    bold.setBold(true);
    double y = margin * 0.5;
    if (m_sections.isEmpty()) {
        pen(style::ink());
        draw(QRectF(margin, y, width, line * 3), m_emptyText,
             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap);
        return y + line * 3;
    }
    for (const Section &section : m_sections) {
        pen(style::ink());
        if (p)
            p->setFont(bold);
        const QRectF headingBox(margin, y, width, line * 2.4);
        draw(headingBox, section.heading, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap);
        y += QFontMetricsF(bold)
                 .boundingRect(headingBox, Qt::AlignLeft | Qt::TextWordWrap, section.heading)
                 .height() +
             line * 0.4;
        if (p)
            p->setFont(font());
        double total = 0;
        for (const Part &part : section.parts)
            total += part.value;
        const double top = std::max(total, section.limit);
        if (!(top > 0.0))
            continue;
        // the bar: the parts left to right, in the order they are spent or stacked
        const QRectF bar(margin, y, width * 0.97, line * 1.6);
        if (p) {
            double x = bar.left();
            for (const Part &part : section.parts) {
                const double w = bar.width() * part.value / top;
                p->setPen(Qt::NoPen);
                p->setBrush(part.colour);
                p->drawRect(QRectF(x, bar.top(), w, bar.height()));
                x += w;
            }
            p->setPen(QPen(style::ink(), 1));
            p->setBrush(Qt::NoBrush);
            p->drawRect(QRectF(bar.left(), bar.top(), bar.width() * total / top, bar.height()));
        }
        const QRectF scale(bar.left(), bar.bottom() + 2, bar.width(), line);
        pen(style::muted());
        draw(scale, QStringLiteral("0"), Qt::AlignLeft | Qt::AlignTop);
        if (section.limit > 0.0) {
            // the device's memory: a line across the bar, its label under it
            const double at = bar.left() + bar.width() * section.limit / top;
            pen(QPen(total > section.limit ? style::warning() : style::ink(), 2, Qt::DashLine));
            if (p)
                p->drawLine(QPointF(at, bar.top() - line * 0.3), QPointF(at, bar.bottom() + 2));
            pen(style::ink());
            const double textWidth = metrics.horizontalAdvance(section.limitText) + 4;
            draw(QRectF(std::max(bar.left(), at - textWidth), scale.top(), textWidth, line),
                 section.limitText, Qt::AlignRight | Qt::AlignTop);
        } else {
            draw(scale, section.endText, Qt::AlignRight | Qt::AlignTop);
        }
        y = scale.bottom() + line * 0.4;

        // the key: swatch, name, value and share, flowing like words so it takes few lines
        double x = margin;
        const double gap = line * 1.2;
        for (const Part &part : section.parts) {
            const QString item =
                QStringLiteral("%1 %2 (%3 %)")
                    .arg(part.name, part.valueText,
                         style::number(total > 0 ? 100.0 * part.value / total : 0, 3));
            const double itemWidth = line * 1.2 + metrics.horizontalAdvance(item) + 2;
            if (x > margin && x + itemWidth > margin + width) {
                x = margin;
                y += line * 1.25;
            }
            if (p) {
                p->setPen(Qt::NoPen);
                p->setBrush(part.colour);
                p->drawRect(QRectF(x, y + line * 0.15, line * 0.9, line * 0.8));
            }
            pen(style::ink());
            draw(QRectF(x + line * 1.2, y, itemWidth - line * 1.2, line * 1.2), item,
                 Qt::AlignLeft | Qt::AlignVCenter);
            x += itemWidth + gap;
        }
        y += line * 1.25 + line * 0.8;
    }
    return y;
}

} // namespace views

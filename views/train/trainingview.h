// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Training tab (`training`, issue #45; lesson l.51-65, l.196, l.287): the run the scenario
// states (its token budget, deadline or budget, device and layout, the unset degrees searched)
// as days, device-hours, cost, MFU and interruptions, and one optimiser step on the busiest
// device as a timeline: matmuls, attention and small kernels, the communication no compute
// hides, the pipeline bubble, the optimiser, and what checkpoints and failures add per step.
// Every number is core::plannedTraining's (`accel-calc train`); where the search over every
// layout does better, the tab says so and offers it.

#include "views/widgets/view.h"

#include "core/train/trainingplan.h"

#include <QColor>
#include <QList>

class QLabel;
class QPainter;
class QPushButton;

namespace views {

class NumberEditor;
class StepTimelineCanvas;

class TrainingView : public View
{
    Q_OBJECT

public:
    explicit TrainingView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("training"); }
    QString title() const override { return tr("A training run and one step"); }
    QString csv() const override;
    QWidget *figureWidget() override;

    /** The summary as plain text (tests). */
    QString summaryText() const;
    StepTimelineCanvas *canvas() const { return m_canvas; }
    /** The button that applies the search's best layout (hidden when the plan is the best). */
    QPushButton *useBestButton() const { return m_useBest; }

protected:
    void refresh() override;

private:
    QList<NumberEditor *> m_editors;
    QLabel *m_refusal;
    QLabel *m_summary;
    QLabel *m_better;
    QPushButton *m_useBest;
    StepTimelineCanvas *m_canvas;
};

/** The plan as horizontal bars, one per section (one step's time, one device's memory), each
 *  part in the order it is spent or stacked, and a key giving each part's value and share. */
class StepTimelineCanvas : public QWidget
{
    Q_OBJECT

public:
    struct Part
    {
        QString name;
        double value = 0;
        QString valueText;
        QColor colour;
    };
    struct Section
    {
        QString heading;
        QList<Part> parts;
        double limit = 0;  ///< a line across the bar (the device's memory); 0: none
        QString limitText; ///< its label
        QString endText;   ///< the bar's total, at its right end
    };

    explicit StepTimelineCanvas(QWidget *parent = nullptr);

    void setSections(QList<Section> sections, const QString &emptyText = {});
    const QList<Section> &sections() const { return m_sections; }
    /** Every text drawn in the last paint, with its bounds (tests check nothing is clipped). */
    const QList<QPair<QString, QRectF>> &drawnTexts() const { return m_drawn; }

    /** As tall as the sections need at the current width: the scroll area scrolls only what
     *  does not fit. */
    QSize sizeHint() const override { return {760, neededHeight(width())}; }
    QSize minimumSizeHint() const override { return {420, neededHeight(width())}; }
    /** The height every section needs at `width` (the scroll area's content below it). */
    int neededHeight(double width) const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /** Lays the sections out at `width` and draws them where `painter` is given; returns the
     *  height they take. */
    double drawSections(QPainter *painter, double width) const;

    QList<Section> m_sections;
    QString m_emptyText;
    mutable QList<QPair<QString, QRectF>> m_drawn; ///< recorded by drawSections
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CPU versus accelerator (`cpu-vs-accelerator`, the lesson's opening, l.3 and l.11): the same
// work on a CPU preset and on the current accelerator, side by side as a race a class can watch:
// one layer's matrix multiplication and one decode step of the model at the chosen batch, with
// the time, the FLOP/s reached and what limited each.

#include "views/widgets/view.h"

#include "core/physics/inside.h"

class QComboBox;
class QPushButton;
class QTimer;

namespace views {

class RaceCanvas;

class RaceView : public View
{
    Q_OBJECT

public:
    explicit RaceView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("cpu-vs-accelerator"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("CPU versus accelerator"); }
    QString csv() const override;

    const core::Race &race() const;
    QComboBox *cpuPicker() const { return m_cpu; }
    /** Starts the race from the line (the final state shows when it ends). */
    void start();

protected:
    void refresh() override;

private:
    RaceCanvas *m_canvas;
    QComboBox *m_cpu;
    QPushButton *m_start;
    QTimer *m_timer;
    double m_elapsed = 0;
};

class RaceCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit RaceCanvas(QWidget *parent = nullptr);
    void setRace(const core::Race &race, double batch);
    const core::Race &race() const { return m_race; }
    /** 0..1 of the slower lane's run shown; 1 is the finished race. */
    void setProgress(double progress);
    QSize sizeHint() const override { return {800, 480}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    core::Race m_race;
    double m_batch = 1;
    double m_progress = 1;
};

} // namespace views

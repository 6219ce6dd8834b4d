// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One matrix multiplication, step by step (`matmul`, lesson l.25-27): a deterministic machine of
// seven steps (setStep) with play, pause, step and speed for a class; counters for the current
// scenario for one token and for the batch, tied to the batch slider.

#include "views/widgets/view.h"

class QComboBox;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace views {

class MatmulCanvas;

class MatmulView : public View
{
    Q_OBJECT

public:
    explicit MatmulView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("matmul"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("One matrix multiplication, step by step"); }
    QString csv() const override;
    void setStep(int step) override;

    int step() const { return m_step; }
    bool playing() const;
    void play();
    void pause();
    void stepForward();
    /** The counters beside the drawing, as plain text. */
    QString counters() const;

protected:
    void refresh() override;

private:
    MatmulCanvas *m_canvas;
    QTextBrowser *m_counters;
    QPushButton *m_play;
    QComboBox *m_speed;
    QTimer *m_timer;
    int m_step = 1;
};

class MatmulCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit MatmulCanvas(QWidget *parent = nullptr);
    void setStep(int step, int kStep, int kSteps);
    QSize sizeHint() const override { return {640, 420}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int m_step = 1;
    int m_kStep = 1;
    int m_kSteps = 1;
};

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Precision (`precision`, lesson l.128-137): the bit layouts of fp32, tf32, bf16, fp16, the OCP
// FP8 formats and the integers, coloured sign / exponent / mantissa, with the largest finite
// value, smallest normal and machine epsilon; a value typed in shown in every format with its
// rounding error, overflow and underflow; and the current model's weights in every format.

#include "views/widgets/view.h"

class QLineEdit;
class QTableWidget;

namespace views {

class BitLayoutCanvas;
class TableFitter;

class PrecisionView : public View
{
    Q_OBJECT

public:
    explicit PrecisionView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("precision"); }
    /** The drawing without its controls (handouts, exports). */
    QWidget *figureWidget() override;
    QString title() const override { return tr("Number formats bit by bit"); }
    QString csv() const override;

    /** Shows `text` (a number) in every format; false, with the reason shown, if it is not one. */
    bool setValue(const QString &text);
    QTableWidget *valueTable() const { return m_values; }
    QTableWidget *weightTable() const { return m_weights; }

protected:
    void refresh() override;

private:
    void fillValues();

    BitLayoutCanvas *m_canvas;
    QLineEdit *m_input;
    QTableWidget *m_values;
    QTableWidget *m_weights;
    TableFitter *m_valuesFit = nullptr;
    TableFitter *m_weightsFit = nullptr;
    double m_value = 0.1;
};

class BitLayoutCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit BitLayoutCanvas(QWidget *parent = nullptr);
    QSize sizeHint() const override { return {640, 300}; }
    QSize minimumSizeHint() const override { return {480, 240}; }

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace views

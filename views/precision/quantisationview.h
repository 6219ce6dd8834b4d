// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The quantisation workbench (`quantisation`, lesson l.135 and l.45-50): an editable weight vector
// (the lesson's [0.020, -0.500, 1.270, 0.003] or a generated one with outliers), symmetric or
// asymmetric, 8 or 4 bits, per tensor or per group, scale bits: the scales, integers,
// dequantised values and errors, how one outlier crushes small weights and how smaller groups
// help, and the bytes per parameter the choice costs.

#include "views/widgets/view.h"

#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace views {

class QuantisationView : public View
{
    Q_OBJECT

public:
    explicit QuantisationView(ScenarioDocument *document, QWidget *parent = nullptr);

    QString snapshotName() const override { return QStringLiteral("quantisation"); }
    QString title() const override { return tr("Quantisation workbench"); }
    QString csv() const override;
    /** The lab as printed: the format, the table of weights and their errors, the summary. */
    QString figureHtml() override;

    /** Parses a comma-separated vector; false (and the reason shown) when it is not one. */
    bool setWeights(const QString &text);
    void setBits(int bits);
    void setSymmetric(bool symmetric);
    void setGroupSize(int groupSize);
    /** 64 small weights with two outliers (deterministic). */
    void generateWithOutliers();
    QTableWidget *table() const { return m_table; }
    QString summary() const;

protected:
    void refresh() override;

private:
    void recompute();

    QLineEdit *m_input;
    QComboBox *m_bits;
    QComboBox *m_mode;
    QSpinBox *m_group;
    QComboBox *m_scaleBits;
    QLabel *m_refusal;
    QTableWidget *m_table;
    QTextBrowser *m_summary;
    QString m_summaryHtml; ///< the summary as set, for print
    std::vector<double> m_weights{0.020, -0.500, 1.270, 0.003};
};

} // namespace views

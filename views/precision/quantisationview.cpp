// SPDX-License-Identifier: GPL-3.0-or-later
#include "quantisationview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"

#include "core/model/formats.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

QString num(double value)
{
    return QString::number(value, 'g', 4);
}

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

double rms(const core::Quantisation &q)
{
    return q.rmsError;
}

} // namespace

QuantisationView::QuantisationView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_input(new QLineEdit(this))
    , m_bits(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_group(new QSpinBox(this))
    , m_scaleBits(new QComboBox(this))
    , m_refusal(new QLabel(this))
    , m_table(new QTableWidget(this))
    , m_summary(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("quantisationView"));
    m_input->setText(QStringLiteral("0.020, -0.500, 1.270, 0.003"));
    m_input->setToolTip(tr("Weights separated by commas"));
    m_bits->addItem(tr("8 bits"), 8);
    m_bits->addItem(tr("4 bits"), 4);
    m_mode->addItem(tr("symmetric"), true);
    m_mode->addItem(tr("asymmetric (zero point)"), false);
    m_group->setRange(0, 4096);
    m_group->setSpecialValueText(tr("per tensor"));
    m_group->setToolTip(tr("Weights per group, each with its own scale (0: one for the tensor)"));
    m_scaleBits->addItem(tr("16-bit scales"), 16);
    m_scaleBits->addItem(tr("8-bit scales"), 8);
    m_scaleBits->addItem(tr("32-bit scales"), 32);
    m_refusal->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
    m_refusal->hide();
    auto *generate = new QPushButton(tr("Generate with Outliers"), this);
    auto *lesson = new QPushButton(tr("The Lesson's Four"), this);
    connect(m_input, &QLineEdit::editingFinished, this, [this] { setWeights(m_input->text()); });
    connect(generate, &QPushButton::clicked, this, &QuantisationView::generateWithOutliers);
    connect(lesson, &QPushButton::clicked, this,
            [this] { setWeights(QStringLiteral("0.020, -0.500, 1.270, 0.003")); });
    for (QComboBox *box : {m_bits, m_mode, m_scaleBits})
        connect(box, &QComboBox::activated, this, &QuantisationView::recompute);
    connect(m_group, &QSpinBox::valueChanged, this, &QuantisationView::recompute);
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels({tr("Weight"), tr("Group scale"), tr("Integer"),
                                        tr("Dequantised"), tr("Error"), tr("Relative error")});
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_summary->setOpenLinks(false);

    auto *inputs = new QHBoxLayout;
    inputs->addWidget(new QLabel(tr("Weights"), this));
    inputs->addWidget(m_input, 1);
    inputs->addWidget(lesson);
    inputs->addWidget(generate);
    auto *options = new QHBoxLayout;
    for (QWidget *w : std::initializer_list<QWidget *>{m_bits, m_mode, m_group, m_scaleBits})
        options->addWidget(w);
    options->addStretch(1);
    auto *left = new QVBoxLayout;
    left->addLayout(inputs);
    left->addLayout(options);
    left->addWidget(m_refusal);
    left->addWidget(m_table, 1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(left, 3);
    layout->addWidget(m_summary, 2);
    recompute();
}

bool QuantisationView::setWeights(const QString &text)
{
    std::vector<double> weights;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const double value = QLocale::c().toDouble(part.trimmed(), &ok);
        if (!ok || !std::isfinite(value)) {
            m_refusal->setText(tr("\"%1\" is not a number: weights are numbers separated by "
                                  "commas")
                                   .arg(part.trimmed()));
            m_refusal->show();
            return false;
        }
        weights.push_back(value);
    }
    if (weights.empty() || weights.size() > 4096) {
        m_refusal->setText(tr("Between 1 and 4,096 weights, separated by commas"));
        m_refusal->show();
        return false;
    }
    m_refusal->hide();
    m_weights = weights;
    QStringList parts;
    for (const double w : weights)
        parts << num(w);
    m_input->setText(parts.join(QStringLiteral(", ")));
    recompute();
    return true;
}

void QuantisationView::setBits(int bits)
{
    m_bits->setCurrentIndex(m_bits->findData(bits));
    recompute();
}

void QuantisationView::setSymmetric(bool symmetric)
{
    m_mode->setCurrentIndex(symmetric ? 0 : 1);
    recompute();
}

void QuantisationView::setGroupSize(int groupSize)
{
    m_group->setValue(groupSize); // recomputes
}

void QuantisationView::generateWithOutliers()
{
    // small weights around zero, deterministic, with two large outliers: the realistic case
    QStringList parts;
    for (int i = 0; i < 64; ++i) {
        double w = 0.05 * std::sin(i * 2.399963) * std::cos(i * 0.7);
        if (i == 5)
            w = 2.5;
        if (i == 40)
            w = -3.1;
        parts << QString::number(w, 'f', 4);
    }
    setWeights(parts.join(QStringLiteral(", ")));
}

QString QuantisationView::summary() const
{
    return m_summary->toPlainText();
}

void QuantisationView::refresh()
{
    recompute();
}

void QuantisationView::recompute()
{
    const int bits = m_bits->currentData().toInt();
    const bool symmetric = m_mode->currentData().toBool();
    const int group = m_group->value();
    const core::Quantisation q = core::quantise(m_weights, bits, symmetric, group);
    m_table->setRowCount(int(m_weights.size()));
    const int groupSize = group > 0 ? group : int(m_weights.size());
    for (int i = 0; i < int(m_weights.size()); ++i) {
        const double w = m_weights[std::size_t(i)];
        const double relative = w == 0 ? 0 : std::fabs(q.errors[std::size_t(i)] / w);
        m_table->setItem(i, 0, cell(num(w)));
        m_table->setItem(i, 1, cell(num(q.scales[std::size_t(i / groupSize)])));
        m_table->setItem(i, 2, cell(QString::number(q.codes[std::size_t(i)])));
        m_table->setItem(i, 3, cell(num(q.dequantised[std::size_t(i)])));
        m_table->setItem(i, 4, cell(num(q.errors[std::size_t(i)])));
        auto *rel = cell(tr("%1 %").arg(style::number(relative * 100, 3)));
        if (relative > 0.2)
            rel->setForeground(style::warning()); // a weight crushed by its group's scale
        m_table->setItem(i, 5, rel);
    }
    m_table->resizeColumnsToContents();

    // the same vector per tensor and in groups of 8, to show what groups buy
    const core::Quantisation perTensor = core::quantise(m_weights, bits, symmetric, 0);
    const core::Quantisation grouped8 = core::quantise(m_weights, bits, symmetric, 8);
    core::QuantLayout layout;
    layout.groupSize = group > 0 ? group : 0;
    layout.scaleBits = m_scaleBits->currentData().toDouble();
    layout.zeroBits = symmetric ? 0 : bits;
    const core::NumericFormat format =
        bits == 8 ? core::NumericFormat::Int8 : core::NumericFormat::Int4;
    const double bytes = core::bytesPerParameter(format, layout);
    QString html = tr("<h3>%1-bit, %2, %3</h3>")
                       .arg(bits)
                       .arg(symmetric ? tr("symmetric") : tr("asymmetric"))
                       .arg(group > 0 ? tr("one scale per %1 weights").arg(group)
                                      : tr("one scale for the tensor"));
    html +=
        tr("<p>Largest error %1, root-mean-square %2.</p>").arg(num(q.maxAbsError), num(rms(q)));
    html += tr("<p><b>Bytes per parameter: %1</b> (%2 bits of codes%3). With 16-bit scales per "
               "128 weights a 4-bit format costs 0.5156 B/param, not 0.5 (l.49).</p>")
                .arg(style::number(bytes, 4))
                .arg(bits)
                .arg(group > 0 ? tr(" + one %1-bit scale%2 per %3")
                                     .arg(layout.scaleBits)
                                     .arg(symmetric ? QString() : tr(" and zero point"))
                                     .arg(group)
                               : tr("; one scale for the tensor costs nothing per weight"));
    html += tr("<p><b>Why groups:</b> the scale follows the largest magnitude in its group, so one "
               "outlier makes the step coarse for every weight beside it and small weights round "
               "to zero, as 0.003 does in the lesson's example (l.135). Root-mean-square error "
               "for this vector: per tensor %1, groups of 8: %2.</p>")
                .arg(num(rms(perTensor)), num(rms(grouped8)));
    html += tr("<p style=\"color:#666\">Quality must be re-evaluated on your own task; aggregate "
               "benchmarks do not transfer reliably (l.135).</p>");
    m_summaryHtml = html;
    m_summary->setHtml(style::themed(html));
}

QString QuantisationView::figureHtml()
{
    ensureCurrent();
    QString table = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\" "
                                   "style=\"border-collapse:collapse\"><tr>");
    for (int c = 0; c < m_table->columnCount(); ++c)
        table += QStringLiteral("<th>%1</th>")
                     .arg(m_table->horizontalHeaderItem(c)->text().toHtmlEscaped());
    table += QStringLiteral("</tr>");
    for (int r = 0; r < m_table->rowCount(); ++r) {
        table += QStringLiteral("<tr>");
        for (int c = 0; c < m_table->columnCount(); ++c) {
            const QTableWidgetItem *item = m_table->item(r, c);
            table += QStringLiteral("<td align=\"right\">%1</td>")
                         .arg(item ? item->text().toHtmlEscaped() : QString());
        }
        table += QStringLiteral("</tr>");
    }
    table += QStringLiteral("</table>");
    // the heading and the numbers; the long "why" stays on screen
    const qsizetype cut = m_summaryHtml.indexOf(QStringLiteral("<p><b>Why groups"));
    return table + (cut > 0 ? m_summaryHtml.left(cut) : m_summaryHtml);
}

QString QuantisationView::csv() const
{
    QStringList lines{QStringLiteral("weight,scale,code,dequantised,error")};
    for (int row = 0; row < m_table->rowCount(); ++row)
        lines << QStringLiteral("%1,%2,%3,%4,%5")
                     .arg(m_table->item(row, 0)->text(), m_table->item(row, 1)->text(),
                          m_table->item(row, 2)->text(), m_table->item(row, 3)->text(),
                          m_table->item(row, 4)->text());
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "precisionview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/style.h"
#include "views/widgets/tablefit.h"

#include "core/model/formats.h"
#include "core/model/scenario.h"
#include "core/model/units.h"
#include "core/physics/precision.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QTableWidget>

#include <cmath>

namespace views {

namespace {

QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

QString sci(double value)
{
    if (value == 0)
        return QStringLiteral("0");
    const double a = std::fabs(value);
    if (a >= 1e-3 && a < 1e6)
        return QString::fromStdString(core::formatNumber(value, 8));
    return QString::number(value, 'g', 6);
}

QTableWidgetItem *cell(const QString &text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    item->setTextAlignment(align);
    return item;
}

} // namespace

PrecisionView::PrecisionView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new BitLayoutCanvas(this))
    , m_input(new QLineEdit(this))
    , m_values(new QTableWidget(this))
    , m_weights(new QTableWidget(this))
{
    setObjectName(QStringLiteral("precisionView"));
    m_input->setText(QStringLiteral("0.1"));
    m_input->setClearButtonEnabled(true);
    m_input->setToolTip(tr("A number, e.g. 0.1, 65520, 1e-8 or 3.14159"));
    connect(m_input, &QLineEdit::editingFinished, this, [this] { setValue(m_input->text()); });
    m_values->setColumnCount(4);
    m_values->setHorizontalHeaderLabels({tr("Format"), tr("Stored as"), tr("Error"), tr("Flag")});
    m_weights->setColumnCount(3);
    m_weights->setHorizontalHeaderLabels(
        {tr("Weights in"), tr("Bytes per parameter"), tr("Weight memory")});
    for (QTableWidget *t : {m_values, m_weights}) {
        t->verticalHeader()->setVisible(false);
        t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    }
    m_valuesFit = new TableFitter(m_values, TableFitter::Rows::AllShown);
    m_weightsFit = new TableFitter(m_weights, TableFitter::Rows::AllShown);
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_canvas, 0, 0, 1, 2);
    auto *inputRow = new QHBoxLayout;
    inputRow->addWidget(new QLabel(tr("A value:"), this));
    inputRow->addWidget(m_input, 1);
    layout->addLayout(inputRow, 1, 0);
    layout->addWidget(m_values, 2, 0);
    auto *weightsNote = new QLabel(
        tr("The current model's weights. Nominal bytes are a lower bound: scales and zero points "
           "add to them, and without a fast kernel for the format the engine may dequantise "
           "through a wider type and lose the gain (l.137)."),
        this);
    weightsNote->setWordWrap(true);
    layout->addWidget(weightsNote, 1, 1);
    layout->addWidget(m_weights, 2, 1);
    layout->setRowStretch(0, 3);
    layout->setRowStretch(2, 2);
    fillValues();
}

bool PrecisionView::setValue(const QString &text)
{
    bool ok = false;
    const double value = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(value)) {
        m_input->setStyleSheet(QStringLiteral("color: %1").arg(style::warning().name()));
        m_input->setToolTip(tr("\"%1\" is not a finite number").arg(text));
        return false;
    }
    m_input->setStyleSheet(QString());
    m_value = value;
    fillValues();
    return true;
}

void PrecisionView::fillValues()
{
    const auto &layouts = core::bitLayouts();
    m_values->setRowCount(int(layouts.size()));
    for (int row = 0; row < int(layouts.size()); ++row) {
        const core::BitLayout &l = layouts[std::size_t(row)];
        const core::Rounded r = core::roundTo(m_value, l);
        QString flag;
        if (r.overflow)
            flag = l.integer
                       ? tr("saturates at %1").arg(sci(r.value))
                       : tr("overflow: beyond %1 (%2)").arg(sci(l.maxFinite), fromView(l.note));
        else if (r.underflow)
            flag = l.integer ? tr("rounds to zero without a scale (the Quantisation view)")
                             : tr("underflow: rounds to zero");
        else if (r.subnormal)
            flag = tr("subnormal: fewer significant bits");
        m_values->setItem(row, 0, cell(fromView(l.name), Qt::AlignLeft | Qt::AlignVCenter));
        m_values->setItem(
            row, 1,
            cell(r.overflow && !l.integer && l.key != "fp8-e4m3" ? tr("infinity") : sci(r.value)));
        m_values->setItem(
            row, 2,
            cell(m_value == 0
                     ? QStringLiteral("0")
                     : tr("%1 (%2 %)").arg(sci(r.error), style::number(r.relativeError * 100, 3))));
        auto *flagItem = cell(flag, Qt::AlignLeft | Qt::AlignVCenter);
        if (!flag.isEmpty())
            flagItem->setForeground(style::warning());
        m_values->setItem(row, 3, flagItem);
    }
    m_valuesFit->refit();
}

void PrecisionView::refresh()
{
    const core::Scenario &s = document()->scenario();
    const core::MemoryUnits units = document()->units();
    const std::vector<core::NumericFormat> formats = {
        core::NumericFormat::Fp32, core::NumericFormat::Bf16, core::NumericFormat::Fp16,
        core::NumericFormat::Fp8,  core::NumericFormat::Int8, core::NumericFormat::Int4};
    m_weights->setRowCount(int(formats.size()) + 1);
    int row = 0;
    for (const core::NumericFormat f : formats) {
        const double bytes = core::nominalBytes(f);
        m_weights->setItem(row, 0,
                           cell(fromView(core::formatLabel(f)), Qt::AlignLeft | Qt::AlignVCenter));
        m_weights->setItem(row, 1, cell(style::number(bytes, 4)));
        m_weights->setItem(row, 2,
                           cell(fromStd(core::formatBytes(s.model.parameters * bytes, units))));
        ++row;
    }
    // the lesson's 4-bit with one 16-bit scale per 128 weights: 0.5156 B/param (l.49)
    core::QuantLayout grouped;
    grouped.groupSize = 128;
    grouped.scaleBits = 16;
    const double groupedBytes = core::bytesPerParameter(core::NumericFormat::Int4, grouped);
    m_weights->setItem(row, 0,
                       cell(tr("INT4, 16-bit scale per 128"), Qt::AlignLeft | Qt::AlignVCenter));
    m_weights->setItem(row, 1, cell(style::number(groupedBytes, 4)));
    m_weights->setItem(row, 2,
                       cell(fromStd(core::formatBytes(s.model.parameters * groupedBytes, units))));
    m_weightsFit->refit();
}

QString PrecisionView::csv() const
{
    QStringList lines{QStringLiteral("format,sign_bits,exponent_bits,mantissa_bits,max_finite,"
                                     "min_normal,epsilon")};
    for (const core::BitLayout &l : core::bitLayouts())
        lines << QStringLiteral("%1,%2,%3,%4,%5,%6,%7")
                     .arg(fromView(l.key))
                     .arg(l.sign)
                     .arg(l.exponent)
                     .arg(l.mantissa)
                     .arg(l.maxFinite, 0, 'g', 17)
                     .arg(l.minNormal, 0, 'g', 17)
                     .arg(l.epsilon, 0, 'g', 17);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

BitLayoutCanvas::BitLayoutCanvas(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void BitLayoutCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    const QFont base = style::annotationFont(1.0);
    QFont bold = base;
    bold.setBold(true);
    const QFontMetricsF metrics(base);
    const double line = metrics.height();
    const auto &layouts = core::bitLayouts();
    const double margin = line * 0.5;
    const double nameWidth = metrics.horizontalAdvance(QStringLiteral("FP8 E4M3")) + line;
    // three aligned columns as wide as their widest entry: a fixed share of the width cut the
    // epsilon off when the drawing was small (issue #23)
    const QString headers[3] = {tr("largest"), tr("smallest normal"), tr("epsilon")};
    double columnWidth[3];
    for (int c = 0; c < 3; ++c)
        columnWidth[c] = QFontMetricsF(bold).horizontalAdvance(headers[c]);
    for (const core::BitLayout &l : layouts) {
        if (l.integer)
            continue;
        const double values[3] = {l.maxFinite, l.minNormal, l.epsilon};
        for (int c = 0; c < 3; ++c)
            columnWidth[c] = std::max(columnWidth[c], metrics.horizontalAdvance(sci(values[c])));
    }
    const double columnGap = line;
    const double figuresWidth = columnWidth[0] + columnWidth[1] + columnWidth[2] + 3 * columnGap;
    auto columnLeft = [&](int c) {
        double x = width() - margin - figuresWidth + columnGap;
        for (int k = 0; k < c; ++k)
            x += columnWidth[k] + columnGap;
        return x;
    };
    const double bitsWidth = width() - 2 * margin - nameWidth - figuresWidth;
    const double cellWidth = bitsWidth / 32.0;
    const double rowHeight =
        std::min((height() - 2 * margin - line * 1.4) / double(layouts.size()), line * 2.2);
    const QColor signColour = style::kVermillion;
    const QColor exponentColour = style::kBlue;
    const QColor mantissaColour = style::kGreen;
    const QColor integerColour = style::grey(150);
    p.setFont(bold);
    p.drawText(QRectF(margin + nameWidth, margin, bitsWidth, line),
               Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(bold).horizontalAdvance(tr("sign  exponent  mantissa (one square "
                                                        "per bit)")) <= bitsWidth
                   ? tr("sign  exponent  mantissa (one square per bit)")
                   : tr("sign  exponent  mantissa"));
    for (int c = 0; c < 3; ++c)
        p.drawText(QRectF(columnLeft(c), margin, columnWidth[c], line),
                   Qt::AlignLeft | Qt::AlignVCenter, headers[c]);
    p.setFont(base);
    for (std::size_t i = 0; i < layouts.size(); ++i) {
        const core::BitLayout &l = layouts[i];
        const double y = margin + line * 1.4 + double(i) * rowHeight;
        p.setPen(style::ink());
        p.drawText(QRectF(margin, y, nameWidth, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   fromView(l.name));
        int bit = 0;
        auto draw = [&](int count, const QColor &colour) {
            for (int b = 0; b < count; ++b, ++bit) {
                QColor fill = colour;
                fill.setAlphaF(0.55);
                p.setPen(QPen(colour.darker(140), 1));
                p.setBrush(fill);
                p.drawRect(QRectF(margin + nameWidth + bit * cellWidth, y + rowHeight * 0.18,
                                  cellWidth - 1.5, rowHeight * 0.64));
            }
        };
        if (l.integer) {
            draw(l.mantissa + 1, integerColour);
        } else {
            draw(l.sign, signColour);
            draw(l.exponent, exponentColour);
            draw(l.mantissa, mantissaColour);
        }
        p.setPen(style::grey(50));
        if (l.integer) {
            p.drawText(QRectF(columnLeft(0), y, figuresWidth - columnGap, rowHeight),
                       Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                       tr("%1 to %2, steps of 1 x scale").arg(sci(l.minValue), sci(l.maxFinite)));
            continue;
        }
        const double values[3] = {l.maxFinite, l.minNormal, l.epsilon};
        for (int c = 0; c < 3; ++c)
            p.drawText(QRectF(columnLeft(c), y, columnWidth[c], rowHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, sci(values[c]));
    }
}

QWidget *PrecisionView::figureWidget()
{
    return m_canvas;
}

} // namespace views

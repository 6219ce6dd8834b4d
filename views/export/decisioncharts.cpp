// SPDX-License-Identifier: GPL-3.0-or-later
#include "decisioncharts.h"

#include "views/widgets/style.h"

#include "core/decide/outlook.h"
#include "core/model/units.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace views {

namespace {

QFont font(double pixels, bool bold = false)
{
    QFont f = QApplication::font();
    f.setPixelSize(std::max(1, int(std::lround(pixels))));
    f.setBold(bold);
    return f;
}

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

/** "$4,088" or "$1.23 M": a bar's end needs few characters. */
QString usdShort(double usd)
{
    if (!std::isfinite(usd))
        return QStringLiteral("n/a");
    if (std::abs(usd) >= 1e6)
        return QStringLiteral("$%1 M").arg(fromStd(core::formatNumber(usd / 1e6, 3)));
    return QStringLiteral("$") + fromStd(core::formatNumber(std::round(usd), 9));
}

QString percentSigned(double fraction)
{
    if (!std::isfinite(fraction))
        return QStringLiteral("n/a");
    return (fraction >= 0 ? QStringLiteral("+") : QString()) +
           fromStd(core::formatNumber(fraction * 100.0, 3)) + QStringLiteral(" %");
}

/** Round tick values covering [low, high]: 1, 2 or 5 times a power of ten apart. */
QList<double> ticks(double low, double high, int wanted)
{
    QList<double> out;
    const double span = high - low;
    if (!(span > 0) || !std::isfinite(span))
        return out;
    const double raw = span / std::max(1, wanted);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = power;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * power;
        if (step >= raw)
            break;
    }
    for (double v = std::ceil(low / step) * step; v <= high + step * 1e-9; v += step)
        out << (std::abs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

} // namespace

void paintTornado(QPainter &p, const QRectF &area, const core::Sensitivity &s,
                  TornadoMeasure measure, double px)
{
    if (!s.available)
        return;
    const bool cost = measure == TornadoMeasure::MonthlyCost;
    // the margin does not move with growth (a later month's demand): that bar is cost-only
    QList<const core::TornadoBar *> bars;
    for (const core::TornadoBar &bar : s.bars)
        if (cost || bar.range.key != "growth")
            bars << &bar;
    const double base = cost ? s.baseCost : s.baseMargin.value;
    if (bars.isEmpty() || !std::isfinite(base))
        return;
    auto lowOf = [cost](const core::TornadoBar *b) { return cost ? b->costLow : b->marginLow; };
    auto highOf = [cost](const core::TornadoBar *b) { return cost ? b->costHigh : b->marginHigh; };
    double lo = base;
    double hi = base;
    for (const core::TornadoBar *b : bars)
        for (const double v : {lowOf(b), highOf(b)})
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (!cost) { // the check fails below zero: keep zero in view
        lo = std::min(lo, 0.0);
        hi = std::max(hi, 0.0);
    }
    const double pad = std::max((hi - lo) * 0.08, std::abs(base) * 0.05 + 1e-12);
    lo -= pad;
    hi += pad;
    if (cost)
        lo = std::max(lo, 0.0);

    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor ink = style::ink();
    const QColor lowColour = style::kBlue;
    const QColor highColour = style::kOrange;
    // title
    p.setPen(ink);
    p.setFont(font(15 * px, true));
    const QString title =
        cost ? QObject::tr("Monthly cost: each input alone at either end of its range")
             : QObject::tr("Margin of the binding check (%1): each input alone")
                   .arg(fromStd(s.baseMargin.label));
    const double titleHeight = 26 * px;
    p.drawText(QRectF(area.left(), area.top(), area.width(), titleHeight),
               Qt::AlignLeft | Qt::AlignVCenter, title);

    const QFont labelFont = font(12.5 * px);
    const QFont rangeFont = font(11 * px);
    const QFontMetricsF labelMetrics(labelFont);
    const QFontMetricsF rangeMetrics(rangeFont);
    double labelWidth = 0;
    for (const core::TornadoBar *b : bars) {
        labelWidth = std::max(labelWidth, labelMetrics.horizontalAdvance(fromStd(b->range.label)));
        labelWidth =
            std::max(labelWidth, rangeMetrics.horizontalAdvance(fromStd(b->range.lowText) +
                                                                QStringLiteral(" \u2192 ") +
                                                                fromStd(b->range.highText)));
    }
    labelWidth = std::min(labelWidth + 12 * px, area.width() * 0.42);
    const double axisHeight = 34 * px;
    const QRectF plot(area.left() + labelWidth, area.top() + titleHeight + 4 * px,
                      area.width() - labelWidth - 8 * px,
                      area.height() - titleHeight - 4 * px - axisHeight);
    auto xOf = [&](double v) { return plot.left() + (v - lo) / (hi - lo) * plot.width(); };

    // axis and grid
    p.setFont(rangeFont);
    for (const double t : ticks(lo, hi, 5)) {
        const double x = xOf(t);
        p.setPen(QPen(style::grey(225), 1 * px));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(style::muted());
        p.drawText(QRectF(x - 60 * px, plot.bottom() + 2 * px, 120 * px, 16 * px),
                   Qt::AlignHCenter | Qt::AlignTop, cost ? usdShort(t) : percentSigned(t));
    }
    p.setPen(style::muted());
    p.drawText(QRectF(plot.left(), plot.bottom() + 17 * px, plot.width(), 16 * px),
               Qt::AlignHCenter | Qt::AlignTop,
               cost ? QObject::tr("USD a month (base %1)").arg(usdShort(base))
                    : QObject::tr("room to spare (base %1; below 0 the check fails)")
                          .arg(percentSigned(base)));
    if (!cost && lo < 0) {
        p.setPen(QPen(style::warning(), 1.5 * px, Qt::DashLine));
        p.drawLine(QPointF(xOf(0), plot.top()), QPointF(xOf(0), plot.bottom()));
    }

    const double row = plot.height() / bars.size();
    const double barHeight = std::min(row * 0.62, 30 * px);
    for (int i = 0; i < bars.size(); ++i) {
        const core::TornadoBar *b = bars[i];
        const double y = plot.top() + row * i;
        const double mid = y + row / 2;
        // the input and its range
        p.setPen(ink);
        p.setFont(labelFont);
        p.drawText(
            QRectF(area.left(), mid - labelMetrics.height(), labelWidth - 10 * px,
                   labelMetrics.height()),
            Qt::AlignRight | Qt::AlignBottom,
            labelMetrics.elidedText(fromStd(b->range.label), Qt::ElideRight, labelWidth - 10 * px));
        p.setPen(style::muted());
        p.setFont(rangeFont);
        p.drawText(QRectF(area.left(), mid, labelWidth - 10 * px, rangeMetrics.height() + 2 * px),
                   Qt::AlignRight | Qt::AlignTop,
                   rangeMetrics.elidedText(fromStd(b->range.lowText) + QStringLiteral(" \u2192 ") +
                                               fromStd(b->range.highText),
                                           Qt::ElideRight, labelWidth - 10 * px));
        // the two halves: base to the low end's value, base to the high end's
        const double xBase = xOf(base);
        const double lowValue = lowOf(b);
        const double highValue = highOf(b);
        // both ends on one side of the base: the nearer end's value goes on the other side, so
        // the two labels never meet
        const bool oneSide = (lowValue - base) * (highValue - base) >= 0;
        const bool still = std::abs(xOf(lowValue) - xBase) < 1.5 * px &&
                           std::abs(xOf(highValue) - xBase) < 1.5 * px;
        for (const bool high : {false, true}) {
            const double v = high ? highOf(b) : lowOf(b);
            if (!std::isfinite(v))
                continue;
            const double x = xOf(v);
            QRectF bar(QPointF(std::min(x, xBase), mid - barHeight / 2),
                       QPointF(std::max(x, xBase), mid + barHeight / 2));
            if (bar.width() < 1.5 * px) // no change: a thin tick says so
                bar.adjust(-0.75 * px, 0, 0.75 * px, 0);
            QColor fill = high ? highColour : lowColour;
            const bool fails = !(high ? b->passesHigh : b->passesLow);
            p.setPen(fails ? QPen(style::warning(), 2 * px) : Qt::NoPen);
            fill.setAlpha(fails ? 120 : 210);
            p.setBrush(fill);
            p.drawRect(bar);
            // the value at the bar's end, outside it
            const QString text = (cost ? usdShort(v) : percentSigned(v)) +
                                 (fails ? QObject::tr(" (fails)") : QString());
            p.setPen(ink);
            p.setFont(rangeFont);
            const double w = rangeMetrics.horizontalAdvance(text) + 4 * px;
            if (still && !high)
                continue; // one label at a bar that did not move
            const bool nearer =
                std::abs(v - base) <= std::abs((high ? lowValue : highValue) - base);
            bool right = x >= xBase;
            if (oneSide && nearer && !still)
                right = !right;
            const double tx =
                right ? std::min(std::max(bar.right(), xBase) + 3 * px, plot.right() - w)
                      : std::max(std::min(bar.left(), xBase) - 3 * px - w, plot.left());
            p.drawText(QRectF(tx, mid - barHeight / 2 - 1, w, barHeight + 2),
                       (right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, text);
        }
    }
    // the base line over the bars
    p.setPen(QPen(ink, 1.5 * px));
    p.drawLine(QPointF(xOf(base), plot.top()), QPointF(xOf(base), plot.bottom()));
    // key
    p.setFont(rangeFont);
    const double keyY = area.top() + titleHeight / 2;
    double kx = area.right() - 8 * px;
    for (const bool high : {true, false}) {
        const QString text = high ? QObject::tr("high end") : QObject::tr("low end");
        const double w = rangeMetrics.horizontalAdvance(text);
        kx -= w;
        p.setPen(ink);
        p.drawText(QPointF(kx, keyY + rangeMetrics.ascent() / 2), text);
        kx -= 16 * px;
        p.setPen(Qt::NoPen);
        p.setBrush(high ? highColour : lowColour);
        p.drawRect(QRectF(kx, keyY - 5 * px, 12 * px, 10 * px));
        kx -= 14 * px;
    }
    p.restore();
}

void paintGrowth(QPainter &p, const QRectF &area, const core::GrowthPlan &plan, double px)
{
    if (!plan.available || plan.months.empty())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    const QColor ink = style::ink();
    const QFont small = font(11 * px);
    const QFontMetricsF metrics(small);
    p.setPen(ink);
    p.setFont(font(15 * px, true));
    const double titleHeight = 26 * px;
    p.drawText(
        QRectF(area.left(), area.top(), area.width(), titleHeight),
        Qt::AlignLeft | Qt::AlignVCenter,
        QObject::tr("Demand against capacity: %1 a month for %2 months")
            .arg(fromStd(core::formatNumber(plan.growthPerMonth * 100, 3)) + QStringLiteral(" %"),
                 QString::number(plan.horizonMonths)));

    const double left = 78 * px;
    const double right = 78 * px;
    const double top = area.top() + titleHeight + 10 * px;
    const double bottom = area.bottom() - 36 * px;
    const QRectF plot(area.left() + left, top, area.width() - left - right, bottom - top);
    const int months = plan.horizonMonths;
    auto xOf = [&](double m) { return plot.left() + m / std::max(1, months) * plot.width(); };

    // left axis: tokens/s; capacity bought each month = replicas x today's capacity per replica
    const double today = plan.months.front().replicas;
    const double perReplica = plan.months.front().capacityTokensPerSecond / std::max(1.0, today);
    double yMax = 0;
    for (const core::GrowthMonth &m : plan.months)
        yMax = std::max({yMax, m.demandTokensPerSecond, m.replicas * perReplica});
    yMax *= 1.12;
    auto yOf = [&](double v) { return plot.bottom() - v / yMax * plot.height(); };
    // right axis: USD a month
    double usdMax = 0;
    for (const core::GrowthMonth &m : plan.months)
        if (std::isfinite(m.usdPerMonth))
            usdMax = std::max(usdMax, m.usdPerMonth);
    usdMax *= 1.12;
    const bool priced = usdMax > 0;
    auto yUsd = [&](double v) { return plot.bottom() - v / usdMax * plot.height(); };

    p.setFont(small);
    for (const double t : ticks(0, yMax, 5)) {
        p.setPen(QPen(style::grey(228), 1 * px));
        p.drawLine(QPointF(plot.left(), yOf(t)), QPointF(plot.right(), yOf(t)));
        p.setPen(style::muted());
        p.drawText(QRectF(area.left(), yOf(t) - 8 * px, left - 6 * px, 16 * px),
                   Qt::AlignRight | Qt::AlignVCenter, fromStd(core::formatNumber(t, 4)));
    }
    if (priced)
        for (const double t : ticks(0, usdMax, 5)) {
            p.setPen(style::muted());
            p.drawText(QRectF(plot.right() + 6 * px, yUsd(t) - 8 * px, right - 6 * px, 16 * px),
                       Qt::AlignLeft | Qt::AlignVCenter, usdShort(t));
        }
    const int step = months <= 24 ? (months <= 12 ? 1 : 3) : (months <= 60 ? 6 : 12);
    for (int m = 0; m <= months; m += step) {
        p.setPen(style::muted());
        p.drawText(QRectF(xOf(m) - 20 * px, plot.bottom() + 3 * px, 40 * px, 14 * px),
                   Qt::AlignHCenter | Qt::AlignTop, QString::number(m));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 18 * px, plot.width(), 16 * px),
               Qt::AlignHCenter | Qt::AlignTop, QObject::tr("month"));
    p.save();
    p.translate(area.left() + 10 * px, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -10 * px, plot.height(), 16 * px), Qt::AlignCenter,
               QObject::tr("generated tokens/s"));
    p.restore();

    // the monthly cost as light columns behind the lines
    if (priced) {
        const double width = plot.width() / (months + 1) * 0.45;
        p.setPen(Qt::NoPen);
        QColor fill = style::grey(215);
        fill.setAlpha(110);
        p.setBrush(fill);
        for (const core::GrowthMonth &m : plan.months)
            if (m.month < months && std::isfinite(m.usdPerMonth))
                p.drawRect(QRectF(QPointF(xOf(m.month + 0.5) - width / 2, yUsd(m.usdPerMonth)),
                                  QPointF(xOf(m.month + 0.5) + width / 2, plot.bottom())));
    }
    // capacity bought (a step), today's fleet (flat, dashed) and demand (a curve)
    QPainterPath capacity;
    QPainterPath demand;
    for (const core::GrowthMonth &m : plan.months) {
        const QPointF c(xOf(m.month), yOf(m.replicas * perReplica));
        if (m.month == 0)
            capacity.moveTo(c);
        else {
            capacity.lineTo(QPointF(c.x(), capacity.currentPosition().y()));
            capacity.lineTo(c);
        }
        const QPointF d(xOf(m.month), yOf(m.demandTokensPerSecond));
        if (m.month == 0)
            demand.moveTo(d);
        else
            demand.lineTo(d);
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(style::kGreen, 2.5 * px));
    p.drawPath(capacity);
    p.setPen(QPen(style::kBlue, 1.5 * px, Qt::DashLine));
    p.drawLine(QPointF(plot.left(), yOf(today * perReplica)),
               QPointF(plot.right(), yOf(today * perReplica)));
    p.setPen(QPen(style::kVermillion, 2.5 * px));
    p.drawPath(demand);
    // the month it runs out
    if (plan.runOutMonth >= 0) {
        const double x = xOf(plan.runOutMonth);
        p.setPen(QPen(style::warning(), 1.5 * px, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(style::readable(style::warning()));
        p.setFont(font(12 * px, true));
        const QString text = QObject::tr("today's fleet runs out: month %1").arg(plan.runOutMonth);
        const double w = QFontMetricsF(p.font()).horizontalAdvance(text) + 6 * px;
        const double tx = x + w + 4 * px < plot.right() ? x + 4 * px : x - w - 4 * px;
        p.drawText(QRectF(tx, plot.top() + 2 * px, w, 16 * px), Qt::AlignLeft | Qt::AlignVCenter,
                   text);
    }
    // each added replica: a marker on the capacity step
    p.setFont(small);
    for (const int m : plan.addReplicaMonths) {
        const core::GrowthMonth &month = plan.months[std::size_t(m)];
        const QPointF at(xOf(m), yOf(month.replicas * perReplica));
        p.setPen(Qt::NoPen);
        p.setBrush(style::kGreen);
        p.drawEllipse(at, 4 * px, 4 * px);
        p.setPen(style::readable(style::kGreen));
        p.drawText(QRectF(at.x() - 30 * px, at.y() - 18 * px, 60 * px, 14 * px),
                   Qt::AlignHCenter | Qt::AlignBottom,
                   QObject::tr("%1 replicas").arg(fromStd(core::formatNumber(month.replicas, 9))));
    }
    // key
    struct Key
    {
        QColor colour;
        Qt::PenStyle style;
        QString text;
    };
    const QList<Key> keys{
        {style::kVermillion, Qt::SolidLine, QObject::tr("demand")},
        {style::kGreen, Qt::SolidLine, QObject::tr("capacity needed")},
        {style::kBlue, Qt::DashLine, QObject::tr("today's fleet")},
    };
    double kx = plot.left() + 8 * px;
    const double ky = plot.top() + 10 * px + (plan.runOutMonth >= 0 ? 16 * px : 0);
    for (const Key &k : keys) {
        p.setPen(QPen(k.colour, 2.5 * px, k.style));
        p.drawLine(QPointF(kx, ky), QPointF(kx + 22 * px, ky));
        p.setPen(ink);
        p.drawText(QPointF(kx + 26 * px, ky + metrics.ascent() / 2 - 1 * px), k.text);
        kx += 34 * px + metrics.horizontalAdvance(k.text);
    }
    if (priced) {
        p.setPen(Qt::NoPen);
        QColor fill = style::grey(200);
        p.setBrush(fill);
        p.drawRect(QRectF(kx, ky - 5 * px, 14 * px, 10 * px));
        p.setPen(ink);
        p.drawText(QPointF(kx + 18 * px, ky + metrics.ascent() / 2 - 1 * px),
                   QObject::tr("USD a month (right)"));
    }
    p.restore();
}

} // namespace views

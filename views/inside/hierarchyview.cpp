// SPDX-License-Identifier: GPL-3.0-or-later
#include "hierarchyview.h"

#include "views/document/scenariodocument.h"
#include "views/widgets/lessonlines.h"
#include "views/widgets/style.h"

#include "core/model/scenario.h"
#include "core/model/units.h"

#include <QPainter>
#include <QVBoxLayout>

#include <cmath>

namespace views {

namespace {

QString fromStd(const std::string &text)
{
    return QString::fromStdString(text);
}

/** One log-scaled column: a quantity from `low` to `high`, decades marked. */
struct LogColumn
{
    QString title;
    double low;
    double high;
    QRectF area;

    double x(double value) const
    {
        const double f = (std::log10(std::clamp(value, low, high)) - std::log10(low)) /
                         (std::log10(high) - std::log10(low));
        return area.left() + f * area.width();
    }
};

/** Decimal prefixes for values spanning ten orders of magnitude ("50 MB", "1 PB"). */
QString compact(double value, const QString &unit)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    int i = 0;
    while (value >= 1000 && i < 6) {
        value /= 1000;
        ++i;
    }
    return QStringLiteral("%1 %2%3").arg(style::number(value, 3), QLatin1String(prefixes[i]), unit);
}

QString typicalMark(const core::TierFigure &f)
{
    return f.origin == core::FigureOrigin::Typical ? QStringLiteral("~") : QString();
}

} // namespace

HierarchyView::HierarchyView(ScenarioDocument *document, QWidget *parent)
    : View(document, parent)
    , m_canvas(new HierarchyCanvas(this))
{
    setObjectName(QStringLiteral("hierarchyView"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_canvas);
}

void HierarchyView::refresh()
{
    const core::Scenario &s = document()->scenario();
    m_canvas->setData(core::memoryHierarchy(s), core::coldStart(s), core::spill(s),
                      document()->units());
}

QString HierarchyView::csv() const
{
    QStringList lines{
        QStringLiteral("tier,capacity_bytes,capacity_origin,bandwidth_bytes_per_s,bandwidth_origin,"
                       "latency_s,latency_origin")};
    auto origin = [](const core::TierFigure &f) {
        return f.origin == core::FigureOrigin::Device ? QStringLiteral("device")
               : f.origin == core::FigureOrigin::Link ? QStringLiteral("link")
                                                      : QStringLiteral("typical");
    };
    for (const core::MemoryTier &t : m_canvas->tiers())
        lines << QStringLiteral("\"%1\",%2,%3,%4,%5,%6,%7")
                     .arg(fromStd(t.name))
                     .arg(t.capacityBytes.value, 0, 'g', 6)
                     .arg(origin(t.capacityBytes))
                     .arg(t.bandwidthBytesPerSecond.value, 0, 'g', 6)
                     .arg(origin(t.bandwidthBytesPerSecond))
                     .arg(t.latencySeconds.value, 0, 'g', 6)
                     .arg(origin(t.latencySeconds));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

HierarchyCanvas::HierarchyCanvas(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(560, 420);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HierarchyCanvas::setData(std::vector<core::MemoryTier> tiers, core::ColdStart coldStart,
                              core::Spill spill, core::MemoryUnits units)
{
    m_tiers = std::move(tiers);
    m_coldStart = std::move(coldStart);
    m_spill = std::move(spill);
    m_units = units;
    update();
}

void HierarchyCanvas::text(QPainter &p, const QRectF &box, const QString &text, int flags)
{
    const QRectF used = p.boundingRect(box, flags, text);
    p.drawText(box, flags, text);
    m_drawn.append({text, p.transform().mapRect(used)}); // on the widget, the fit's scale applied
}

void HierarchyCanvas::paintEvent(QPaintEvent *)
{
    m_drawn.clear();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), style::paper());
    const QFont base = style::annotationFont(1.0);
    QFont bold = base;
    bold.setBold(true);
    const QFontMetricsF metrics(base);
    const double line = metrics.height();
    const double margin = line * 0.6;
    // Everything below the tiers (cold start, spill) has the height it had last time; the tiers
    // take what is left, and when even their least is too much the whole drawing is scaled to
    // fit: at presenter size on 1366x768 the spill bars were cut off (issue #23).
    // (and a line's slack: the part below wraps anew at the scaled width, a line more at
    // 1366x768 on a projector cut the host link's note in half)
    const double least = margin + line * 14 + m_restHeight + margin + line;
    const double fit = m_restHeight > 0 && least > height() ? height() / least : 1.0;
    p.scale(fit, fit);
    const double virtualHeight = height() / fit;
    const double w = width() / fit - 2 * margin;

    // ---- the tiers -------------------------------------------------------------------------
    const double top = margin;
    const double tiersHeight = std::max(
        line * 14, std::min(virtualHeight * 0.52, virtualHeight - m_restHeight - 2 * margin));
    const double nameWidth = std::min(
        w * 0.24,
        metrics.horizontalAdvance(QStringLiteral("Host DRAM (across the host link)")) + line);
    const double columnGap = line;
    const double columnWidth = (w - nameWidth - 2 * columnGap) / 3;
    std::array<LogColumn, 3> columns{
        LogColumn{tr("Capacity"), 1e6, 1e16, {}},
        LogColumn{tr("Bandwidth to the tier above"), 1e8, 1e15, {}},
        LogColumn{tr("Latency (shorter is better)"), 1e-9, 1.0, {}},
    };
    // a narrow drawing (a handout's page) sets the column titles on two lines, not clipped
    double titleLines = 1;
    for (const LogColumn &column : columns) {
        if (metrics.horizontalAdvance(column.title) > columnWidth)
            titleLines = 2;
    }
    const double rowTop = top + line * (1.6 + titleLines);
    const double rowHeight =
        (tiersHeight - line * (2.6 + titleLines)) / std::max<std::size_t>(1, m_tiers.size());
    for (int c = 0; c < 3; ++c)
        columns[std::size_t(c)].area =
            QRectF(margin + nameWidth + c * (columnWidth + columnGap), rowTop, columnWidth,
                   rowHeight * double(m_tiers.size()));

    p.setFont(bold);
    text(p, QRectF(margin, top, w, line),
         tr("Each step down: bigger, slower, cheaper per byte (log scales)"),
         Qt::AlignLeft | Qt::AlignVCenter);
    p.setFont(base);
    for (const LogColumn &column : columns) {
        p.setPen(style::ink());
        text(p,
             QRectF(column.area.left(), top + line * 1.2, column.area.width(), line * titleLines),
             column.title, Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextWordWrap);
        // decades
        p.setPen(QPen(style::grey(225), 1));
        for (double v = column.low; v <= column.high * 1.001; v *= 10)
            p.drawLine(QPointF(column.x(v), column.area.top()),
                       QPointF(column.x(v), column.area.bottom()));
    }
    const QColor device = style::kBlue;
    const QColor link = style::kGreen;
    const QColor typical = style::grey(150);
    for (std::size_t i = 0; i < m_tiers.size(); ++i) {
        const core::MemoryTier &tier = m_tiers[i];
        const double y = rowTop + double(i) * rowHeight;
        p.setPen(style::ink());
        text(p, QRectF(margin, y, nameWidth - line * 0.4, rowHeight), fromStd(tier.name),
             Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap);
        const core::TierFigure *figures[3] = {&tier.capacityBytes, &tier.bandwidthBytesPerSecond,
                                              &tier.latencySeconds};
        for (int c = 0; c < 3; ++c) {
            const LogColumn &column = columns[std::size_t(c)];
            const core::TierFigure &f = *figures[c];
            const QColor colour = f.origin == core::FigureOrigin::Device ? device
                                  : f.origin == core::FigureOrigin::Link ? link
                                                                         : typical;
            const double barHeight = std::min(rowHeight * 0.5, line * 1.1);
            const QRectF bar(column.area.left(), y + (rowHeight - barHeight) / 2,
                             column.x(f.value) - column.area.left(), barHeight);
            QColor fill = colour;
            fill.setAlphaF(f.origin == core::FigureOrigin::Typical ? 0.25 : 0.55);
            p.setPen(QPen(colour, 1));
            p.setBrush(fill);
            p.drawRect(bar);
            if (f.origin == core::FigureOrigin::Typical) {
                p.setBrush(QBrush(colour, Qt::BDiagPattern));
                p.drawRect(bar);
            }
            const QString value =
                typicalMark(f) + (c == 0   ? (f.origin == core::FigureOrigin::Device
                                                  ? fromStd(core::formatBytes(f.value, m_units))
                                                  : compact(f.value, QStringLiteral("B")))
                                  : c == 1 ? compact(f.value, QStringLiteral("B/s"))
                                           : fromStd(core::formatSeconds(f.value)));
            const double textWidth = metrics.horizontalAdvance(value) + 4;
            // the value after the bar, or inside its end when the column runs out
            const double x = bar.right() + textWidth + 4 <= column.area.right()
                                 ? bar.right() + 4
                                 : std::max(column.area.left(), bar.right() - textWidth);
            p.setPen(style::ink());
            text(p, QRectF(x, y, textWidth, rowHeight), value, Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    // key
    const double keyY = rowTop + rowHeight * double(m_tiers.size()) + line * 0.3;
    double keyX = margin;
    const std::pair<QColor, QString> keys[] = {
        {device, tr("the device preset")},
        {link, tr("a link preset")},
        {typical,
         lessonLinesForTheRoom(tr("~ typical order of magnitude, not a specification (l.33)"))}};
    for (const auto &[colour, name] : keys) {
        QColor fill = colour;
        fill.setAlphaF(0.5);
        p.setPen(QPen(colour, 1));
        p.setBrush(fill);
        p.drawRect(QRectF(keyX, keyY + line * 0.2, line * 0.9, line * 0.6));
        p.setPen(style::ink());
        const double tw = metrics.horizontalAdvance(name) + 4;
        text(p, QRectF(keyX + line * 1.2, keyY, tw, line), name, Qt::AlignLeft | Qt::AlignVCenter);
        keyX += line * 1.2 + tw + line;
    }

    // ---- the cold start --------------------------------------------------------------------
    double y = keyY + line * 1.8;
    p.setFont(bold);
    p.setPen(style::ink());
    text(p, QRectF(margin, y, w, line),
         tr("Cold start: %1 of weights, storage to HBM, %2 in all")
             .arg(fromStd(core::formatBytes(m_coldStart.bytes, m_units)),
                  fromStd(core::formatSeconds(m_coldStart.totalSeconds))),
         Qt::AlignLeft | Qt::AlignVCenter);
    p.setFont(base);
    y += line * 2.4; // room for the hop labels above the arrows
    const std::size_t stations = m_coldStart.hops.size() + 1;
    const double boxWidth =
        std::min(w * 0.2, metrics.horizontalAdvance(QStringLiteral("Object storage")) + line * 1.5);
    const double gap =
        (w - boxWidth * double(stations)) / double(std::max<std::size_t>(1, stations - 1));
    const double boxHeight = line * 1.6;
    for (std::size_t i = 0; i < stations; ++i) {
        const QRectF box(margin + double(i) * (boxWidth + gap), y, boxWidth, boxHeight);
        p.setPen(QPen(style::grey(120), 1));
        p.setBrush(style::grey(245));
        p.drawRoundedRect(box, 4, 4);
        p.setPen(style::ink());
        const QString name = i < m_coldStart.hops.size() ? fromStd(m_coldStart.hops[i].from)
                                                         : fromStd(m_coldStart.hops.back().to);
        text(p, box, name, Qt::AlignCenter);
        if (i + 1 < stations) {
            const core::ColdStartHop &hop = m_coldStart.hops[i];
            const bool slowest = i == m_coldStart.slowestHop;
            const QColor colour = slowest ? style::warning() : style::grey(90);
            const double x0 = box.right() + 4;
            const double x1 = box.right() + gap - 4;
            const double ym = box.center().y();
            p.setPen(QPen(colour, slowest ? 3 : 1.5));
            p.drawLine(QPointF(x0, ym), QPointF(x1, ym));
            p.drawLine(QPointF(x1, ym), QPointF(x1 - 8, ym - 5));
            p.drawLine(QPointF(x1, ym), QPointF(x1 - 8, ym + 5));
            p.setPen(colour);
            text(p, QRectF(x0, y - line * 1.05, x1 - x0, line),
                 tr("%1 at %2%3")
                     .arg(fromStd(core::formatSeconds(hop.seconds)),
                          typicalMark(hop.bandwidthBytesPerSecond),
                          fromStd(core::formatBandwidth(hop.bandwidthBytesPerSecond.value))),
                 Qt::AlignHCenter | Qt::AlignVCenter);
            if (slowest)
                text(p, QRectF(x0, y + boxHeight, x1 - x0, line), tr("the slowest hop"),
                     Qt::AlignHCenter | Qt::AlignVCenter);
        }
    }
    y += boxHeight + line * 1.2;
    p.setPen(style::grey(90));
    const int wrapped = Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap;
    // as many lines as the note takes at this width (a fixed two were cut at a narrow one)
    const QString leftOutText = lessonLinesForTheRoom(fromStd(m_coldStart.leftOut));
    const QRectF leftOut = p.boundingRect(QRectF(margin, y, w, line * 10), wrapped, leftOutText);
    text(p, leftOut, leftOutText, wrapped);
    y += leftOut.height() + line * 0.4;

    // ---- spill -----------------------------------------------------------------------------
    p.setFont(bold);
    p.setPen(style::ink());
    const QString spilled = fromStd(core::formatBytes(m_spill.spilledBytes, m_units));
    text(p, QRectF(margin, y, w, line),
         m_spill.spills
             ? tr("Spill: %1 does not fit, so it is read across the host link every decode step")
                   .arg(spilled)
             : tr("Spill (it fits; if %1, a tenth of a step, lived in host memory)").arg(spilled),
         Qt::AlignLeft | Qt::AlignVCenter);
    p.setFont(base);
    y += line * 1.4;
    const double labelWidth = std::min(
        w * 0.32, metrics.horizontalAdvance(tr("With the spill across the host link")) + line);
    const double barArea = w - labelWidth - line * 8;
    const double longest = std::max(m_spill.spillSeconds, m_spill.allInHbmSeconds);
    const std::pair<QString, double> bars[] = {
        {tr("Everything in HBM"), m_spill.allInHbmSeconds},
        {tr("With the spill across the host link"), m_spill.spillSeconds}};
    for (int i = 0; i < 2; ++i) {
        const double by = y + i * line * 1.5;
        p.setPen(style::ink());
        text(p, QRectF(margin, by, labelWidth, line * 1.2), bars[i].first,
             Qt::AlignLeft | Qt::AlignVCenter);
        const double length = longest > 0 ? barArea * bars[i].second / longest : 0;
        const QColor colour = i == 0 ? style::memoryBound() : style::warning();
        QColor fill = colour;
        fill.setAlphaF(0.6);
        p.setPen(QPen(colour, 1));
        p.setBrush(fill);
        p.drawRect(QRectF(margin + labelWidth, by + line * 0.1, std::max(1.0, length), line));
        p.setPen(style::ink());
        const QString value = i == 0 ? fromStd(core::formatSeconds(bars[i].second))
                                     : tr("%1 (%2x)")
                                           .arg(fromStd(core::formatSeconds(bars[i].second)),
                                                style::number(m_spill.slowdown, 3));
        text(p, QRectF(margin + labelWidth + length + 6, by, line * 8, line * 1.2), value,
             Qt::AlignLeft | Qt::AlignVCenter);
    }
    y += line * 3.2;
    p.setPen(style::grey(90));
    const QString hostNote = lessonLinesForTheRoom(
        tr("The host link carries %1%2%3 against HBM's %4: offloading is a last resort for "
           "latency-sensitive serving (l.33).")
            .arg(typicalMark(m_spill.hostLink),
                 fromStd(core::formatBandwidth(m_spill.hostLinkBandwidth)),
                 m_spill.hostLink.origin == core::FigureOrigin::Device
                     ? QString()
                     : tr(" (the preset gives no host link: PCIe 4.0 x16 assumed)"),
                 fromStd(core::formatBandwidth(m_spill.hbmBandwidth))));
    const QRectF hostBox = p.boundingRect(QRectF(margin, y, w, line * 10), wrapped, hostNote);
    text(p, hostBox, hostNote, wrapped);
    // measured for the next paint: redraw once if the part below the tiers changed its height
    const double rest = y + hostBox.height() - (top + tiersHeight);
    if (std::abs(rest - m_restHeight) > 1) {
        m_restHeight = rest;
        update();
    }
}

QWidget *HierarchyView::figureWidget()
{
    return m_canvas;
}

} // namespace views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "chartlabels.h"

#include "views/widgets/style.h"

#include <QAbstractSeries>
#include <QBrush>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QPen>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace views {

namespace {

/** A label on a plate of the chart's background: a line that runs under it (the lesson's limit
 *  through "decode, batch 1", a ridge line through a device's name, a wall through its own
 *  caption in the handout) fades behind the words instead of striking them through. */
class PlatedText : public QGraphicsSimpleTextItem
{
public:
    using QGraphicsSimpleTextItem::QGraphicsSimpleTextItem;
    QColor plate;

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override
    {
        if (plate.alpha() > 0)
            painter->fillRect(boundingRect(), plate);
        QGraphicsSimpleTextItem::paint(painter, option, widget);
    }
};

} // namespace

void replaceIfChanged(QXYSeries *series, const QList<QPointF> &points)
{
    if (series->points() != points)
        series->replace(points);
}

ChartLabels::ChartLabels(QChart *chart)
    : m_chart(chart)
{
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] { reposition(); });
}

ChartLabels::~ChartLabels() = default; // the items belong to the chart's scene

void ChartLabels::clear()
{
    for (const Label &label : m_labels) {
        label.item->hide();
        label.leader->hide();
        m_spare.append(label.item);
        m_spareLeaders.append(label.leader);
    }
    m_labels.clear();
    m_obstacles.clear();
}

void ChartLabels::addObstacle(QPointF corner, QPointF oppositeCorner, QAbstractSeries *series)
{
    m_obstacles.append({corner, oppositeCorner, series});
}

void ChartLabels::addMarkerObstacle(QPointF value, double radius, QAbstractSeries *series)
{
    m_obstacles.append({value, value, series, radius});
}

void ChartLabels::add(const QString &text, QPointF value, QAbstractSeries *series,
                      const QColor &color, QPointF offset, bool bold, Align align)
{
    QGraphicsSimpleTextItem *item =
        m_spare.isEmpty() ? new PlatedText(m_chart) : m_spare.takeLast();
    if (auto *plated = dynamic_cast<PlatedText *>(item)) {
        // the chart's own background, most of the way opaque: the line stays visible as it
        // passes, the words stay whole
        QColor plate = m_chart->backgroundBrush().color();
        if (!m_chart->isBackgroundVisible() || plate.alpha() == 0)
            plate = style::paper();
        plate.setAlpha(200);
        if (plated->plate != plate) {
            plated->plate = plate;
            plated->update();
        }
    }
    QFont font = style::annotationFont(0.95);
    font.setBold(bold);
    if (item->font() != font)
        item->setFont(font);
    if (item->text() != text)
        item->setText(text);
    const QColor ink = style::readable(color); // text in a line's colour still has to read
    if (item->brush().color() != ink)
        item->setBrush(ink);
    item->setZValue(20);
    item->show();
    QGraphicsLineItem *leader =
        m_spareLeaders.isEmpty() ? new QGraphicsLineItem(m_chart) : m_spareLeaders.takeLast();
    QPen pen(style::grey(140), 1.0 * style::scale());
    pen.setCosmetic(true);
    if (leader->pen() != pen)
        leader->setPen(pen);
    leader->setZValue(3.5); // above the grid and axes, under the series' points and lines
    leader->hide();
    m_labels.append({item, leader, value, series, offset * style::scale(), align, text, {}, 0, {}});
    reposition();
}

void ChartLabels::setNarrowText(const QString &narrowText, double width)
{
    Q_ASSERT(!m_labels.isEmpty());
    m_labels.last().narrowText = narrowText;
    m_labels.last().narrowWidth = width;
    reposition();
}

void ChartLabels::setCrowdedText(const QString &crowdedText)
{
    Q_ASSERT(!m_labels.isEmpty());
    m_labels.last().crowdedText = crowdedText;
    reposition();
}

void ChartLabels::addLineObstacle(const QList<QPointF> &points, QAbstractSeries *series, int pieces)
{
    for (qsizetype i = 1; i < points.size(); ++i) {
        const QPointF from = points[i - 1];
        const QPointF step = (points[i] - from) / std::max(1, pieces);
        for (int k = 0; k < pieces; ++k)
            addObstacle(from + step * k, from + step * (k + 1), series);
    }
}

void ChartLabels::reposition()
{
    const QRectF area = m_chart->plotArea();
    QList<QRectF> placed;
    // whose marker each rectangle is: a label may sit beside its own point's marker
    QList<const QAbstractSeries *> markerOf;
    placed.reserve(m_labels.size() + m_obstacles.size());
    // a line obstacle along an axis is a rectangle of no width (or height), which intersects
    // nothing: each keeps a pixel and a half of room on every side
    const double room = 1.5 * style::scale();
    for (const Obstacle &obstacle : m_obstacles) {
        const QPointF at = m_chart->mapToPosition(obstacle.corner, obstacle.series);
        const double r = obstacle.radius * style::scale();
        placed.append(
            obstacle.radius > 0
                ? QRectF(at - QPointF(r, r), at + QPointF(r, r))
                : QRectF(at, m_chart->mapToPosition(obstacle.oppositeCorner, obstacle.series))
                      .normalized()
                      .adjusted(-room, -room, room, room));
        markerOf.append(obstacle.radius > 0 ? obstacle.series : nullptr);
    }
    for (const Label &label : m_labels) {
        QPointF position = m_chart->mapToPosition(label.value, label.series) + label.offset;
        if (!label.narrowText.isEmpty()) {
            const double room =
                m_chart->mapToPosition(label.value + QPointF(label.narrowWidth, 0), label.series)
                    .x() -
                position.x();
            const QFontMetricsF metrics(label.item->font());
            double wide = 0;
            for (const QString &line : label.text.split(QLatin1Char('\n')))
                wide = std::max(wide, metrics.horizontalAdvance(line));
            const QString &text = wide <= room ? label.text : label.narrowText;
            if (label.item->text() != text)
                label.item->setText(text);
        } else if (label.item->text() != label.text) { // crowded last time, perhaps not now
            label.item->setText(label.text);
        }
        // where the label goes with its text now; false when nowhere is free
        QPointF anchored = position;
        Align align = label.align;
        double wantedTop = position.y();
        auto place = [&](QPointF &at, const QRectF &bounds) {
            at = anchored;
            if (align == Align::End)
                at.rx() -= bounds.width();
            else if (align == Align::Centre)
                at.rx() -= bounds.width() / 2;
            // keep the text inside the plot area so it is never clipped
            const double top = area.top() + 2;
            const double bottom = area.bottom() - bounds.height() - 2;
            at.setX(std::max(area.left() + 2, std::min(at.x(), area.right() - bounds.width() - 2)));
            at.setY(std::clamp(at.y(), top, std::max(top, bottom)));
            // Obstacles and earlier labels keep their place; a later label that would cover one
            // moves just above or below it, whichever is nearer and still inside the plot (at
            // presenter size and with both units shown, labels are wide enough to meet).
            const QRectF wanted(at, bounds.size());
            wantedTop = wanted.top();
            auto inTheWay = [&](qsizetype i) {
                return i >= markerOf.size() || markerOf[i] != label.series;
            };
            auto collides = [&](const QRectF &rect) {
                for (qsizetype i = 0; i < placed.size(); ++i)
                    if (inTheWay(i) && placed[i].intersects(rect.adjusted(0, 1, 0, -1)))
                        return true;
                return false;
            };
            if (!collides(wanted))
                return true;
            // the nearest free height: just above or just below something in the way
            double bestY = wanted.top();
            double bestDistance = std::numeric_limits<double>::infinity();
            for (qsizetype i = 0; i < placed.size(); ++i) {
                const QRectF &other = placed[i];
                if (!inTheWay(i) || other.right() < wanted.left() || other.left() > wanted.right())
                    continue;
                for (const double y : {other.top() - bounds.height() - 1, other.bottom() + 1}) {
                    const double distance = std::abs(y - wanted.top());
                    if (y < top || y > bottom || distance >= bestDistance ||
                        collides(wanted.translated(0, y - wanted.top())))
                        continue;
                    bestY = y;
                    bestDistance = distance;
                }
            }
            at.setY(bestY); // nowhere free: better overlapping than clipped
            return std::isfinite(bestDistance);
        };
        QRectF bounds = label.item->boundingRect();
        if (bounds.width() > area.width() - 4 && !label.crowdedText.isEmpty() &&
            label.item->text() != label.crowdedText) {
            // wider than the plot (a projector's type on a narrow chart): clamped inside it,
            // it would still run off the right edge
            label.item->setText(label.crowdedText);
            bounds = label.item->boundingRect();
        }
        bool free = place(position, bounds);
        if (!free && !label.crowdedText.isEmpty() && label.item->text() != label.crowdedText) {
            label.item->setText(label.crowdedText);
            bounds = label.item->boundingRect();
            free = place(position, bounds);
        }
        if (!free && label.align != Align::Centre) {
            // the other side of its point: a label between a point and a wall beside it (issue
            // #24, presenter size) finds its room on the left
            const QPointF point = m_chart->mapToPosition(label.value, label.series);
            anchored = QPointF(point.x() - label.offset.x(), anchored.y());
            align = label.align == Align::Start ? Align::End : Align::Start;
            QPointF mirrored;
            if (place(mirrored, bounds))
                position = mirrored;
            else { // nowhere free on either side: as first placed
                anchored = QPointF(point.x() + label.offset.x(), anchored.y());
                align = label.align;
                place(position, bounds);
            }
        }
        const QRectF wanted(QPointF(position.x(), wantedTop), bounds.size());
        const QRectF rect(position, bounds.size());
        placed.append(rect);
        label.item->setPos(position);
        // Moved off its place by a label before it: a leader says which point it names.
        const QPointF anchor = m_chart->mapToPosition(label.value, label.series);
        const bool displaced = std::abs(rect.top() - wanted.top()) > bounds.height() * 0.75;
        if (displaced && area.contains(anchor)) {
            const QPointF nearest(std::clamp(anchor.x(), rect.left(), rect.right()),
                                  std::clamp(anchor.y(), rect.top(), rect.bottom()));
            const QLineF line(anchor, nearest);
            if (label.leader->line() != line)
                label.leader->setLine(line);
            // a label that ended up beside its point after all needs no stub of a leader
            label.leader->setVisible(line.length() > 6 * style::scale());
        } else {
            label.leader->hide();
        }
    }
}

} // namespace views

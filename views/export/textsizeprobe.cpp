// SPDX-License-Identifier: GPL-3.0-or-later
#include "textsizeprobe.h"

#include <QFontInfo>
#include <QList>
#include <QPaintEngine>
#include <QRectF>
#include <QStringList>
#include <QTransform>

#include <cmath>
#include <limits>

namespace views {

class TextSizeProbeEngine : public QPaintEngine
{
public:
    explicit TextSizeProbeEngine(int dpi)
        : QPaintEngine(QPaintEngine::AllFeatures)
        , m_dpi(dpi)
    {}

    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    Type type() const override { return QPaintEngine::User; }
    void updateState(const QPaintEngineState &state) override
    {
        if (state.state() & QPaintEngine::DirtyTransform)
            m_transform = state.transform();
    }
    void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
    void drawPath(const QPainterPath &) override {}
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
    void drawTextItem(const QPointF &position, const QTextItem &item) override
    {
        if (item.text().trimmed().isEmpty())
            return;
        // the font's size where it was resolved, times the painter's scale, on this page
        const QFontInfo info(item.font());
        const double pixels = info.pixelSize() * std::sqrt(std::abs(m_transform.determinant()));
        const double points = pixels * 72.0 / m_dpi;
        ++count;
        // where it lies on the page, to find text drawn over text
        const QRectF box = m_transform
                               .mapRect(QRectF(position.x(), position.y() - item.ascent(),
                                               item.width(), item.ascent() + item.descent()))
                               .adjusted(1, 1, -1, -1);
        for (const auto &[other, text] : boxes) {
            const QRectF common = other.intersected(box);
            const double least =
                std::min(other.width() * other.height(), box.width() * box.height());
            if (!common.isEmpty() && common.width() * common.height() > 0.15 * least &&
                overlaps.size() < 20)
                overlaps.append(text + QStringLiteral(" / ") + item.text());
        }
        boxes.append({box, item.text()});
        // Qt elides with an ellipsis, Qt Charts with three dots: an axis title or label cut
        // short ("Attainable arith..." in the handout's first roofline, issue #42 item 4)
        if ((item.text().contains(QChar(0x2026)) || item.text().endsWith(QStringLiteral("..."))) &&
            elided.size() < 20)
            elided.append(item.text());
        if (points < smallest) {
            smallest = points;
            smallestText = item.text();
        }
    }

    double smallest = std::numeric_limits<double>::infinity();
    QString smallestText;
    int count = 0;
    QList<std::pair<QRectF, QString>> boxes;
    QStringList overlaps;
    QStringList elided;

private:
    int m_dpi;
    QTransform m_transform;
};

TextSizeProbe::TextSizeProbe(QSize size, int dotsPerInch)
    : m_size(size)
    , m_dpi(dotsPerInch)
    , m_engine(std::make_unique<TextSizeProbeEngine>(dotsPerInch))
{}

TextSizeProbe::~TextSizeProbe() = default;

QPaintEngine *TextSizeProbe::paintEngine() const
{
    return m_engine.get();
}

double TextSizeProbe::smallestPoints() const
{
    return m_engine->smallest;
}

QString TextSizeProbe::smallestText() const
{
    return m_engine->smallestText;
}

int TextSizeProbe::textCount() const
{
    return m_engine->count;
}

void TextSizeProbe::reset()
{
    m_engine->smallest = std::numeric_limits<double>::infinity();
    m_engine->smallestText.clear();
    m_engine->count = 0;
    m_engine->boxes.clear();
    m_engine->overlaps.clear();
    m_engine->elided.clear();
}

QStringList TextSizeProbe::elided() const
{
    return m_engine->elided;
}

QStringList TextSizeProbe::overlaps() const
{
    return m_engine->overlaps;
}

int TextSizeProbe::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth:
        return m_size.width();
    case PdmHeight:
        return m_size.height();
    case PdmWidthMM:
        return int(std::lround(m_size.width() * 25.4 / m_dpi));
    case PdmHeightMM:
        return int(std::lround(m_size.height() * 25.4 / m_dpi));
    case PdmNumColors:
        return std::numeric_limits<int>::max();
    case PdmDepth:
        return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY:
        return m_dpi;
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return int(QPaintDevice::devicePixelRatioFScale());
    }
    return 0;
}

} // namespace views

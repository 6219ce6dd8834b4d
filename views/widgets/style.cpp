// SPDX-License-Identifier: GPL-3.0-or-later
#include "style.h"

#include "core/model/units.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontInfo>
#include <QLegend>
#include <QLogValueAxis>
#include <QPalette>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace views::style {

namespace {
double g_scale = 1.0; // a display preference of the running application, not document state
bool g_highContrast = false;
int g_minimumChartPixels = 0; // presenter mode: chart text readable from the back row

QColor mix(const QColor &from, const QColor &to, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * t),
                            float(from.greenF() + (to.greenF() - from.greenF()) * t),
                            float(from.blueF() + (to.blueF() - from.blueF()) * t));
}

bool darkPaper()
{
    return paper().lightnessF() < 0.5;
}
} // namespace

QColor paper()
{
    return QApplication::palette().color(QPalette::Base);
}

QColor ink()
{
    return QApplication::palette().color(QPalette::Text);
}

QColor grey(int lightValue)
{
    double t = (255 - std::clamp(lightValue, 0, 255)) / 255.0;
    if (g_highContrast && t > 0.3) // mid greys are for text and lines: make them firm
        t = std::min(1.0, t * 1.5);
    return mix(paper(), ink(), t);
}

QColor muted()
{
    return grey(0x66);
}

QColor note()
{
    if (g_highContrast)
        return darkPaper() ? QColor(255, 200, 90) : QColor(110, 55, 0);
    return darkPaper() ? QColor(240, 180, 90) : QColor(0x8a, 0x4b, 0x00);
}

QString keyHtml(const QList<std::pair<QColor, QString>> &entries)
{
    QStringList key;
    for (const auto &[colour, name] : entries)
        key << (colour.isValid()
                    ? QStringLiteral("<span style=\"color: %1\">&#9632;</span>&nbsp;%2")
                          .arg(colour.name(), name.toHtmlEscaped())
                    : name.toHtmlEscaped());
    return key.join(QStringLiteral(" &nbsp; "));
}

QString themed(const QString &html)
{
    QString out = html;
    out.replace(QLatin1String("color:#666"), QLatin1String("color:") + muted().name());
    out.replace(QLatin1String("color: #555"), QLatin1String("color: ") + grey(0x55).name());
    out.replace(QLatin1String("color:#8a4b00"), QLatin1String("color:") + note().name());
    out.replace(QLatin1String("color: #8a4b00"), QLatin1String("color: ") + note().name());
    return out;
}

double contrastRatio(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readable(const QColor &colour)
{
    const QColor background = paper();
    const double target = g_highContrast ? 7.0 : 4.5;
    const QColor towards = darkPaper() ? QColor(Qt::white) : QColor(Qt::black);
    QColor result = colour;
    // mix towards white or black in small steps: keeps the hue, stops as soon as it reads
    for (int step = 1; step <= 20 && contrastRatio(result, background) < target; ++step)
        result = mix(colour, towards, step / 20.0);
    return result;
}

bool highContrast()
{
    return g_highContrast;
}

void setHighContrast(bool on)
{
    g_highContrast = on;
}

void styleChart(QChart *chart)
{
    chart->setBackgroundBrush(paper());
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(ink());
    chart->legend()->setLabelColor(ink());
}

double scale()
{
    return g_scale;
}

void setScale(double scale)
{
    g_scale = scale > 0.1 ? scale : 1.0;
}

void setMinimumChartPixels(int pixels)
{
    g_minimumChartPixels = std::max(0, pixels);
}

int minimumChartPixels()
{
    return g_minimumChartPixels;
}

QFont annotationFont(double relative)
{
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * relative);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(font.pixelSize() * relative)));
    // on a projector the smallest chart text (0.9: notes and legends) is the minimum
    const int wanted = int(std::lround(g_minimumChartPixels * relative / 0.9));
    if (g_minimumChartPixels > 0 && QFontInfo(font).pixelSize() < wanted)
        font.setPixelSize(wanted);
    return font;
}

QFont scaledFont(const QFont &base, double factor)
{
    QFont font = base;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(font.pixelSize() * factor)));
    return font;
}

QFont drawingFont(double designPixels, double scale)
{
    QFont font = annotationFont(1.0);
    const double smallest = QFontInfo(annotationFont(0.9)).pixelSize();
    font.setPixelSize(int(std::ceil(std::max(designPixels, smallest / std::max(scale, 0.05)))));
    return font;
}

QString number(double value, int significant)
{
    return QString::fromStdString(core::formatNumber(value, significant));
}

QString ordinal(double n)
{
    const long v = long(n);
    const long lastTwo = v % 100;
    const char *suffix = (lastTwo >= 11 && lastTwo <= 13) ? "th"
                         : v % 10 == 1                    ? "st"
                         : v % 10 == 2                    ? "nd"
                         : v % 10 == 3                    ? "rd"
                                                          : "th";
    return QString::number(v) + QLatin1String(suffix);
}

void setStyleSheetIfChanged(QWidget *widget, const QString &sheet)
{
    if (widget->styleSheet() != sheet)
        widget->setStyleSheet(sheet);
}

void styleLogAxis(QLogValueAxis *axis)
{
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);
    styleAxis(axis);
}

void styleAxis(QAbstractAxis *axis)
{
    axis->setLabelsFont(annotationFont(0.95));
    // throughput's two y axes keep their series colours
    if (axis->labelsColor() == QColor(Qt::black) || axis->labelsColor() == ink() ||
        axis->labelsColor().lightnessF() < 0.3)
        axis->setLabelsColor(ink());
    axis->setTitleBrush(ink());
    axis->setLinePenColor(grey(120));
    axis->setGridLineColor(grey(g_highContrast ? 190 : 220));
    axis->setMinorGridLineColor(grey(g_highContrast ? 215 : 238));
    QFont title = annotationFont(1.0);
    title.setBold(true);
    axis->setTitleFont(title);
}

} // namespace views::style

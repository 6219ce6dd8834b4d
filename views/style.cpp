#include "style.h"

#include "core/units.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QWidget>

#include <algorithm>

namespace views::style {

namespace {
double g_scale = 1.0; // a display preference of the running application, not document state
}

double scale()
{
    return g_scale;
}

void setScale(double scale)
{
    g_scale = scale > 0.1 ? scale : 1.0;
}

QFont annotationFont(double relative)
{
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * relative);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(font.pixelSize() * relative)));
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

void styleAxis(QAbstractAxis *axis)
{
    axis->setLabelsFont(annotationFont(0.95));
    QFont title = annotationFont(1.0);
    title.setBold(true);
    axis->setTitleFont(title);
}

} // namespace views::style

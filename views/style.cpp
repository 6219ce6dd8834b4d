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

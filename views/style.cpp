#include "style.h"

#include <QApplication>

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
    font.setPointSizeF(font.pointSizeF() * relative);
    return font;
}

} // namespace views::style

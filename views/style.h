#pragma once

// One colour per concept, the same in every view (Okabe-Ito: colour-blind safe), and the
// presenter scale that enlarges fonts, lines and markers for a projector.

#include <QColor>
#include <QFont>
#include <QString>

class QAbstractAxis;
class QWidget;

namespace views::style {

// Okabe-Ito palette
inline const QColor kBlack{0, 0, 0};
inline const QColor kOrange{230, 159, 0};
inline const QColor kSkyBlue{86, 180, 233};
inline const QColor kGreen{0, 158, 115};
inline const QColor kYellow{240, 228, 66};
inline const QColor kBlue{0, 114, 178};
inline const QColor kVermillion{213, 94, 0};
inline const QColor kPurple{204, 121, 167};

// Concepts
inline const QColor &weights()
{
    return kBlue;
}
inline const QColor &kvCache()
{
    return kOrange;
}
inline const QColor &overhead()
{
    return kPurple;
}
inline const QColor &memoryBound()
{
    return kBlue;
}
inline const QColor &computeBound()
{
    return kVermillion;
}
inline const QColor &currentDevice()
{
    return kBlack;
}
inline const QColor &comparisonDevice()
{
    return kGreen;
}
inline const QColor &warning()
{
    return kVermillion;
}
inline const QColor &prefill()
{
    return kPurple;
}
inline const QColor &trail()
{
    return kSkyBlue;
}

/** 1.0 normally, about 1.6 in presenter mode: multiplies pen widths, markers and fonts. */
double scale();
void setScale(double scale);

/** A font for chart annotations: the application font (already scaled in presenter mode). */
QFont annotationFont(double relative = 1.0);
/** `base` enlarged by `factor`, whether it is sized in points or in pixels. */
QFont scaledFont(const QFont &base, double factor);
/** A number as the core formats it (significant figures, thousands separators). */
QString number(double value, int significant = 3);

/** "1st", "2nd", "14th": for "the 14th request fails". */
QString ordinal(double n);

/** Sets a widget's style sheet only when it differs: re-polishing costs milliseconds. */
void setStyleSheetIfChanged(QWidget *widget, const QString &sheet);

/** Axis labels and title in the annotation font, so presenter mode enlarges charts too. */
void styleAxis(QAbstractAxis *axis);

} // namespace views::style

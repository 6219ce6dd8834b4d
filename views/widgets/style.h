// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One colour per concept, the same in every view (Okabe-Ito: colour-blind safe), and the
// presenter scale that enlarges fonts, lines and markers for a projector.

#include <QColor>
#include <QFont>
#include <QString>

class QAbstractAxis;
class QLogValueAxis;
class QChart;
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
/// a hybrid model's fixed recurrent state: part of the KV cache, the cache's colour darkened
inline QColor fixedState()
{
    return kOrange.darker(160);
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
// The canvas: paper and ink follow the theme (light, dark, high contrast). Views paint on
// paper() with ink() instead of white and black so the dark theme needs no second drawing.
/** The background of charts and drawings: the palette's Base colour. */
QColor paper();
/** Text and lines on paper: the palette's Text colour. */
QColor ink();
/** The grey that is `lightValue` (0 black .. 255 white) on white paper, as the same mix of
 *  ink and paper in the current theme; high contrast pushes it towards ink. */
QColor grey(int lightValue);
/** Secondary text ("#666" on white). */
QColor muted();
/** Caveat notes (a dark amber on light paper, a light amber on dark). */
QColor note();
/** `html` with the light-theme colours it names (#666, #555, #8a4b00) swapped for this
 *  theme's muted() and note(). */
QString themed(const QString &html);
/** A chart's key as rich text for a wrapping label under it: a square in each colour and its
 *  name (escaped); an entry with no colour is its name alone. Qt's legend cuts names short
 * ("Runtim...") where a chart is narrow. */
QString keyHtml(const QList<std::pair<QColor, QString>> &entries);
/** WCAG contrast ratio of two colours (1 to 21). */
double contrastRatio(const QColor &a, const QColor &b);
/** `colour` darkened (on light paper) or lightened (on dark) until text in it reads on paper():
 *  a contrast of 4.5 (WCAG AA), 7 in high contrast (AAA). Lines keep their colour. */
QColor readable(const QColor &colour);
/** True while the palette is a high-contrast one. */
bool highContrast();
void setHighContrast(bool on);
/** Background, title and legend in paper and ink. */
void styleChart(QChart *chart);

inline QColor currentDevice()
{
    return ink();
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

/** A font for chart annotations: the application font (already scaled in presenter mode), and
 *  in presenter mode never smaller than the minimum chart text (relative 0.9 gets exactly it). */
QFont annotationFont(double relative = 1.0);
/** The smallest chart text in pixels (presenter mode); 0 for none. */
void setMinimumChartPixels(int pixels);
int minimumChartPixels();
/** `base` enlarged by `factor`, whether it is sized in points or in pixels. */
QFont scaledFont(const QFont &base, double factor);

/** A font for a drawing laid out on a fixed design grid and painted scaled by `scale`:
 *  `designPixels` high on the grid, but never smaller on screen (or paper) than the smallest
 *  chart text, annotationFont(0.9): a drawing shown small (a narrow window, a handout's half
 *  page) had 5-pt labels (issue #23). */
QFont drawingFont(double designPixels, double scale);
/** A number as the core formats it (significant figures, thousands separators). */
QString number(double value, int significant = 3);

/** "1st", "2nd", "14th": for "the 14th request fails". */
QString ordinal(double n);

/** Sets a widget's style sheet only when it differs: re-polishing costs milliseconds. */
void setStyleSheetIfChanged(QWidget *widget, const QString &sheet);

/** Axis labels and title in the annotation font, so presenter mode enlarges charts too. */
void styleAxis(QAbstractAxis *axis);
/** A decade log axis ("%g" labels, base 10, a minor tick per unit) styled as styleAxis. */
void styleLogAxis(QLogValueAxis *axis);

} // namespace views::style

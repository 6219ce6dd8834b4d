// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson tour as a printable handout (PDF, A4): two steps a page, each the step's figure
// (its chart or drawing without controls, vector), its explanation and its number. The student
// version leaves blanks where the class predicts and for the "try it" answers; the teacher
// version fills them in with the formula and the numbers put in.

#include <QList>
#include <QString>
#include <QStringList>

namespace views {

bool writeTourHandout(const QString &path, bool answers, QString *error);

/** The text of step `index` (0-based) as the handout prints it, student's or teacher's copy. */
QString handoutStepHtml(int index, bool answers);

/** How one step prints, measured on a page of the handout's size that draws nothing. */
struct HandoutStepCheck
{
    double smallestPoints; ///< the smallest type on its part of the page
    QStringList overlaps;  ///< text drawn over other text ("a / b"), none expected
    QStringList elided;    ///< text cut short with an ellipsis, none expected
    int page;              ///< 0-based
};

/** Every step as the handout lays it out, student's or teacher's copy. */
QList<HandoutStepCheck> checkHandout(bool answers);

} // namespace views

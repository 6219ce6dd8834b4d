// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson's line references ("(l.220)") are the teacher's notes: a stakeholder's report and
// a slide cite none, and on a projector the class does not read them.

#include <QString>

namespace views {

/** `text` without its lesson line references, and the space before each. */
QString withoutLessonLines(QString text);

/** On a projector (presenter mode) `text` without its lesson line references; on the desk as
 *  it is. */
QString lessonLinesForTheRoom(const QString &text);

} // namespace views

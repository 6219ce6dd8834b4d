// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/widgets/lessonlines.h"

#include "views/widgets/style.h"

#include <QRegularExpression>

namespace views {

QString withoutLessonLines(QString text)
{
    static const QRegularExpression lessonLine(QStringLiteral("\\s*\\(l\\.\\d+(-\\d+)?\\)"));
    return text.remove(lessonLine);
}

QString lessonLinesForTheRoom(const QString &text)
{
    return style::minimumChartPixels() > 0 ? withoutLessonLines(text) : text;
}

} // namespace views

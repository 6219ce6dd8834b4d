// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lesson tour as a printable handout (PDF): one page per step with the step's view as a
// picture (vector), its explanation, its number with the formula and the numbers put in, and the
// answer to its question.

#include <QString>

namespace views {

bool writeTourHandout(const QString &path, QString *error);

} // namespace views

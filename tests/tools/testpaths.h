// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where the tests find the project's files and the programs they run. The absolute paths live in
// one small compiled file (testpaths.cpp), not in every test's compile command, so a clone in
// another folder (CI's) reuses every other test object from ccache.

#include <QString>

namespace testpaths {

QString sourceDir();     ///< the project's root
QString fixturesDir();   ///< tests/fixtures
QString accelCalc();     ///< the accel-calc program
QString accelExplorer(); ///< the accel-explorer program (empty without the GUI)
QString saveHelper();    ///< tests/tools/save_helper (empty without the GUI)

} // namespace testpaths

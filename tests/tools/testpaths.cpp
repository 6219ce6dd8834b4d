// SPDX-License-Identifier: GPL-3.0-or-later
#include "testpaths.h"

namespace testpaths {

QString sourceDir()
{
    return QStringLiteral(ACCEL_SOURCE_DIR);
}

QString fixturesDir()
{
    return QStringLiteral(ACCEL_FIXTURES_DIR);
}

QString accelCalc()
{
    return QStringLiteral(ACCEL_CALC);
}

QString accelExplorer()
{
#ifdef ACCEL_EXPLORER
    return QStringLiteral(ACCEL_EXPLORER);
#else
    return {};
#endif
}

QString saveHelper()
{
#ifdef SAVE_HELPER
    return QStringLiteral(SAVE_HELPER);
#else
    return {};
#endif
}

} // namespace testpaths

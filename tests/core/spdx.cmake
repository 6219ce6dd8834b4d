# Fails when a C++ source file of the project does not open with its SPDX licence line
# (the project's licence is in LICENSE: GPL-3.0-or-later, as Help > About says).
file(GLOB_RECURSE files
     "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/views/*.h"
     "${SOURCE_DIR}/views/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
     "${SOURCE_DIR}/tests/*.h" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/benchmarks/*.cpp"
     "${SOURCE_DIR}/fuzz/*.h" "${SOURCE_DIR}/fuzz/*.cpp")
set(missing "")
foreach(file IN LISTS files)
    file(STRINGS "${file}" first LIMIT_COUNT 1)
    if(NOT first STREQUAL "// SPDX-License-Identifier: GPL-3.0-or-later")
        list(APPEND missing "${file}")
    endif()
endforeach()
if(missing)
    list(JOIN missing "\n" text)
    message(FATAL_ERROR "no SPDX line (// SPDX-License-Identifier: GPL-3.0-or-later) in:\n${text}")
endif()
list(LENGTH files count)
message(STATUS "every source file names its licence (${count} files checked)")

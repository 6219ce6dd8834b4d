# The desktop application as users get it: `cmake --install` into a temporary root, then the
# Debian package built by CPack and unpacked into another; in each the installed binary renders a
# snapshot and the desktop file, icons and presets are where desktops look for them.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -P installandrun.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(check_tree root)
    foreach(path
            usr/bin/accel-explorer
            usr/bin/accel-calc
            usr/share/applications/accel-explorer.desktop
            usr/share/icons/hicolor/scalable/apps/accel-explorer.svg
            usr/share/icons/hicolor/48x48/apps/accel-explorer.png
            usr/share/icons/hicolor/256x256/apps/accel-explorer.png
            usr/share/accel-explorer/presets/devices.json
            usr/share/accel-explorer/presets/scenarios/lesson-default.json
            usr/share/doc/accel-explorer/user-guide.md)
        if(NOT EXISTS "${root}/${path}")
            message(FATAL_ERROR "${root}: ${path} is not installed")
        endif()
    endforeach()
    file(READ "${root}/usr/share/applications/accel-explorer.desktop" desktop)
    foreach(line "Exec=accel-explorer" "Icon=accel-explorer" "Type=Application")
        string(FIND "${desktop}" "${line}" at)
        if(at LESS 0)
            message(FATAL_ERROR "the desktop file lacks ${line}")
        endif()
    endforeach()
    find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
    if(DESKTOP_FILE_VALIDATE)
        execute_process(COMMAND "${DESKTOP_FILE_VALIDATE}"
                                "${root}/usr/share/applications/accel-explorer.desktop"
                        RESULT_VARIABLE invalid OUTPUT_VARIABLE why ERROR_VARIABLE why)
        if(invalid)
            message(FATAL_ERROR "desktop-file-validate: ${why}")
        endif()
    endif()
    # the installed binary, not the build tree's, renders a view and runs the core
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env QT_QPA_PLATFORM=offscreen
                            "${root}/usr/bin/accel-explorer" --snapshot roofline
                            -o "${root}/roofline.png" support-assistant
                    RESULT_VARIABLE failed ERROR_VARIABLE err)
    if(failed OR NOT EXISTS "${root}/roofline.png")
        message(FATAL_ERROR "the installed accel-explorer did not render: ${err}")
    endif()
    file(SIZE "${root}/roofline.png" bytes)
    if(bytes LESS 20000)
        message(FATAL_ERROR "the installed snapshot is only ${bytes} bytes")
    endif()
    execute_process(COMMAND "${root}/usr/bin/accel-calc" --version
                    RESULT_VARIABLE failed OUTPUT_VARIABLE version)
    if(failed OR NOT version MATCHES "[0-9]+\\.[0-9]+\\.[0-9]+")
        message(FATAL_ERROR "the installed accel-calc does not run: ${version}")
    endif()
endfunction()

# 1. cmake --install
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "DESTDIR=${WORK_DIR}/install-root"
                        "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix /usr
                RESULT_VARIABLE failed OUTPUT_QUIET ERROR_VARIABLE err)
if(failed)
    message(FATAL_ERROR "cmake --install failed: ${err}")
endif()

# 2. the Debian package, unpacked (no root needed) into its own root
execute_process(COMMAND cpack -G DEB -B "${WORK_DIR}/package" --config "${BUILD_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE failed OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB packages "${WORK_DIR}/package/*.deb")
if(failed OR NOT packages)
    message(FATAL_ERROR "cpack made no package: ${out} ${err}")
endif()
list(GET packages 0 package)
execute_process(COMMAND dpkg-deb --field "${package}" Package Depends
                OUTPUT_VARIABLE fields RESULT_VARIABLE failed)
if(failed OR NOT fields MATCHES "Package: accel-explorer" OR NOT fields MATCHES "libqt6charts6")
    message(FATAL_ERROR "package control fields: ${fields}")
endif()
execute_process(COMMAND dpkg-deb -x "${package}" "${WORK_DIR}/deb-root" RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "dpkg-deb -x ${package} failed")
endif()
check_tree("${WORK_DIR}/deb-root")
check_tree("${WORK_DIR}/install-root")
message(STATUS "installed and ran: ${package}")

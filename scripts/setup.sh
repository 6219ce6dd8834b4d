#!/usr/bin/env bash
# Sets up Accelerator Explorer on Debian 12: installs the Debian packages that are missing,
# configures with CMake (Ninja, ccache when present) and builds. Safe to run again: it only
# installs what is missing and rebuilds what changed.
#   ACCEL_PRESET=asan bash scripts/setup.sh   builds the sanitizer configuration instead
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ ccache pkg-config
          qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libgl-dev
          libqt6opengl6-dev # Qt6Charts' CMake package needs it; Debian only recommends it
          libeigen3-dev nlohmann-json3-dev xvfb xauth
          desktop-file-utils) # install_and_run validates the .desktop file
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo=sudo
    fi
    echo "Installing missing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Room for the default, sanitizer and fuzz builds side by side (5 GB, ccache's default, evicted
# one while the next was built, and every CI run compiled from scratch)
if command -v ccache >/dev/null; then
    # max_size reads "5.0G" (or "500.0M"): raise it to 15 GB, never lower a larger one
    if ! ccache -k max_size 2>/dev/null | awk '/G$/ { exit !($1 + 0 >= 15) } { exit 1 }'; then
        ccache -M 15G >/dev/null
    fi
fi

preset="${ACCEL_PRESET:-default}"
options=()
if [ "${CI:-}" = "true" ]; then
    options+=(-DACCEL_WARNINGS_AS_ERRORS=ON) # CI holds the project's code to zero warnings
fi
cmake --preset "$preset" "${options[@]}" >/dev/null
cmake --build --preset "$preset"

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Qt-free programs' one file writer (accel-calc calibrate -o): the text goes to a temporary
// file beside the target, is flushed, and is renamed over it, so a crash or a full disk never
// leaves half a file. The app writes through views/atomicwriter.h (QSaveFile) instead.

#include "core/model/result.h"

#include <string>
#include <string_view>

namespace core {

[[nodiscard]] Result<bool> writeFileAtomically(const std::string &path, std::string_view text);

} // namespace core

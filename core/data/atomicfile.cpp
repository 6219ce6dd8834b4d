// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/atomicfile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace core {

Result<bool> writeFileAtomically(const std::string &path, std::string_view text)
{
    const std::string temporary = path + ".part";
    {
        errno = 0;
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file.write(text.data(), static_cast<std::streamsize>(text.size()));
        file.close(); // a full disk may only say so when the last block is written
        if (!file) {
            // the reason, as the app's writer gives it ("No space left on device"; issue #41)
            const std::string reason = errno != 0 ? std::strerror(errno) : "the write failed";
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return Diagnostic{path, "cannot be written: " + reason};
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return Diagnostic{path, "cannot be written (" + error.message() + ")"};
    }
    return true;
}

} // namespace core

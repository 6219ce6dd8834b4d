// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomicfile.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace core {

Result<bool> writeFileAtomically(const std::string &path, std::string_view text)
{
    const std::string temporary = path + ".part";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!file.flush()) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return Diagnostic{path, "cannot be written"};
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

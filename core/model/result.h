// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Errors are values in the core: g++ 12 has no std::expected, so a small Result<T> carries
// either a value or a Diagnostic that names where (a JSON pointer) and what is wrong.

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace core {

/** A problem found in an input: where (JSON pointer such as "/serving/batch") and what. */
struct Diagnostic
{
    std::string path;
    std::string message;

    bool operator==(const Diagnostic &) const = default;
};

/** Either a value or the Diagnostic that explains why there is none. */
template <typename T> class Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    {}
    Result(Diagnostic error)
        : m_error(std::move(error))
    {}

    static Result failure(std::string path, std::string message)
    {
        return Result(Diagnostic{std::move(path), std::move(message)});
    }

    [[nodiscard]] bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return *m_value; }
    T &value() & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    const T *operator->() const { return &*m_value; }
    T *operator->() { return &*m_value; }

    const Diagnostic &error() const { return m_error; }

private:
    std::optional<T> m_value;
    Diagnostic m_error;
};

using Diagnostics = std::vector<Diagnostic>;

} // namespace core

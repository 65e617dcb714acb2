#pragma once

#include <optional>
#include <string>

namespace ganglion::kubernetes::detail {

/// The content of `path`, or nullopt with `why` set to `cannot read <path>: <reason>`.
std::optional<std::string> read_text_file(const std::string& path, std::string& why);

/// Whether `path` names an existing file (not a directory).
bool is_file(const std::string& path);

/// `text` without leading and trailing whitespace.
std::string trimmed(std::string text);

} // namespace ganglion::kubernetes::detail

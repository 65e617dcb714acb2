#pragma once

#include <string>

namespace ganglion::test {

/// A fresh directory under /tmp; removed with its content when the process exits.
std::string temp_dir();

/// Writes `content` to `path`, creating parent directories. Throws std::runtime_error.
void write_file(const std::string& path, const std::string& content);

} // namespace ganglion::test

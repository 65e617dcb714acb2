#pragma once

#include <string>
#include <vector>

namespace ganglion::test {

/// A fresh directory under /tmp; removed with its content when the process exits.
std::string temp_dir();

/// Writes `content` to `path`, creating parent directories. Throws std::runtime_error.
void write_file(const std::string& path, const std::string& content);

/// The content of `path`; throws std::runtime_error when it cannot be read.
std::string read_file(const std::string& path);

/// Every `*.yaml` and `*.yml` file under `dir`, recursively, sorted; empty when `dir` is missing.
std::vector<std::string> yaml_files_under(const std::string& dir);

} // namespace ganglion::test

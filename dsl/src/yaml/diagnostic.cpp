#include "ganglion/dsl/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl {

std::string diagnostic::to_string() const {
  // An object (from the cluster) or anything without a position is named alone, never
  // `name:0:0:`.
  std::string out = where.object || where.line <= 0
                      ? where.file + ": "
                      : fmt::format("{}:{}:{}: ", where.file, where.line, where.column);
  if (level == severity::warning)
    out += "warning: ";
  if (!path.empty()) {
    out += path;
    out += ": ";
  }
  out += message;
  return out;
}

std::string diagnostic::without_level() const {
  auto plain = *this;
  plain.level = severity::error;
  return plain.to_string();
}

std::string yaml_child_path(const std::string& parent, std::string_view key) {
  return detail::child_path(parent, key);
}

std::string yaml_item_path(const std::string& parent, std::size_t index) {
  return detail::item_path(parent, index);
}

bool has_errors(const std::vector<diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const diagnostic& d) { return d.level == severity::error; });
}

} // namespace ganglion::dsl

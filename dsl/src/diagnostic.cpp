#include "ganglion/dsl/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ganglion::dsl {

std::string diagnostic::to_string() const {
  std::string out = fmt::format("{}:{}:{}: ", where.file, where.line, where.column);
  if (level == severity::warning)
    out += "warning: ";
  if (!path.empty()) {
    out += path;
    out += ": ";
  }
  out += message;
  return out;
}

bool has_errors(const std::vector<diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const diagnostic& d) { return d.level == severity::error; });
}

} // namespace ganglion::dsl

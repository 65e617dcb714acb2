#include "yaml/closest_name.hpp"
#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl {

source_location document::locate(const std::string& path) const {
  std::string current = path;
  for (;;) {
    if (auto it = locations.find(current); it != locations.end())
      return it->second;
    if (current.empty())
      return where;
    current = detail::parent_path(current);
  }
}

} // namespace ganglion::dsl

namespace ganglion::dsl::detail {

namespace {

bool below_bad_value(const load_context& cx, const std::string& path) {
  for (auto current = path;; current = parent_path(current)) {
    if (cx.bad_values.contains(current))
      return true;
    if (current.empty())
      return false;
  }
}

void report(const load_context& cx, severity level, const std::string& path, std::string message) {
  if (below_bad_value(cx, path))
    return;
  diagnostic d;
  d.level = level;
  d.where = cx.doc.locate(path);
  if (d.where.file.empty())
    d.where.file = cx.doc.where.file;
  d.path = path;
  d.message = std::move(message);
  cx.diagnostics.push_back(std::move(d));
}

} // namespace

void load_context::error(const std::string& path, std::string message) const {
  report(*this, severity::error, path, std::move(message));
}

void load_context::warning(const std::string& path, std::string message) const {
  report(*this, severity::warning, path, std::move(message));
}

void load_context::type_error(const std::string& path, std::string message) const {
  report(*this, severity::error, path, std::move(message));
  bad_values.insert(path);
}

void load_context::unknown_field(const std::string& path, const std::string& key,
                                 const std::vector<std::string_view>& known) const {
  auto message = "unknown field \"" + key + "\"";
  if (auto near = closest_name(key, known))
    message += "; did you mean \"" + *near + "\"?";
  report(*this, options.strict ? severity::error : severity::warning, path, std::move(message));
}

} // namespace ganglion::dsl::detail

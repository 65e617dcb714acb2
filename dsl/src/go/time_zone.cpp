#include "go/time_zone.hpp"

#include <filesystem>
#include <string>
#include <system_error>

namespace ganglion::dsl::detail {

bool time_zone_exists(std::string_view name) {
  if (name.empty() || name == "UTC" || name == "Local")
    return true;
  if (name.find("..") != std::string_view::npos || name.front() == '/' || name.front() == '\\')
    return false;
  std::error_code ec;
  auto path = std::filesystem::path{"/usr/share/zoneinfo"} / std::string{name};
  return std::filesystem::is_regular_file(path, ec);
}

} // namespace ganglion::dsl::detail

#include "ganglion/dsl/kind/yaml_node.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace ganglion::dsl::detail {

YAML::Node child(const YAML::Node& node, std::string_view key) {
  if (!node.IsDefined() || !node.IsMap())
    return YAML::Node{};
  for (auto it = node.begin(); it != node.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key)
      return it->second;
  return YAML::Node{};
}

bool is_plain(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() && node.Tag() == "?";
}

bool is_absent(const YAML::Node& node) { return !node.IsDefined() || node.IsNull(); }

std::string scalar_text(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() ? node.Scalar() : std::string{};
}

std::optional<bool> scalar_bool(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar())
    return std::nullopt;
  static constexpr std::array<std::string_view, 11> yes{"y",  "Y",  "yes",  "Yes",  "YES", "on",
                                                        "On", "ON", "true", "True", "TRUE"};
  static constexpr std::array<std::string_view, 11> no{"n",  "N",   "no",    "No",    "NO", "off",
                                                       "Off", "OFF", "false", "False", "FALSE"};
  const auto& s = node.Scalar();
  for (auto v : yes)
    if (s == v)
      return true;
  for (auto v : no)
    if (s == v)
      return false;
  return std::nullopt;
}

std::optional<std::int64_t> scalar_int(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar())
    return std::nullopt;
  std::string_view s = node.Scalar();
  if (!s.empty() && s.front() == '+')
    s.remove_prefix(1);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size())
    return std::nullopt;
  return value;
}

std::optional<double> scalar_number(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar())
    return std::nullopt;
  std::string_view s = node.Scalar();
  if (!s.empty() && s.front() == '+')
    s.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull())
    return "null";
  if (node.IsMap())
    return "a map";
  if (node.IsSequence())
    return "a list";
  return "\"" + node.Scalar() + "\"";
}

} // namespace ganglion::dsl::detail

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

#include <fmt/format.h>

#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/kind/embedded_yaml.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

// Argo reads `streamConfig` with viper: keys in any case, integers for sizes and counts,
// durations as Go durations or integer nanoseconds, retention and discard as Go enum numbers.

namespace ganglion::nats::detail {

using namespace dsl::detail;

namespace {

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::optional<std::int64_t> integer(const YAML::Node& value, const std::string& at,
                                    std::string_view what, const load_context& cx) {
  if (auto n = scalar_int(value))
    return n;
  cx.error(at, std::string{what} + " must be an integer, got " + describe(value));
  return std::nullopt;
}

std::optional<std::int64_t> duration(const YAML::Node& value, const std::string& at,
                                     std::string_view what, const load_context& cx) {
  if (value.IsScalar()) {
    if (auto ns = scalar_int(value))
      return ns;
    if (auto ns = dsl::parse_go_duration(value.Scalar()))
      return ns;
  }
  cx.error(at, "invalid " + std::string{what} + " " + describe(value)
                 + " (a Go duration such as \"72h\", or integer nanoseconds)");
  return std::nullopt;
}

/// A Go enum given by number (Argo) or by name (ganglion): `names[i]` is number i.
template <std::size_t N>
std::optional<std::string> policy(const YAML::Node& value, const std::string& at,
                                  std::string_view what,
                                  const std::array<std::string_view, N>& names,
                                  const load_context& cx) {
  auto text = lowered(scalar_text(value));
  if (auto n = scalar_int(value); n && *n >= 0 && static_cast<std::size_t>(*n) < N)
    return std::string{names[static_cast<std::size_t>(*n)]};
  if (std::find(names.begin(), names.end(), text) != names.end())
    return text;
  std::string allowed;
  for (std::size_t i = 0; i < N; ++i)
    allowed += (i ? ", " : "") + std::to_string(i) + " (" + std::string{names[i]} + ")";
  cx.error(at, fmt::format("{} must be {}, got {}", what, allowed, describe(value)));
  return std::nullopt;
}

} // namespace

stream_settings read_stream_config(const YAML::Node& node, const std::string& path,
                                   const load_context& cx) {
  static constexpr std::array<std::string_view, 3> retention{"limits", "interest", "workqueue"};
  static constexpr std::array<std::string_view, 2> discard{"old", "new"};
  stream_settings out;
  auto root = load_embedded_yaml(node, path, cx);
  if (!root)
    return out;
  for (auto it = root->begin(); it != root->end(); ++it) {
    if (!it->first.IsScalar())
      continue;
    const auto& key = it->first.Scalar();
    const YAML::Node value = it->second; // it-> is a proxy that ends with the statement
    auto at = child_path(path, key);
    auto name = lowered(key);
    if (name == "maxmsgs") {
      out.max_msgs = integer(value, at, "maxMsgs", cx).value_or(out.max_msgs);
    } else if (name == "maxbytes") {
      out.max_bytes = integer(value, at, "maxBytes", cx).value_or(out.max_bytes);
    } else if (name == "replicas") {
      auto n = integer(value, at, "replicas", cx).value_or(out.replicas);
      out.replicas = static_cast<std::int32_t>(std::clamp<std::int64_t>(n, INT32_MIN, INT32_MAX));
    } else if (name == "maxage") {
      out.max_age_ns = duration(value, at, "maxAge", cx).value_or(out.max_age_ns);
    } else if (name == "duplicates") {
      out.duplicates_ns = duration(value, at, "duplicates", cx).value_or(out.duplicates_ns);
    } else if (name == "retention") {
      out.retention = policy(value, at, "retention", retention, cx).value_or(out.retention);
    } else if (name == "discard") {
      out.discard = policy(value, at, "discard", discard, cx).value_or(out.discard);
    } else {
      cx.unknown_field(at, key, {"maxMsgs", "maxBytes", "replicas", "maxAge", "duplicates",
                                 "retention", "discard"});
    }
  }
  return out;
}

std::optional<std::int64_t> parse_nats_size(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data())
    return std::nullopt;
  auto suffix = lowered(std::string{end, text.data() + text.size()});
  static constexpr std::pair<std::string_view, std::int64_t> units[] = {
    {"", 1},          {"k", 1000},      {"kb", 1024},           {"ki", 1024},
    {"kib", 1024},    {"m", 1000000},   {"mb", 1024 * 1024},    {"mi", 1024 * 1024},
    {"mib", 1024 * 1024}, {"g", 1000000000}, {"gb", 1024ll << 20}, {"gi", 1024ll << 20},
    {"gib", 1024ll << 20}};
  for (const auto& [unit, scale] : units)
    if (suffix == unit) {
      if (value > INT64_MAX / scale || value < INT64_MIN / scale)
        return std::nullopt;
      return value * scale;
    }
  return std::nullopt;
}

} // namespace ganglion::nats::detail

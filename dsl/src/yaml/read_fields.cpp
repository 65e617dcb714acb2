#include "ganglion/dsl/kind/read.hpp"

#include "ganglion/dsl/duration.hpp"
#include "yaml/yaml_json.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

std::string read_string(const YAML::Node& map, std::string_view key, std::string fallback) {
  auto node = child(map, key);
  return !is_absent(node) && node.IsScalar() ? node.Scalar() : fallback;
}

std::optional<std::string> read_optional_string(const YAML::Node& map, std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsScalar())
    return std::nullopt;
  return node.Scalar();
}

bool read_bool(const YAML::Node& map, std::string_view key, bool fallback) {
  return scalar_bool(child(map, key)).value_or(fallback);
}

std::int64_t read_int(const YAML::Node& map, std::string_view key, std::int64_t fallback) {
  return scalar_int(child(map, key)).value_or(fallback);
}

std::optional<double> read_number(const YAML::Node& map, std::string_view key) {
  return scalar_number(child(map, key));
}

std::map<std::string, std::string> read_string_map(const YAML::Node& map, std::string_view key) {
  std::map<std::string, std::string> out;
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return out;
  for (auto it = node.begin(); it != node.end(); ++it)
    if (it->first.IsScalar() && (it->second.IsScalar() || it->second.IsNull()))
      out.emplace(it->first.Scalar(), scalar_text(it->second));
  return out;
}

std::vector<std::string> read_string_list(const YAML::Node& map, std::string_view key) {
  std::vector<std::string> out;
  auto node = child(map, key);
  if (is_absent(node) || !node.IsSequence())
    return out;
  for (std::size_t i = 0; i < node.size(); ++i)
    out.push_back(scalar_text(node[i]));
  return out;
}

std::optional<secret_key_selector> read_key_selector(const YAML::Node& map, std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  return secret_key_selector{read_string(node, "name"), read_string(node, "key")};
}

object_meta read_object_meta(const YAML::Node& metadata) {
  object_meta out;
  out.name = read_string(metadata, "name");
  out.namespace_ = read_string(metadata, "namespace");
  out.labels = read_string_map(metadata, "labels");
  out.annotations = read_string_map(metadata, "annotations");
  return out;
}

std::optional<event_source_filter> read_source_filter(const YAML::Node& map) {
  auto node = child(map, "filter");
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  return event_source_filter{read_string(node, "expression")};
}

std::optional<tls_config> read_tls(const YAML::Node& map, std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  tls_config out;
  out.ca_cert_secret = read_key_selector(node, "caCertSecret");
  out.client_cert_secret = read_key_selector(node, "clientCertSecret");
  out.client_key_secret = read_key_selector(node, "clientKeySecret");
  out.insecure_skip_verify = read_bool(node, "insecureSkipVerify");
  out.enabled = read_bool(node, "enabled");
  return out;
}

namespace {

/// Int64OrString: an unquoted integer is nanoseconds, anything else a Go duration.
std::optional<std::int64_t> read_nanoseconds(const YAML::Node& node, const char* key,
                                             const std::string& path, const load_context& cx) {
  auto value = child(node, key);
  if (is_absent(value) || !value.IsScalar())
    return std::nullopt;
  std::optional<std::int64_t> ns;
  if (is_plain(value))
    ns = scalar_int(value);
  if (!ns)
    ns = parse_go_duration(value.Scalar());
  if (!ns)
    cx.error(child_path(path, key),
             "invalid duration \"" + value.Scalar()
               + "\" (nanoseconds, or a Go duration such as \"2s\")");
  return ns;
}

} // namespace

backoff read_backoff(const YAML::Node& node, const std::string& path, const load_context& cx) {
  backoff out;
  out.duration_ns = read_nanoseconds(node, "duration", path, cx);
  out.max_duration_ns = read_nanoseconds(node, "maxDuration", path, cx);
  out.factor = read_number(node, "factor");
  out.jitter = read_number(node, "jitter");
  if (auto steps = scalar_int(child(node, "steps")))
    out.steps = static_cast<std::int32_t>(*steps);
  return out;
}

std::vector<trigger_parameter> read_parameters(const YAML::Node& map, std::string_view key) {
  std::vector<trigger_parameter> out;
  auto list = child(map, key);
  if (is_absent(list) || !list.IsSequence())
    return out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto item = list[i];
    trigger_parameter p;
    auto src = child(item, "src");
    p.src.dependency_name = read_string(src, "dependencyName");
    p.src.context_key = read_string(src, "contextKey");
    p.src.context_template = read_string(src, "contextTemplate");
    p.src.data_key = read_string(src, "dataKey");
    p.src.data_template = read_string(src, "dataTemplate");
    p.src.value = read_optional_string(src, "value");
    p.src.use_raw_data = read_bool(src, "useRawData");
    p.dest = read_string(item, "dest");
    p.operation = read_string(item, "operation");
    out.push_back(std::move(p));
  }
  return out;
}

std::string read_json(const YAML::Node& map, std::string_view key, std::string_view type) {
  return yaml_to_json(child(map, key), type).dump();
}

} // namespace ganglion::dsl::detail

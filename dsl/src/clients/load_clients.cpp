#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"

// The client settings (Argo common types) that sources, triggers and buses share.

namespace ganglion::dsl::detail {

std::optional<sasl_config> read_sasl(const YAML::Node& map, std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  sasl_config out;
  out.mechanism = read_string(node, "mechanism");
  if (out.mechanism.empty())
    out.mechanism = "PLAIN";
  out.user_secret = read_key_selector(node, "userSecret");
  out.password_secret = read_key_selector(node, "passwordSecret");
  return out;
}

std::optional<kafka_consumer_group> read_consumer_group(const YAML::Node& map,
                                                        std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  kafka_consumer_group out;
  out.group_name = read_string(node, "groupName");
  out.oldest = read_bool(node, "oldest");
  out.rebalance_strategy = read_string(node, "rebalanceStrategy");
  return out;
}

std::vector<secure_header> read_secure_headers(const YAML::Node& map, std::string_view key) {
  std::vector<secure_header> out;
  auto node = child(map, key);
  if (!node.IsSequence())
    return out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    secure_header h;
    h.name = read_string(node[i], "name");
    auto value_from = child(node[i], "valueFrom");
    h.secret = read_key_selector(value_from, "secretKeyRef");
    h.config_map = read_key_selector(value_from, "configMapKeyRef");
    out.push_back(std::move(h));
  }
  return out;
}

} // namespace ganglion::dsl::detail

#include <algorithm>

#include "ganglion/dsl/kind/read.hpp"
#include "yaml/argo_types.hpp"
#include "load/load_kinds.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"
#include "yaml/yaml_json.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "yaml/yaml_schema.hpp"

namespace ganglion::dsl::detail {

namespace {

/// `template.<type>`: its JSON (`json`, the part of the template's), its parameter lists and,
/// when the kind has a spec step, its model.
trigger_action read_action(const std::string& type, const YAML::Node& node,
                           const nlohmann::json& json, const std::string& path,
                           const load_context& cx) {
  trigger_action out;
  out.type = type;
  out.json = json.dump();
  out.parameters = read_parameters(node, "parameters");
  out.payload = read_parameters(node, "payload");
  if (auto step = cx.options.kinds.triggers.find(type); step != cx.options.kinds.triggers.end())
    out.spec = step->second.read(spec_read_input{node, path, cx});
  return out;
}

trigger_template read_template(const YAML::Node& node, const std::string& path,
                               const load_context& cx) {
  trigger_template out;
  out.name = read_string(node, "name");
  out.conditions = read_string(node, "conditions");
  if (auto resets = child(node, "conditionsReset"); resets.IsSequence()) {
    for (std::size_t i = 0; i < resets.size(); ++i) {
      auto by_time = child(resets[i], "byTime");
      out.conditions_reset_.push_back(
        conditions_reset{read_string(by_time, "cron"), read_string(by_time, "timezone")});
    }
  }
  if (!node.IsMap())
    return out;
  auto whole = yaml_to_json(node, "TriggerTemplate");
  out.json = whole.dump();
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar() || is_absent(it->second))
      continue;
    const auto& key = it->first.Scalar();
    if (std::find(trigger_action_types.begin(), trigger_action_types.end(), key)
        == trigger_action_types.end())
      continue;
    auto json = whole.find(key);
    out.actions.push_back(read_action(key, it->second,
                                      json != whole.end() ? *json : nlohmann::json::object(),
                                      child_path(path, key), cx));
  }
  return out;
}

std::optional<trigger_policy> read_policy(const YAML::Node& node, const std::string& path,
                                          const load_context& cx) {
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  trigger_policy out;
  if (auto k8s = child(node, "k8s"); !is_absent(k8s) && k8s.IsMap()) {
    k8s_resource_policy p;
    p.labels = read_string_map(k8s, "labels");
    if (auto b = child(k8s, "backoff"); !is_absent(b) && b.IsMap())
      p.backoff_ = read_backoff(b, child_path(child_path(path, "k8s"), "backoff"), cx);
    p.error_on_backoff_timeout = read_bool(k8s, "errorOnBackoffTimeout");
    out.k8s = std::move(p);
  }
  if (auto status = child(node, "status"); !is_absent(status) && status.IsMap()) {
    status_policy p;
    if (auto allow = child(status, "allow"); allow.IsSequence())
      for (std::size_t i = 0; i < allow.size(); ++i)
        if (auto code = scalar_int(allow[i]))
          p.allow.push_back(static_cast<std::int32_t>(*code));
    out.status = std::move(p);
  }
  return out;
}

} // namespace

trigger load_trigger(const YAML::Node& node, const std::string& path, const load_context& cx) {
  trigger out;
  out.template_ = read_template(child(node, "template"), child_path(path, "template"), cx);
  out.parameters = read_parameters(node, "parameters");
  out.policy = read_policy(child(node, "policy"), child_path(path, "policy"), cx);
  if (auto retry = child(node, "retryStrategy"); !is_absent(retry) && retry.IsMap())
    out.retry_strategy = read_backoff(retry, child_path(path, "retryStrategy"), cx);
  if (auto limit = child(node, "rateLimit"); !is_absent(limit) && limit.IsMap()) {
    rate_limit r;
    r.unit = read_string(limit, "unit", r.unit);
    if (r.unit.empty())
      r.unit = "Second";
    r.requests_per_unit = static_cast<std::int32_t>(read_int(limit, "requestsPerUnit"));
    out.rate_limit_ = r;
  }
  out.at_least_once = read_bool(node, "atLeastOnce");
  if (auto dlq = child(node, "dlqTrigger"); !is_absent(dlq) && dlq.IsMap())
    out.dlq_trigger = std::make_shared<trigger>(
      load_trigger(dlq, child_path(path, "dlqTrigger"), cx));
  return out;
}

} // namespace ganglion::dsl::detail

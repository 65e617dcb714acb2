#include "validate/validate_trigger.hpp"

#include <algorithm>
#include <memory>

#include <nlohmann/json.hpp>

#include "yaml/argo_types.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/condition.hpp"
#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"
#include "validate/validate_actions.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "go/time_zone.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

/// The compiled `conditions` (null when empty or invalid, the error reported).
std::shared_ptr<const condition> validate_conditions(const std::string& text,
                                                     const std::string& path,
                                                     const std::set<std::string>& dependencies,
                                                     const load_context& cx) {
  if (text.empty())
    return nullptr;
  try {
    auto compiled = std::make_shared<const condition>(condition::parse(text));
    bool known = true;
    for (const auto& name : compiled->variables())
      if (!dependencies.contains(name)) {
        cx.error(path, "conditions reference \"" + name + "\", which is not a dependency");
        known = false;
      }
    return known ? compiled : nullptr;
  } catch (const compile_error& e) {
    cx.error(path, std::string{"invalid conditions: "} + e.what());
  }
  return nullptr;
}

void validate_conditions_reset(const std::vector<conditions_reset>& resets,
                               const std::string& path, const load_context& cx) {
  for (std::size_t i = 0; i < resets.size(); ++i) {
    auto at = item_path(path, i);
    auto by_time = child_path(at, "byTime");
    if (!present(cx, by_time)) {
      cx.error(at, "conditionsReset needs byTime");
      continue;
    }
    const auto& r = resets[i];
    try {
      cron_schedule::parse(r.cron);
    } catch (const compile_error& e) {
      cx.error(child_path(by_time, "cron"),
               "invalid cron expression \"" + r.cron + "\": " + e.what());
    }
    if (!time_zone_exists(r.timezone))
      cx.error(child_path(by_time, "timezone"), "unknown time zone \"" + r.timezone + "\"");
  }
}

std::string list_actions(const std::vector<trigger_action>& actions) {
  std::string out;
  for (const auto& a : actions)
    out += (out.empty() ? "" : ", ") + a.type;
  return out;
}

bool has_action(const trigger_template& t, std::string_view type) {
  return std::any_of(t.actions.begin(), t.actions.end(),
                     [&](const trigger_action& a) { return a.type == type; });
}

/// The kind's own rules when it has a spec step, else Argo's rules for the type kept in dsl.
void validate_action(const trigger_action& action, const std::string& path,
                     const parameter_scope& scope, const load_context& cx) {
  const auto& steps = cx.options.kinds.triggers;
  if (auto step = steps.find(action.type); step != steps.end()) {
    step->second.check(action.spec, spec_check_input{path, cx, &scope, &action});
    return;
  }
  auto spec = nlohmann::json::parse(action.json, nullptr, false);
  if (!spec.is_discarded())
    validate_unmodelled_action(action.type, spec, path, scope, cx);
}

void validate_template(trigger_template& t, const std::string& path,
                       const parameter_scope& scope, const load_context& cx) {
  const auto& dependencies = scope.dependencies;
  if (!present(cx, path)) {
    cx.error(path, "trigger template is required");
    return;
  }
  require(t.name, child_path(path, "name"), "trigger template name", cx);
  t.compiled_conditions =
    validate_conditions(t.conditions, child_path(path, "conditions"), dependencies, cx);
  validate_conditions_reset(t.conditions_reset_, child_path(path, "conditionsReset"), cx);
  for (auto type : trigger_action_types) {
    auto key = child_path(path, type);
    if (present(cx, key) && !has_action(t, type))
      cx.error(key, "an empty \"" + std::string{type} + ":\" defines no action; write \""
                      + std::string{type} + ": {}\" or give its fields");
  }
  if (t.actions.empty())
    cx.error(path, "trigger template must define exactly one action (http, k8s, log, …)");
  else if (t.actions.size() > 1)
    cx.error(child_path(path, t.actions[1].type),
             "trigger template must define exactly one action, found " + list_actions(t.actions));
  for (const auto& action : t.actions)
    validate_action(action, child_path(path, action.type), scope, cx);
}

void validate_policy(const trigger& t, const std::string& path, const load_context& cx) {
  if (!t.policy)
    return;
  auto uses = [&](std::string_view type) { return has_action(t.template_, type); };
  if ((uses("k8s") || uses("argoWorkflow")) && t.policy->k8s
      && !present(cx, child_path(child_path(path, "k8s"), "labels")))
    cx.error(child_path(path, "k8s"), "policy.k8s needs the resource labels to wait for");
  if (!uses("k8s") && !uses("argoWorkflow") && t.policy->k8s)
    cx.warning(child_path(path, "k8s"),
               "policy.k8s applies to k8s and argoWorkflow triggers only; ignored here, as Argo "
               "does");
  if ((uses("http") || uses("awsLambda")) && t.policy->status && t.policy->status->allow.empty())
    cx.error(child_path(child_path(path, "status"), "allow"),
             "policy.status.allow must list the accepted response codes");
}

void validate_rate_limit(const trigger& t, const std::string& path, const load_context& cx) {
  if (!t.rate_limit_)
    return;
  const auto& unit = t.rate_limit_->unit;
  if (unit != "Second" && unit != "Minute" && unit != "Hour")
    cx.error(child_path(path, "unit"), "unit must be Second, Minute or Hour, got \"" + unit + "\"");
  if (t.rate_limit_->requests_per_unit < 0)
    cx.error(child_path(path, "requestsPerUnit"), "requestsPerUnit must not be negative");
}

} // namespace

void validate_trigger(trigger& t, const std::string& path,
                      const std::set<std::string>& dependencies, const load_context& cx) {
  parameter_scope scope{dependencies, {}};
  for (const auto& p : t.parameters)
    scope.template_dests.push_back(p.dest);
  validate_template(t.template_, child_path(path, "template"), scope, cx);
  validate_policy(t, child_path(path, "policy"), cx);
  validate_parameters(t.parameters, child_path(path, "parameters"), false, scope, cx);
  validate_rate_limit(t, child_path(path, "rateLimit"), cx);
  if (t.dlq_trigger) {
    auto dlq = child_path(path, "dlqTrigger");
    if (!t.at_least_once)
      cx.error(child_path(path, "atLeastOnce"),
               "a trigger with a dlqTrigger must set atLeastOnce: true");
    if (!t.dlq_trigger->at_least_once)
      cx.error(child_path(dlq, "atLeastOnce"), "the dlqTrigger must set atLeastOnce: true");
    validate_trigger(*t.dlq_trigger, dlq, dependencies, cx);
  }
}

} // namespace ganglion::dsl::detail

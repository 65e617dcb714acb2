#include "validate_actions.hpp"

#include "validate_common.hpp"
#include "validate_json.hpp"
#include "yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

// The parameters of a JSON parameter list, as far as validation needs them.
std::vector<trigger_parameter> parameters_of(const nlohmann::json& spec, const char* key) {
  std::vector<trigger_parameter> out;
  if (!has(spec, key) || !spec[key].is_array())
    return out;
  for (const auto& item : spec[key]) {
    trigger_parameter p;
    if (has(item, "src"))
      p.src.dependency_name = text(item["src"], "dependencyName");
    p.dest = text(item, "dest");
    p.operation = text(item, "operation");
    out.push_back(std::move(p));
  }
  return out;
}

void check_parameters(const nlohmann::json& spec, const char* key, const std::string& path,
                      const parameter_scope& scope, const load_context& cx) {
  // path ends in ".<action type>"; the list's dest-syntax path inside the template follows it.
  auto type = path.substr(path.rfind('.') + 1);
  validate_parameters(parameters_of(spec, key), child_path(path, key), false, scope, cx,
                      type + "." + key);
}

void check_operation(const nlohmann::json& spec, const std::string& path,
                     std::initializer_list<std::string_view> allowed, const load_context& cx) {
  auto op = text(spec, "operation");
  for (auto a : allowed)
    if (op == a)
      return;
  std::string list;
  for (auto a : allowed)
    if (!a.empty())
      list += (list.empty() ? "" : ", ") + std::string{a};
  cx.error(child_path(path, "operation"),
           "operation must be one of " + list + ", got \"" + op + "\"");
}

} // namespace

void validate_http_action(const http_trigger& http, const std::string& path,
                          const parameter_scope& scope, const load_context& cx) {
  require(http.url, child_path(path, "url"), "url", cx);
  const auto& m = http.method;
  if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
    cx.error(child_path(path, "method"),
             "method must be GET, POST, PUT, PATCH or DELETE, got \"" + m + "\"");
  validate_parameters(http.parameters, child_path(path, "parameters"), false, scope, cx,
                      "http.parameters");
  validate_parameters(http.payload, child_path(path, "payload"), true, scope, cx, "http.payload");
}

void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& scope,
                                const load_context& cx) {
  if (type == "k8s") {
    if (!has(spec, "source"))
      cx.error(path, "the k8s trigger needs a source (the resource to act on)");
    check_operation(spec, path, {"", "create", "update", "patch", "delete"}, cx);
    check_parameters(spec, "parameters", path, scope, cx);
  } else if (type == "argoWorkflow") {
    if (!has(spec, "source"))
      cx.error(path, "the argoWorkflow trigger needs a source (the workflow)");
    check_operation(spec, path,
                    {"submit", "submit-from", "suspend", "retry", "resume", "resubmit",
                     "terminate", "stop"},
                    cx);
    check_parameters(spec, "parameters", path, scope, cx);
  } else if (type == "awsLambda") {
    required(spec, "functionName", path, cx);
    required(spec, "region", path, cx);
    if (!has(spec, "payload"))
      cx.error(child_path(path, "payload"), "payload is required");
    check_parameters(spec, "parameters", path, scope, cx);
    check_parameters(spec, "payload", path, scope, cx);
  } else if (type == "kafka") {
    required(spec, "url", path, cx);
    required(spec, "topic", path, cx);
    if (!has(spec, "payload"))
      cx.error(child_path(path, "payload"), "payload is required");
    check_parameters(spec, "payload", path, scope, cx);
  } else if (type == "nats") {
    required(spec, "url", path, cx);
    required(spec, "subject", path, cx);
    if (!has(spec, "payload"))
      cx.error(child_path(path, "payload"), "payload is required");
    check_parameters(spec, "payload", path, scope, cx);
  } else if (type == "slack") {
    if (!has(spec, "slackToken"))
      cx.error(child_path(path, "slackToken"), "slackToken is required");
    check_parameters(spec, "parameters", path, scope, cx);
  } else if (type == "openWhisk") {
    required(spec, "actionName", path, cx);
    required(spec, "host", path, cx);
    if (has(spec, "authToken")
        && (text(spec["authToken"], "name").empty() || text(spec["authToken"], "key").empty()))
      cx.error(child_path(path, "authToken"), "authToken needs both name and key");
    check_parameters(spec, "parameters", path, scope, cx);
    if (!has(spec, "payload"))
      cx.error(child_path(path, "payload"), "payload is required");
    check_parameters(spec, "payload", path, scope, cx);
  } else if (type == "custom") {
    required(spec, "serverURL", path, cx);
    if (!has(spec, "spec"))
      cx.error(child_path(path, "spec"), "spec (the trigger body) is required");
    if (has(spec, "secure") && spec["secure"] == true && !has(spec, "certSecret"))
      cx.error(child_path(path, "certSecret"), "certSecret is required when secure is true");
    check_parameters(spec, "parameters", path, scope, cx);
  } else if (type == "email") {
    required(spec, "host", path, cx);
    if (has(spec, "port") && spec["port"].is_number_integer()) {
      auto port = spec["port"].get<std::int64_t>();
      if (port < 0 || port > 65535)
        cx.error(child_path(path, "port"), "port must be between 0 and 65535");
    }
    check_parameters(spec, "parameters", path, scope, cx);
  }
}

} // namespace ganglion::dsl::detail

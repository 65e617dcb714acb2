#include "transports/validate_actions.hpp"

#include "transports/validate_clients.hpp"
#include "validate/validate_common.hpp"
#include "validate/validate_json.hpp"
#include "yaml/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

// The parameters of a JSON parameter list, as far as validation needs them.
std::vector<trigger_parameter> parameters_of(const nlohmann::json& spec, const char* key) {
  std::vector<trigger_parameter> out;
  if (!has(spec, key) || !spec[key].is_array())
    return out;
  for (const auto& item : spec[key]) {
    trigger_parameter p;
    if (has(item, "src")) {
      const auto& src = item["src"];
      p.src.dependency_name = text(src, "dependencyName");
      p.src.context_key = text(src, "contextKey");
      p.src.context_template = text(src, "contextTemplate");
      p.src.data_key = text(src, "dataKey");
      p.src.data_template = text(src, "dataTemplate");
      if (has(src, "value"))
        p.src.value = text(src, "value");
    }
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

/// Argo requires `payload` of kafka and nats (an empty list will do); every item needs a dest.
void require_payload(const std::vector<trigger_parameter>& payload, const std::string& path,
                     const std::string& type, const parameter_scope& scope,
                     const load_context& cx) {
  auto at = child_path(path, "payload");
  if (!present(cx, at))
    cx.error(at, "payload is required");
  validate_parameters(payload, at, false, scope, cx, type + ".payload");
}

void check_secure_headers(const std::vector<secure_header>& headers, const std::string& path,
                          const load_context& cx) {
  for (std::size_t i = 0; i < headers.size(); ++i) {
    const auto& h = headers[i];
    auto at = item_path(path, i);
    require(h.name, child_path(at, "name"), "name", cx);
    auto from = child_path(at, "valueFrom");
    if (h.secret.has_value() == h.config_map.has_value())
      cx.error(from, "valueFrom needs one of secretKeyRef and configMapKeyRef");
    check_secret(h.secret, child_path(from, "secretKeyRef"), cx);
    check_secret(h.config_map, child_path(from, "configMapKeyRef"), cx);
  }
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

void validate_kafka_action(const kafka_trigger& kafka, const std::string& path,
                           const parameter_scope& scope, const load_context& cx) {
  require(kafka.url, child_path(path, "url"), "url", cx);
  require(kafka.topic, child_path(path, "topic"), "topic", cx);
  require_payload(kafka.payload, path, "kafka", scope, cx);
  validate_parameters(kafka.parameters, child_path(path, "parameters"), false, scope, cx,
                      "kafka.parameters");
  auto acks = kafka.required_acks;
  if (acks != -1 && acks != 1)
    cx.error(child_path(path, "requiredAcks"),
             "requiredAcks must be -1 or 0 (all in-sync replicas) or 1 (the leader), got "
               + std::to_string(acks));
  if (kafka.partition && *kafka.partition < 0)
    cx.error(child_path(path, "partition"), "partition must not be negative");
  else if (kafka.partition)
    cx.warning(child_path(path, "partition"),
               "partition is deprecated and ignored by Argo, which spreads messages by key; "
               "ganglion sends every message to partition "
                 + std::to_string(*kafka.partition));
  check_secure_headers(kafka.secure_headers, child_path(path, "secureHeaders"), cx);
  check_tls(kafka.tls, child_path(path, "tls"), cx);
  check_sasl(kafka.sasl, child_path(path, "sasl"), cx);
  warn_ignored(path, "version", "librdkafka negotiates the protocol version with the brokers",
               cx);
  warn_ignored(path, "schemaRegistry",
               "ganglion does not encode Avro; the payload is sent as JSON", cx);
}

void validate_nats_action(const nats_trigger& nats, const std::string& path,
                          const parameter_scope& scope, const load_context& cx) {
  require(nats.url, child_path(path, "url"), "url", cx);
  require(nats.subject, child_path(path, "subject"), "subject", cx);
  require_payload(nats.payload, path, "nats", scope, cx);
  validate_parameters(nats.parameters, child_path(path, "parameters"), false, scope, cx,
                      "nats.parameters");
  check_tls(nats.tls, child_path(path, "tls"), cx);
  check_nats_auth(nats.auth, child_path(path, "auth"), cx);
}

void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& run_scope,
                                const load_context& cx) {
  // ganglion does not run these kinds, so it never compiles their parameters.
  auto scope = run_scope;
  scope.compile_level = severity::warning;
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

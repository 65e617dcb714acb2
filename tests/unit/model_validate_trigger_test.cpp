// Argo's trigger rules: template, actions, conditions, parameters, policy, retry, rate limit,
// dead-letter trigger.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string header = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n"
                           "  name: s\nspec:\n  dependencies:\n"
                           "    - name: dep-a\n      eventSourceName: es\n      eventName: a\n"
                           "    - name: dep.b\n      eventSourceName: es\n      eventName: b\n"
                           "  triggers:\n";

// A sensor with dependencies dep-a and dep.b and the given triggers list items.
std::string with_triggers(const std::string& triggers) { return header + triggers; }

} // namespace

TEST(model_validate_trigger, template_and_its_name_are_required) {
  auto yaml = with_triggers("    - atLeastOnce: false\n    - template:\n        log: {}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template", position_of(yaml, "atLeastOnce"),
                             "trigger template is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[1].template.name", position_of(yaml, "template:"),
                             "trigger template name is required"));
}

TEST(model_validate_trigger, trigger_names_are_unique) {
  auto yaml = with_triggers("    - template: {name: t, log: {}}\n"
                            "    - template: {name: t, log: {}}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.triggers[1].template.name",
                             position_of(yaml, "name: t", 2), "duplicate trigger name \"t\""));
}

TEST(model_validate_trigger, exactly_one_action) {
  auto none = with_triggers("    - template:\n        name: t\n");
  EXPECT_TRUE(has_diagnostic(load(none), "spec.triggers[0].template",
                             position_of(none, "template"),
                             "must define exactly one action (http, k8s, log, …)"));
  auto two = with_triggers("    - template:\n        name: t\n        log: {}\n"
                           "        http: {url: \"http://x\"}\n");
  EXPECT_TRUE(has_diagnostic(load(two), "spec.triggers[0].template.http",
                             position_of(two, "http:"), "found log, http"));
}

TEST(model_validate_trigger, an_empty_action_key_is_no_action) {
  auto yaml = with_triggers("    - template:\n        name: t\n        log:\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.log", position_of(yaml, "log:"),
                             "write \"log: {}\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template", position_of(yaml, "template"),
                             "exactly one action"));
}

TEST(model_validate_trigger, conditions_parse_and_name_declared_dependencies) {
  auto ok = with_triggers("    - template:\n        name: t\n        log: {}\n"
                          "        conditions: \"(dep-a || dep.b) && dep-a\"\n");
  EXPECT_TRUE(clean(load(ok)));
  auto bad = with_triggers("    - template:\n        name: t\n        log: {}\n"
                           "        conditions: \"dep-a && (dep.b\"\n");
  EXPECT_TRUE(has_diagnostic(load(bad), "spec.triggers[0].template.conditions",
                             position_of(bad, "conditions"), "invalid conditions"));
  auto unknown = with_triggers("    - template:\n        name: t\n        log: {}\n"
                               "        conditions: \"dep-a || dep-c\"\n");
  EXPECT_TRUE(has_diagnostic(load(unknown), "spec.triggers[0].template.conditions",
                             position_of(unknown, "conditions"),
                             "\"dep-c\", which is not a dependency"));
}

TEST(model_validate_trigger, conditions_reset_needs_a_cron_and_a_known_zone) {
  auto yaml = with_triggers("    - template:\n        name: t\n        log: {}\n"
                            "        conditionsReset:\n"
                            "          - byTime:\n              cron: \"0 25 * * *\"\n"
                            "              timezone: Atlantis/City\n"
                            "          - {}\n");
  auto r = load(yaml);
  const std::string at = "spec.triggers[0].template.conditionsReset";
  EXPECT_TRUE(has_diagnostic(r, at + "[0].byTime.cron", position_of(yaml, "cron"),
                             "invalid cron expression \"0 25 * * *\""));
  EXPECT_TRUE(has_diagnostic(r, at + "[0].byTime.timezone", position_of(yaml, "timezone"),
                             "unknown time zone"));
  EXPECT_TRUE(has_diagnostic(r, at + "[1]", position_of(yaml, "{}\n", 2), "needs byTime"));
}

TEST(model_validate_trigger, http_needs_a_url_and_a_known_method) {
  auto yaml = with_triggers("    - template:\n        name: t\n        http:\n"
                            "          method: OPTIONS\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.http.url", position_of(yaml, "http:"),
                             "url is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.http.method",
                             position_of(yaml, "method"), "got \"OPTIONS\""));
}

TEST(model_validate_trigger, http_secure_headers_need_a_name_and_one_source_as_kafkas) {
  auto yaml = with_triggers("    - template:\n        name: t\n        http:\n"
                            "          url: http://x\n          secureHeaders:\n"
                            "            - name: X-Token\n"
                            "              valueFrom: {secretKeyRef: {name: s, key: k}}\n"
                            "            - valueFrom: {}\n");
  auto r = load(yaml);
  const std::string at = "spec.triggers[0].template.http.secureHeaders[1]";
  EXPECT_TRUE(
    has_diagnostic(r, at + ".name", position_of(yaml, "valueFrom: {}"), "name is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".valueFrom", position_of(yaml, "valueFrom: {}"),
                             "valueFrom needs one of secretKeyRef and configMapKeyRef"));
  EXPECT_EQ(r.diagnostics.size(), 2u) << dump(r);
}

TEST(model_validate_trigger, parameters_need_a_declared_dependency_a_dest_and_an_operation) {
  auto yaml = with_triggers("    - template:\n        name: t\n        http:\n"
                            "          url: http://x\n          payload:\n"
                            "            - src: {dependencyName: dep-a, dataKey: body}\n"
                            "            - src: {dependencyName: nope}\n"
                            "              dest: a\n              operation: replace\n"
                            "          parameters:\n"
                            "            - src: {dependencyName: dep.b}\n"
                            "            - dest: url\n"
                            "      parameters:\n"
                            "        - src: {dataKey: x}\n          dest: http.url\n");
  auto r = load(yaml);
  const std::string http = "spec.triggers[0].template.http";
  // payload[0] has no dest: allowed for HTTP payloads (the value is the whole body).
  EXPECT_TRUE(has_diagnostic(r, http + ".payload[1].src.dependencyName",
                             position_of(yaml, "dependencyName: nope"), "unknown dependency"));
  EXPECT_TRUE(has_diagnostic(r, http + ".payload[1].operation", position_of(yaml, "operation"),
                             "got \"replace\""));
  EXPECT_TRUE(has_diagnostic(r, http + ".parameters[0].dest",
                             position_of(yaml, "src: {dependencyName: dep.b}"),
                             "dest is required"));
  EXPECT_TRUE(has_diagnostic(r, http + ".parameters[1]", position_of(yaml, "dest: url"),
                             "parameter source (src) is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].parameters[0].src.dependencyName",
                             position_of(yaml, "src: {dataKey"), "src.dependencyName is required"));
  EXPECT_EQ(r.diagnostics.size(), 5u) << dump(r);
}

TEST(model_validate_trigger, template_parameters_may_rewrite_an_action_parameter_dependency) {
  auto yaml = with_triggers("    - template:\n        name: t\n        k8s:\n"
                            "          operation: create\n"
                            "          source: {resource: {apiVersion: v1, kind: ConfigMap}}\n"
                            "          parameters:\n"
                            "            - src: {dependencyName: PLACEHOLDER}\n"
                            "              dest: metadata.name\n"
                            "      parameters:\n"
                            "        - src: {dependencyName: dep-a, dataKey: body.dep}\n"
                            "          dest: k8s.parameters.0.src.dependencyName\n");
  EXPECT_TRUE(clean(load(yaml)));
}

TEST(model_validate_trigger, rate_limit_unit_and_requests) {
  auto yaml = with_triggers("    - template: {name: t, log: {}}\n"
                            "      rateLimit: {unit: Day, requestsPerUnit: -2}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].rateLimit.unit", position_of(yaml, "unit"),
                             "got \"Day\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].rateLimit.requestsPerUnit",
                             position_of(yaml, "requestsPerUnit"), "must not be negative"));
}

TEST(model_validate_trigger, retry_duration_accepts_nanoseconds_or_go_durations_only) {
  auto yaml = with_triggers("    - template: {name: t, log: {}}\n"
                            "      retryStrategy: {duration: 1 minute, steps: 3}\n"
                            "    - template: {name: u, log: {}}\n"
                            "      retryStrategy: {duration: 1m30s}\n"
                            "    - template: {name: v, log: {}}\n"
                            "      retryStrategy: {duration: 250000000}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].retryStrategy.duration",
                             position_of(yaml, "duration"), "invalid duration \"1 minute\""));
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
}

TEST(model_validate_trigger, dlq_trigger_needs_at_least_once_on_both_and_is_validated) {
  auto yaml = with_triggers("    - template: {name: t, log: {}}\n"
                            "      dlqTrigger:\n"
                            "        template: {name: dlq}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].atLeastOnce", position_of(yaml, "template"),
                             "must set atLeastOnce: true"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].dlqTrigger.atLeastOnce",
                             position_of(yaml, "dlqTrigger"),
                             "the dlqTrigger must set atLeastOnce: true"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].dlqTrigger.template",
                             position_of(yaml, "template", 2), "exactly one action"));
  auto ok = with_triggers("    - template: {name: t, log: {}}\n      atLeastOnce: true\n"
                          "      dlqTrigger:\n        atLeastOnce: true\n"
                          "        template: {name: dlq, log: {}}\n");
  EXPECT_TRUE(clean(load(ok)));
}

TEST(model_validate_trigger, status_policy_must_list_codes) {
  auto yaml = with_triggers("    - template: {name: t, http: {url: \"http://x\"}}\n"
                            "      policy:\n        status:\n          allow: []\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.triggers[0].policy.status.allow",
                             position_of(yaml, "allow"), "must list the accepted"));
}

TEST(model_validate_trigger, k8s_and_argo_workflow_need_a_source_and_a_valid_operation) {
  auto yaml = with_triggers("    - template:\n        name: k\n        k8s:\n"
                            "          operation: apply\n"
                            "      policy:\n        k8s: {errorOnBackoffTimeout: true}\n"
                            "    - template:\n        name: w\n        argoWorkflow:\n"
                            "          source: {resource: {}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.k8s", position_of(yaml, "k8s:"),
                             "needs a source"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].template.k8s.operation",
                             position_of(yaml, "operation"), "got \"apply\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[0].policy.k8s", position_of(yaml, "k8s: {"),
                             "needs the resource labels"));
  // Argo requires argoWorkflow.operation explicitly.
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[1].template.argoWorkflow.operation",
                             position_of(yaml, "argoWorkflow"), "got \"\""));
}

TEST(model_validate_trigger, message_and_cloud_actions_need_their_required_fields) {
  auto yaml = with_triggers("    - template: {name: a, awsLambda: {region: eu}}\n"
                            "    - template: {name: b, kafka: {url: k}}\n"
                            "    - template: {name: c, nats: {subject: s, payload: []}}\n"
                            "    - template: {name: d, slack: {channel: c}}\n"
                            "    - template: {name: e, openWhisk: {host: h, authToken: {name: n}}}\n"
                            "    - template: {name: f, custom: {serverURL: u, secure: true}}\n"
                            "    - template: {name: g, email: {port: 70000}}\n");
  auto r = load(yaml);
  auto t = [](int i, const std::string& rest) {
    return "spec.triggers[" + std::to_string(i) + "].template." + rest;
  };
  EXPECT_TRUE(has_diagnostic(r, t(0, "awsLambda.functionName"), position_of(yaml, "awsLambda"),
                             "functionName is required"));
  EXPECT_TRUE(has_diagnostic(r, t(0, "awsLambda.payload"), position_of(yaml, "awsLambda"),
                             "payload is required"));
  EXPECT_TRUE(has_diagnostic(r, t(1, "kafka.topic"), position_of(yaml, "kafka"),
                             "topic is required"));
  EXPECT_TRUE(has_diagnostic(r, t(2, "nats.url"), position_of(yaml, "nats"), "url is required"));
  EXPECT_TRUE(has_diagnostic(r, t(3, "slack.slackToken"), position_of(yaml, "slack"),
                             "slackToken is required"));
  EXPECT_TRUE(has_diagnostic(r, t(4, "openWhisk.actionName"), position_of(yaml, "openWhisk"),
                             "actionName is required"));
  EXPECT_TRUE(has_diagnostic(r, t(4, "openWhisk.authToken"), position_of(yaml, "authToken"),
                             "needs both name and key"));
  EXPECT_TRUE(has_diagnostic(r, t(5, "custom.spec"), position_of(yaml, "custom"),
                             "trigger body can't be empty"));
  EXPECT_TRUE(has_diagnostic(r, t(5, "custom.certSecret"), position_of(yaml, "custom"),
                             "certSecret can't be nil when the trigger server connection is secure"));
  EXPECT_TRUE(has_diagnostic(r, t(6, "email.host"), position_of(yaml, "email"),
                             "host is required"));
  EXPECT_TRUE(has_diagnostic(r, t(6, "email.port"), position_of(yaml, "port: 70000"),
                             "between 0 and 65535"));
}

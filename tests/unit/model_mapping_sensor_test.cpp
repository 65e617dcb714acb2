// YAML → typed model for Sensors: every modelled field, defaults, duration forms and the JSON of
// the trigger actions ganglion does not model yet.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/http/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const char* full_sensor = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: full
  namespace: argo-events
  labels: {team: a}
  annotations: {note: b}
spec:
  eventBusName: bus
  replicas: 2
  errorOnFailedRound: true
  loggingFields: {env: test}
  dependencies:
    - name: dep-a
      eventSourceName: webhook
      eventName: example
      filtersLogicalOperator: or
      filters:
        dataLogicalOperator: or
        exprLogicalOperator: and
        script: return true
        time: {start: "09:00:00", stop: "17:00:00", timezone: Europe/Berlin}
        context: {type: webhook, source: webhook, subject: example, datacontenttype: application/json}
        data:
          - path: body.value
            type: number
            value: ["1", "2"]
            comparator: ">="
            template: "{{ .Input }}"
        exprs:
          - expr: a == "x"
            fields: [{name: a, path: body.a}]
      transform: {jq: ".a", script: "return event"}
    - name: dep-b
      eventSourceName: calendar
      eventName: tick
  triggers:
    - template:
        name: call
        conditions: "dep-a || dep-b"
        conditionsReset:
          - byTime: {cron: "0 0 * * *", timezone: UTC}
        http:
          url: http://localhost:8080/x
          method: PUT
          timeout: 5
          host: example.org
          headers: {X-A: b}
          secureHeaders:
            - name: Authorization
              valueFrom: {secretKeyRef: {name: tokens, key: bearer}}
            - name: X-Config
              valueFrom: {configMapKeyRef: {name: cm, key: k}}
          basicAuth:
            username: {name: creds, key: user}
            password: {name: creds, key: pass}
          tls:
            caCertSecret: {name: tls, key: ca}
            insecureSkipVerify: true
          payload:
            - src: {dependencyName: dep-a, dataKey: body, useRawData: true}
              dest: body
            - src: {dependencyName: dep-b, contextKey: type, value: default}
              dest: kind
              operation: append
          parameters:
            - src: {dependencyName: dep-a, dataTemplate: "{{ .Input.body.url }}"}
              dest: http.url
              operation: overwrite
          dynamicHeaders:
            - src: {dependencyName: dep-a, contextTemplate: "{{ .Input.id }}"}
              dest: X-Event-Id
      parameters:
        - src: {dependencyName: dep-a, dataKey: body.method}
          dest: http.method
      policy:
        status: {allow: [200, 201]}
      retryStrategy: {duration: 2s, factor: 1.5, jitter: 0.2, steps: 4}
      rateLimit: {unit: Minute, requestsPerUnit: 10}
      atLeastOnce: true
      dlqTrigger:
        atLeastOnce: true
        template:
          name: dead-letter
          log: {intervalSeconds: 3}
        retryStrategy: {duration: 1000000}
    - template:
        name: workflow
        argoWorkflow:
          operation: submit
          source:
            resource:
              apiVersion: argoproj.io/v1alpha1
              kind: Workflow
              spec: {entrypoint: main, parallelism: 2, suspend: false}
          args: ["-p", "message=hi"]
      policy:
        k8s:
          labels: {done: "true"}
          backoff: {duration: "10", steps: 3}
          errorOnBackoffTimeout: true
)";

} // namespace

TEST(model_mapping_sensor, sensor_metadata_and_spec_settings) {
  auto r = load(full_sensor);
  const auto& s = only<sensor>(r);
  // The only problem of the manifest is the quoted backoff duration (see below).
  EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_EQ(s.metadata.name, "full");
  EXPECT_EQ(s.metadata.namespace_, "argo-events");
  EXPECT_EQ(s.metadata.labels.at("team"), "a");
  EXPECT_EQ(s.metadata.annotations.at("note"), "b");
  EXPECT_EQ(s.spec.event_bus_name, "bus");
  EXPECT_EQ(s.spec.replicas, 2);
  EXPECT_TRUE(s.spec.error_on_failed_round);
  EXPECT_EQ(s.spec.logging_fields.at("env"), "test");
}

TEST(model_mapping_sensor, dependencies_with_filters_and_transform) {
  auto r = load(full_sensor);
  const auto& s = only<sensor>(r);
  ASSERT_EQ(s.spec.dependencies.size(), 2u);
  const auto& d = s.spec.dependencies[0];
  EXPECT_EQ(d.name, "dep-a");
  EXPECT_EQ(d.event_source_name, "webhook");
  EXPECT_EQ(d.event_name, "example");
  EXPECT_EQ(d.filters_logical_operator, "or");
  ASSERT_TRUE(d.filters);
  const auto& f = *d.filters;
  EXPECT_EQ(f.data_logical_operator, "or");
  EXPECT_EQ(f.expr_logical_operator, "and");
  EXPECT_EQ(f.script, "return true");
  ASSERT_TRUE(f.time);
  EXPECT_EQ(f.time->start, "09:00:00");
  EXPECT_EQ(f.time->stop, "17:00:00");
  EXPECT_EQ(f.time->timezone, "Europe/Berlin");
  ASSERT_TRUE(f.context);
  EXPECT_EQ(f.context->type, "webhook");
  EXPECT_EQ(f.context->datacontenttype, "application/json");
  ASSERT_EQ(f.data.size(), 1u);
  EXPECT_EQ(f.data[0].path, "body.value");
  EXPECT_EQ(f.data[0].type, "number");
  EXPECT_EQ(f.data[0].value, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(f.data[0].comparator, ">=");
  EXPECT_EQ(f.data[0].template_, "{{ .Input }}");
  ASSERT_EQ(f.exprs.size(), 1u);
  EXPECT_EQ(f.exprs[0].expr, "a == \"x\"");
  ASSERT_EQ(f.exprs[0].fields.size(), 1u);
  EXPECT_EQ(f.exprs[0].fields[0].name, "a");
  EXPECT_EQ(f.exprs[0].fields[0].path, "body.a");
  ASSERT_TRUE(d.transform);
  EXPECT_EQ(d.transform->jq, ".a");
  EXPECT_EQ(d.transform->script, "return event");
  EXPECT_FALSE(s.spec.dependencies[1].filters);
}

TEST(model_mapping_sensor, http_trigger_fields) {
  auto r = load(full_sensor);
  const auto& t = only<sensor>(r).spec.triggers.at(0);
  EXPECT_EQ(t.template_.name, "call");
  EXPECT_EQ(t.template_.conditions, "dep-a || dep-b");
  ASSERT_EQ(t.template_.conditions_reset_.size(), 1u);
  EXPECT_EQ(t.template_.conditions_reset_[0].cron, "0 0 * * *");
  EXPECT_EQ(t.template_.conditions_reset_[0].timezone, "UTC");
  ASSERT_EQ(t.template_.actions.size(), 1u);
  const auto& action = t.template_.actions[0];
  EXPECT_EQ(action.type, "http");
  const auto& h = action_spec<ganglion::http::trigger_spec>(t.template_);
  EXPECT_EQ(h.url, "http://localhost:8080/x");
  EXPECT_EQ(h.method, "PUT");
  EXPECT_EQ(h.timeout_seconds, 5);
  EXPECT_EQ(h.host, "example.org");
  EXPECT_EQ(h.headers.at("X-A"), "b");
  ASSERT_EQ(h.secure_headers.size(), 2u);
  EXPECT_EQ(h.secure_headers[0].name, "Authorization");
  ASSERT_TRUE(h.secure_headers[0].secret);
  EXPECT_EQ(h.secure_headers[0].secret->name, "tokens");
  EXPECT_EQ(h.secure_headers[0].secret->key, "bearer");
  ASSERT_TRUE(h.secure_headers[1].config_map);
  EXPECT_EQ(h.secure_headers[1].config_map->name, "cm");
  ASSERT_TRUE(h.basic_auth && h.basic_auth->username && h.basic_auth->password);
  EXPECT_EQ(h.basic_auth->username->key, "user");
  EXPECT_EQ(h.basic_auth->password->key, "pass");
  ASSERT_TRUE(h.tls && h.tls->ca_cert_secret);
  EXPECT_EQ(h.tls->ca_cert_secret->name, "tls");
  EXPECT_TRUE(h.tls->insecure_skip_verify);
  ASSERT_EQ(action.payload.size(), 2u);
  EXPECT_EQ(action.payload[0].src.dependency_name, "dep-a");
  EXPECT_EQ(action.payload[0].src.data_key, "body");
  EXPECT_TRUE(action.payload[0].src.use_raw_data);
  EXPECT_FALSE(action.payload[0].src.value);
  EXPECT_EQ(action.payload[0].dest, "body");
  EXPECT_EQ(action.payload[1].src.context_key, "type");
  EXPECT_EQ(action.payload[1].src.value, std::optional<std::string>{"default"});
  EXPECT_EQ(action.payload[1].operation, "append");
  ASSERT_EQ(action.parameters.size(), 1u);
  EXPECT_EQ(action.parameters[0].src.data_template, "{{ .Input.body.url }}");
  EXPECT_EQ(action.parameters[0].operation, "overwrite");
  ASSERT_EQ(h.dynamic_headers.size(), 1u);
  EXPECT_EQ(h.dynamic_headers[0].src.context_template, "{{ .Input.id }}");
  EXPECT_EQ(h.dynamic_headers[0].dest, "X-Event-Id");
}

TEST(model_mapping_sensor, trigger_template_keeps_its_whole_spec_as_typed_json) {
  auto r = load(full_sensor);
  const auto& t = only<sensor>(r).spec.triggers.at(0);
  auto json = nlohmann::json::parse(t.template_.json);
  EXPECT_EQ(json["name"], "call");
  EXPECT_EQ(json["conditions"], "dep-a || dep-b");
  const auto& http = json["http"];
  EXPECT_EQ(http["url"], "http://localhost:8080/x");
  EXPECT_EQ(http["method"], "PUT");
  EXPECT_EQ(http["timeout"], 5);
  EXPECT_EQ(http["headers"], nlohmann::json({{"X-A", "b"}}));
  EXPECT_EQ(http["parameters"][0]["dest"], "http.url");
  EXPECT_EQ(http["payload"][0]["src"]["useRawData"], true);
  auto workflow = nlohmann::json::parse(only<sensor>(r).spec.triggers.at(1).template_.json);
  EXPECT_EQ(workflow["argoWorkflow"]["source"]["resource"]["spec"]["parallelism"], 2);
  EXPECT_EQ(nlohmann::json::parse(t.dlq_trigger->template_.json)["log"]["intervalSeconds"], 3);
}

TEST(model_mapping_sensor, trigger_delivery_settings_and_dlq_trigger) {
  auto r = load(full_sensor);
  const auto& t = only<sensor>(r).spec.triggers.at(0);
  ASSERT_EQ(t.parameters.size(), 1u);
  EXPECT_EQ(t.parameters[0].dest, "http.method");
  ASSERT_TRUE(t.policy && t.policy->status);
  EXPECT_EQ(t.policy->status->allow, (std::vector<std::int32_t>{200, 201}));
  ASSERT_TRUE(t.retry_strategy);
  EXPECT_EQ(t.retry_strategy->duration_ns, std::optional<std::int64_t>{2'000'000'000});
  EXPECT_EQ(t.retry_strategy->factor, std::optional<double>{1.5});
  EXPECT_EQ(t.retry_strategy->jitter, std::optional<double>{0.2});
  EXPECT_EQ(t.retry_strategy->steps, std::optional<std::int32_t>{4});
  ASSERT_TRUE(t.rate_limit_);
  EXPECT_EQ(t.rate_limit_->unit, "Minute");
  EXPECT_EQ(t.rate_limit_->requests_per_unit, 10);
  EXPECT_TRUE(t.at_least_once);
  ASSERT_TRUE(t.dlq_trigger);
  EXPECT_TRUE(t.dlq_trigger->at_least_once);
  EXPECT_EQ(t.dlq_trigger->template_.name, "dead-letter");
  ASSERT_EQ(t.dlq_trigger->template_.actions.size(), 1u);
  EXPECT_EQ(t.dlq_trigger->template_.actions[0].type, "log");
  ASSERT_TRUE(t.dlq_trigger->retry_strategy);
  EXPECT_EQ(t.dlq_trigger->retry_strategy->duration_ns, std::optional<std::int64_t>{1'000'000});
  EXPECT_FALSE(t.dlq_trigger->dlq_trigger);
}

TEST(model_mapping_sensor, trigger_action_keeps_its_spec_as_typed_json_beside_its_model) {
  auto r = load(full_sensor);
  const auto& t = only<sensor>(r).spec.triggers.at(1);
  ASSERT_EQ(t.template_.actions.size(), 1u);
  EXPECT_EQ(t.template_.actions[0].type, "argoWorkflow");
  EXPECT_TRUE(t.template_.actions[0].spec.has_value()); // the kubernetes kind's model
  auto json = nlohmann::json::parse(t.template_.actions[0].json);
  EXPECT_EQ(json["operation"], "submit");
  EXPECT_EQ(json["args"], nlohmann::json::array({"-p", "message=hi"}));
  const auto& spec = json["source"]["resource"]["spec"];
  EXPECT_EQ(spec["parallelism"], 2);
  EXPECT_EQ(spec["suspend"], false);
  ASSERT_TRUE(t.policy && t.policy->k8s);
  EXPECT_EQ(t.policy->k8s->labels.at("done"), "true");
  EXPECT_TRUE(t.policy->k8s->error_on_backoff_timeout);
  ASSERT_TRUE(t.policy->k8s->backoff_);
  // A quoted number is a string to Int64OrString, and "10" is no Go duration.
  EXPECT_FALSE(t.policy->k8s->backoff_->duration_ns);
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[1].policy.k8s.backoff.duration", 100, 21,
                             "invalid duration \"10\""));
}

TEST(model_mapping_sensor, defaults_when_fields_are_absent) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata: {name: s}
spec:
  dependencies: [{name: d, eventSourceName: e, eventName: n}]
  triggers:
    - template:
        name: t
        http: {url: "http://x"}
      rateLimit: {requestsPerUnit: 1}
)");
  const auto& s = only<sensor>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(s.spec.event_bus_name, "default");
  EXPECT_EQ(s.spec.replicas, 1);
  const auto& t = s.spec.triggers.at(0);
  EXPECT_EQ(action_spec<ganglion::http::trigger_spec>(t.template_).method, "POST");
  EXPECT_EQ(action_spec<ganglion::http::trigger_spec>(t.template_).timeout_seconds, 60);
  EXPECT_EQ(t.rate_limit_->unit, "Second");
  EXPECT_FALSE(t.at_least_once);
  EXPECT_FALSE(t.retry_strategy);
  EXPECT_FALSE(t.dlq_trigger);
}

TEST(model_mapping_sensor, retry_strategy_max_duration_is_ganglions_cap) {
  auto result = ganglion::dsl::load_manifest_text(R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: es
      eventName: e
  triggers:
    - template:
        name: t
        log: {}
      retryStrategy:
        steps: 3
        duration: 1s
        maxDuration: 30s
)", "m.yaml", {true});
  ASSERT_TRUE(result.diagnostics.empty()) << result.diagnostics.front().to_string();
  const auto& s = std::get<ganglion::dsl::sensor>(result.documents.at(0).body);
  EXPECT_EQ(s.spec.triggers.at(0).retry_strategy->max_duration_ns, 30'000'000'000);
}

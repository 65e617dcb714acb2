#include <variant>

#include <gtest/gtest.h>

#include "ganglion/dsl/load.hpp"
#include "sensor/sensor_core.hpp"

using namespace ganglion;
using core::event_ptr;

namespace {

dsl::event_dependency dependency(std::string name, std::string source, std::string subject) {
  dsl::event_dependency d;
  d.name = std::move(name);
  d.event_source_name = std::move(source);
  d.event_name = std::move(subject);
  return d;
}

dsl::trigger log_trigger(std::string name, std::string conditions = {}) {
  dsl::trigger t;
  t.template_.name = std::move(name);
  t.template_.conditions = std::move(conditions);
  dsl::trigger_action log;
  log.type = "log";
  t.template_.actions = {log};
  return t;
}

event_ptr make_event(std::string source, std::string subject, std::string data) {
  auto e = std::make_shared<core::event>();
  e->id = core::new_event_id();
  e->source = std::move(source);
  e->subject = std::move(subject);
  e->type = "webhook";
  e->time = core::now_rfc3339();
  e->data = std::move(data);
  return e;
}

dsl::sensor sensor_of(std::vector<dsl::event_dependency> deps, std::vector<dsl::trigger> triggers) {
  dsl::sensor s;
  s.metadata.name = "test-sensor";
  s.spec.dependencies = std::move(deps);
  s.spec.triggers = std::move(triggers);
  return s;
}

} // namespace

TEST(sensor_core, single_dependency_fires_once_per_event) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "one")}, {log_trigger("t")})};
  std::vector<core::firing> out;
  auto e1 = make_event("es", "one", R"({"x":1})");
  sc.process(e1, out);
  sc.process(make_event("es", "one", R"({"x":2})"), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].invocation.events.at("a"), e1);
}

TEST(sensor_core, events_of_other_sources_or_names_are_ignored) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "one")}, {log_trigger("t")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "two", "{}"), out);
  sc.process(make_event("other", "one", "{}"), out);
  EXPECT_TRUE(out.empty());
}

TEST(sensor_core, an_event_of_another_namespace_never_reaches_the_sensor) {
  auto manifest = sensor_of({dependency("a", "es", "one")}, {log_trigger("t")});
  manifest.metadata.namespace_ = "team-a";
  core::sensor_core sc{manifest};
  std::vector<core::firing> out;
  auto from = [](std::string ns) {
    auto e = std::make_shared<core::event>(*make_event("es", "one", "{}"));
    e->namespace_ = std::move(ns);
    return event_ptr{e};
  };
  sc.process(from("team-b"), out);
  EXPECT_TRUE(out.empty()) << "team-b's EventSource 'es' is not team-a's";
  sc.process(from("team-a"), out);
  sc.process(from(""), out);
  EXPECT_EQ(out.size(), 2u) << "its own namespace's, and an EventSource that names none, reach it";

  auto anywhere = sensor_of({dependency("a", "es", "one")}, {log_trigger("t")});
  core::sensor_core unnamespaced{anywhere};
  std::vector<core::firing> fired;
  unnamespaced.process(from("team-b"), fired);
  EXPECT_EQ(fired.size(), 1u) << "a sensor that names no namespace keeps the name-only rule";
}

TEST(sensor_core, and_condition_fires_with_the_latest_event_of_each_dependency) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "a"), dependency("b", "es", "b")},
                                 {log_trigger("t", "a && b")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "a", R"({"n":1})"), out);
  sc.process(make_event("es", "a", R"({"n":2})"), out);
  auto a3 = make_event("es", "a", R"({"n":3})");
  sc.process(a3, out);
  EXPECT_TRUE(out.empty());
  auto b1 = make_event("es", "b", R"({"n":1})");
  sc.process(b1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].invocation.events.at("a"), a3);
  EXPECT_EQ(out[0].invocation.events.at("b"), b1);
  // The state was cleared by the firing.
  sc.process(make_event("es", "b", "{}"), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(sensor_core, default_condition_is_the_and_of_all_dependencies) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "a"), dependency("b", "es", "b")},
                                 {log_trigger("t")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "b", "{}"), out);
  EXPECT_TRUE(out.empty());
  sc.process(make_event("es", "a", "{}"), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(sensor_core, or_branch_fires_alone_and_carries_held_events) {
  core::sensor_core sc{sensor_of(
    {dependency("a", "es", "a"), dependency("b", "es", "b"), dependency("c", "es", "c")},
    {log_trigger("t", "(a && b) || c")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "c", "{}"), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].invocation.events.count("c"), 1u);
  EXPECT_EQ(out[0].invocation.events.count("a"), 0u);
  sc.process(make_event("es", "a", "{}"), out);
  EXPECT_EQ(out.size(), 1u);
  sc.process(make_event("es", "b", "{}"), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].invocation.events.size(), 2u);
}

TEST(sensor_core, triggers_keep_independent_state) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "a"), dependency("b", "es", "b")},
                                 {log_trigger("both", "a && b"), log_trigger("only-a", "a")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "a", "{}"), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].trigger, 1u);
  sc.process(make_event("es", "b", "{}"), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].trigger, 0u);
}

TEST(sensor_core, data_filter_rejects_with_a_reason) {
  auto dep = dependency("a", "es", "a");
  dep.filters.emplace();
  dsl::data_filter f;
  f.path = "body.kind";
  f.type = "string";
  f.value = {"^push$"};
  dep.filters->data.push_back(f);
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  std::vector<core::dependency_verdict> verdicts;
  sc.process(make_event("es", "a", R"({"body":{"kind":"pull"}})"), out, &verdicts);
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_FALSE(verdicts[0].pass);
  EXPECT_FALSE(verdicts[0].reason.empty());
  sc.process(make_event("es", "a", R"({"body":{"kind":"push"}})"), out);
  EXPECT_EQ(out.size(), 1u);
  verdicts.clear();
  sc.process(make_event("es", "a", R"({"body":{}})"), out, &verdicts);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_NE(verdicts[0].reason.find("does not exist"), std::string::npos) << verdicts[0].reason;
}

TEST(sensor_core, context_filter_compares_the_cloudevent_type) {
  auto dep = dependency("a", "es", "a");
  dep.filters.emplace();
  dep.filters->context.emplace();
  dep.filters->context->type = "calendar";
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "a", "{}"), out); // type webhook
  EXPECT_TRUE(out.empty());
}

TEST(sensor_core, unknown_dependency_in_conditions_is_a_clear_error) {
  try {
    core::sensor_core sc{sensor_of({dependency("a", "es", "a")}, {log_trigger("t", "a && zz")})};
    FAIL() << "expected an error";
  } catch (const std::runtime_error& ex) {
    EXPECT_NE(std::string{ex.what()}.find("zz"), std::string::npos) << ex.what();
  }
}

TEST(sensor_core, script_filter_decides_in_lua) {
  auto dep = dependency("a", "es", "a");
  dep.filters.emplace();
  dep.filters->script = "return event.body.n > 2";
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  std::vector<core::dependency_verdict> verdicts;
  sc.process(make_event("es", "a", R"({"body":{"n":1}})"), out, &verdicts);
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].kind, "script");
  sc.process(make_event("es", "a", R"({"body":{"n":5}})"), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(sensor_core, transform_runs_before_filters_and_the_trigger_gets_the_transformed_event) {
  auto dep = dependency("a", "es", "a");
  dep.transform.emplace();
  dep.transform->jq = ".body.n += 10";
  dep.filters.emplace();
  dsl::data_filter f;
  f.path = "body.n";
  f.type = "number";
  f.comparator = ">";
  f.value = {"10"};
  dep.filters->data.push_back(f);
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  sc.process(make_event("es", "a", R"({"body":{"n":1}})"), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].invocation.events.at("a")->data, R"({"body":{"n":11}})");
}

TEST(sensor_core, a_failing_transform_drops_the_event_for_that_dependency_with_a_reason) {
  auto dep = dependency("a", "es", "a");
  dep.transform.emplace();
  dep.transform->jq = ".body.n";
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  std::vector<core::dependency_verdict> verdicts;
  sc.process(make_event("es", "a", R"({"body":{"n":1}})"), out, &verdicts);
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].kind, "transform");
  EXPECT_NE(verdicts[0].reason.find("jq transform"), std::string::npos) << verdicts[0].reason;
}

TEST(sensor_core, a_transform_cut_off_by_its_budget_fails_the_dependency_and_is_counted) {
  using namespace std::chrono_literals;
  auto dep = dependency("a", "es", "a");
  dep.transform.emplace();
  dep.transform->jq = "if .n > 0 then . else until(false; .) end";
  core::metrics_registry metrics;
  core::sensor_options options;
  options.script_budget = 20ms;
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")}), &metrics, options};
  std::vector<core::firing> out;
  std::vector<core::dependency_verdict> verdicts;
  for (int i = 0; i < 2; ++i)
    sc.process(make_event("es", "a", R"({"n":0})"), out, &verdicts);
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_TRUE(verdicts[1].cut_off);
  EXPECT_EQ(verdicts[1].kind, "transform");
  EXPECT_NE(verdicts[1].reason.find("jq transform: cut off after its time budget of 20 ms"),
            std::string::npos)
    << verdicts[1].reason;
  EXPECT_EQ(sc.consecutive_cut_offs(), 2u);
  EXPECT_EQ(sc.last_cut_off().rfind("dependency 'a': jq transform", 0), 0u) << sc.last_cut_off();
  EXPECT_NE(metrics.render().find(
              R"(ganglion_script_cut_offs_total{sensor="test-sensor",dependency="a"} 2)"),
            std::string::npos)
    << metrics.render();
  // A run that finishes within its budget ends the streak, and the event fires.
  sc.process(make_event("es", "a", R"({"n":1})"), out, &verdicts);
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(sc.consecutive_cut_offs(), 0u);
}

TEST(sensor_core, an_event_id_seen_within_the_dedup_window_is_skipped) {
  core::sensor_core sc{sensor_of({dependency("a", "es", "a")}, {log_trigger("t")})};
  std::vector<core::firing> out;
  auto first = make_event("es", "a", "{}");
  auto again = std::make_shared<core::event>(*first);
  sc.process(first, out);
  sc.process(again, out);
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(sc.duplicates(), 1u);
  sc.process(make_event("es", "a", "{}"), out);
  EXPECT_EQ(out.size(), 2u);
}

TEST(sensor_core, deduplication_can_be_switched_off) {
  core::sensor_options options;
  options.dedup_window = std::chrono::milliseconds{0};
  core::sensor_core sc{sensor_of({dependency("a", "es", "a")}, {log_trigger("t")}), nullptr,
                       options};
  std::vector<core::firing> out;
  auto first = make_event("es", "a", "{}");
  sc.process(first, out);
  sc.process(first, out);
  EXPECT_EQ(out.size(), 2u);
}

TEST(sensor_core, verdicts_name_the_filter_kind_that_rejected) {
  auto dep = dependency("a", "es", "a");
  dep.filters.emplace();
  dep.filters->context.emplace();
  dep.filters->context->type = "calendar";
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  std::vector<core::firing> out;
  std::vector<core::dependency_verdict> verdicts;
  sc.process(make_event("es", "a", "{}"), out, &verdicts);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0].kind, "context");
  EXPECT_NE(verdicts[0].reason.find("context filter"), std::string::npos) << verdicts[0].reason;
}

TEST(sensor_core, held_events_can_be_listed_and_carried_into_another_core) {
  auto manifest = sensor_of({dependency("a", "es", "a"), dependency("b", "es", "b")},
                            {log_trigger("t", "a && b")});
  core::sensor_core first{manifest};
  std::vector<core::firing> out;
  auto a = make_event("es", "a", "{}");
  first.process(a, out);
  auto held = first.held();
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].trigger, "t");
  EXPECT_EQ(held[0].dependency, "a");
  EXPECT_EQ(held[0].event, a);

  core::sensor_core second{manifest};
  EXPECT_TRUE(second.hold("t", "a", a));
  EXPECT_FALSE(second.hold("t", "nope", a));
  EXPECT_FALSE(second.hold("other", "a", a));
  second.process(make_event("es", "b", "{}"), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].invocation.events.at("a"), a);
  EXPECT_TRUE(second.held().empty());
}

TEST(sensor_core, a_transformed_event_keeps_the_delivered_event_alive) {
  auto dep = dependency("a", "es", "a");
  dep.transform.emplace();
  dep.transform->jq = ".n += 1";
  core::sensor_core sc{
    sensor_of({dep, dependency("b", "es", "b")}, {log_trigger("t", "a && b")})};
  std::vector<core::firing> out;
  auto a = make_event("es", "a", R"({"n":1})");
  std::weak_ptr<const core::event> watch = a;
  sc.process(a, out);
  a.reset();
  // The join holds the transformed copy, which holds the original.
  EXPECT_FALSE(watch.expired());
  sc.reset();
  EXPECT_TRUE(watch.expired());
}

namespace {

constexpr const char* filtered_sensor = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: filtered
spec:
  dependencies:
    - name: pr
      eventSourceName: es
      eventName: one
      filters:
        data:
          - path: body.action
            type: string
            value: ["^open"]
        exprs:
          - expr: n > 1
            fields:
              - name: n
                path: body.n
  triggers:
    - template:
        name: t
        log: {}
)";

} // namespace

TEST(sensor_core, runs_the_filters_the_loader_compiled_without_compiling_them_again) {
  auto loaded = dsl::load_manifest_text(filtered_sensor, "sensor.yaml");
  ASSERT_FALSE(dsl::has_errors(loaded.diagnostics));
  const auto& manifest = std::get<dsl::sensor>(loaded.documents.at(0).body);
  const auto& compiled = manifest.spec.dependencies.at(0).precompiled;
  ASSERT_NE(compiled, nullptr);
  ASSERT_TRUE(compiled->data && compiled->exprs);

  core::sensor_core sc{manifest};
  EXPECT_EQ(sc.dependencies().at(0).compiled, compiled);
  std::vector<core::firing> out;
  sc.process(make_event("es", "one", R"({"body":{"action":"opened","n":2}})"), out);
  sc.process(make_event("es", "one", R"({"body":{"action":"closed","n":2}})"), out);
  sc.process(make_event("es", "one", R"({"body":{"action":"opened","n":1}})"), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(sensor_core, compiles_the_filters_of_a_sensor_built_without_the_loader) {
  auto dep = dependency("pr", "es", "one");
  dsl::data_filter action;
  action.path = "body.action";
  action.type = "string";
  action.value = {"^open"};
  dep.filters.emplace().data = {action};
  core::sensor_core sc{sensor_of({dep}, {log_trigger("t")})};
  ASSERT_NE(sc.dependencies().at(0).compiled, nullptr);
  std::vector<core::firing> out;
  sc.process(make_event("es", "one", R"({"body":{"action":"closed"}})"), out);
  sc.process(make_event("es", "one", R"({"body":{"action":"opened"}})"), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(sensor_core, sensors_of_one_load_with_the_same_filters_share_one_compiled_copy) {
  std::string other = filtered_sensor;
  other.replace(other.find("name: filtered"), 14, "name: filtered-2");
  std::string different = other;
  different.replace(different.find("name: filtered-2"), 16, "name: filtered-3");
  different.replace(different.find("n > 1"), 5, "n > 2");
  auto loaded = dsl::load_manifest_text(
    std::string{filtered_sensor} + "---\n" + other + "---\n" + different, "sensors.yaml");
  ASSERT_FALSE(dsl::has_errors(loaded.diagnostics));
  ASSERT_EQ(loaded.documents.size(), 3u);
  auto compiled = [&](std::size_t i) {
    return std::get<dsl::sensor>(loaded.documents[i].body).spec.dependencies.at(0).precompiled;
  };
  ASSERT_NE(compiled(0), nullptr);
  EXPECT_EQ(compiled(0), compiled(1));
  EXPECT_NE(compiled(0), compiled(2));

  core::sensor_core first{std::get<dsl::sensor>(loaded.documents[1].body)};
  core::sensor_core second{std::get<dsl::sensor>(loaded.documents[2].body)};
  std::vector<core::firing> out;
  first.process(make_event("es", "one", R"({"body":{"action":"opened","n":2}})"), out);
  EXPECT_EQ(out.size(), 1u);
  second.process(make_event("es", "one", R"({"body":{"action":"opened","n":2}})"), out);
  EXPECT_EQ(out.size(), 1u) << "n > 2 is another filter";
}

TEST(sensor_core, shares_the_conditions_the_loader_compiled) {
  auto loaded = dsl::load_manifest_text(R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: either
spec:
  dependencies:
    - name: a
      eventSourceName: es
      eventName: one
    - name: b
      eventSourceName: es
      eventName: two
  triggers:
    - template:
        name: t
        conditions: "a || b"
        log: {}
)",
                                        "sensor.yaml");
  ASSERT_FALSE(dsl::has_errors(loaded.diagnostics));
  const auto& manifest = std::get<dsl::sensor>(loaded.documents.at(0).body);
  const auto& compiled = manifest.spec.triggers.at(0).template_.compiled_conditions;
  ASSERT_NE(compiled, nullptr);
  core::sensor_core sc{manifest};
  EXPECT_EQ(sc.triggers().at(0).condition, compiled);
  std::vector<core::firing> out;
  sc.process(make_event("es", "two", "{}"), out);
  EXPECT_EQ(out.size(), 1u);
}

// The generic steps the core runs for every kind: trigger parameters before an executor
// (core::create_trigger_executor) and a source's filter.expression before the bus
// (core::start_source).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

using namespace ganglion;
using json = nlohmann::json;

namespace {

/// An executor that keeps the invocations it is given.
struct recording_executor : core::trigger_executor {
  explicit recording_executor(std::vector<core::trigger_invocation>* seen, bool events = true,
                              bool own = false)
    : seen(seen), events(events), own(own) {}
  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    seen->push_back(invocation);
    done(core::trigger_outcome{true, {}, {}});
  }
  bool reads_events() const override { return events; }
  bool applies_own_parameters() const override { return own; }
  std::vector<core::trigger_invocation>* seen;
  bool events;
  bool own;
};

dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "dep";
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

core::event_ptr event_with(std::string data) {
  auto e = std::make_shared<core::event>();
  e->data = std::move(data);
  return e;
}

class trigger_step_test : public ::testing::Test {
protected:
  void SetUp() override {
    trig.template_.name = "t";
    // Any kind: the core reads only the action's JSON and its parameter lists.
    dsl::trigger_action sink;
    sink.type = "sink";
    sink.json = R"({"url":"http://sink/hook"})";
    trig.template_.actions = {sink};
    auto e = std::make_shared<core::event>();
    e->data = R"({"body":{"name":"ada","path":"users"}})";
    invocation.events["dep"] = e;
  }

  core::trigger_outcome run(bool executor_reads_events = true, bool own_parameters = false) {
    core::trigger_context ctx;
    ctx.manifest = &trig;
    auto executor = core::create_trigger_executor(
      [&](const core::trigger_context&) {
        return std::make_unique<recording_executor>(&seen, executor_reads_events,
                                                    own_parameters);
      },
      ctx);
    core::trigger_outcome outcome;
    executor->execute(invocation, [&](core::trigger_outcome o) { outcome = std::move(o); });
    return outcome;
  }

  dsl::trigger_action& action() { return trig.template_.actions.front(); }

  dsl::trigger trig;
  core::trigger_invocation invocation;
  std::vector<core::trigger_invocation> seen;
};

TEST_F(trigger_step_test, without_parameters_the_invocation_passes_unchanged) {
  EXPECT_TRUE(run().ok);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].events.at("dep"), invocation.events.at("dep"));
  EXPECT_TRUE(seen[0].resource_json.empty());
  EXPECT_TRUE(seen[0].payload.empty());
  EXPECT_FALSE(core::resource_parameterized(trig));
}

TEST_F(trigger_step_test, payload_and_parameters_are_resolved_before_the_executor) {
  action().payload = {from_data("body.name", "user")};
  action().parameters = {from_data("body.path", "url")};
  auto method = from_data("body.absent", "sink.method");
  method.src.value = "PUT";
  trig.parameters = {method};
  EXPECT_TRUE(core::resource_parameterized(trig));
  EXPECT_TRUE(run().ok);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(json::parse(seen[0].payload), json({{"user", "ada"}}));
  auto resource = json::parse(seen[0].resource_json);
  EXPECT_EQ(resource["url"], "users");
  EXPECT_EQ(resource["method"], "PUT");
}

TEST_F(trigger_step_test, an_executor_that_reads_no_events_gets_only_what_was_resolved) {
  action().payload = {from_data("body.name", "user")};
  EXPECT_TRUE(run(false).ok);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].events.empty());
  EXPECT_EQ(json::parse(seen[0].payload), json({{"user", "ada"}}));
  EXPECT_TRUE(run(true).ok);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].events.at("dep"), invocation.events.at("dep"));
}

TEST_F(trigger_step_test, an_executor_that_applies_its_own_parameters_gets_the_template_ones_only) {
  action().parameters = {from_data("body.path", "url")};
  EXPECT_TRUE(run(true, true).ok);
  ASSERT_EQ(seen.size(), 1u);
  // Only own parameters: the invocation passes unchanged, the executor applies them itself.
  EXPECT_TRUE(seen[0].resource_json.empty());
  EXPECT_EQ(seen[0].events.at("dep"), invocation.events.at("dep"));

  auto method = from_data("body.absent", "sink.method");
  method.src.value = "PUT";
  trig.parameters = {method};
  EXPECT_TRUE(run(true, true).ok);
  ASSERT_EQ(seen.size(), 2u);
  auto resource = json::parse(seen[1].resource_json);
  EXPECT_EQ(resource["method"], "PUT");
  EXPECT_EQ(resource["url"], "http://sink/hook") << "own parameters are the executor's";
  EXPECT_EQ(seen[1].events.at("dep"), invocation.events.at("dep"));

  // Any other executor still gets both applied.
  EXPECT_TRUE(run(true, false).ok);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(json::parse(seen[2].resource_json)["url"], "users");
}

// Argo's tutorial 02, sensor-05: the trigger's parameters rewrite the template's own
// `parameters[]`, which then apply to the resource (ApplyTemplateParameters, then
// ApplyResourceParameters with the rewritten template).
TEST_F(trigger_step_test, template_parameters_rewrite_the_own_parameters_before_they_apply) {
  invocation.events["dep"] =
    event_with(R"({"body":{"dependencyName":"dep","dataKey":"body.message","dest":"message",)"
               R"("message":"amazing!!"}})");
  action().parameters = {from_data("body.absent", "THIS_WILL_BE_REPLACED")};
  action().parameters[0].src.value = "placeholder";
  trig.parameters = {from_data("body.dependencyName", "sink.parameters.0.src.dependencyName"),
                     from_data("body.dataKey", "sink.parameters.0.src.dataKey"),
                     from_data("body.dest", "sink.parameters.0.dest")};
  EXPECT_TRUE(run().ok);
  ASSERT_EQ(seen.size(), 1u);
  auto resource = json::parse(seen[0].resource_json);
  EXPECT_EQ(resource["message"], "amazing!!") << seen[0].resource_json;
  EXPECT_FALSE(resource.contains("THIS_WILL_BE_REPLACED")) << seen[0].resource_json;
}

TEST_F(trigger_step_test, template_parameters_rewrite_the_payload_it_builds) {
  action().payload = {from_data("body.name", "user")};
  trig.parameters = {from_data("body.path", "sink.payload.0.dest")};
  EXPECT_TRUE(run().ok);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(json::parse(seen[0].payload), json({{"users", "ada"}})) << seen[0].payload;
  // The next firing reads its own rewritten payload list.
  invocation.events["dep"] = event_with(R"({"body":{"name":"grace","path":"admins"}})");
  EXPECT_TRUE(run().ok);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(json::parse(seen[1].payload), json({{"admins", "grace"}})) << seen[1].payload;
}

TEST_F(trigger_step_test, a_rewritten_parameter_list_of_the_wrong_type_fails_the_execution) {
  action().parameters = {from_data("body.name", "user")};
  auto broken = from_data("body.absent", "sink.parameters.0.src.useRawData");
  broken.src.value = "not a boolean";
  trig.parameters = {broken};
  auto outcome = run();
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("sink.parameters[0].src.useRawData: not a boolean"),
            std::string::npos)
    << outcome.error;
  EXPECT_TRUE(seen.empty());
}

TEST_F(trigger_step_test, a_parameter_that_does_not_resolve_fails_the_execution) {
  auto p = from_data("body.absent", "user");
  action().payload = {p};
  auto outcome = run();
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("cannot apply the parameters"), std::string::npos)
    << outcome.error;
  EXPECT_TRUE(seen.empty());
}

TEST_F(trigger_step_test, a_parameter_that_does_not_compile_is_refused_with_its_field) {
  auto p = from_data("body.name", "user");
  p.src.data_template = "{{ .Input.body.name ";
  p.src.data_key.clear();
  action().payload = {from_data("body.name", "a"), p};
  try {
    run();
    FAIL() << "expected a trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("sink.payload[1]"), std::string::npos) << e.what();
  }
}

/// A bus that keeps what it is offered and accepts it.
struct recording_bus : core::bus_publisher {
  void publish(core::event&& e, core::publish_done done) override {
    events.push_back(std::move(e));
    done(core::publish_status::accepted, {});
  }
  std::vector<core::event> events;
};

/// A source that does nothing once started (the test publishes from its factory).
struct scripted_source : core::source {};

TEST(source_step, filter_expression_drops_what_it_rejects_before_the_bus) {
  dsl::event_source es;
  es.metadata.name = "es";
  dsl::source_event ev;
  ev.type = "demo";
  ev.name = "ev";
  ev.filter = dsl::event_source_filter{"body.n > 1"};
  es.spec.events = {ev};
  auto bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  core::source_context ctx;
  ctx.event_source_name = "es";
  ctx.event_name = "ev";
  ctx.type = "demo";
  ctx.manifest = &es;
  ctx.bus = bus;
  ctx.metrics = &metrics;
  std::vector<core::publish_status> answers;
  auto source = core::start_source(
    [&](const core::source_context& started) {
      for (const char* data : {R"({"body":{"n":1}})", R"({"body":{}})", R"({"body":{"n":2}})"}) {
        core::event e;
        e.data = data;
        started.bus->publish(std::move(e), [&](core::publish_status status, const std::string&) {
          answers.push_back(status);
        });
      }
      return std::make_unique<scripted_source>();
    },
    ctx);
  EXPECT_EQ(answers, (std::vector<core::publish_status>{core::publish_status::filtered,
                                                        core::publish_status::filtered,
                                                        core::publish_status::accepted}));
  ASSERT_EQ(bus->events.size(), 1u);
  EXPECT_EQ(bus->events[0].data, R"({"body":{"n":2}})");
  auto reason = [&](const char* r) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "es"}, {"event", "ev"}, {"reason", r}})
      .value();
  };
  EXPECT_EQ(reason("filtered"), 1u);
  EXPECT_EQ(reason("filter_error"), 1u);
}

TEST(source_step, without_a_filter_the_source_gets_the_bus_itself) {
  dsl::event_source es;
  dsl::source_event ev;
  ev.type = "demo";
  ev.name = "ev";
  es.spec.events = {ev};
  auto bus = std::make_shared<recording_bus>();
  core::source_context ctx;
  ctx.event_name = "ev";
  ctx.type = "demo";
  ctx.manifest = &es;
  ctx.bus = bus;
  std::shared_ptr<core::bus_publisher> given;
  core::start_source(
    [&](const core::source_context& started) {
      given = started.bus;
      return std::make_unique<scripted_source>();
    },
    ctx);
  EXPECT_EQ(given, bus);
}

TEST(publish_status, names_are_the_rejection_reasons) {
  EXPECT_STREQ(core::to_string(core::publish_status::failed), "store_failed");
  EXPECT_STREQ(core::to_string(core::publish_status::saturated), "saturated");
  EXPECT_STREQ(core::to_string(core::publish_status::filtered), "filtered");
}

} // namespace

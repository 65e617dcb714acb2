// The steps the core runs once for every kind: the check step before a factory creates anything
// (core::source_factory, core::trigger_factory), the kind's model for its check
// (core::check_spec), the secureHeaders of the http and kafka triggers
// (core::secure_header_problems, core::read_secure_headers) and the event a source builds
// (core::make_event).

#include <gtest/gtest.h>

#include "ganglion/core/event.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/secure_headers.hpp"
#include "ganglion/core/parameter_step.hpp"

using namespace ganglion;

namespace {

/// A kind's model, as its spec step would read it.
struct demo_spec {
  std::string url;
  int port = 0;
};

/// The rules of the demo kind, for a source or a trigger.
template <class Context>
std::vector<std::string> check_demo(const Context& ctx) {
  return core::check_spec<demo_spec>(ctx, [](const demo_spec& spec) {
    std::vector<std::string> problems;
    if (spec.url.empty())
      problems.emplace_back("demo url can't be empty");
    if (spec.port <= 0)
      problems.emplace_back("demo port must be positive");
    return problems;
  });
}

struct idle_source : core::source {};

struct idle_executor : core::trigger_executor {
  void execute(const core::trigger_invocation&, core::trigger_done done) override {
    done(core::trigger_outcome{true, {}, {}});
  }
};

class source_kind_steps : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "es";
    dsl::source_event ev;
    ev.type = "demo";
    ev.name = "ev";
    es.spec.events = {ev};
    ctx.event_source_name = "es";
    ctx.event_name = "ev";
    ctx.type = "demo";
    ctx.manifest = &es;
  }

  core::source_factory factory() {
    return {[this](const core::source_context&) {
              ++created;
              return std::make_unique<idle_source>();
            },
            check_demo<core::source_context>};
  }

  std::any& spec() { return es.spec.events.front().spec; }

  dsl::event_source es;
  core::source_context ctx;
  int created = 0;
};

/// The message of what `f` throws as E; empty when it throws nothing.
template <class E, class F>
std::string thrown(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return {};
}

} // namespace

TEST_F(source_kind_steps, a_factory_refuses_with_the_first_problem_of_the_check_before_create) {
  spec() = demo_spec{};
  EXPECT_EQ(factory().check(ctx), (std::vector<std::string>{"demo url can't be empty",
                                                            "demo port must be positive"}));
  EXPECT_EQ(thrown<core::source_error>([&] { factory()(ctx); }), "demo url can't be empty");
  EXPECT_EQ(thrown<core::source_error>([&] { core::start_source(factory(), ctx); }),
            "demo url can't be empty");
  EXPECT_EQ(created, 0);
  spec() = demo_spec{"http://demo", 80};
  EXPECT_TRUE(factory().check(ctx).empty());
  EXPECT_NE(factory()(ctx), nullptr);
  EXPECT_EQ(created, 1);
}

TEST_F(source_kind_steps, a_manifest_loaded_without_the_kinds_spec_step_is_the_only_problem) {
  EXPECT_EQ(check_demo(ctx), (std::vector<std::string>{
                               "spec.demo.ev was loaded without the spec step of its kind"}));
  EXPECT_EQ(thrown<core::source_error>([&] { factory()(ctx); }),
            "spec.demo.ev was loaded without the spec step of its kind");
  EXPECT_EQ(created, 0);
}

TEST(trigger_kind_steps, a_factory_refuses_with_the_first_problem_of_the_check_before_create) {
  dsl::trigger trig;
  trig.template_.name = "t";
  dsl::trigger_action action;
  action.type = "demo";
  action.spec = demo_spec{"", 8080};
  trig.template_.actions = {action};
  core::trigger_context ctx;
  ctx.sensor_name = "s";
  ctx.manifest = &trig;
  int created = 0;
  core::trigger_factory factory{[&](const core::trigger_context&) {
                                  ++created;
                                  return std::make_unique<idle_executor>();
                                },
                                check_demo<core::trigger_context>};
  EXPECT_EQ(thrown<core::trigger_error>([&] { core::create_trigger_executor(factory, ctx); }),
            "demo url can't be empty");
  EXPECT_EQ(created, 0);
  trig.template_.actions.front().spec = std::any{};
  EXPECT_EQ(factory.check(ctx), (std::vector<std::string>{
                                  "template.demo was loaded without the spec step of its kind"}));
  trig.template_.actions.front().spec = demo_spec{"http://demo", 8080};
  EXPECT_NE(core::create_trigger_executor(factory, ctx), nullptr);
  EXPECT_EQ(created, 1);
}

namespace {

dsl::secure_header header(std::string name, std::optional<dsl::secret_key_selector> secret,
                          std::optional<dsl::secret_key_selector> config_map = std::nullopt) {
  return dsl::secure_header{std::move(name), std::move(secret), std::move(config_map)};
}

/// A trigger context whose secret store holds `token/key` = `s3cret` only.
core::trigger_context with_secrets() {
  core::trigger_context ctx;
  ctx.secrets = std::make_shared<core::secret_store>(
    [](const std::string&, const std::string& name, const std::string& key,
       std::string* error) -> std::optional<std::string> {
      if (name == "token" && key == "key")
        return "s3cret";
      if (error)
        *error = "no secret " + name + "/" + key;
      return std::nullopt;
    });
  return ctx;
}

} // namespace

TEST(secure_headers, every_header_not_read_from_a_secret_is_a_problem) {
  const dsl::secret_key_selector ref{"token", "key"};
  EXPECT_TRUE(core::secure_header_problems({header("X-Token", ref)}).empty());
  EXPECT_EQ(core::secure_header_problems(
              {header("X-Token", ref), header("X-Map", std::nullopt, ref), header("X-None", {})}),
            (std::vector<std::string>{
              "secureHeaders X-Map: configMapKeyRef is not supported yet",
              "secureHeaders X-None: valueFrom.secretKeyRef is missing"}));
}

TEST(secure_headers, each_value_is_read_from_its_secret_in_order) {
  auto ctx = with_secrets();
  const dsl::secret_key_selector ref{"token", "key"};
  EXPECT_EQ(core::read_secure_headers(ctx, {header("X-A", ref), header("X-B", ref)}),
            (std::vector<std::pair<std::string, std::string>>{{"X-A", "s3cret"},
                                                               {"X-B", "s3cret"}}));
  EXPECT_TRUE(core::read_secure_headers(ctx, {}).empty());
}

TEST(secure_headers, a_header_that_cannot_be_read_is_refused_naming_the_field) {
  auto ctx = with_secrets();
  const dsl::secret_key_selector ref{"token", "key"};
  EXPECT_EQ(thrown<core::trigger_error>([&] {
              core::read_secure_headers(ctx, {header("X-A", dsl::secret_key_selector{"gone", "k"})});
            }),
            "secureHeaders: no secret gone/k");
  EXPECT_EQ(thrown<core::trigger_error>(
              [&] { core::read_secure_headers(ctx, {header("X-Map", std::nullopt, ref)}); }),
            "secureHeaders X-Map: configMapKeyRef is not supported yet");
  core::trigger_context without_store;
  EXPECT_EQ(thrown<core::trigger_error>(
              [&] { core::read_secure_headers(without_store, {header("X-A", ref)}); }),
            "secureHeaders: secret token/key is needed but no secret store is configured");
}

TEST(make_event, a_source_event_has_its_cloudevent_fields) {
  auto e = core::make_event("es", "webhook", "ev", R"({"body":{}})");
  EXPECT_EQ(e.source, "es");
  EXPECT_EQ(e.type, "webhook");
  EXPECT_EQ(e.subject, "ev");
  EXPECT_EQ(e.data, R"({"body":{}})");
  EXPECT_EQ(e.datacontenttype, "application/json");
  EXPECT_EQ(e.specversion, "1.0");
  EXPECT_EQ(e.id.size(), 32u);
  EXPECT_EQ(e.id.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(core::make_event("es", "webhook", "ev", "{}").id, e.id);
  ASSERT_EQ(e.time.size(), 30u); // 2026-11-29T23:52:18.123456789Z
  EXPECT_EQ(e.time.back(), 'Z');
  EXPECT_EQ(e.time[10], 'T');
}

TEST(make_event, a_source_with_ids_of_its_own_keeps_them) {
  auto e = core::make_event("es", "kafka", "ev", "{}", "es:ev:broker:topic:0:42");
  EXPECT_EQ(e.id, "es:ev:broker:topic:0:42");
  EXPECT_EQ(e.type, "kafka");
}

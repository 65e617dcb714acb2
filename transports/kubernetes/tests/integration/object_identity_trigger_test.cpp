// The k8s and argoWorkflow triggers and the configmap trigger source under each object identity
// (issue 31), against the test API server with RBAC: impersonated, a Sensor writes where its
// service account may and gets the API's 403, naming it, elsewhere; confined to its namespace,
// a trigger that leaves it is refused before any call; as the engine, nothing changes.

#include <future>

#include "ganglion/core/kinds.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/dsl/load.hpp"
#include "identity_fixture.hpp"

using namespace ganglion;
using kubernetes::identity_mode;
using json = nlohmann::json;

namespace {

class object_identity_trigger : public test::identity_fixture {
protected:
  object_identity_trigger() {
    server.add_resource("argoproj.io", "v1alpha1", "Workflow", "workflows", true, true);
  }

  /// Registers the kinds with `opts` and loads a Sensor `s` of namespace `attacker` (service
  /// account `service_account`, none when empty) whose trigger `t` is `action` (YAML indented
  /// by eight, under `template:`).
  void load(const kubernetes::options& opts, const std::string& action,
            const std::string& service_account = {}) {
    kinds = {};
    kubernetes::register_transport(kinds.sources, kinds.triggers, opts);
    dsl::load_options load_options;
    load_options.kinds = core::spec_steps(kinds);
    auto yaml =
      "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata: {name: s, namespace: attacker}\n"
      "spec:\n"
      + (service_account.empty() ? std::string{}
                                 : "  template: {serviceAccountName: " + service_account + "}\n")
      + "  dependencies:\n    - {name: d, eventSourceName: es, eventName: e}\n"
        "  triggers:\n    - template:\n        name: t\n"
      + action;
    loaded = dsl::load_manifest_text(yaml, "test.yaml", load_options);
    for (const auto& d : loaded.diagnostics)
      ASSERT_NE(d.level, dsl::severity::error) << d.to_string();
    const auto& sensor = std::get<dsl::sensor>(loaded.documents.at(0).body);
    ctx.sensor_name = sensor.metadata.name;
    ctx.sensor_namespace = sensor.metadata.namespace_;
    ctx.sensor_service_account = sensor.spec.service_account_name;
    ctx.manifest = &sensor.spec.triggers.at(0);
  }

  const core::trigger_factory& factory() const {
    return kinds.triggers.at(core::action_of(*ctx.manifest)->type);
  }

  std::unique_ptr<core::trigger_executor> executor() {
    return core::create_trigger_executor(factory(), ctx);
  }

  /// Fires `executor` with an event whose data is `data`; the outcome.
  static core::trigger_outcome fire(core::trigger_executor& executor,
                                    const json& data = json::object()) {
    auto e = std::make_shared<core::event>();
    e->id = "1";
    e->source = "es";
    e->subject = "e";
    e->type = "webhook";
    e->datacontenttype = "application/json";
    e->data = data.dump();
    core::trigger_invocation invocation;
    invocation.events["d"] = e;
    std::promise<core::trigger_outcome> promise;
    auto future = promise.get_future();
    executor.execute(invocation, [&promise](core::trigger_outcome o) { promise.set_value(o); });
    return future.get();
  }

  /// A k8s create of ConfigMap `name` in `ns` (the sensor's when empty), `extra` under `k8s:`.
  static std::string create_configmap(const std::string& name, const std::string& ns = {},
                                      const std::string& extra = {}) {
    return "        k8s:\n          operation: create\n" + extra
           + "          source:\n            resource:\n              apiVersion: v1\n"
             "              kind: ConfigMap\n              metadata: {name: "
           + name + (ns.empty() ? "" : ", namespace: " + ns) + "}\n";
  }

  core::kinds kinds;
  dsl::load_result loaded;
  core::trigger_context ctx;
};

} // namespace

TEST_F(object_identity_trigger, impersonated_it_cannot_write_into_another_namespace) {
  load(options_for(identity_mode::impersonate), create_configmap("planted", "victim"));
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s trigger s/t: cannot create ConfigMap as "
                               + std::string(attacker_default) + ": HTTP 403"),
            std::string::npos)
    << outcome.error;
  EXPECT_FALSE(server.get("v1", "ConfigMap", "victim", "planted"));
  auto posts = server.requests("POST", "/api/v1/namespaces/victim/configmaps");
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(posts[0].user, attacker_default);
  EXPECT_EQ(posts[0].impersonated_by, engine_user);
}

TEST_F(object_identity_trigger, impersonated_it_writes_where_its_service_account_may) {
  server.grant_service_account("attacker", "default", {{{""}, {"configmaps"}, {"create"}}});
  load(options_for(identity_mode::impersonate), create_configmap("made"));
  auto outcome = fire(*executor());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_TRUE(server.get("v1", "ConfigMap", "attacker", "made"));
  EXPECT_EQ(server.users_of("POST", "/api/v1/namespaces/attacker/configmaps"),
            std::vector<std::string>{attacker_default});
}

TEST_F(object_identity_trigger, impersonated_the_configmap_source_is_read_as_the_sensor) {
  server.put(configmap("attacker", "template",
                       {{"object", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: copy}\n"}}));
  server.put(configmap("victim", "template", {{"object", "kind: Secret\n"}}));
  load(options_for(identity_mode::impersonate),
       "        k8s:\n          operation: create\n"
       "          source: {configmap: {name: template, key: object}}\n",
       "reader");
  auto refused = fire(*executor());
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error.find("cannot read config map attacker/template as "
                               "system:serviceaccount:attacker:reader: HTTP 403"),
            std::string::npos)
    << refused.error;

  server.grant_service_account("attacker", "reader", {{{""}, {"configmaps"}, {"get", "create"}}});
  auto outcome = fire(*executor());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_TRUE(server.get("v1", "ConfigMap", "attacker", "copy"));
  EXPECT_EQ(server.users_of("GET", "/api/v1/namespaces/attacker/configmaps/template"),
            std::vector<std::string>(2, "system:serviceaccount:attacker:reader"));
  EXPECT_TRUE(server.requests("", "/api/v1/namespaces/victim").empty());
}

TEST_F(object_identity_trigger, impersonated_an_argo_workflow_is_submitted_as_the_sensor) {
  server.grant_service_account("attacker", "runner",
                               {{{"argoproj.io"}, {"workflows"}, {"create"}}});
  load(options_for(identity_mode::impersonate),
       "        argoWorkflow:\n          operation: submit\n          source:\n"
       "            resource:\n              apiVersion: argoproj.io/v1alpha1\n"
       "              kind: Workflow\n              metadata: {generateName: run-}\n",
       "runner");
  auto outcome = fire(*executor());
  ASSERT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(server.list("argoproj.io/v1alpha1", "Workflow", "attacker").size(), 1u);
  EXPECT_EQ(server.users_of("POST", "/apis/argoproj.io/v1alpha1/namespaces/attacker/workflows"),
            std::vector<std::string>{"system:serviceaccount:attacker:runner"});
}

TEST_F(object_identity_trigger, confined_another_namespace_is_refused_at_the_check_step) {
  load(options_for(identity_mode::namespace_), create_configmap("planted", "victim"));
  auto problems = factory().check(ctx);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("k8s trigger s/t: k8s.source: metadata.namespace: namespace "
                             "\"victim\" is not the Sensor's namespace \"attacker\""),
            std::string::npos)
    << problems[0];
  EXPECT_THROW(executor(), core::trigger_error);
  EXPECT_TRUE(server.requests("", "").empty()) << "no call went out";
}

TEST_F(object_identity_trigger, confined_a_namespace_from_the_event_is_refused_before_any_call) {
  grant_engine("attacker", "configmaps", {"create"});
  load(options_for(identity_mode::namespace_),
       create_configmap("planted", {},
                        "          parameters:\n"
                        "            - src: {dependencyName: d, dataKey: ns}\n"
                        "              dest: metadata.namespace\n"));
  auto run = executor();
  auto outcome = fire(*run, {{"ns", "victim"}});
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("metadata.namespace: namespace \"victim\" is not the Sensor's "
                               "namespace \"attacker\""),
            std::string::npos)
    << outcome.error;
  EXPECT_TRUE(server.requests("POST", "").empty());
  EXPECT_TRUE(server.requests("", "/api/v1/namespaces/victim").empty());

  ASSERT_TRUE(fire(*run, {{"ns", "attacker"}}).ok) << "its own namespace, with the engine's rights";
  EXPECT_TRUE(server.get("v1", "ConfigMap", "attacker", "planted"));
}

TEST_F(object_identity_trigger, confined_a_cluster_scoped_kind_is_refused) {
  load(options_for(identity_mode::namespace_),
       "        k8s:\n          operation: create\n          source:\n            resource:\n"
       "              apiVersion: v1\n              kind: Namespace\n"
       "              metadata: {name: mine-now}\n");
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("kind Namespace (v1) is cluster-scoped"), std::string::npos)
    << outcome.error;
  EXPECT_TRUE(server.requests("POST", "").empty());
}

TEST_F(object_identity_trigger, as_the_engine_it_writes_where_the_engine_may) {
  auto opts = options_for(identity_mode::engine);
  opts.kubeconfig = admin_kubeconfig;
  load(opts, create_configmap("planted", "victim"));
  EXPECT_TRUE(factory().check(ctx).empty());
  ASSERT_TRUE(fire(*executor()).ok);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "victim", "planted"));
  auto posts = server.requests("POST", "/api/v1/namespaces/victim/configmaps");
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_TRUE(posts[0].impersonated_by.empty());
}

// The resource source under each object identity (issue 31), against the test API server with
// RBAC: impersonated, an EventSource reads what its service account may and gets the API's 403,
// naming it, for the rest; confined to its namespace, it is refused before any call; as the
// engine, it behaves as before.

#include <condition_variable>
#include <mutex>

#include "ganglion/core/metrics.hpp"
#include "ganglion/kubernetes/resource_source.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"
#include "identity_fixture.hpp"
#include "kind_manifests.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::identity_mode;
using json = nlohmann::json;

namespace {

/// A bus that keeps what it accepts.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    {
      std::lock_guard guard{mutex_};
      events_.push_back(std::move(e));
    }
    changed_.notify_all();
    done(core::publish_status::accepted, {});
  }
  /// Waits until `n` events were accepted (10 s at most) and returns every one.
  std::vector<core::event> wait_for(std::size_t n) {
    std::unique_lock lock{mutex_};
    changed_.wait_for(lock, 10s, [&] { return events_.size() >= n; });
    return events_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<core::event> events_;
};

class object_identity_source : public test::identity_fixture {
protected:
  object_identity_source() {
    es.metadata.name = "es";
    es.metadata.namespace_ = "attacker";
    spec.version = "v1";
    spec.event_types = {"ADD", "UPDATE", "DELETE"};
  }

  core::source_context context() {
    test::put_event(es, "resource", "e", spec);
    core::source_context ctx;
    ctx.event_source_name = "es";
    ctx.event_name = "e";
    ctx.type = "resource";
    ctx.manifest = &es;
    ctx.event = &es.spec.events.back();
    ctx.bus = bus;
    ctx.metrics = &metrics;
    return ctx;
  }

  std::unique_ptr<core::source> start(const kubernetes::options& opts) {
    return core::start_source(kubernetes::make_resource_source_factory(opts), context());
  }

  std::string start_error(const kubernetes::options& opts) {
    try {
      start(opts);
    } catch (const core::source_error& e) {
      return e.what();
    }
    return "(started)";
  }

  /// The resource of `resource` in namespace `ns` ("": every namespace).
  void watch(const std::string& resource, const std::string& ns) {
    spec.resource = resource;
    spec.namespace_ = ns;
  }

  test::event_under_test<kubernetes::resource_event_spec> spec;
  dsl::event_source es;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
};

} // namespace

TEST_F(object_identity_source, impersonated_it_cannot_read_another_namespaces_secrets) {
  watch("secrets", "victim");
  auto error = start_error(options_for(identity_mode::impersonate));
  EXPECT_NE(error.find("resource source es/e as " + std::string(attacker_default)),
            std::string::npos)
    << error;
  EXPECT_NE(error.find("HTTP 403"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot list resource \"secrets\""), std::string::npos) << error;
  auto lists = server.requests("GET", "/api/v1/namespaces/victim/secrets");
  ASSERT_FALSE(lists.empty());
  for (const auto& r : lists) {
    EXPECT_EQ(r.user, attacker_default);
    EXPECT_EQ(r.impersonated_by, engine_user);
    EXPECT_EQ(r.status, 403);
  }
}

TEST_F(object_identity_source, impersonated_it_watches_what_its_service_account_may) {
  es.spec.service_account_name = "watcher";
  server.grant_service_account("attacker", "watcher",
                               {{{""}, {"configmaps"}, {"get", "list", "watch"}}});
  watch("configmaps", "attacker");
  auto source = start(options_for(identity_mode::impersonate));
  server.put(configmap("attacker", "hello"));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(json::parse(events[0].data)["body"]["metadata"]["name"], "hello");
  bool watched = false;
  for (const auto& r : server.requests("GET", "/api/v1/namespaces/attacker/configmaps")) {
    EXPECT_EQ(r.user, "system:serviceaccount:attacker:watcher") << r.target;
    watched = watched || r.target.find("watch=1") != std::string::npos;
  }
  EXPECT_TRUE(watched);
}

TEST_F(object_identity_source, impersonated_an_empty_namespace_is_cluster_wide_if_rbac_allows) {
  server.grant_service_account("attacker", "default",
                               {{{""}, {"configmaps"}, {"get", "list", "watch"}}});
  watch("configmaps", "");
  auto error = start_error(options_for(identity_mode::impersonate));
  EXPECT_NE(error.find("HTTP 403"), std::string::npos) << error;
  EXPECT_NE(error.find("at the cluster scope"), std::string::npos) << error;
}

TEST_F(object_identity_source, confined_another_namespace_is_refused_before_any_call) {
  watch("secrets", "victim");
  auto opts = options_for(identity_mode::namespace_);
  auto problems = kubernetes::check_resource_source(context(), opts.object_identity);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("resource source es/e: namespace: namespace \"victim\" is not the "
                             "EventSource's namespace \"attacker\""),
            std::string::npos)
    << problems[0];
  EXPECT_NE(problems[0].find("--object-identity namespace"), std::string::npos) << problems[0];
  auto error = start_error(opts);
  EXPECT_EQ(error, problems[0]);
  EXPECT_TRUE(server.requests("", "").empty()) << "no call went out";
}

TEST_F(object_identity_source, confined_an_empty_namespace_is_its_own) {
  grant_engine("attacker", "configmaps", {"get", "list", "watch"});
  watch("configmaps", "");
  auto source = start(options_for(identity_mode::namespace_));
  server.put(configmap("victim", "theirs"));
  server.put(configmap("attacker", "mine"));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(json::parse(events[0].data)["body"]["metadata"]["name"], "mine");
  EXPECT_TRUE(server.requests("GET", "/api/v1/configmaps").empty()) << "nothing cluster-wide";
  for (const auto& r : server.requests("", "/api/v1/namespaces/attacker/configmaps"))
    EXPECT_TRUE(r.impersonated_by.empty()) << "the engine's own rights";
}

TEST_F(object_identity_source, confined_a_cluster_scoped_resource_is_refused) {
  watch("namespaces", "");
  auto error = start_error(options_for(identity_mode::namespace_));
  EXPECT_NE(error.find("resource namespaces is cluster-scoped, outside the EventSource's "
                       "namespace \"attacker\""),
            std::string::npos)
    << error;
  for (const auto& r : server.requests("", ""))
    EXPECT_EQ(r.target, "/api/v1") << "only discovery went out";
}

TEST_F(object_identity_source, as_the_engine_it_reads_what_the_engine_may) {
  watch("secrets", "victim");
  auto opts = options_for(identity_mode::engine);
  opts.kubeconfig = admin_kubeconfig;
  auto source = start(opts);
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(json::parse(events[0].data)["body"]["metadata"]["name"], "db");
  for (const auto& r : server.requests("", "/api/v1/namespaces/victim/secrets")) {
    EXPECT_EQ(r.user, "cluster-admin");
    EXPECT_TRUE(r.impersonated_by.empty());
  }
}

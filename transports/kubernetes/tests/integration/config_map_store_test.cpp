// A ConfigMap as an event source's store (a calendar's persistence.configMap in cluster mode),
// against the test API server: Argo's layout (`data[<eventsource>.<event>]`), creation as
// createIfNotExist says, saves that survive API failures and never undo another key's, and
// (with RBAC) calls made as the EventSource's service account.

#include <atomic>
#include <future>
#include <string>

#include "eventually.hpp"
#include "ganglion/dsl/model/event_source.hpp"
#include "ganglion/kubernetes/config_map_store.hpp"
#include "identity_fixture.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::identity_mode;
using json = nlohmann::json;

namespace {

/// Saves `value` under `key` and waits for its outcome: the error, or empty.
std::string save(core::source_store& store, const std::string& key, const std::string& value) {
  std::promise<std::string> outcome;
  store.save(key, value, [&outcome](const std::string& error) { outcome.set_value(error); });
  auto result = outcome.get_future();
  if (result.wait_for(30s) != std::future_status::ready)
    return "(no outcome within 30 s)";
  return result.get();
}

/// What the server holds under `key` of ConfigMap `ns`/`name`; "(absent)" when nothing.
std::string stored(const test::kube::api_server& server, const std::string& ns,
                   const std::string& name, const std::string& key) {
  auto map = server.get("v1", "ConfigMap", ns, name);
  if (!map || !map->contains("data") || !(*map)["data"].contains(key))
    return "(absent)";
  return (*map)["data"][key].get<std::string>();
}

class config_map_store_test : public test::identity_fixture {
protected:
  config_map_store_test() {
    owner.metadata.name = "calendar";
    owner.metadata.namespace_ = "attacker";
  }

  /// The store cluster mode gives EventSource `owner` for ConfigMap `name`.
  std::shared_ptr<core::source_store> store_for(identity_mode mode, const std::string& name,
                                                bool create) {
    return kubernetes::config_map_stores(options_for(mode))(owner, name, create);
  }

  /// Lets the attacker namespace's default service account use ConfigMaps there.
  void grant_config_maps(const std::vector<std::string>& verbs) {
    server.grant("attacker", "calendar-state", {{{""}, {"configmaps"}, verbs}},
                 {test::kube::rbac_subject::service_account("attacker", "default")});
  }

  dsl::event_source owner;
  const std::string tick = R"({"eventTime":"2026-12-05 14:00:00 +0000 UTC","metadata":null})";
};

TEST_F(config_map_store_test, a_save_is_argo_layout_and_leaves_the_other_keys_alone) {
  grant_engine("attacker", "configmaps", {"get", "create", "patch"});
  server.put(configmap("attacker", "calendar-state", {{"other.event", "kept"}}));
  auto store = store_for(identity_mode::namespace_, "calendar-state", false);

  EXPECT_EQ(store->load("calendar.example"), std::nullopt);
  EXPECT_EQ(save(*store, "calendar.example", tick), "");

  EXPECT_EQ(stored(server, "attacker", "calendar-state", "calendar.example"), tick);
  EXPECT_EQ(stored(server, "attacker", "calendar-state", "other.event"), "kept");
  EXPECT_EQ(store->load("calendar.example"), tick);
  EXPECT_TRUE(store->durable());
  EXPECT_NE(store->where().find("attacker/calendar-state"), std::string::npos);
}

TEST_F(config_map_store_test, a_missing_map_is_created_only_when_create_if_not_exist) {
  grant_engine("attacker", "configmaps", {"get", "create", "patch"});
  auto refused = store_for(identity_mode::namespace_, "calendar-state", false);
  try {
    refused->load("calendar.example");
    ADD_FAILURE() << "a missing ConfigMap was read without createIfNotExist";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string{e.what()}.find("createIfNotExist is false"), std::string::npos)
      << e.what();
  }
  EXPECT_FALSE(server.get("v1", "ConfigMap", "attacker", "calendar-state"));

  auto created = store_for(identity_mode::namespace_, "calendar-state", true);
  EXPECT_EQ(created->load("calendar.example"), std::nullopt);
  EXPECT_TRUE(server.get("v1", "ConfigMap", "attacker", "calendar-state"));

  // Deleted while running: a save makes it again, as Argo's Save does.
  server.remove("v1", "ConfigMap", "attacker", "calendar-state");
  EXPECT_EQ(save(*created, "calendar.example", tick), "");
  EXPECT_EQ(stored(server, "attacker", "calendar-state", "calendar.example"), tick);
}

TEST_F(config_map_store_test, a_save_outlives_failing_api_calls_and_the_last_one_wins) {
  grant_engine("attacker", "configmaps", {"get", "create", "patch"});
  server.put(configmap("attacker", "calendar-state"));
  auto store = store_for(identity_mode::namespace_, "calendar-state", false);

  server.fail_next(2, 500, 0, "/api/v1/namespaces/attacker/configmaps");
  EXPECT_EQ(save(*store, "calendar.example", "first"), "");
  EXPECT_EQ(stored(server, "attacker", "calendar-state", "calendar.example"), "first");

  std::atomic<int> outcomes{0};
  std::atomic<int> errors{0};
  for (int i = 1; i <= 50; ++i)
    store->save("calendar.example", "tick " + std::to_string(i),
                [&](const std::string& error) {
                  errors += error.empty() ? 0 : 1;
                  ++outcomes;
                });
  EXPECT_TRUE(test::eventually([&] { return outcomes.load() == 50; }, 30s));
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(stored(server, "attacker", "calendar-state", "calendar.example"), "tick 50");
}

TEST_F(config_map_store_test, a_save_that_cannot_be_made_says_why) {
  grant_engine("attacker", "configmaps", {"get", "create"}); // no patch
  server.put(configmap("attacker", "calendar-state"));
  auto store = store_for(identity_mode::namespace_, "calendar-state", false);
  auto error = save(*store, "calendar.example", tick);
  EXPECT_NE(error.find("cannot write config map attacker/calendar-state"), std::string::npos)
    << error;
  EXPECT_NE(error.find("403"), std::string::npos) << error;
}

TEST_F(config_map_store_test, impersonated_the_calls_are_the_event_source_service_account) {
  server.put(configmap("attacker", "calendar-state"));
  auto store = store_for(identity_mode::impersonate, "calendar-state", false);
  try {
    store->load("calendar.example");
    ADD_FAILURE() << "read a ConfigMap its service account may not read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string{e.what()}.find(attacker_default), std::string::npos) << e.what();
  }

  grant_config_maps({"get", "patch"});
  EXPECT_EQ(store->load("calendar.example"), std::nullopt);
  EXPECT_EQ(save(*store, "calendar.example", tick), "");
  EXPECT_EQ(stored(server, "attacker", "calendar-state", "calendar.example"), tick);
  for (const auto& r : requests_to("/api/v1/namespaces/attacker/configmaps"))
    EXPECT_EQ(r.user, attacker_default) << r.method << " " << r.target;
}

TEST_F(config_map_store_test, a_name_kubernetes_would_refuse_is_an_error_before_any_call) {
  EXPECT_THROW(store_for(identity_mode::namespace_, "../secrets/db", true), std::runtime_error);
  EXPECT_TRUE(requests_to("/api/v1/namespaces/attacker/configmaps").empty());
}

} // namespace

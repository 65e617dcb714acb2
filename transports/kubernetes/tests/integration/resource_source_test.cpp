// The resource source against the test Kubernetes API server: ADD/UPDATE/DELETE, each filter,
// a relist that does not replay, all namespaces, and the errors that keep it from starting.

#include <condition_variable>
#include <mutex>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/kubernetes/resource_source.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"
#include "kind_manifests.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;
using kubernetes::resource_event_spec;

namespace {

/// A bus that keeps what it accepts; `refuse(n)` makes it answer `saturated` n times first.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    {
      std::lock_guard guard{mutex_};
      if (refusals_ > 0) {
        --refusals_;
        ++refused_;
        done(core::publish_status::saturated, {});
        return;
      }
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
  void refuse(int n) {
    std::lock_guard guard{mutex_};
    refusals_ = n;
  }
  int refused() {
    std::lock_guard guard{mutex_};
    return refused_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<core::event> events_;
  int refusals_ = 0;
  int refused_ = 0;
};

json configmap(const std::string& name, const std::string& ns = "default",
               const json& labels = json::object(), const json& data = json::object()) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}}},
          {"data", data}};
}

/// `data` of a resource event, parsed.
json data_of(const core::event& e) {
  return json::parse(e.data);
}

/// `text` with its %XX escapes and `+` decoded.
std::string decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

std::string name_in(const core::event& e) {
  return data_of(e)["body"]["metadata"]["name"];
}

class resource_source_test : public ::testing::Test {
protected:
  resource_source_test() {
    kubeconfig = test::temp_dir() + "/kubeconfig";
    test::write_file(kubeconfig, server.kubeconfig());
    opts.kubeconfig = kubeconfig;
    opts.client.request_timeout = 5s;
    spec.namespace_ = "default";
    spec.version = "v1";
    spec.resource = "configmaps";
    spec.event_types = {"ADD", "UPDATE", "DELETE"};
  }

  std::unique_ptr<core::source> start() {
    es.metadata.name = "cluster";
    test::put_event(es, "resource", "changes", spec);
    core::source_context ctx;
    ctx.event_source_name = "cluster";
    ctx.event_name = "changes";
    ctx.type = "resource";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& error) {
      std::lock_guard guard{mutex};
      failure = error;
    };
    return core::start_source(kubernetes::make_resource_source_factory(opts), ctx);
  }

  /// The message start() fails with.
  std::string start_error() {
    try {
      start();
    } catch (const core::source_error& e) {
      return e.what();
    }
    return "(started)";
  }

  /// The source's `filter` (the test event's own `filter` member is filter.expression's).
  kubernetes::resource_filter& filter() {
    auto& model = static_cast<resource_event_spec&>(spec);
    if (!model.filter)
      model.filter.emplace();
    return *model.filter;
  }

  std::uint64_t filtered() {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "cluster"}, {"event", "changes"}, {"reason", "filtered"}})
      .value();
  }

  test::kube::api_server server;
  std::string kubeconfig;
  kubernetes::options opts;
  test::event_under_test<resource_event_spec> spec;
  dsl::event_source es;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  std::mutex mutex;
  std::optional<std::string> failure;
};

} // namespace

TEST_F(resource_source_test, reports_add_update_and_delete_once_each) {
  auto source = start();
  server.put(configmap("a", "default", json::object(), {{"k", "1"}}));
  auto added = bus->wait_for(1);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].type, "resource");
  EXPECT_EQ(added[0].source, "cluster");
  EXPECT_EQ(added[0].subject, "changes");
  auto data = data_of(added[0]);
  EXPECT_EQ(data["type"], "ADD");
  EXPECT_EQ(data["body"]["data"]["k"], "1");
  EXPECT_TRUE(data["oldBody"].is_null());
  EXPECT_EQ(data["group"], "");
  EXPECT_EQ(data["version"], "v1");
  EXPECT_EQ(data["resource"], "configmaps");

  server.update("v1", "ConfigMap", "default", "a", [](json& o) { o["data"]["k"] = "2"; });
  auto updated = bus->wait_for(2);
  ASSERT_EQ(updated.size(), 2u);
  data = data_of(updated[1]);
  EXPECT_EQ(data["type"], "UPDATE");
  EXPECT_EQ(data["body"]["data"]["k"], "2");
  EXPECT_EQ(data["oldBody"]["data"]["k"], "1");

  ASSERT_TRUE(server.remove("v1", "ConfigMap", "default", "a"));
  auto all = bus->wait_for(3);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(data_of(all[2])["type"], "DELETE");
  EXPECT_EQ(name_in(all[2]), "a");
}

TEST_F(resource_source_test, only_the_event_types_asked_for) {
  spec.event_types = {"DELETE"};
  auto source = start();
  server.put(configmap("a"));
  server.update("v1", "ConfigMap", "default", "a", [](json& o) { o["data"]["k"] = "2"; });
  server.remove("v1", "ConfigMap", "default", "a");
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(data_of(events[0])["type"], "DELETE");
}

TEST_F(resource_source_test, existing_objects_are_adds_at_start_as_in_argo) {
  server.put(configmap("existing"));
  auto source = start();
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(data_of(events[0])["type"], "ADD");
  EXPECT_EQ(name_in(events[0]), "existing");
}

TEST_F(resource_source_test, after_start_leaves_out_what_existed_before) {
  server.put(configmap("existing"));
  filter().after_start = true;
  auto source = start();
  // The source takes its start time when it starts, which may be later than start() returns
  // on a loaded machine; once it has listed ("existing" filtered out) that time has passed.
  ASSERT_TRUE(test::eventually([&] { return filtered() == 1; }));
  auto started = std::chrono::system_clock::now();
  // creationTimestamp has whole seconds: an object created in the second the source started
  // reads as created before it (Argo compares the same way).
  ASSERT_TRUE(test::eventually([&] {
    return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now())
           > started;
  }));
  server.put(configmap("new"));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(name_in(events[0]), "new");
  EXPECT_EQ(filtered(), 1u); // "existing"
}

TEST_F(resource_source_test, prefix_filter) {
  filter().prefix = "my-";
  auto source = start();
  server.put(configmap("other"));
  server.put(configmap("my-app"));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(name_in(events[0]), "my-app");
}

TEST_F(resource_source_test, labels_go_to_the_api_as_a_label_selector) {
  filter().labels = {{"app", "==", "web"}, {"tier", "in", "front,back"}};
  auto source = start();
  EXPECT_TRUE(server.wait_for_request([](const test::kube::request_record& r) {
    return decoded(r.target).find("labelSelector=app==web,tier in (back,front)")
           != std::string::npos;
  })) << "no list or watch with Argo's label selector";
  server.put(configmap("unlabelled"));
  server.put(configmap("other-app", "default", {{"app", "db"}, {"tier", "back"}}));
  server.put(configmap("web", "default", {{"app", "web"}, {"tier", "front"}}));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(name_in(events[0]), "web");
}

TEST_F(resource_source_test, fields_filter_on_the_object) {
  filter().fields = {{"data.color", "==", "^red$"}, {"metadata.name", "!=", "^skip"}};
  auto source = start();
  server.put(configmap("blue", "default", json::object(), {{"color", "blue"}}));
  server.put(configmap("skip-red", "default", json::object(), {{"color", "red"}}));
  server.put(configmap("red", "default", json::object(), {{"color", "red"}}));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(name_in(events[0]), "red");
  EXPECT_EQ(filtered(), 2u);
}

TEST_F(resource_source_test, created_by_leaves_out_objects_created_after_it) {
  filter().created_by = std::chrono::system_clock::now() - 24h;
  auto source = start();
  server.put(configmap("young"));
  ASSERT_TRUE(test::eventually([&] { return filtered() == 1; }));
  EXPECT_TRUE(bus->wait_for(0).empty());
}

TEST_F(resource_source_test, created_by_keeps_objects_created_before_it) {
  filter().created_by = std::chrono::system_clock::now() + 24h;
  auto source = start();
  server.put(configmap("old-enough"));
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(name_in(events[0]), "old-enough");
}

TEST_F(resource_source_test, a_relist_after_compaction_reports_only_the_differences) {
  server.set_bookmark_interval(1h); // the watch keeps the version of its last event
  auto source = start();
  for (const char* name : {"a", "b", "gone"})
    server.put(configmap(name));
  ASSERT_EQ(bus->wait_for(3).size(), 3u);
  auto lists = [&] {
    std::size_t n = 0;
    for (const auto& r : server.requests("GET", "/api/v1/namespaces/default/configmaps"))
      n += r.target.find("watch=") == std::string::npos ? 1 : 0;
    return n;
  };
  auto before = lists();
  // The watch stays down (three refusals, retried with backoff) while the collection changes
  // and the history is compacted: the next watch gets 410 and the source lists again.
  server.fail_next(3, 500, 0, "/api/v1/namespaces/default/configmaps");
  server.close_watches();
  ASSERT_TRUE(server.wait_for_request([](const test::kube::request_record& r) {
    return r.status == 500;
  }));
  server.update("v1", "ConfigMap", "default", "a", [](json& o) { o["data"]["k"] = "2"; });
  server.remove("v1", "ConfigMap", "default", "gone");
  server.put(configmap("c"));
  server.compact();
  auto events = bus->wait_for(6);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_GT(lists(), before) << "no relist";
  std::vector<std::string> seen;
  for (std::size_t i = 3; i < events.size(); ++i)
    seen.push_back(data_of(events[i])["type"].get<std::string>() + " " + name_in(events[i]));
  EXPECT_EQ(seen, (std::vector<std::string>{"UPDATE a", "ADD c", "DELETE gone"}));
  EXPECT_EQ(data_of(events[3])["oldBody"]["data"].size(), 0u);
  // Nothing else came of the relist: the next event is the next change.
  server.put(configmap("d"));
  events = bus->wait_for(7);
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(name_in(events[6]), "d");
}

TEST_F(resource_source_test, every_namespace_when_none_is_given) {
  spec.namespace_.clear();
  server.put(configmap("here", "default"));
  server.put(configmap("there", "kube-system"));
  auto source = start();
  auto events = bus->wait_for(2);
  ASSERT_EQ(events.size(), 2u);
  std::set<std::string> seen;
  for (const auto& e : events)
    seen.insert(data_of(e)["body"]["metadata"]["namespace"].get<std::string>() + "/"
                + name_in(e));
  EXPECT_EQ(seen, (std::set<std::string>{"default/here", "kube-system/there"}));
  EXPECT_FALSE(server.requests("GET", "/api/v1/configmaps").empty());
}

TEST_F(resource_source_test, a_custom_resource_of_a_group) {
  server.add_resource("argoproj.io", "v1alpha1", "Workflow", "workflows");
  spec.group = "argoproj.io";
  spec.version = "v1alpha1";
  spec.resource = "workflows";
  auto source = start();
  server.put({{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Workflow"},
              {"metadata", {{"name", "wf"}, {"namespace", "default"}}}});
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(data_of(events[0])["group"], "argoproj.io");
  EXPECT_EQ(name_in(events[0]), "wf");
}

TEST_F(resource_source_test, events_wait_for_the_bus_in_order) {
  bus->refuse(3);
  auto source = start();
  for (const char* name : {"one", "two", "three"})
    server.put(configmap(name));
  auto events = bus->wait_for(3);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(bus->refused(), 3);
  std::vector<std::string> names;
  for (const auto& e : events)
    names.push_back(name_in(e));
  EXPECT_EQ(names, (std::vector<std::string>{"one", "two", "three"}));
}

TEST_F(resource_source_test, a_resource_discovery_does_not_list_is_an_error) {
  spec.resource = "widgets";
  auto error = start_error();
  EXPECT_NE(error.find("resource source cluster/changes: the API server does not serve resource "
                       "\"widgets\" in v1"),
            std::string::npos)
    << error;
  spec.group = "example.com";
  error = start_error();
  EXPECT_NE(error.find("does not serve example.com/v1"), std::string::npos) << error;
}

TEST_F(resource_source_test, a_forbidden_list_is_an_error) {
  server.forbid("list", "configmaps");
  auto error = start_error();
  EXPECT_NE(error.find("403"), std::string::npos) << error;
}

TEST_F(resource_source_test, a_watch_forbidden_later_fails_the_source) {
  auto source = start();
  // A watch request the server took before the forbid would stay open, unclosed by
  // close_watches() if it had not started streaming yet (a real API server keeps it too).
  ASSERT_TRUE(test::eventually([&] { return server.open_watches() >= 1; }));
  server.forbid("*", "configmaps");
  server.close_watches();
  ASSERT_TRUE(test::eventually([&] {
    std::lock_guard guard{mutex};
    return failure.has_value();
  }));
  std::lock_guard guard{mutex};
  EXPECT_NE(failure->find("403"), std::string::npos) << *failure;
}

TEST_F(resource_source_test, no_kubernetes_configuration_is_an_error) {
  opts.kubeconfig = test::temp_dir() + "/missing";
  auto error = start_error();
  EXPECT_NE(error.find("no usable Kubernetes configuration"), std::string::npos) << error;
}

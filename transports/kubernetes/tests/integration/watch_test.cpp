// watcher against the test API server: paged list, events, bookmarks, a relist after 410, a
// closed stream resumed without duplicates, errors retried, a prompt destructor.

#include <chrono>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/kubernetes/watch.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::api_client;
using kubernetes::client_options;
using kubernetes::watch_options;
using kubernetes::watcher;
using nlohmann::json;
namespace kube = test::kube;

namespace {

constexpr const char* collection = "/api/v1/namespaces/default/configmaps";

kubernetes::cluster_config config_for(const kube::api_server& server) {
  kubernetes::cluster_config c;
  c.server = server.url();
  c.origin = "test";
  return c;
}

json configmap(const std::string& name, const std::string& app = "web") {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
          {"data", {{"k", "v"}}}};
}

std::string name_of(const std::string& object_json) {
  auto object = json::parse(object_json);
  return object["metadata"].value("name", "");
}

/// What a watcher reported, thread-safe.
class recorder {
public:
  kubernetes::watch_handlers handlers() {
    return {[this](std::vector<std::string> objects) {
              std::lock_guard guard{mutex_};
              lists_.push_back(std::move(objects));
            },
            [this](const kubernetes::watch_event& e) {
              std::lock_guard guard{mutex_};
              events_.push_back(e.type + " " + name_of(e.object));
            },
            [this](const std::string& error) {
              std::lock_guard guard{mutex_};
              errors_.push_back(error);
            }};
  }
  std::vector<std::vector<std::string>> lists() const {
    std::lock_guard guard{mutex_};
    return lists_;
  }
  std::vector<std::string> events() const {
    std::lock_guard guard{mutex_};
    return events_;
  }
  std::vector<std::string> errors() const {
    std::lock_guard guard{mutex_};
    return errors_;
  }
  /// The names of the objects of list `i`.
  std::vector<std::string> names_of_list(std::size_t i) const {
    std::vector<std::string> names;
    auto all = lists();
    for (const auto& o : all.at(i))
      names.push_back(name_of(o));
    return names;
  }

private:
  mutable std::mutex mutex_;
  std::vector<std::vector<std::string>> lists_;
  std::vector<std::string> events_;
  std::vector<std::string> errors_;
};

kube::server_options without_bookmarks() {
  kube::server_options o;
  o.bookmark_interval = 1h;
  return o;
}

} // namespace

TEST(kubernetes_watch, lists_in_pages_then_reports_changes_in_order) {
  kube::api_server server{without_bookmarks()};
  server.put(configmap("a"));
  server.put(configmap("b"));
  server.put(configmap("c"));
  api_client client{config_for(server)};
  recorder seen;
  watcher w{client, collection, seen.handlers(), watch_options{.page_size = 2}};
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 1; }));
  EXPECT_EQ(seen.names_of_list(0), (std::vector<std::string>{"a", "b", "c"}));
  auto first = json::parse(seen.lists()[0][0]);
  EXPECT_EQ(first["kind"], "ConfigMap");
  EXPECT_EQ(first["apiVersion"], "v1");
  ASSERT_TRUE(server.wait_for_watches(1));
  auto requests = server.requests("GET", collection);
  ASSERT_EQ(requests.size(), 3u); // two pages and the watch
  EXPECT_NE(requests[0].target.find("limit=2"), std::string::npos) << requests[0].target;
  EXPECT_NE(requests[1].target.find("continue="), std::string::npos) << requests[1].target;
  EXPECT_NE(requests[2].target.find("allowWatchBookmarks=true"), std::string::npos);
  server.put(configmap("d"));
  server.update("v1", "ConfigMap", "default", "a", [](json& o) { o["data"]["k"] = "w"; });
  server.remove("v1", "ConfigMap", "default", "b");
  ASSERT_TRUE(test::eventually([&] { return seen.events().size() == 3; }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED d", "MODIFIED a", "DELETED b"}));
  EXPECT_EQ(w.resource_version(), server.resource_version());
  EXPECT_TRUE(seen.errors().empty());
  EXPECT_EQ(seen.lists().size(), 1u);
}

TEST(kubernetes_watch, over_tls_with_a_bearer_token) {
  kube::server_options options = without_bookmarks();
  options.tls = true;
  options.tokens = {"watch-token"};
  kube::api_server server{options};
  server.put(configmap("a"));
  auto config = config_for(server);
  config.ca_pem = server.ca_pem();
  config.token = "watch-token";
  api_client client{config};
  recorder seen;
  watcher w{client, collection, seen.handlers()};
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 1; }));
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("b"));
  ASSERT_TRUE(test::eventually([&] { return !seen.events().empty(); }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED b"}));
  EXPECT_TRUE(seen.errors().empty());
}

TEST(kubernetes_watch, selectors_choose_the_objects) {
  kube::api_server server{without_bookmarks()};
  server.put(configmap("web-1", "web"));
  server.put(configmap("db-1", "db"));
  api_client client{config_for(server)};
  recorder seen;
  watcher w{client, collection, seen.handlers(), watch_options{.label_selector = "app=web"}};
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 1; }));
  EXPECT_EQ(seen.names_of_list(0), (std::vector<std::string>{"web-1"}));
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("db-2", "db"));
  server.put(configmap("web-2", "web"));
  ASSERT_TRUE(test::eventually([&] { return !seen.events().empty(); }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED web-2"}));
}

TEST(kubernetes_watch, bookmarks_advance_the_resource_version) {
  kube::server_options options;
  options.bookmark_interval = 50ms;
  kube::api_server server{options};
  api_client client{config_for(server)};
  recorder seen;
  watcher w{client, collection, seen.handlers()};
  ASSERT_TRUE(server.wait_for_watches(1));
  // A write to another resource moves the server's version; only a bookmark tells the watcher.
  server.put({{"apiVersion", "v1"},
              {"kind", "Secret"},
              {"metadata", {{"name", "s"}, {"namespace", "default"}}}});
  auto version = server.resource_version();
  EXPECT_TRUE(test::eventually([&] { return w.resource_version() == version; }));
  EXPECT_TRUE(seen.events().empty());
}

TEST(kubernetes_watch, a_410_relists_and_reports_the_complete_set) {
  kube::api_server server{without_bookmarks()};
  server.put(configmap("a"));
  core::metrics_registry metrics;
  api_client client{config_for(server), client_options{.metrics = &metrics}};
  recorder seen;
  watcher w{client, collection, seen.handlers()};
  ASSERT_TRUE(server.wait_for_watches(1));
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 1; }));
  // The watcher's version falls behind the compacted history: its next watch gets 410.
  server.put({{"apiVersion", "v1"},
              {"kind", "Secret"},
              {"metadata", {{"name", "s"}, {"namespace", "default"}}}});
  server.compact();
  server.close_watches();
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 2; }));
  EXPECT_EQ(seen.names_of_list(1), (std::vector<std::string>{"a"}));
  EXPECT_EQ(w.resource_version(), server.resource_version());
  EXPECT_EQ(
    metrics.get_counter("ganglion_kubernetes_watch_restarts_total", "", {{"reason", "expired"}})
      .value(),
    1u);
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("b"));
  ASSERT_TRUE(test::eventually([&] { return !seen.events().empty(); }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED b"}));
}

TEST(kubernetes_watch, a_410_status_to_the_watch_request_relists_too) {
  kube::api_server server{without_bookmarks()};
  server.put(configmap("a"));
  api_client client{config_for(server)};
  recorder seen;
  watcher w{client, collection, seen.handlers()};
  ASSERT_TRUE(server.wait_for_watches(1));
  server.fail_next(1, 410, 0, collection);
  server.close_watches();
  // Seen once in a full make test (not reproduced in 20 runs alone): say what happened.
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 2; }))
    << seen.lists().size() << " list(s), " << seen.errors().size() << " error(s)"
    << (seen.errors().empty() ? std::string{} : ": " + seen.errors().front());
  EXPECT_EQ(seen.names_of_list(1), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(seen.errors().empty());
}

TEST(kubernetes_watch, a_closed_stream_resumes_from_the_last_version_without_duplicates) {
  kube::api_server server{without_bookmarks()};
  core::metrics_registry metrics;
  api_client client{config_for(server), client_options{.metrics = &metrics}};
  recorder seen;
  watcher w{client, collection, seen.handlers()};
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("x"));
  ASSERT_TRUE(test::eventually([&] { return seen.events().size() == 1; }));
  auto after_x = server.resource_version();
  server.close_watches();
  server.put(configmap("y"));
  // The close reaches the stream on the server's thread: y may still arrive on it first.
  auto after_y = server.resource_version();
  ASSERT_TRUE(test::eventually([&] { return seen.events().size() >= 2; }));
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("z"));
  ASSERT_TRUE(test::eventually([&] { return seen.events().size() >= 3; }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED x", "ADDED y", "ADDED z"}));
  EXPECT_EQ(seen.lists().size(), 1u);
  auto watches = server.requests("GET", collection);
  ASSERT_GE(watches.size(), 3u); // list, first watch, the watch after the close
  EXPECT_TRUE(watches[2].target.find("resourceVersion=" + after_x + "&") != std::string::npos
              || watches[2].target.find("resourceVersion=" + after_y + "&") != std::string::npos)
    << watches[2].target << " (x " << after_x << ", y " << after_y << ")";
  EXPECT_GE(
    metrics.get_counter("ganglion_kubernetes_watch_restarts_total", "", {{"reason", "closed"}})
      .value(),
    1u);
}

TEST(kubernetes_watch, a_failed_list_or_watch_is_reported_and_retried) {
  kube::api_server server{without_bookmarks()};
  server.put(configmap("a"));
  server.forbid("list", "configmaps");
  api_client client{config_for(server)};
  recorder seen;
  watcher w{client, collection, seen.handlers(),
            watch_options{.min_backoff = 20ms, .max_backoff = 100ms}};
  ASSERT_TRUE(test::eventually([&] { return !seen.errors().empty(); }));
  EXPECT_EQ(seen.errors()[0].rfind(std::string("list ") + collection + ": HTTP 403: ", 0), 0u)
    << seen.errors()[0];
  server.allow_all();
  server.forbid("watch", "configmaps");
  ASSERT_TRUE(test::eventually([&] { return seen.lists().size() == 1; }));
  ASSERT_TRUE(test::eventually([&] {
    auto errors = seen.errors();
    return errors.back().rfind(std::string("watch ") + collection + ": HTTP 403: ", 0) == 0;
  }));
  server.allow_all();
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(configmap("b"));
  ASSERT_TRUE(test::eventually([&] { return !seen.events().empty(); }));
  EXPECT_EQ(seen.events(), (std::vector<std::string>{"ADDED b"}));
  EXPECT_EQ(seen.lists().size(), 1u);
}

TEST(kubernetes_watch, the_destructor_stops_promptly) {
  kube::api_server server{without_bookmarks()};
  api_client client{config_for(server)};
  recorder seen;
  {
    auto w = std::make_unique<watcher>(client, collection, seen.handlers());
    ASSERT_TRUE(server.wait_for_watches(1));
    auto started = std::chrono::steady_clock::now();
    w.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - started, 500ms);
    EXPECT_TRUE(server.wait_for_watches(0));
  }
  server.forbid("list", "configmaps");
  auto w = std::make_unique<watcher>(client, collection, seen.handlers(),
                                     watch_options{.min_backoff = 1h, .max_backoff = 1h});
  ASSERT_TRUE(test::eventually([&] { return !seen.errors().empty(); }));
  auto started = std::chrono::steady_clock::now();
  w.reset(); // waiting out its backoff
  EXPECT_LT(std::chrono::steady_clock::now() - started, 500ms);
}

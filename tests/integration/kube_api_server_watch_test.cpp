// The test Kubernetes API server's lists and watches: selectors, chunking, replay from a
// resourceVersion, bookmarks, 410 Expired, and the ends of a stream.

#include <set>

#include <gtest/gtest.h>

#include "kube/api_server.hpp"
#include "kube_test_client.hpp"

using namespace ganglion::test::kube;

namespace {

json labelled(const std::string& name, json labels, const std::string& ns = "default") {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}}}};
}

std::vector<std::string> names(const json& list) {
  std::vector<std::string> found;
  for (const auto& item : list["items"])
    found.push_back(item["metadata"]["name"]);
  return found;
}

std::vector<std::string> types(const std::vector<json>& events) {
  std::vector<std::string> found;
  for (const auto& e : events)
    found.push_back(e["type"]);
  return found;
}

const std::string cms = "/api/v1/namespaces/default/configmaps";

} // namespace

TEST(kube_api_server_list, label_and_field_selectors_filter_items) {
  api_server server;
  kube_client client{server.url()};
  server.put(labelled("a", {{"app", "web"}, {"tier", "front"}}));
  server.put(labelled("b", {{"app", "db"}}));
  server.put(labelled("c", json::object()));
  server.put(labelled("d", {{"app", "web"}}, "other"));

  auto select = [&](const std::string& query) { return names(client.get(cms + "?" + query).object()); };
  using v = std::vector<std::string>;
  EXPECT_EQ(select("labelSelector=app%3Dweb"), v{"a"});
  EXPECT_EQ(select("labelSelector=app%3D%3Dweb"), v{"a"});
  EXPECT_EQ(select("labelSelector=app!%3Dweb"), (v{"b", "c"}));
  EXPECT_EQ(select("labelSelector=app%20in%20(web,db)"), (v{"a", "b"}));
  EXPECT_EQ(select("labelSelector=app%20notin%20(web)"), (v{"b", "c"}));
  EXPECT_EQ(select("labelSelector=app"), (v{"a", "b"}));
  EXPECT_EQ(select("labelSelector=!app"), v{"c"});
  EXPECT_EQ(select("labelSelector=app%3Dweb,tier%3Dfront"), v{"a"});
  EXPECT_EQ(select("fieldSelector=metadata.name%3Db"), v{"b"});
  EXPECT_EQ(select("fieldSelector=metadata.name!%3Db"), (v{"a", "c"}));
  EXPECT_EQ(names(client.get("/api/v1/configmaps?fieldSelector=metadata.namespace%3Dother")
                    .object()),
            v{"d"});
  EXPECT_EQ(names(client.get("/api/v1/configmaps").object()), (v{"a", "b", "c", "d"}));

  auto bad = client.get(cms + "?labelSelector=app%20in%20web");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.object()["reason"], "BadRequest");
  EXPECT_EQ(client.get(cms + "?fieldSelector=spec.x%3D1").object()["message"],
            "field label not supported: spec.x");
}

TEST(kube_api_server_list, a_list_is_typed_and_chunked_with_limit_and_continue) {
  api_server server;
  kube_client client{server.url()};
  for (int i = 0; i < 7; ++i)
    server.put(labelled("cm" + std::to_string(i), json::object()));
  auto first = client.get(cms + "?limit=3").object();
  EXPECT_EQ(first["kind"], "ConfigMapList");
  EXPECT_EQ(first["apiVersion"], "v1");
  EXPECT_EQ(first["metadata"]["resourceVersion"], server.resource_version());
  EXPECT_EQ(first["metadata"]["remainingItemCount"], 4);
  EXPECT_FALSE(first["items"][0].contains("kind"));

  std::vector<std::string> all = names(first);
  std::string token = first["metadata"]["continue"];
  int pages = 1;
  while (!token.empty()) {
    auto page = client.get(cms + "?limit=3&continue=" + token).object();
    auto more = names(page);
    all.insert(all.end(), more.begin(), more.end());
    token = page["metadata"].value("continue", "");
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(all, (std::vector<std::string>{"cm0", "cm1", "cm2", "cm3", "cm4", "cm5", "cm6"}));
  EXPECT_EQ(client.get(cms + "?limit=3&continue=bm90LWEtdG9rZW4%3D").status, 400);

  server.put({{"apiVersion", "argoproj.io/v1alpha1"}, {"kind", "Sensor"},
              {"metadata", {{"name", "s"}}}});
  server.compact();
  EXPECT_EQ(client.get(cms + "?limit=3&continue=" + first["metadata"]["continue"].get<std::string>())
              .object()["code"],
            410);
  EXPECT_EQ(client.get("/apis/argoproj.io/v1alpha1/sensors").object()["items"][0]["kind"],
            "Sensor");
}

TEST(kube_api_server_watch, streams_changes_after_the_list_version) {
  api_server server;
  kube_client client{server.url()};
  server.put(labelled("before", json::object()));
  std::string version = client.get(cms).object()["metadata"]["resourceVersion"];
  watch_stream watch{server.url() + cms + "?watch=true&resourceVersion=" + version};
  ASSERT_TRUE(server.wait_for_watches(1));
  client.post(cms, labelled("x", json::object()));
  client.patch(cms + "/x", R"({"data":{"k":"v"}})", "application/merge-patch+json");
  client.remove(cms + "/x");
  ASSERT_TRUE(watch.wait_for(3));
  auto events = watch.events();
  EXPECT_EQ(types(events), (std::vector<std::string>{"ADDED", "MODIFIED", "DELETED"}));
  EXPECT_EQ(events[0]["object"]["kind"], "ConfigMap");
  EXPECT_EQ(events[1]["object"]["data"]["k"], "v");
  EXPECT_EQ(events[2]["object"]["metadata"]["resourceVersion"], server.resource_version());
}

TEST(kube_api_server_watch, without_a_version_it_starts_with_the_current_objects) {
  api_server server;
  server.put(labelled("one", json::object()));
  server.put(labelled("two", json::object()));
  watch_stream watch{server.url() + cms + "?watch=1"};
  ASSERT_TRUE(watch.wait_for(2));
  EXPECT_EQ(types(watch.events()), (std::vector<std::string>{"ADDED", "ADDED"}));
}

TEST(kube_api_server_watch, replays_history_from_an_older_version) {
  api_server server;
  auto start = server.resource_version();
  server.put(labelled("r", json::object()));
  server.update("v1", "ConfigMap", "default", "r", [](json& o) { o["data"] = {{"a", "b"}}; });
  server.put(labelled("elsewhere", json::object(), "other"));
  watch_stream watch{server.url() + cms + "?watch=true&resourceVersion=" + start};
  ASSERT_TRUE(watch.wait_for(2));
  EXPECT_EQ(types(watch.events()), (std::vector<std::string>{"ADDED", "MODIFIED"}));
  server.remove("v1", "ConfigMap", "default", "r");
  ASSERT_TRUE(watch.wait_for(3));
  EXPECT_EQ(watch.events()[2]["type"], "DELETED");
}

TEST(kube_api_server_watch, a_label_selector_turns_leaving_into_deleted) {
  api_server server;
  kube_client client{server.url()};
  watch_stream watch{server.url() + cms + "?watch=true&labelSelector=app%3Dweb&resourceVersion="
                     + server.resource_version()};
  ASSERT_TRUE(server.wait_for_watches(1));
  server.put(labelled("w", {{"app", "web"}}));
  server.put(labelled("other", {{"app", "db"}}));
  server.put(labelled("w", {{"app", "db"}}));
  server.put(labelled("w", {{"app", "web"}}));
  ASSERT_TRUE(watch.wait_for(3));
  EXPECT_EQ(types(watch.events()), (std::vector<std::string>{"ADDED", "DELETED", "ADDED"}));
}

TEST(kube_api_server_watch, sends_bookmarks_when_asked) {
  api_server server;
  server.set_bookmark_interval(std::chrono::milliseconds(50));
  server.put(labelled("b", json::object()));
  watch_stream watch{server.url() + cms + "?watch=true&allowWatchBookmarks=true&resourceVersion="
                     + server.resource_version()};
  ASSERT_TRUE(watch.wait_for(2));
  auto bookmark = watch.events()[0];
  EXPECT_EQ(bookmark["type"], "BOOKMARK");
  EXPECT_EQ(bookmark["object"]["kind"], "ConfigMap");
  EXPECT_EQ(bookmark["object"]["metadata"]["resourceVersion"], server.resource_version());
}

TEST(kube_api_server_watch, an_expired_version_gets_an_error_event_with_410) {
  api_server server;
  auto old = server.resource_version();
  server.put(labelled("e", json::object()));
  server.compact();
  watch_stream watch{server.url() + cms + "?watch=true&resourceVersion=" + old};
  ASSERT_TRUE(watch.wait_ended());
  ASSERT_EQ(watch.events().size(), 1u);
  auto error = watch.events()[0];
  EXPECT_EQ(error["type"], "ERROR");
  EXPECT_EQ(error["object"]["kind"], "Status");
  EXPECT_EQ(error["object"]["code"], 410);
  EXPECT_EQ(error["object"]["reason"], "Expired");
  EXPECT_EQ(watch.status(), 200);

  watch_stream current{server.url() + cms + "?watch=true&resourceVersion="
                       + server.resource_version()};
  ASSERT_TRUE(server.wait_for_watches(1));
}

TEST(kube_api_server_watch, the_history_is_bounded) {
  server_options options;
  options.history_limit = 3;
  options.seed_namespaces = false;
  api_server server{options};
  server.put(labelled("h0", json::object()));
  auto old = server.resource_version();
  for (int i = 1; i < 6; ++i)
    server.put(labelled("h" + std::to_string(i), json::object()));
  watch_stream expired{server.url() + cms + "?watch=true&resourceVersion=" + old};
  ASSERT_TRUE(expired.wait_ended());
  EXPECT_EQ(expired.events().at(0)["object"]["code"], 410);
  watch_stream recent{server.url() + cms + "?watch=true&resourceVersion=3"};
  ASSERT_TRUE(recent.wait_for(3));
  EXPECT_EQ(recent.events()[0]["object"]["metadata"]["name"], "h3");
}

TEST(kube_api_server_watch, a_stream_ends_at_its_timeout_or_when_the_test_closes_it) {
  api_server server;
  watch_stream timed{server.url() + cms + "?watch=true&timeoutSeconds=1&resourceVersion="
                     + server.resource_version()};
  watch_stream open{server.url() + "/api/v1/configmaps?watch=true&resourceVersion="
                    + server.resource_version()};
  ASSERT_TRUE(server.wait_for_watches(2));
  ASSERT_TRUE(timed.wait_ended());
  EXPECT_EQ(timed.status(), 200);
  server.put(labelled("z", json::object(), "any"));
  ASSERT_TRUE(open.wait_for(1));
  server.close_watches();
  ASSERT_TRUE(open.wait_ended());
  EXPECT_EQ(server.open_watches(), 0u);
  EXPECT_EQ(open.events().size(), 1u);
}

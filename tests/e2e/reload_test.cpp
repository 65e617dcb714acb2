// Hot reload end to end: the manifest file is edited while ganglion runs, and the change is
// applied by the file watcher, POST /v1/reload or SIGHUP — only what changed restarts.

#include <cstdio>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// What the manifests under test contain.
struct manifest_set {
  std::uint16_t port = 0;
  std::string sink; ///< base URL of the HTTP sink
  std::string filter_value = "x";
  bool extra_sensor = true;
  bool event_d = false;
  bool invalid = false;
};

std::string dependency(const std::string& name, const std::string& extra = {}) {
  return fmt::format("    - name: {0}\n      eventSourceName: hooks\n      eventName: {0}\n{1}",
                     name, extra);
}

std::string sensor(const std::string& name, const std::string& deps, const std::string& trigger,
                   const std::string& conditions, const std::string& url,
                   const std::vector<std::pair<std::string, std::string>>& payload) {
  auto out = fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: {}
spec:
  dependencies:
{}  triggers:
    - template:
        name: {}
)",
                         name, deps, trigger);
  if (!conditions.empty())
    out += fmt::format("        conditions: \"{}\"\n", conditions);
  out += fmt::format("        http:\n          url: {}\n          method: POST\n          payload:\n",
                     url);
  for (const auto& [dep, dest] : payload)
    out += fmt::format("            - src:\n                dependencyName: {}\n"
                       "                dataKey: body.v\n              dest: {}\n",
                       dep, dest);
  return out;
}

/// An EventSource `hooks` (events a, b, c, maybe d); sensor `joiner` (a && b, never changed
/// by the tests); sensor `filtered` (c whose body.v equals the filter value); maybe sensor
/// `extra` (every c) and sensor `dee` (d).
std::string manifests(const manifest_set& m) {
  std::vector<std::string> events{"a", "b", "c"};
  if (m.event_d)
    events.push_back("d");
  auto out = e2e::webhook_source("hooks", m.port, events);
  out += sensor("joiner", dependency("a") + dependency("b"), "join", "a && b", m.sink + "/join",
                {{"a", "a"}, {"b", "b"}});
  auto filter = fmt::format("      filters:\n        data:\n          - path: body.v\n"
                            "            type: {}\n            value: [\"{}\"]\n",
                            m.invalid ? "bogus" : "string", m.filter_value);
  out += sensor("filtered", dependency("c", filter), "pass", "", m.sink + "/filtered",
                {{"c", "v"}});
  if (m.extra_sensor)
    out += sensor("extra", dependency("c"), "all", "", m.sink + "/extra", {{"c", "v"}});
  if (m.event_d)
    out += sensor("dee", dependency("d"), "dee", "", m.sink + "/dee", {{"d", "v"}});
  return out;
}

/// `ganglion run` on one manifest file that the test rewrites.
class reloading_engine {
public:
  reloading_engine(const manifest_set& m, bool watch)
    : dir_(test::temp_dir()), file_(dir_ + "/manifests.yaml"), admin_port_(test::free_port()) {
    test::write_file(file_, manifests(m));
    std::vector<std::string> argv{GANGLION_BINARY, "run", "-f", file_,
                                  "--admin", fmt::format("127.0.0.1:{}", admin_port_),
                                  "--webhook-host", "127.0.0.1", "--data-dir", dir_ + "/data"};
    if (!watch)
      argv.push_back("--no-watch");
    process_ = std::make_unique<test::child_process>(argv);
    if (!test::wait_http_ok(admin_url("/ready"), 20s))
      ADD_FAILURE() << "ganglion did not become ready; output:\n" << output();
  }

  ~reloading_engine() {
    if (process_->running()) {
      process_->signal(SIGTERM);
      process_->wait(15s);
    }
  }

  /// Replaces the manifest file the way editors do: a temporary file renamed over it.
  void edit(const manifest_set& m) { write(manifests(m)); }

  /// Replaces the manifest file with `text` (renamed over it).
  void write(const std::string& text) {
    auto tmp = dir_ + "/.manifests.yaml.tmp";
    test::write_file(tmp, text);
    ASSERT_EQ(std::rename(tmp.c_str(), file_.c_str()), 0);
  }

  std::string admin_url(const std::string& path) const {
    return fmt::format("http://127.0.0.1:{}{}", admin_port_, path);
  }

  std::string status() const { return test::http_request("GET", admin_url("/v1/status")).body; }

  /// The number of reloads /v1/status reports.
  int reloads() const {
    auto s = status();
    auto at = s.find("\"reloads\": ");
    return at == std::string::npos ? -1 : std::atoi(s.c_str() + at + 11);
  }

  /// Waits until /v1/status reports `count` reloads; false on timeout.
  bool wait_reloads(int count) const {
    for (int i = 0; i < 200; ++i) {
      if (reloads() >= count)
        return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  test::child_process& process() { return *process_; }
  std::string output() const { return process_->output(); }

private:
  std::string dir_;
  std::string file_;
  std::uint16_t admin_port_;
  std::unique_ptr<test::child_process> process_;
};

std::size_t count(const test::http_sink& sink, const std::string& target) {
  std::size_t n = 0;
  for (const auto& r : sink.requests())
    n += r.target == target;
  return n;
}

/// Waits until the sink received `n` requests for `target`.
bool wait_count(const test::http_sink& sink, const std::string& target, std::size_t n) {
  for (int i = 0; i < 200; ++i) {
    if (count(sink, target) >= n)
      return true;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

std::string body_of(const test::http_sink& sink, const std::string& target, std::size_t index) {
  std::size_t seen = 0;
  for (const auto& r : sink.requests())
    if (r.target == target && seen++ == index)
      return r.body;
  return {};
}

test::http_response post_v(std::uint16_t port, const std::string& event, const std::string& v) {
  return e2e::post(port, event, fmt::format(R"({{"v":"{}"}})", v));
}

/// The issue's scenario: while sensor joiner holds event a of its join a && b, sensor filtered
/// changes its filter from x to y. The join still fires with that a (joiner is not touched),
/// filtered applies the new filter, and an invalid edit is refused while the old set runs.
/// `reload` applies the edit the way the test is about; `expect_applied` tells it whether the
/// edit is valid.
void filter_change_scenario(
  test::http_sink& sink, std::uint16_t port, reloading_engine& engine,
  const std::function<void(const manifest_set&, bool expect_applied)>& reload) {
  manifest_set m{port, sink.url("")};
  ASSERT_EQ(post_v(port, "a", "a-before").status, 200);
  ASSERT_EQ(post_v(port, "c", "x").status, 200);
  ASSERT_TRUE(wait_count(sink, "/filtered", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/filtered", 0), R"({"v":"x"})");

  m.filter_value = "y";
  reload(m, true);
  ASSERT_EQ(post_v(port, "c", "x").status, 200);
  ASSERT_EQ(post_v(port, "c", "y").status, 200);
  ASSERT_TRUE(wait_count(sink, "/filtered", 2)) << engine.output();
  ASSERT_EQ(post_v(port, "b", "b-after").status, 200);
  ASSERT_TRUE(wait_count(sink, "/join", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/join", 0), R"({"a":"a-before","b":"b-after"})");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(count(sink, "/filtered"), 2u) << "x no longer passes the filter";
  EXPECT_EQ(body_of(sink, "/filtered", 1), R"({"v":"y"})");
  EXPECT_EQ(engine.output().find("sensor joiner reloaded"), std::string::npos) << engine.output();

  // An invalid edit: refused, reported with its position, and the old set keeps running.
  auto invalid = m;
  invalid.invalid = true;
  reload(invalid, false);
  auto status = engine.status();
  EXPECT_NE(status.find("\"phase\": \"Error\""), std::string::npos) << status;
  EXPECT_NE(status.find("manifests.yaml:"), std::string::npos) << status;
  EXPECT_NE(status.find("type must be bool, number or string"), std::string::npos) << status;
  EXPECT_NE(engine.output().find("reload refused"), std::string::npos) << engine.output();
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 200);
  ASSERT_EQ(post_v(port, "c", "y").status, 200);
  ASSERT_TRUE(wait_count(sink, "/filtered", 3)) << engine.output();

  // Fixed again: the error goes away.
  reload(m, true);
  status = engine.status();
  EXPECT_NE(status.find("\"errors\": []"), std::string::npos) << status;
}

} // namespace

TEST(e2e_reload, file_edit_is_applied_by_the_watcher) {
  test::http_sink sink;
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, sink.url("")}, true};
  int reloads = 0;
  filter_change_scenario(sink, port, engine, [&](const manifest_set& m, bool) {
    engine.edit(m);
    ASSERT_TRUE(engine.wait_reloads(++reloads)) << engine.output();
  });
  EXPECT_NE(engine.output().find("the manifest files changed"), std::string::npos);
}

TEST(e2e_reload, post_v1_reload_applies_or_refuses_with_422) {
  test::http_sink sink;
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, sink.url("")}, false};
  filter_change_scenario(sink, port, engine, [&](const manifest_set& m, bool valid) {
    engine.edit(m);
    auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
    ASSERT_EQ(r.status, valid ? 200 : 422) << r.body << engine.output();
    if (valid)
      EXPECT_NE(r.body.find("\"applied\": true"), std::string::npos) << r.body;
    else
      EXPECT_NE(r.body.find("manifests.yaml:"), std::string::npos) << r.body;
  });
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/reload")).status, 405);
}

TEST(e2e_reload, post_v1_reload_answers_what_changed) {
  test::http_sink sink;
  auto port = test::free_port();
  manifest_set m{port, sink.url("")};
  reloading_engine engine{m, false};
  m.filter_value = "y";
  engine.edit(m);
  auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("reconfigured": [
    "sensor/filtered"
  ])"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("\"sensor/joiner\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("\"source/hooks/a\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("0 started, 0 stopped, 0 restarted, 1 reconfigured, 5 unchanged"),
            std::string::npos)
    << r.body;
}

TEST(e2e_reload, sighup_reloads) {
  test::http_sink sink;
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, sink.url("")}, false};
  int reloads = 0;
  filter_change_scenario(sink, port, engine, [&](const manifest_set& m, bool) {
    engine.edit(m);
    engine.process().signal(SIGHUP);
    ASSERT_TRUE(engine.wait_reloads(++reloads)) << engine.output();
  });
  EXPECT_TRUE(engine.process().running());
  EXPECT_NE(engine.output().find("SIGHUP"), std::string::npos);
}

TEST(e2e_reload, a_removed_sensor_stops_receiving) {
  test::http_sink sink;
  auto port = test::free_port();
  manifest_set m{port, sink.url("")};
  reloading_engine engine{m, false};
  ASSERT_EQ(post_v(port, "c", "x").status, 200);
  ASSERT_TRUE(wait_count(sink, "/extra", 1)) << engine.output();
  m.extra_sensor = false;
  engine.edit(m);
  auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("stopped": [
    "sensor/extra"
  ])"), std::string::npos) << r.body;
  auto status = engine.status();
  EXPECT_EQ(status.find("extra"), std::string::npos) << status;
  ASSERT_EQ(post_v(port, "c", "x").status, 200);
  ASSERT_TRUE(wait_count(sink, "/filtered", 2)) << engine.output();
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(count(sink, "/extra"), 1u);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/explain?sensor=extra")).status, 404);
}

TEST(e2e_reload, an_added_event_listens_and_an_unchanged_source_keeps_serving) {
  test::http_sink sink;
  auto port = test::free_port();
  manifest_set m{port, sink.url("")};
  reloading_engine engine{m, false};
  EXPECT_EQ(post_v(port, "d", "early").status, 404);

  // A request to event a whose body is still on its way while the reload runs.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::string body = R"({"v":"in-flight"})";
  auto head = fmt::format("POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: {}\r\n\r\n",
                          body.size());
  auto first = head + body.substr(0, 5);
  ASSERT_EQ(send(fd, first.data(), first.size(), 0), static_cast<ssize_t>(first.size()));

  m.event_d = true;
  engine.edit(m);
  auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("started": [
    "source/hooks/d",
    "sensor/dee"
  ])"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("\"source/hooks/a\""), std::string::npos) << r.body;

  auto rest = body.substr(5);
  ASSERT_EQ(send(fd, rest.data(), rest.size(), 0), static_cast<ssize_t>(rest.size()));
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  char buffer[512] = {};
  auto n = recv(fd, buffer, sizeof buffer - 1, 0);
  close(fd);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buffer, 12), "HTTP/1.1 200") << buffer;

  // The new event listens on the same port, and its new sensor receives it.
  EXPECT_EQ(post_v(port, "d", "dee").status, 200);
  ASSERT_TRUE(wait_count(sink, "/dee", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/dee", 0), R"({"v":"dee"})");
  // The in-flight event reached the unchanged joiner.
  ASSERT_EQ(post_v(port, "b", "b").status, 200);
  ASSERT_TRUE(wait_count(sink, "/join", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/join", 0), R"({"a":"in-flight","b":"b"})");
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 200);
  auto status = engine.status();
  EXPECT_NE(status.find("\"hooks/d\""), std::string::npos) << status;
}

TEST(e2e_reload, a_changed_event_restarts_on_the_same_port) {
  test::http_sink sink;
  auto port = test::free_port();
  manifest_set m{port, sink.url("")};
  reloading_engine engine{m, false};
  ASSERT_EQ(post_v(port, "a", "a-before").status, 200);
  auto text = manifests(m);
  auto at = text.find("endpoint: /c");
  ASSERT_NE(at, std::string::npos);
  engine.write(text.replace(at, 12, "endpoint: /cee"));
  auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("restarted": [
    "source/hooks/c"
  ])"), std::string::npos) << r.body;
  EXPECT_EQ(e2e::post(port, "cee", R"({"v":"x"})").status, 200) << engine.output();
  EXPECT_EQ(e2e::post(port, "c", R"({"v":"x"})").status, 404);
  ASSERT_TRUE(wait_count(sink, "/filtered", 1)) << engine.output();
  ASSERT_EQ(post_v(port, "b", "b").status, 200);
  ASSERT_TRUE(wait_count(sink, "/join", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/join", 0), R"({"a":"a-before","b":"b"})");
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 200);
}

namespace {

/// Sensor `pair` (a && b) where each dependency may carry a filter on body.v.
std::string pair_manifests(std::uint16_t port, const std::string& sink, const std::string& a_value,
                           const std::string& b_value) {
  auto filter = [](const std::string& value) {
    return fmt::format("      filters:\n        data:\n          - path: body.v\n"
                       "            type: string\n            value: [\"{}\"]\n",
                       value);
  };
  return e2e::webhook_source("hooks", port, {"a", "b", "c"})
         + sensor("pair", dependency("a", filter(a_value)) + dependency("b", filter(b_value)),
                  "both", "a && b", sink + "/pair", {{"a", "a"}, {"b", "b"}});
}

/// Applies `text` with POST /v1/reload; the reload must succeed.
void reload_with(reloading_engine& engine, const std::string& text) {
  engine.write(text);
  auto r = test::http_request("POST", engine.admin_url("/v1/reload"));
  ASSERT_EQ(r.status, 200) << r.body << engine.output();
}

} // namespace

// The changed sensor itself: a changed dependency loses its stored event, an unchanged one
// keeps it, and the join fires with what was kept.
TEST(e2e_reload, a_changed_sensor_keeps_the_join_state_of_its_unchanged_dependencies) {
  test::http_sink sink;
  auto port = test::free_port();
  reloading_engine engine{manifest_set{port, sink.url("")}, false};
  reload_with(engine, pair_manifests(port, sink.url(""), "a1", "b1"));

  // `a` is held; b's filter changes: a's stored event stays.
  ASSERT_EQ(post_v(port, "a", "a1").status, 200);
  std::this_thread::sleep_for(200ms);
  reload_with(engine, pair_manifests(port, sink.url(""), "a1", "b2"));
  ASSERT_EQ(post_v(port, "b", "b1").status, 200); // the old filter's value: rejected now
  ASSERT_EQ(post_v(port, "b", "b2").status, 200);
  ASSERT_TRUE(wait_count(sink, "/pair", 1)) << engine.output();
  EXPECT_EQ(body_of(sink, "/pair", 0), R"({"a":"a1","b":"b2"})");

  // `a` is held again; now a's own filter changes: its stored event is dropped.
  ASSERT_EQ(post_v(port, "a", "a1").status, 200);
  std::this_thread::sleep_for(200ms);
  reload_with(engine, pair_manifests(port, sink.url(""), "a2", "b2"));
  ASSERT_EQ(post_v(port, "b", "b2").status, 200);
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(count(sink, "/pair"), 1u) << "the changed dependency's stored event was kept";
  ASSERT_EQ(post_v(port, "a", "a2").status, 200);
  ASSERT_TRUE(wait_count(sink, "/pair", 2)) << engine.output();
  EXPECT_EQ(body_of(sink, "/pair", 1), R"({"a":"a2","b":"b2"})");
  EXPECT_NE(engine.output().find("sensor pair reloaded: 1 stored join event(s) kept"),
            std::string::npos)
    << engine.output();
}

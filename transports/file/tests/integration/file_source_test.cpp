// The file source on a real file system (a temp dir): each operation fires with Argo's data,
// path and pathRegexp select names, polling gives the same operations, a missing directory is
// an error until it exists, and a refusing bus gets the change again.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/file/spec.hpp"
#include "ganglion/file/transport.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class file_source_test : public ::testing::Test {
protected:
  test::event_under_test<file::event_spec>& add(const std::string& name, const std::string& type,
                                                const std::string& path,
                                                const std::string& regexp = {}) {
    es.metadata.name = "files";
    auto& e = events[name];
    e.event_type = type;
    e.watch_path = {dir + "/", path, regexp};
    return e;
  }

  /// Starts event `name`; waits until it watches its directory unless `wait` is false.
  std::unique_ptr<core::source> start(const std::string& name, bool wait = true) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "file", event, spec);
    core::source_context ctx;
    ctx.event_source_name = "files";
    ctx.event_name = name;
    ctx.type = "file";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& why) {
      std::lock_guard guard{fail_mutex};
      failures.push_back(why);
    };
    ctx.connected = [this] { connected = true; };
    connected = false;
    auto source = core::start_source(file::make_source_factory(opts), ctx);
    if (wait && !test::eventually([&] { return connected.load(); }, 10s))
      ADD_FAILURE() << name << " did not start watching " << dir;
    return source;
  }

  std::vector<std::string> failed() {
    std::lock_guard guard{fail_mutex};
    return failures;
  }

  std::string at(const std::string& name) const { return dir + "/" + name; }

  std::uint64_t counter(const std::string& family, const std::string& event,
                        const std::string& reason = {}) {
    core::labels labels{{"eventsource", "files"}, {"event", event}};
    if (!reason.empty())
      labels.emplace_back("reason", reason);
    return metrics.get_counter(family, "", labels).value();
  }

  std::string dir = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<file::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  file::options opts;
  std::mutex fail_mutex;
  std::vector<std::string> failures;
  std::atomic<bool> connected{false};
  test::log_capture log;
};

bool has(const std::vector<std::string>& all, const std::string& one) {
  return std::find(all.begin(), all.end(), one) != all.end();
}

std::string data(const std::string& name, int op, const std::string& metadata = "null") {
  return R"({"name":")" + name + R"(","op":)" + std::to_string(op) + R"(,"metadata":)" + metadata
         + "}";
}

TEST_F(file_source_test, each_operation_fires_its_event_type_with_argo_data) {
  add("create", "CREATE", "x.txt").metadata = std::map<std::string, std::string>{{"team", "a"}};
  add("write", "WRITE", "x.txt");
  add("chmod", "CHMOD", "x.txt");
  add("rename", "RENAME", "x.txt");
  add("remove", "REMOVE", "y.txt");
  std::vector<std::unique_ptr<core::source>> sources;
  for (const auto* name : {"create", "write", "chmod", "rename", "remove"})
    sources.push_back(start(name));

  test::write_file(at("x.txt"), "hello");
  ASSERT_TRUE(bus->arrived(1, "create"));
  ASSERT_TRUE(bus->arrived(1, "write"));
  ASSERT_EQ(::chmod(at("x.txt").c_str(), 0600), 0);
  ASSERT_TRUE(bus->arrived(1, "chmod"));
  ASSERT_EQ(std::rename(at("x.txt").c_str(), at("y.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "rename"));
  ASSERT_EQ(::unlink(at("y.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "remove"));

  auto x = at("x.txt");
  EXPECT_EQ(bus->data("create"), std::vector{data(x, 1, R"({"team":"a"})")});
  EXPECT_EQ(bus->data("write").front(), data(x, 2));
  EXPECT_EQ(bus->data("chmod").front(), data(x, 16));
  EXPECT_EQ(bus->data("rename"), std::vector{data(x, 8)});
  EXPECT_EQ(bus->data("remove"), std::vector{data(at("y.txt"), 4)});
  const auto events = bus->events();
  EXPECT_EQ(events.front().type, "file");
  EXPECT_EQ(events.front().source, "files");
  EXPECT_EQ(counter("ganglion_events_received_total", "create"), 1u);
  EXPECT_EQ(counter("ganglion_events_accepted_total", "create"), 1u);
}

TEST_F(file_source_test, a_file_moved_in_is_created) {
  add("create", "CREATE", "in.txt");
  auto source = start("create");
  auto outside = test::temp_dir() + "/in.txt";
  test::write_file(outside, "x");
  ASSERT_EQ(std::rename(outside.c_str(), at("in.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "create"));
  EXPECT_EQ(bus->data("create").front(), data(at("in.txt"), 1));
}

TEST_F(file_source_test, path_takes_one_name_and_path_regexp_a_pattern) {
  add("exact", "CREATE", "x.txt");
  add("pattern", "CREATE", "", "^[a-z]+\\.txt$");
  auto exact = start("exact");
  auto pattern = start("pattern");
  for (const auto* name : {"x.txt", "abc.txt", "x.txt.swp", "123.txt"})
    test::write_file(at(name), "");
  test::write_file(at("zz.txt"), ""); // the last: once it arrived, the others did
  ASSERT_TRUE(bus->arrived(3, "pattern"));
  // The two events watch on their own: "pattern" having all it gets says nothing of "exact".
  ASSERT_TRUE(bus->arrived(1, "exact"));
  EXPECT_EQ(bus->data("exact"), std::vector{data(at("x.txt"), 1)});
  EXPECT_EQ(bus->data("pattern"),
            (std::vector{data(at("x.txt"), 1), data(at("abc.txt"), 1), data(at("zz.txt"), 1)}));
}

TEST_F(file_source_test, polling_gives_the_same_operations_with_base_names) {
  for (const auto* type : {"CREATE", "WRITE", "CHMOD", "RENAME", "REMOVE"})
    add(type, type, "", "^[a-z]\\.txt$").polling = true;
  // In every poller's first listing: each sees what happens to them.
  test::write_file(at("a.txt"), "1");
  test::write_file(at("r.txt"), "");
  std::vector<std::unique_ptr<core::source>> sources;
  for (const auto* type : {"CREATE", "WRITE", "CHMOD", "RENAME", "REMOVE"})
    sources.push_back(start(type));

  test::write_file(at("c.txt"), "");
  ASSERT_TRUE(bus->arrived(1, "CREATE"));
  // A later modification time than the one the pollers saw.
  struct timespec times[2] = {{0, UTIME_OMIT}, {2000000000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, at("a.txt").c_str(), times, 0), 0);
  ASSERT_TRUE(test::eventually([&] { return has(bus->data("WRITE"), data("a.txt", 2)); }, 10s));
  ASSERT_EQ(::chmod(at("a.txt").c_str(), 0600), 0);
  ASSERT_TRUE(bus->arrived(1, "CHMOD"));
  ASSERT_EQ(std::rename(at("a.txt").c_str(), at("b.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "RENAME"));
  ASSERT_EQ(::unlink(at("r.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "REMOVE"));

  EXPECT_EQ(bus->data("CREATE").front(), data("c.txt", 1));
  EXPECT_EQ(bus->data("CHMOD"), std::vector{data("a.txt", 16)});
  EXPECT_EQ(bus->data("RENAME"), std::vector{data("a.txt", 8)}); // the old name
  EXPECT_EQ(bus->data("REMOVE"), std::vector{data("r.txt", 4)});
}

TEST_F(file_source_test, a_missing_directory_is_waited_for_until_it_exists) {
  dir += "/later";
  add("create", "CREATE", "x.txt");
  test::put_event(es, "file", "create", events["create"]);
  core::source_context probe;
  probe.event_name = "create";
  probe.type = "file";
  probe.manifest = &es;
  EXPECT_EQ(file::make_source_factory().waiting_for(probe),
            "waiting for directory " + dir + "/ (No such file or directory; tried again with backoff)");
  auto source = start("create", false);
  ASSERT_TRUE(test::eventually([&] { return log.count("cannot watch directory " + dir + "/: No such file or directory") > 0; }, 10s));
  EXPECT_FALSE(connected);
  std::filesystem::create_directory(dir);
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 15s));
  EXPECT_EQ(file::make_source_factory().waiting_for(probe), "");
  test::write_file(at("x.txt"), "");
  ASSERT_TRUE(bus->arrived(1, "create"));
  EXPECT_EQ(bus->data("create").front(), data(at("x.txt"), 1));
  EXPECT_TRUE(failed().empty());
}

TEST_F(file_source_test, a_directory_removed_later_fails_the_source) {
  for (bool polling : {false, true}) {
    SCOPED_TRACE(polling ? "polling" : "inotify");
    dir = test::temp_dir() + "/watched";
    std::filesystem::create_directory(dir);
    add("create", "CREATE", "x.txt").polling = polling;
    auto source = start("create");
    std::filesystem::remove(dir);
    ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
    EXPECT_NE(failed().back().find(dir), std::string::npos) << failed().back();
    std::lock_guard guard{fail_mutex};
    failures.clear();
  }
}

TEST_F(file_source_test, a_change_the_bus_refused_is_offered_again) {
  add("create", "CREATE", "x.txt");
  bus->refuse_next(3);
  auto source = start("create");
  test::write_file(at("x.txt"), "");
  ASSERT_TRUE(bus->arrived(1, "create"));
  EXPECT_EQ(bus->data("create"), std::vector{data(at("x.txt"), 1)});
  EXPECT_EQ(counter("ganglion_events_rejected_total", "create", "saturated"), 3u);
  // Counted on the source's thread once the answer reached it.
  EXPECT_TRUE(test::eventually(
    [&] { return counter("ganglion_events_accepted_total", "create") == 1u; }));
}

TEST_F(file_source_test, only_the_configured_event_type_fires) {
  add("remove", "REMOVE", "x.txt");
  auto source = start("remove");
  test::write_file(at("x.txt"), "data"); // CREATE, WRITE: not taken
  ASSERT_EQ(::unlink(at("x.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1, "remove"));
  EXPECT_EQ(bus->data("remove"), std::vector{data(at("x.txt"), 4)});
  EXPECT_EQ(counter("ganglion_events_received_total", "remove"), 1u);
}

} // namespace

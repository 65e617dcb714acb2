// The sftp source against a real OpenSSH sshd (internal-sftp) on 127.0.0.1: files created and
// removed in the served directory fire CREATE and REMOVE with Argo's data, the host key is
// pinned from the key secret, refused logins fail the source, a server restart mid-stream
// loses nothing, and a refusing bus gets the change again.

#include <unistd.h>

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
#include "recording_bus.hpp"
#include "sshd_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string data(const std::string& name, int op) {
  return R"({"name":")" + name + R"(","op":)" + std::to_string(op) + R"(,"metadata":null})";
}

class sftp_source_test : public ::testing::Test {
protected:
  void SetUp() override {
    if (auto why = test::sshd_server::unavailable(); !why.empty())
      GTEST_SKIP() << why;
    server = std::make_unique<test::sshd_server>();
    test::write_file(secrets + "/sftp/username", test::sshd_server::user() + "\n");
    test::write_file(secrets + "/sftp/address", server->address());
    test::write_file(secrets + "/sftp/key", server->client_key() + server->host_public_key());
    opts.sftp_connect_wait = 200ms;
  }

  test::event_under_test<file::sftp_event_spec>& add(const std::string& type,
                                                     const std::string& regexp) {
    es.metadata.name = "remote";
    spec.event_type = type;
    spec.watch_path = {dir + "/", "", regexp};
    spec.username = dsl::secret_key_selector{"sftp", "username"};
    spec.address = dsl::secret_key_selector{"sftp", "address"};
    spec.ssh_key_secret = dsl::secret_key_selector{"sftp", "key"};
    spec.poll_interval_duration = "100ms";
    return spec;
  }

  std::unique_ptr<core::source> start() {
    test::put_event(es, "sftp", "example", spec);
    core::source_context ctx;
    ctx.event_source_name = "remote";
    ctx.event_name = "example";
    ctx.type = "sftp";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.fail = [this](const std::string& why) {
      std::lock_guard guard{mutex};
      failures.push_back(why);
    };
    ctx.connected = [this] { connected = true; };
    return core::start_source(file::make_sftp_source_factory(opts), ctx);
  }

  std::string failure() {
    std::lock_guard guard{mutex};
    return failures.empty() ? std::string{} : failures.back();
  }

  std::uint64_t counter(const std::string& family, const std::string& reason = {}) {
    core::labels labels{{"eventsource", "remote"}, {"event", "example"}};
    if (!reason.empty())
      labels.emplace_back("reason", reason);
    return metrics.get_counter(family, "", labels).value();
  }

  std::unique_ptr<test::sshd_server> server;
  std::string dir = test::temp_dir();
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  test::event_under_test<file::sftp_event_spec> spec;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  file::options opts;
  std::mutex mutex;
  std::vector<std::string> failures;
  std::atomic<bool> connected{false};
};

TEST_F(sftp_source_test, created_and_changed_files_fire_create_with_base_names) {
  test::write_file(dir + "/old.csv", "there before");
  add("CREATE", "\\.csv$");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 15s)) << failure();
  test::write_file(dir + "/a.csv", "1");
  test::write_file(dir + "/skip.txt", "1");
  std::filesystem::create_directory(dir + "/sub.csv"); // a directory: not listed
  ASSERT_TRUE(bus->arrived(1)) << failure();
  test::write_file(dir + "/old.csv", "grown: a new size"); // changed: CREATE again
  ASSERT_TRUE(bus->arrived(2)) << failure();
  EXPECT_EQ(bus->data(), (std::vector{data("a.csv", 1), data("old.csv", 1)}));
  EXPECT_EQ(bus->events().front().type, "sftp");
  // Counted on the source's thread once the answer reached it.
  EXPECT_TRUE(test::eventually([&] { return counter("ganglion_events_accepted_total") == 2u; }));
}

TEST_F(sftp_source_test, removed_files_fire_remove) {
  test::write_file(dir + "/x.txt", "");
  test::write_file(dir + "/y.txt", "");
  add("REMOVE", "^x");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 15s)) << failure();
  ASSERT_EQ(::unlink((dir + "/y.txt").c_str()), 0);
  ASSERT_EQ(::unlink((dir + "/x.txt").c_str()), 0);
  ASSERT_TRUE(bus->arrived(1)) << failure();
  EXPECT_EQ(bus->data(), std::vector{data("x.txt", 4)});
}

TEST_F(sftp_source_test, a_host_key_other_than_the_pinned_one_fails_the_source) {
  test::sshd_server other;
  test::write_file(secrets + "/sftp/key", server->client_key() + other.host_public_key());
  add("CREATE", ".");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failure().empty(); }, 20s));
  EXPECT_NE(failure().find("host key mismatch"), std::string::npos) << failure();
  EXPECT_FALSE(connected);
}

TEST_F(sftp_source_test, a_key_secret_without_the_host_key_line_is_refused_at_start) {
  test::write_file(secrets + "/sftp/key", server->client_key());
  add("CREATE", ".");
  try {
    start();
    FAIL() << "a key secret without the server's public key must not start (Argo refuses it)";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string{e.what()}.find("failed to parse public ssh key"), std::string::npos)
      << e.what();
  }
}

TEST_F(sftp_source_test, a_refused_password_fails_the_source_with_the_reason) {
  test::write_file(secrets + "/sftp/password", "not-the-password");
  add("CREATE", ".");
  spec.ssh_key_secret.reset();
  spec.password = dsl::secret_key_selector{"sftp", "password"};
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failure().empty(); }, 30s));
  EXPECT_NE(failure().find("unable to authenticate as " + test::sshd_server::user()),
            std::string::npos)
    << failure();
}

TEST_F(sftp_source_test, a_server_restart_mid_stream_loses_no_change) {
  add("CREATE", "\\.csv$");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 15s)) << failure();
  test::write_file(dir + "/before.csv", "");
  ASSERT_TRUE(bus->arrived(1)) << failure();
  server->stop();
  test::write_file(dir + "/during.csv", ""); // made while the server is down
  server->start();
  test::write_file(dir + "/after.csv", "");
  ASSERT_TRUE(bus->arrived(3)) << failure();
  auto got = bus->data();
  EXPECT_EQ(got[0], data("before.csv", 1));
  EXPECT_NE(std::find(got.begin(), got.end(), data("during.csv", 1)), got.end());
  EXPECT_NE(std::find(got.begin(), got.end(), data("after.csv", 1)), got.end());
  EXPECT_EQ(counter("ganglion_source_reconnects_total"), 1u);
  EXPECT_EQ(failure(), "");
}

TEST_F(sftp_source_test, a_change_the_bus_refused_is_offered_again) {
  add("CREATE", ".");
  bus->refuse_next(2);
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 15s)) << failure();
  test::write_file(dir + "/x", "");
  ASSERT_TRUE(bus->arrived(1)) << failure();
  EXPECT_EQ(bus->data(), std::vector{data("x", 1)});
  EXPECT_EQ(counter("ganglion_events_rejected_total", "saturated"), 2u);
}

TEST_F(sftp_source_test, a_server_that_never_answers_fails_the_source) {
  server->stop();
  add("CREATE", ".");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failure().empty(); }, 20s));
  EXPECT_NE(failure().find("dialing sftp address 127.0.0.1:" + std::to_string(server->port())),
            std::string::npos)
    << failure();
}

} // namespace

// Scaling the embedded bus's one replica to zero and back on the same data directory (issue 33,
// item 4), as a StatefulSet does with its PersistentVolumeClaim: a half-satisfied join and
// `atLeastOnce` executions in flight at the SIGTERM are kept — the join completes after the
// restart, the executions finish before the exit — and nothing fires twice.

#include <csignal>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"

namespace ganglion::e2e {
namespace {

using namespace std::chrono_literals;

std::string manifests(std::uint16_t port, const std::string& sink) {
  return webhook_source("hooks", port, {"a", "b", "c"}) + join_and_each_sensors(sink);
}

/// How many requests reached `path` of `sink`.
std::size_t requests_to(const test::http_sink& sink, const std::string& path) {
  std::size_t n = 0;
  for (const auto& r : sink.requests())
    n += r.target == path ? 1 : 0;
  return n;
}

} // namespace

TEST(e2e_scale, embedded_bus_1_0_1_on_one_data_dir_keeps_joins_and_finishes_executions) {
  test::http_sink sink;
  // Each execution takes 1.5 s: the SIGTERM comes while they run.
  sink.set_delay(1500ms);
  auto port = test::free_port();
  engine_process replica(manifests(port, sink.url("")), "", true,
                         {"--shutdown-grace", "20"});
  ASSERT_EQ(post(port, "a", R"({"seq":1})").status, 200); // half of the join
  for (int seq = 1; seq <= 5; ++seq)
    ASSERT_EQ(post(port, "c", fmt::format(R"({{"seq":{}}})", seq)).status, 200);
  ASSERT_TRUE(test::eventually([&] { return requests_to(sink, "/each") == 5; }, 10s))
    << "the five executions did not start";

  // Scale to zero while the five executions wait for their answers.
  auto down_at = std::chrono::steady_clock::now();
  replica.stop(); // SIGTERM; exits 0
  auto scale_down = std::chrono::steady_clock::now() - down_at;
  EXPECT_GE(scale_down, 1s) << "the stop did not wait for the executions in flight";
  EXPECT_LT(scale_down, 20s);

  // Scale back up on the same data directory: the join still holds a.
  replica.start();
  ASSERT_EQ(post(port, "b", R"({"seq":1})").status, 200);
  ASSERT_TRUE(test::eventually([&] { return requests_to(sink, "/join") >= 1; }, 20s))
    << replica.output();
  // This run accepted b; a came back from the data directory.
  ASSERT_TRUE(replica.wait_idle(1)) << replica.output();
  auto joins = requests_to(sink, "/join");
  auto each = requests_to(sink, "/each");
  std::printf("| 1 → 0 → 1, embedded bus, one data dir | half-joins kept 1 of 1 | executions in "
              "flight at SIGTERM 5, finished before the exit | join fired %zu | each fired %zu "
              "| SIGTERM → exit %.2f s |\n",
              joins, each, std::chrono::duration<double>(scale_down).count());
  EXPECT_EQ(joins, 1u) << "the join fired again after the restart";
  EXPECT_EQ(each, 5u) << "an execution finished before the stop was delivered again";
  for (const auto& r : sink.requests())
    if (r.target == "/join") {
      auto body = nlohmann::json::parse(r.body);
      EXPECT_EQ(body.at("a"), "1");
      EXPECT_EQ(body.at("b"), "1");
    }
}

} // namespace ganglion::e2e

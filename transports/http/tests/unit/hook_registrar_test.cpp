// The registration loop: off the caller's thread, retried with backoff, failing once.

#include <atomic>
#include <mutex>

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace http = ganglion::http;
using namespace std::chrono_literals;

namespace {

http::registrar_options fast(int attempts) {
  return {.recheck = 50ms, .first_retry = 1ms, .max_retry = 4ms, .attempts = attempts};
}

} // namespace

TEST(http_hook_registrar, a_passing_pass_is_repeated_every_recheck_until_stopped) {
  std::atomic<int> passes{0};
  std::atomic<int> failures{0};
  http::hook_registrar r(
    [&]() -> std::optional<http::registration_failure> {
      ++passes;
      return std::nullopt;
    },
    [&](const http::registration_failure&) { ++failures; },
    {.recheck = 5ms, .first_retry = 1ms, .max_retry = 4ms, .attempts = 3});
  EXPECT_TRUE(ganglion::test::eventually([&] { return passes >= 3; }));
  r.stop();
  auto stopped_at = passes.load();
  EXPECT_EQ(failures, 0);
  r.stop();
  EXPECT_EQ(passes, stopped_at);
}

TEST(http_hook_registrar, failures_in_a_row_fail_once_with_the_last_reason) {
  std::atomic<int> passes{0};
  std::mutex m;
  std::vector<std::string> reasons;
  http::hook_registrar r(
    [&]() -> std::optional<http::registration_failure> {
      return http::registration_failure{"down " + std::to_string(++passes), false};
    },
    [&](const http::registration_failure& f) {
      std::lock_guard lock{m};
      reasons.push_back(f.reason);
    },
    fast(4));
  EXPECT_TRUE(ganglion::test::eventually([&] {
    std::lock_guard lock{m};
    return !reasons.empty();
  }));
  r.stop();
  EXPECT_EQ(passes, 4);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_EQ(reasons[0], "down 4");
}

TEST(http_hook_registrar, a_recovery_resets_the_count_and_a_permanent_failure_fails_at_once) {
  std::atomic<int> passes{0};
  std::atomic<int> failed{0};
  std::atomic<bool> permanent{false};
  http::hook_registrar r(
    [&]() -> std::optional<http::registration_failure> {
      int n = ++passes;
      if (n == 3)
        return std::nullopt; // recovered after two failures
      return http::registration_failure{"refused", n >= 5};
    },
    [&](const http::registration_failure& f) {
      permanent = f.permanent;
      ++failed;
    },
    {.recheck = 1ms, .first_retry = 1ms, .max_retry = 2ms, .attempts = 3});
  EXPECT_TRUE(ganglion::test::eventually([&] { return failed == 1; }));
  r.stop();
  EXPECT_EQ(passes, 5); // 1, 2 fail; 3 passes; 4 fails; 5 is permanent
  EXPECT_TRUE(permanent);
}

TEST(http_hook_registrar, without_recheck_the_thread_ends_after_the_first_pass_that_succeeds) {
  std::atomic<int> passes{0};
  std::atomic<int> failed{0};
  http::hook_registrar r(
    [&]() -> std::optional<http::registration_failure> {
      if (++passes == 1)
        return http::registration_failure{"down", false};
      return std::nullopt;
    },
    [&](const http::registration_failure&) { ++failed; },
    {.recheck = 0ms, .first_retry = 1ms, .max_retry = 2ms, .attempts = 3});
  EXPECT_TRUE(ganglion::test::eventually([&] { return passes == 2; }));
  r.stop(); // joins: the thread ended after the second pass
  EXPECT_EQ(passes, 2);
  EXPECT_EQ(failed, 0);
}

TEST(http_hook_registrar, formatted_url_is_argos) {
  EXPECT_EQ(http::formatted_url("https://x.example//", "/push"), "https://x.example/push");
  EXPECT_EQ(http::formatted_url("https://x.example", "push"), "https://x.example/push");
}

TEST(http_hook_registrar, the_first_delay_is_waited_and_stop_cuts_it_short) {
  std::atomic<int> passes{0};
  http::hook_registrar r(
    [&]() -> std::optional<http::registration_failure> {
      ++passes;
      return std::nullopt;
    },
    [](const http::registration_failure&) {},
    {.recheck = 0ms, .first_delay = std::chrono::hours{1}, .attempts = 3});
  auto before = std::chrono::steady_clock::now();
  r.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 5s);
  EXPECT_EQ(passes, 0);
}

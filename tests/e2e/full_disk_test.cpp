// The durable embedded bus on a full disk: the engine's data directory is a small tmpfs the test
// mounts (root only; skipped otherwise), filled to the last byte by a file beside the log.
// While it is full the webhook answers 503 (never a hang or a crash) and logs a bounded number
// of lines; every event answered 200 reaches the sink; once the filler is deleted, new events
// are accepted and delivered again without a restart.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "http_sink.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A tmpfs of `megabytes` MiB mounted on a fresh directory; unmounted when destroyed.
class small_tmpfs {
public:
  explicit small_tmpfs(int megabytes) : path_(test::temp_dir() + "/mnt") {
    ::mkdir(path_.c_str(), 0755);
    auto options = fmt::format("size={}m", megabytes);
    if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, options.c_str()) == 0)
      mounted_ = true;
    else
      error_ = std::strerror(errno);
  }
  ~small_tmpfs() {
    if (mounted_)
      ::umount2(path_.c_str(), MNT_DETACH);
  }
  small_tmpfs(const small_tmpfs&) = delete;
  small_tmpfs& operator=(const small_tmpfs&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }

private:
  std::string path_;
  bool mounted_ = false;
  std::string error_;
};

/// Writes `path` until the file system has no byte left; returns the bytes written.
std::size_t fill(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0)
    return 0;
  std::string chunk(64 * 1024, 'x');
  std::size_t total = 0;
  for (auto size = chunk.size(); size > 0;) {
    auto n = ::write(fd, chunk.data(), size);
    if (n > 0)
      total += static_cast<std::size_t>(n);
    else
      size /= 2; // the last pages: smaller writes until not even one byte fits
  }
  ::close(fd);
  return total;
}

/// The `seq` of every request the sink received, with how often it came.
std::map<int, int> delivered(const test::http_sink& sink) {
  std::map<int, int> out;
  for (const auto& r : sink.requests()) {
    auto body = nlohmann::json::parse(r.body, nullptr, false);
    if (body.is_object() && body.contains("seq") && body["seq"].is_string())
      ++out[std::stoi(body["seq"].get<std::string>())];
  }
  return out;
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST(full_disk, the_webhook_answers_503_while_the_disk_is_full_and_recovers_without_a_restart) {
  small_tmpfs disk(8);
  if (!disk.mounted())
    GTEST_SKIP() << "cannot mount a tmpfs (" << disk.error() << "); the test needs root";
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_options options;
  options.data_dir = disk.path() + "/data";
  options.extra_args = {"--shutdown-grace", "3"};
  e2e::engine_process engine(e2e::webhook_source("hooks", port, {"example"})
                               + e2e::hook_sensor(fmt::format(R"(    - template:
        name: record
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body.seq
              dest: seq
      atLeastOnce: true
      retryStrategy:
        steps: 5
        duration: 100ms
)",
                                                              sink.url("/record"))),
                             std::move(options));
  std::map<int, int> status_count;
  std::vector<int> acknowledged;
  int seq = 0;
  auto post = [&] {
    auto res = e2e::post(port, "example", fmt::format(R"({{"seq":{},"pad":"{}"}})", seq,
                                                      std::string(200, 'p')));
    ++status_count[res.status];
    if (res.status == 200)
      acknowledged.push_back(seq);
    ++seq;
    return res;
  };

  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(post().status, 200) << engine.output();

  // Full: what is left of the page the log writes into may still take a record or two.
  auto filler = disk.path() + "/filler";
  auto filled = fill(filler);
  ASSERT_GT(filled, 0u);
  auto log_before = lines(engine.output());
  auto full_since = std::chrono::steady_clock::now();
  int refused = 0;
  ASSERT_TRUE(test::eventually([&] {
    auto res = post();
    EXPECT_TRUE(res.status == 200 || res.status == 503) << res.status << " " << res.error;
    if (res.status == 503) {
      EXPECT_NE(res.body.find("No space left on device"), std::string::npos) << res.body;
      ++refused;
    }
    return refused >= 200 && std::chrono::steady_clock::now() - full_since > 3s;
  }, 30s)) << engine.output();
  auto full_for = std::chrono::steady_clock::now() - full_since;
  auto log_while_full = engine.output();
  auto logged = lines(log_while_full) - log_before;
  EXPECT_LE(logged, 10u) << "the engine floods its log while the disk is full:\n"
                         << log_while_full;
  ASSERT_TRUE(engine.process().running()) << engine.output();

  // Space returns: accepted again, without a restart.
  ASSERT_EQ(::unlink(filler.c_str()), 0);
  auto freed_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(test::eventually([&] { return post().status == 200; }, 10s)) << engine.output();
  auto accepted_after = std::chrono::steady_clock::now() - freed_at;
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(post().status, 200) << engine.output();

  std::size_t missing = 0;
  test::eventually([&] {
    auto got = delivered(sink);
    missing = 0;
    for (int s : acknowledged)
      missing += got.count(s) ? 0 : 1;
    return missing == 0;
  }, 30s);
  std::printf("full disk: %zu events acknowledged, %zu delivered, %zu lost; %d refused with 503 "
              "over %.1f s full, %zu log line(s) meanwhile; accepted again %.2f s after the "
              "filler was deleted\n",
              acknowledged.size(), acknowledged.size() - missing, missing, refused,
              std::chrono::duration<double>(full_for).count(), logged,
              std::chrono::duration<double>(accepted_after).count());
  EXPECT_EQ(missing, 0u) << engine.output();
  EXPECT_EQ(status_count.size(), 2u) << "statuses other than 200 and 503";
  engine.stop();
}

// Append throughput of the bus's write-ahead log (event_log), per fsync policy, with 1 and 4
// producer threads appending the corpus events. Each producer keeps at most a window of 1024
// appends in flight: it appends a window and waits for all of its completions, so `always`
// measures group commit (appends queued during an fdatasync share the next one). One iteration
// is one window per producer.
// Baseline: event_log/raw_write — the same record bytes written with write() in 64 KB chunks
// (cycling over a 64 MB file), and one fdatasync at the end of the run.
// The files live under $TMPDIR, else next to this binary (in the build dir: /tmp may be a
// tmpfs, where fdatasync costs nothing); the label names the filesystem. Times are wall-clock.

#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "storage/event_log.hpp"
#include "storage/event_log_segment.hpp"
#include "fixtures.hpp"
#include "storage/storage_io.hpp"

namespace ganglion::bench {
namespace {

constexpr std::size_t window = 1024;
constexpr std::size_t raw_chunk = 64u << 10;
constexpr std::uint64_t raw_file_bytes = 64ull << 20;

/// A fresh directory under $TMPDIR or the binary's directory, removed on destruction.
class scratch_dir {
public:
  scratch_dir() {
    std::filesystem::path root;
    if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp)
      root = tmp;
    else
      root = std::filesystem::read_symlink("/proc/self/exe").parent_path();
    auto pattern = (root / "event-log-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed under " + root.string());
    path_ = pattern;
  }
  ~scratch_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const noexcept { return path_; }

  /// "<filesystem> at <root>", for the label.
  std::string describe() const {
    struct statfs fs {};
    std::string name = "unknown filesystem";
    if (::statfs(path_.c_str(), &fs) == 0) {
      switch (static_cast<unsigned long>(fs.f_type)) {
        case 0xEF53: name = "ext4"; break;
        case 0x01021994: name = "tmpfs"; break;
        case 0x58465342: name = "xfs"; break;
        case 0x9123683E: name = "btrfs"; break;
        case 0x794C7630: name = "overlayfs"; break;
        case 0x2FC12FC1: name = "zfs"; break;
        default: name = fmt_hex(static_cast<unsigned long>(fs.f_type));
      }
    }
    return name + " at " + std::filesystem::path(path_).parent_path().string();
  }

private:
  static std::string fmt_hex(unsigned long v) {
    char text[32];
    std::snprintf(text, sizeof text, "filesystem 0x%lx", v);
    return text;
  }
  std::string path_;
};

/// The record bytes of one window: the corpus round-robin (1024 is a multiple of its size).
std::int64_t window_record_bytes() {
  std::string records;
  const auto& events = corpus_events();
  for (std::size_t i = 0; i < window; ++i)
    core::append_record(records, *events[i % events.size()], i + 1);
  return static_cast<std::int64_t>(records.size());
}

/// Producer threads that, per round, each append one window and wait for its completions.
class producers {
public:
  producers(core::event_log& log, int count) : log_(log) {
    for (int i = 0; i < count; ++i)
      threads_.emplace_back([this] { work(); });
  }
  ~producers() {
    {
      std::lock_guard guard{mutex_};
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      t.join();
  }

  /// Runs one round; false when an append failed.
  bool round() {
    std::unique_lock lock{mutex_};
    finished_ = 0;
    ++round_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return finished_ == threads_.size(); });
    return !failed_.load();
  }

private:
  void work() {
    std::uint64_t seen = 0;
    const auto& events = corpus_events();
    // Lives as long as the thread: the last completion may still notify it after the count
    // reached zero.
    std::atomic<std::size_t> remaining{0};
    for (;;) {
      {
        std::unique_lock lock{mutex_};
        cv_.wait(lock, [&] { return stop_ || round_ != seen; });
        if (stop_)
          return;
        seen = round_;
      }
      remaining.store(window);
      for (std::size_t i = 0; i < window; ++i) {
        log_.append(core::event(*events[i % events.size()]),
                    [&](core::event&&, const std::string* error) {
                      if (error)
                        failed_.store(true);
                      if (remaining.fetch_sub(1) == 1)
                        remaining.notify_one();
                    });
      }
      for (auto left = remaining.load(); left != 0; left = remaining.load())
        remaining.wait(left);
      {
        std::lock_guard guard{mutex_};
        ++finished_;
      }
      cv_.notify_all();
    }
  }

  core::event_log& log_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::uint64_t round_ = 0;
  std::size_t finished_ = 0;
  bool stop_ = false;
  std::atomic<bool> failed_{false};
};

void event_log_append(benchmark::State& state, core::fsync_policy policy) {
  auto threads = static_cast<int>(state.range(0));
  scratch_dir dir;
  core::event_log_options options;
  options.directory = dir.path() + "/log";
  options.fsync = policy;
  options.fsync_interval = std::chrono::milliseconds(100);
  options.retention_bytes = 256ull << 20;
  {
    core::event_log log{options};
    producers writers{log, threads};
    for (auto _ : state) {
      if (!writers.round()) {
        state.SkipWithError(log.failure().c_str());
        break;
      }
      log.release(log.next_sequence());
    }
    log.flush(); // every completion callback has returned before the producers go
  }
  auto rounds = state.iterations() * threads;
  state.SetItemsProcessed(rounds * static_cast<std::int64_t>(window));
  state.SetBytesProcessed(rounds * window_record_bytes());
  state.SetLabel(dir.describe());
}

void event_log_raw_write(benchmark::State& state) {
  scratch_dir dir;
  auto path = dir.path() + "/raw";
  core::unique_fd fd{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
  if (!fd) {
    state.SkipWithError("cannot create the raw file");
    return;
  }
  std::string records;
  const auto& events = corpus_events();
  for (std::size_t i = 0; i < window; ++i)
    core::append_record(records, *events[i % events.size()], i + 1);
  std::uint64_t offset = 0;
  benchmark::IterationCount done = 0;
  for (auto _ : state) {
    for (std::size_t at = 0; at < records.size(); at += raw_chunk) {
      auto size = std::min(raw_chunk, records.size() - at);
      if (offset + size > raw_file_bytes)
        offset = 0;
      if (core::pwrite_all(fd.get(), records.data() + at, size, offset) != 0) {
        state.SkipWithError("write failed");
        return;
      }
      offset += size;
    }
    if (++done == state.max_iterations && core::data_sync(fd.get()) != 0)
      state.SkipWithError("fdatasync failed");
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(window));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(records.size()));
  state.SetLabel(dir.describe());
}

} // namespace

BENCHMARK_CAPTURE(event_log_append, always, core::fsync_policy::always)
  ->Name("event_log/append/always")->ArgName("producers")->Arg(1)->Arg(4)->UseRealTime();
BENCHMARK_CAPTURE(event_log_append, interval, core::fsync_policy::interval)
  ->Name("event_log/append/interval")->ArgName("producers")->Arg(1)->Arg(4)->UseRealTime();
BENCHMARK_CAPTURE(event_log_append, never, core::fsync_policy::never)
  ->Name("event_log/append/never")->ArgName("producers")->Arg(1)->Arg(4)->UseRealTime();
BENCHMARK(event_log_raw_write)->Name("event_log/raw_write")->UseRealTime();

} // namespace ganglion::bench

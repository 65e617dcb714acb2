#pragma once

// The write-ahead log of the durable embedded bus.
//
// On disk (docs/storage.md has the full description): a directory holding `LOCK` (flocked by
// the process that has the log open) and segment files `<first sequence, 20 digits>.log`, each
// append-only, named after the sequence of its first record. A segment is a run of records:
//
//   offset  size  field
//   0       4     magic and format version: "GLG1" (0x31474C47 little-endian)
//   4       4     payload length (u32 LE)
//   8       8     sequence (u64 LE); consecutive within a segment, from the file's name
//   16      8     checksum (u64 LE): XXH3-64 over bytes 4..16 (length, sequence), then payload
//   24      len   payload: the event (event_codec.hpp), without its sequence
//
// Recovery at open validates every record of the newest segment and cuts it (ftruncate) at the
// first torn or corrupt record; older segments get a cheap check of their header chain (magic,
// length within the file, consecutive sequences): a bad record there is reported and the rest
// of that segment skipped, later segments are kept. Sequences are never reused: the next one
// follows the last complete record, or is the newest file's name when that file is empty.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "storage/background_sync.hpp"
#include "storage/event_log_segment.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/metrics.hpp"
#include "storage/storage_io.hpp"

namespace ganglion::core {

/// When the log fdatasyncs its writes.
enum class fsync_policy { always, interval, never };

/// Parses `always`, `interval`, `never`; nullopt otherwise.
std::optional<fsync_policy> parse_fsync_policy(std::string_view text);

/// The name parse_fsync_policy accepts for `policy`.
std::string_view to_string(fsync_policy policy) noexcept;

/// Where and how the log is kept.
struct event_log_options {
  std::string directory; ///< created if missing
  fsync_policy fsync = fsync_policy::interval;
  std::chrono::milliseconds fsync_interval{100};
  std::uint64_t segment_bytes = 64ull << 20;  ///< roll to a new segment past this size
  std::uint64_t retention_bytes = 1ull << 30; ///< consumed segments beyond this total are deleted
  std::chrono::seconds retention_age{86400};  ///< consumed segments older than this are deleted
};

/// What recovery found when the log was opened.
struct event_log_recovery {
  std::uint64_t records = 0;         ///< complete records on disk after recovery
  std::uint64_t first_sequence = 1;  ///< oldest sequence on disk (== next_sequence when empty)
  std::uint64_t next_sequence = 1;   ///< sequence of the next append (sequences start at 1)
  std::uint64_t truncated_bytes = 0; ///< torn or corrupt tail bytes cut off
  /// One line per problem, e.g. "00000000000000000001.log: offset 4096: checksum mismatch;
  /// truncated 312 bytes".
  std::vector<std::string> problems;
};

/// Called once per append on the writer thread; `error` is null on success.
using append_done = std::function<void(event&& e, const std::string* error)>;

/// The log cannot be opened (in use, unreadable, not creatable).
class event_log_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An append-only, segmented, checksummed log of events with one writer thread that batches
/// every append queued while it wrote the previous batch (group commit).
class event_log {
public:
  /// Opens (creating) the directory, takes an exclusive lock on it (flock on `<dir>/LOCK`; a
  /// second opener gets event_log_error "data directory <dir> is in use by another ganglion
  /// process"), recovers, and starts the writer thread. Throws event_log_error.
  explicit event_log(event_log_options options, metrics_registry* metrics = nullptr);
  /// Completes every pending append (written and, unless `never`, fdatasynced), stops the writer.
  ~event_log();
  event_log(const event_log&) = delete;
  event_log& operator=(const event_log&) = delete;

  /// What recovery found at open.
  const event_log_recovery& recovery() const noexcept { return recovery_; }

  /// Thread-safe, never blocks on I/O: queues `e`. On the writer thread `e` gets the next
  /// sequence, is written, and `done` runs once the record is durable under the policy:
  /// `always` after the batch's fdatasync, `interval` and `never` once write() returned. After
  /// an I/O error every append fails with that error's message, without I/O; while the disk
  /// is full (ENOSPC, EDQUOT) appends fail with that message, and each batch tries again.
  void append(event&& e, append_done done);

  /// Visits every complete record with sequence >= from, in order (e.sequence set). Callable
  /// from any thread at any time; sees at least every record whose `done` already ran.
  void replay(std::uint64_t from, const std::function<void(event&&)>& visit) const;

  /// Every subscriber is done with sequences below `below`: retention may now delete segments
  /// wholly below it (at the next roll, flush() or periodic pass, ~every 10 s). Cheap.
  void release(std::uint64_t below) noexcept;

  /// Blocks until every append queued before the call is written and fdatasynced (any
  /// policy) and a retention pass has run.
  void flush();

  /// The sequence the next append gets.
  std::uint64_t next_sequence() const noexcept { return next_sequence_.load(); }
  /// Bytes on disk, all segments.
  std::uint64_t size_bytes() const noexcept { return size_bytes_.load(); }
  /// Segment files.
  std::size_t segments() const noexcept { return segment_count_.load(); }
  /// fdatasyncs of segment files since open.
  std::uint64_t fsyncs() const noexcept { return fsync_count_.load(); }
  /// The sticky I/O error's message; empty while none happened.
  std::string failure() const;

private:
  struct pending {
    event e;
    append_done done;
  };
  using clock = std::chrono::steady_clock;

  void open_directory();
  void open_active(bool created);
  void run();
  void write_batch(std::vector<pending>& batch);
  bool write_buffer();
  static bool out_of_space(int error) noexcept;
  void lack_space(std::string message);
  void space_returned();
  bool roll();
  bool sync_active();
  void fail(std::string message);
  void run_retention();
  void publish_index();
  clock::time_point next_deadline() const;

  event_log_options options_;
  counter* appends_metric_ = nullptr;
  counter* fsyncs_metric_ = nullptr;
  histogram* fsync_seconds_ = nullptr;
  unique_fd lock_fd_;
  event_log_recovery recovery_;

  // The segment index; the writer changes it, replay reads a copy.
  mutable std::mutex index_mutex_;
  std::vector<log_segment> segments_;

  // The queue between append()/flush() and the writer.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable flushed_cv_;
  std::vector<pending> queue_;
  std::uint64_t flush_requested_ = 0;
  std::uint64_t flush_done_ = 0;
  bool stop_ = false;
  std::string failure_;

  std::atomic<std::uint64_t> next_sequence_{1};
  std::atomic<std::uint64_t> size_bytes_{0};
  std::atomic<std::size_t> segment_count_{0};
  std::atomic<std::uint64_t> fsync_count_{0};
  std::atomic<std::uint64_t> released_below_{0};

  // Writer-thread state.
  unique_fd active_fd_;
  std::uint64_t active_bytes_ = 0;
  std::uint64_t next_ = 1;
  std::string buffer_;
  std::size_t buffer_records_ = 0;
  bool failed_ = false;
  std::string error_;
  /// While the disk is full: why the last write failed (appends are refused, each batch
  /// tries the write again); empty otherwise.
  std::string no_space_;
  std::size_t refused_for_space_ = 0;
  bool dirty_ = false;
  bool rolled_ = false;
  clock::time_point last_sync_{};
  clock::time_point last_retention_{};

  /// `interval` only: the periodic fdatasync, off the writer thread.
  std::unique_ptr<background_sync> syncer_;
  std::thread writer_;
};

} // namespace ganglion::core

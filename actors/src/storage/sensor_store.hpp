#pragma once

// The durable state of one sensor, in its own directory (`<data-dir>/sensors/<sensor>/`):
//
// - `snapshot` (and the one before, `snapshot.prev`): the cursor and the events held in
//   partially satisfied joins. A 24-byte header { u32 magic "GSN1", u32 0, u64 content length,
//   u64 XXH3-64 of the content } and the content { u64 cursor, u32 count, count × { trigger,
//   dependency (u32 length + bytes each), u64 sequence, u32 length + the event (event_codec) } },
//   integers little-endian. Replaced atomically (written to `snapshot.tmp`, renamed).
// - `completed.<n>`: journal generations of completed events, fixed 40-byte records { u64
//   sequence, u64 id_low, u64 id_high, i64 unix_ms, u64 XXH3-64 of the 32 bytes before }.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/event_log.hpp"
#include "ganglion/core/event.hpp"
#include "storage/storage_io.hpp"

namespace ganglion::core {

/// A completed event: its log sequence and its id's 128-bit fingerprint, at a wall-clock time.
struct completion {
  std::uint64_t sequence = 0;
  std::uint64_t id_low = 0, id_high = 0;
  std::int64_t unix_ms = 0;
  /// Field-wise equality.
  bool operator==(const completion&) const = default;
};

/// An event held in a partially satisfied join.
struct held_event {
  std::string trigger;
  std::string dependency;
  event e;
};

/// The sensor's cursor (every sequence below it is done) and its join state.
struct sensor_snapshot {
  std::uint64_t cursor = 0;
  std::vector<held_event> held;
};

/// A sensor's state cannot be written (or its directory created).
class sensor_store_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Reads and writes one sensor's snapshot and completion journal. Not thread-safe (owned by
/// the sensor). Writes throw sensor_store_error.
class sensor_store {
public:
  /// Opens `directory` (creating it) and cuts a torn tail off the newest journal generation
  /// (opened for appends on the first one); `policy` says when writes are fdatasynced.
  sensor_store(std::string directory, fsync_policy policy);

  /// The last snapshot saved; an empty one when none; a torn/corrupt newest snapshot falls back
  /// to the previous one.
  sensor_snapshot load_snapshot() const;

  /// Atomically replaces the snapshot: writes `snapshot.tmp`, renames it (the previous one
  /// becomes `snapshot.prev`); with `always` the file and the directory are fsynced too.
  void save_snapshot(const sensor_snapshot& s);

  /// Appends completions to the current journal generation in one write; fdatasync only with
  /// `always`.
  void append_completions(std::span<const completion> items);

  /// Every completion of the two newest generations, oldest first; a torn tail is ignored.
  std::vector<completion> load_completions() const;

  /// Starts a new journal generation and deletes all but the two newest.
  void rotate_completions();

  /// The journal generation appended to.
  std::uint64_t generation() const noexcept { return generation_; }

  /// Deletes a sensor's directory (a sensor removed from the manifests); a failure is logged.
  static void remove(const std::string& directory);

private:
  std::string path(const std::string& name) const;
  std::vector<std::uint64_t> generations() const;
  std::string journal_path() const;
  /// Cuts a torn tail off the current journal generation, so appends stay aligned.
  void repair_journal();
  void open_journal();

  std::string directory_;
  fsync_policy policy_;
  std::uint64_t generation_ = 1;
  unique_fd journal_;
  std::uint64_t journal_bytes_ = 0;
};

} // namespace ganglion::core

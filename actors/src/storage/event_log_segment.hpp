#pragma once

// The records and segment files of the bus's log (the format is described in event_log.hpp).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

struct event_log_recovery;

/// Bytes of a record header: magic, payload length, sequence, checksum.
inline constexpr std::size_t record_header_bytes = 24;
/// The first field of every record: "GLG1" read as a little-endian u32 (format version 1).
inline constexpr std::uint32_t record_magic = 0x31474C47;
/// The largest payload a record may have; a longer length is corruption.
inline constexpr std::uint32_t max_record_payload = 1u << 30;

/// The checksum of a record: XXH3-64 over its length and sequence fields (header bytes 4..16)
/// followed by its payload.
std::uint64_t record_checksum(const char* header, std::string_view payload) noexcept;

/// Appends the complete record of `e` with `sequence` (header and encoded event) to `out`.
void append_record(std::string& out, const event& e, std::uint64_t sequence);

/// One segment file of the log, as the in-memory index knows it.
struct log_segment {
  std::uint64_t first = 0;    ///< the sequence in its name (of its first record)
  std::string path;
  std::uint64_t bytes = 0;    ///< its size on disk
  std::uint64_t readable = 0; ///< the end of its last valid record (replay reads up to here)
  std::uint64_t records = 0;  ///< valid records
};

/// `<first, 20 digits>.log`.
std::string segment_file_name(std::uint64_t first);

/// The first sequence a segment file's name carries; nullopt for any other name.
std::optional<std::uint64_t> parse_segment_file_name(std::string_view name);

/// Reads a segment file's records in order, from offset 0 to a limit, through a buffer.
class segment_reader {
public:
  /// What next() found.
  enum class result { record, end, torn, corrupt, failed };
  /// How much next() reads of a record: only its header (the payload is skipped), the payload
  /// too, or the payload with its checksum verified.
  enum class depth { header, payload, verified };

  /// Reads `fd` (not owned) up to `limit` bytes.
  segment_reader(int fd, std::uint64_t limit);

  /// The next record: its sequence and (unless depth::header) payload, valid until the next
  /// call; records with a sequence below `skip_below` are read as depth::header. `end`: the
  /// limit is reached; `torn`: the limit falls inside a record; `corrupt`: problem() says
  /// what; `failed`: a read error, problem() says which.
  result next(depth how, std::uint64_t& sequence, std::string_view& payload,
              std::uint64_t skip_below = 0);

  /// Where the record last returned starts, or where a non-record result was found.
  std::uint64_t offset() const noexcept { return record_offset_; }
  /// Where the record last returned ends.
  std::uint64_t end_offset() const noexcept { return position_; }
  /// Why next() returned corrupt or failed.
  const std::string& problem() const noexcept { return problem_; }

private:
  bool fill(std::size_t need);

  int fd_;
  std::uint64_t limit_;
  std::string buffer_;
  std::uint64_t buffer_offset_ = 0; ///< file offset of buffer_[0]
  std::size_t begin_ = 0;           ///< unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  std::uint64_t position_ = 0;      ///< file offset of buffer_[begin_]
  std::uint64_t record_offset_ = 0;
  std::string problem_;
};

/// Recovers the segments of `directory` (see event_log.hpp): validates them, truncates a torn
/// or corrupt tail of the newest, and returns the index, oldest first. Fills `report`; with
/// `sync`, truncations are fdatasynced. Throws event_log_error when a file cannot be read.
std::vector<log_segment> recover_segments(const std::string& directory, bool sync,
                                          event_log_recovery& report);

} // namespace ganglion::core

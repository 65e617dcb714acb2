// Fuzzes the recovery of the durable bus's log (actors/src/storage): the input becomes one to
// three segment files in a fresh directory, the log is opened (recovery), every record it kept
// is replayed, one event is appended and flushed, and the log is opened and replayed once more.
// The first byte chooses how: bit 0 rewrites each record's sequence (consecutive from its
// file's name) and checksum, so that the fuzzer reaches the payloads behind them; bits 1-2
// the number of segments (each but the last sized by the next two bytes); bit 3 leaves a gap
// between segments' sequences. Proves that no file crashes recovery or replay or trips a
// sanitizer, and that the second open cuts nothing more.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "storage/event_log.hpp"
#include "storage/event_log_segment.hpp"

namespace {

namespace fs = std::filesystem;
namespace core = ganglion::core;

/// A directory of this process for the runs' logs, created once.
const fs::path& base_directory() {
  static const fs::path base = [] {
    std::string pattern = (fs::temp_directory_path() / "event_log_fuzz.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      std::abort();
    spdlog::set_level(spdlog::level::off);
    return fs::path(pattern);
  }();
  return base;
}

template <class T>
void store(std::string& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

/// Rewrites the magic, sequences (from `first`) and checksums of the records of `segment`;
/// returns the sequence after its last whole record header.
std::uint64_t fix_records(std::string& segment, std::uint64_t first) {
  std::uint64_t sequence = first;
  std::size_t at = 0;
  while (at + core::record_header_bytes <= segment.size()) {
    std::uint32_t length = 0;
    std::memcpy(&length, segment.data() + at + 4, sizeof(length));
    store(segment, at, core::record_magic);
    store(segment, at + 8, sequence++);
    auto payload_at = at + core::record_header_bytes;
    auto available = segment.size() - payload_at;
    std::string_view payload(segment.data() + payload_at, std::min<std::size_t>(length, available));
    store(segment, at + 16, core::record_checksum(segment.data() + at, payload));
    if (length > available)
      break;
    at = payload_at + length;
  }
  return sequence;
}

/// Opens the log in `directory`, replays it and returns what recovery cut.
std::uint64_t open_and_replay(const std::string& directory, bool append) {
  core::event_log_options options;
  options.directory = directory;
  options.fsync = core::fsync_policy::never;
  core::event_log log(options);
  std::uint64_t seen = 0;
  log.replay(0, [&](core::event&& e) {
    if (e.sequence < log.recovery().first_sequence || e.sequence >= log.next_sequence())
      __builtin_trap(); // replay returned a sequence recovery did not find
    ++seen;
  });
  if (append) {
    core::event e;
    e.id = "fuzz";
    e.data = "{}";
    log.append(std::move(e), [](core::event&&, const std::string*) {});
    log.flush();
  }
  return log.recovery().truncated_bytes;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1)
    return 0;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto flags = static_cast<std::uint8_t>(in[0]);
  in.remove_prefix(1);
  bool fix = flags & 1;
  int segments = 1 + ((flags >> 1) & 3) % 3;
  bool gap = flags & 8;

  auto directory = base_directory() / "log";
  fs::remove_all(directory);
  fs::create_directories(directory);
  std::uint64_t first = 1;
  for (int i = 0; i < segments; ++i) {
    std::string segment;
    if (i + 1 < segments && in.size() >= 2) {
      auto length = static_cast<std::size_t>(static_cast<std::uint8_t>(in[0])
                                             | static_cast<std::uint8_t>(in[1]) << 8);
      in.remove_prefix(2);
      segment = std::string(in.substr(0, length));
      in.remove_prefix(segment.size());
    } else {
      segment = std::string(in);
      in = {};
    }
    std::uint64_t next = fix ? fix_records(segment, first) : first + segment.size() / 64 + 1;
    std::ofstream(directory / core::segment_file_name(first), std::ios::binary) << segment;
    first = next + (gap ? 7 : 0);
    if (i + 1 < segments && in.empty())
      break;
  }

  try {
    open_and_replay(directory.string(), true);
    if (open_and_replay(directory.string(), false) != 0)
      __builtin_trap(); // the first recovery left a torn or corrupt tail behind
  } catch (const core::event_log_error&) {
  }
  fs::remove_all(directory);
  return 0;
}

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "ganglion/core/event_codec.hpp"
#include "storage/event_log.hpp"
#include "storage/event_log_segment.hpp"
#include "storage/storage_io.hpp"

namespace ganglion::core {

namespace {

/// The segment files of `directory`, oldest first.
std::vector<log_segment> list_segments(const std::string& directory) {
  std::vector<log_segment> segments;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    auto name = entry.path().filename().string();
    if (auto first = parse_segment_file_name(name))
      segments.push_back({*first, entry.path().string(), 0, 0, 0});
  }
  if (ec)
    throw event_log_error(fmt::format("cannot list {}: {}", directory, ec.message()));
  std::sort(segments.begin(), segments.end(),
            [](const log_segment& a, const log_segment& b) { return a.first < b.first; });
  return segments;
}

std::string file_name(const log_segment& s) {
  return std::filesystem::path(s.path).filename().string();
}

/// Validates one segment: every record of the newest (checksum and encoding), the header chain
/// of the others. Sets s.bytes, s.readable, s.records; returns the last valid sequence (0: none).
std::uint64_t scan_segment(log_segment& s, bool newest, bool sync, event_log_recovery& report) {
  unique_fd fd{::open(s.path.c_str(), (newest ? O_RDWR : O_RDONLY) | O_CLOEXEC)};
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0)
    throw event_log_error(fmt::format("cannot open {}: {}", s.path, error_text(errno)));
  s.bytes = static_cast<std::uint64_t>(st.st_size);
  segment_reader reader{fd.get(), s.bytes};
  auto how = newest ? segment_reader::depth::verified : segment_reader::depth::header;
  std::uint64_t last = 0;
  std::string why;
  event scratch;
  for (;;) {
    std::uint64_t sequence = 0;
    std::string_view payload;
    auto found = reader.next(how, sequence, payload);
    if (found == segment_reader::result::end)
      break;
    if (found == segment_reader::result::failed)
      throw event_log_error(fmt::format("{}: {}", s.path, reader.problem()));
    if (found == segment_reader::result::torn) {
      why = "incomplete record";
    } else if (found == segment_reader::result::corrupt) {
      why = reader.problem();
    } else if (sequence != (last == 0 ? s.first : last + 1)) {
      why = fmt::format("sequence {} where {} was expected", sequence,
                        last == 0 ? s.first : last + 1);
    } else if (newest && !decode_event(payload, scratch)) {
      why = "undecodable event";
    }
    if (!why.empty())
      break;
    last = sequence;
    ++s.records;
  }
  s.readable = reader.offset();
  if (why.empty())
    return last;
  auto cut = s.bytes - s.readable;
  if (!newest) {
    report.problems.push_back(fmt::format("{}: offset {}: {}; skipped the remaining {} bytes",
                                          file_name(s), s.readable, why, cut));
    return last;
  }
  if (::ftruncate(fd.get(), static_cast<off_t>(s.readable)) != 0)
    throw event_log_error(fmt::format("cannot truncate {}: {}", s.path, error_text(errno)));
  if (sync) {
    if (int error = data_sync(fd.get()))
      throw event_log_error(fmt::format("cannot sync {}: {}", s.path, error_text(error)));
  }
  s.bytes = s.readable;
  report.truncated_bytes += cut;
  report.problems.push_back(fmt::format("{}: offset {}: {}; truncated {} bytes", file_name(s),
                                        s.readable, why, cut));
  return last;
}

} // namespace

std::vector<log_segment> recover_segments(const std::string& directory, bool sync,
                                          event_log_recovery& report) {
  auto segments = list_segments(directory);
  report = {};
  std::uint64_t last = 0;
  std::uint64_t first = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    auto& s = segments[i];
    auto newest = i + 1 == segments.size();
    auto segment_last = scan_segment(s, newest, sync, report);
    if (s.records == 0)
      continue;
    if (last != 0 && s.first > last + 1)
      report.problems.push_back(fmt::format("{}: sequences {}..{} are missing", file_name(s),
                                            last + 1, s.first - 1));
    else if (last != 0 && s.first <= last)
      report.problems.push_back(fmt::format("{}: overlaps the previous segment (which ends at "
                                            "sequence {})", file_name(s), last));
    if (first == 0)
      first = s.first;
    last = segment_last;
    report.records += s.records;
  }
  report.next_sequence = std::max<std::uint64_t>(last + 1, segments.empty() ? 1 : segments.back().first);
  report.first_sequence = first == 0 ? report.next_sequence : first;
  return segments;
}

} // namespace ganglion::core

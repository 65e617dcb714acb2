#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "ganglion/core/event_codec.hpp"
#include "storage/event_log.hpp"

namespace ganglion::core {

void event_log::replay(std::uint64_t from,
                       const std::function<void(event&&)>& visit) const {
  std::vector<log_segment> segments;
  {
    std::lock_guard guard{index_mutex_};
    segments = segments_;
  }
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto& s = segments[i];
    if (i + 1 < segments.size() && segments[i + 1].first <= from)
      continue;
    unique_fd fd{::open(s.path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (!fd) {
      if (errno != ENOENT) // ENOENT: retention deleted it, so every subscriber is past it
        spdlog::warn("bus log: cannot replay {}: {}", s.path, error_text(errno));
      continue;
    }
    segment_reader reader{fd.get(), s.readable};
    for (;;) {
      std::uint64_t sequence = 0;
      std::string_view payload;
      auto found = reader.next(segment_reader::depth::verified, sequence, payload, from);
      if (found == segment_reader::result::end)
        break;
      if (found == segment_reader::result::record && sequence < from)
        continue;
      event e;
      if (found != segment_reader::result::record || !decode_event(payload, e)) {
        spdlog::warn("bus log: replay of {} stops at offset {}: {}", s.path, reader.offset(),
                     reader.problem().empty() ? "unreadable record" : reader.problem());
        break;
      }
      e.sequence = sequence;
      visit(std::move(e));
    }
  }
}

} // namespace ganglion::core

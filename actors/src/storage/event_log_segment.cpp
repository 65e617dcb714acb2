#include "storage/event_log_segment.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "ganglion/core/event_codec.hpp"
#include "base/storage_bytes.hpp"
#include "storage/storage_io.hpp"

namespace ganglion::core {

namespace {

constexpr std::size_t read_chunk = 1u << 20;
constexpr std::size_t segment_name_digits = 20;

} // namespace

std::uint64_t record_checksum(const char* header, std::string_view payload) noexcept {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, header + 4, 12);
  XXH3_64bits_update(&state, payload.data(), payload.size());
  return XXH3_64bits_digest(&state);
}

void append_record(std::string& out, const event& e, std::uint64_t sequence) {
  auto start = out.size();
  auto payload_size = encoded_size(e);
  out.reserve(start + record_header_bytes + payload_size);
  put_u32(out, record_magic);
  put_u32(out, static_cast<std::uint32_t>(payload_size));
  put_u64(out, sequence);
  put_u64(out, 0);
  encode_event(e, out);
  auto* header = out.data() + start;
  std::string_view payload{header + record_header_bytes, payload_size};
  store_u64(header + 16, record_checksum(header, payload));
}

std::string segment_file_name(std::uint64_t first) {
  return fmt::format("{:020}.log", first);
}

std::optional<std::uint64_t> parse_segment_file_name(std::string_view name) {
  if (name.size() != segment_name_digits + 4 || !name.ends_with(".log"))
    return std::nullopt;
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < segment_name_digits; ++i) {
    char c = name[i];
    if (c < '0' || c > '9')
      return std::nullopt;
    auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10)
      return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

segment_reader::segment_reader(int fd, std::uint64_t limit) : fd_(fd), limit_(limit) {}

bool segment_reader::fill(std::size_t need) {
  if (end_ - begin_ >= need)
    return true;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    buffer_offset_ += begin_;
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() < need)
    buffer_.resize(std::max(need, read_chunk));
  else if (buffer_.empty())
    buffer_.resize(read_chunk);
  auto file_end = buffer_offset_ + end_;
  auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size() - end_, limit_ - file_end));
  std::size_t got = 0;
  if (int error = pread_full(fd_, buffer_.data() + end_, want, file_end, got)) {
    problem_ = fmt::format("read failed: {}", error_text(error));
    return false;
  }
  end_ += got;
  if (got < want)
    limit_ = buffer_offset_ + end_;
  return end_ - begin_ >= need;
}

segment_reader::result segment_reader::next(depth how, std::uint64_t& sequence,
                                            std::string_view& payload, std::uint64_t skip_below) {
  record_offset_ = position_;
  problem_.clear();
  if (position_ >= limit_)
    return result::end;
  if (!fill(record_header_bytes))
    return problem_.empty() ? result::torn : result::failed;
  const char* header = buffer_.data() + begin_;
  if (load_u32(header) != record_magic) {
    problem_ = "bad record magic";
    return result::corrupt;
  }
  auto length = load_u32(header + 4);
  if (length > max_record_payload) {
    problem_ = fmt::format("record length {} is too large", length);
    return result::corrupt;
  }
  sequence = load_u64(header + 8);
  auto total = record_header_bytes + length;
  if (position_ + total > limit_)
    return result::torn;
  if (how == depth::header || sequence < skip_below) {
    auto buffered = end_ - begin_;
    if (buffered >= total) {
      begin_ += total;
    } else {
      buffer_offset_ += end_ + (total - buffered);
      begin_ = end_ = 0;
    }
    position_ += total;
    payload = {};
    return result::record;
  }
  if (!fill(total))
    return problem_.empty() ? result::torn : result::failed;
  header = buffer_.data() + begin_;
  payload = std::string_view{header + record_header_bytes, length};
  if (how == depth::verified && record_checksum(header, payload) != load_u64(header + 16)) {
    problem_ = "checksum mismatch";
    return result::corrupt;
  }
  begin_ += total;
  position_ += total;
  return result::record;
}

} // namespace ganglion::core

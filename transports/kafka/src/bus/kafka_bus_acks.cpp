#include "bus/kafka_bus_acks.hpp"

#include <algorithm>
#include <charconv>

namespace ganglion::kafka::detail {

namespace {

constexpr std::string_view version_prefix = "g1;";

bool parse_number(std::string_view& in, std::int64_t& out) {
  auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), out);
  if (ec != std::errc{} || end == in.data() || out < 0)
    return false;
  in.remove_prefix(static_cast<std::size_t>(end - in.data()));
  return true;
}

} // namespace

void offset_ranges::add(std::int64_t offset) {
  if (!ranges_.empty() && ranges_.back().second + 1 == offset)
    ranges_.back().second = offset;
  else if (ranges_.empty() || ranges_.back().second < offset)
    ranges_.emplace_back(offset, offset);
}

bool offset_ranges::contains(std::int64_t offset) const noexcept {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), offset,
                             [](std::int64_t o, const auto& r) { return o < r.first; });
  return it != ranges_.begin() && std::prev(it)->second >= offset;
}

std::string offset_ranges::encode(std::int64_t base, std::size_t max_bytes) const {
  if (ranges_.empty())
    return {};
  std::string out(version_prefix);
  for (const auto& [first, last] : ranges_) {
    std::string item = std::to_string(first - base);
    if (last != first)
      item += "-" + std::to_string(last - base);
    if (out.size() + item.size() + 1 > max_bytes)
      break;
    if (out.size() > version_prefix.size())
      out += ',';
    out += item;
  }
  return out;
}

offset_ranges offset_ranges::decode(std::string_view metadata, std::int64_t base) {
  offset_ranges out;
  if (metadata.substr(0, version_prefix.size()) != version_prefix)
    return out;
  metadata.remove_prefix(version_prefix.size());
  while (!metadata.empty()) {
    std::int64_t first = 0;
    if (!parse_number(metadata, first))
      return {};
    std::int64_t last = first;
    if (!metadata.empty() && metadata.front() == '-') {
      metadata.remove_prefix(1);
      if (!parse_number(metadata, last) || last < first)
        return {};
    }
    if (!out.ranges_.empty() && out.ranges_.back().second >= base + first)
      return {};
    out.ranges_.emplace_back(base + first, base + last);
    if (!metadata.empty()) {
      if (metadata.front() != ',')
        return {};
      metadata.remove_prefix(1);
    }
  }
  return out;
}

bool partition_acks::delivered(std::int64_t offset, bool acknowledged) {
  if (next_ >= 0 && offset < next_)
    return false;
  next_ = offset + 1;
  if (pending_.empty() && acknowledged) {
    changed_ = true;
    return true;
  }
  pending_.emplace_back(offset, acknowledged);
  if (!acknowledged)
    ++unacknowledged_;
  else
    changed_ = true;
  return true;
}

void partition_acks::acknowledge(std::int64_t offset) {
  auto it = std::lower_bound(pending_.begin(), pending_.end(), offset,
                             [](const auto& entry, std::int64_t o) { return entry.first < o; });
  if (it == pending_.end() || it->first != offset || it->second)
    return;
  it->second = true;
  --unacknowledged_;
  changed_ = true;
  while (!pending_.empty() && pending_.front().second)
    pending_.pop_front();
}

std::int64_t partition_acks::position() const noexcept {
  return pending_.empty() ? next_ : pending_.front().first;
}

std::string partition_acks::metadata() const {
  offset_ranges acked;
  std::size_t budget = max_metadata_bytes / 2; // ranges, at most one per byte of the budget
  for (const auto& [offset, done] : pending_) {
    if (!done)
      continue;
    acked.add(offset);
    if (--budget == 0)
      break;
  }
  return acked.encode(position());
}

} // namespace ganglion::kafka::detail

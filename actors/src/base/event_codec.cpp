#include "ganglion/core/event_codec.hpp"

#include <array>
#include <cstdint>

#include "base/storage_bytes.hpp"

namespace ganglion::core {

namespace {

using string_field = std::string event::*;

constexpr std::array<string_field, 8> fields{
  &event::id,   &event::source,          &event::type,        &event::subject,
  &event::time, &event::datacontenttype, &event::specversion, &event::data,
};

} // namespace

std::size_t encoded_size(const event& e) noexcept {
  std::size_t size = 0;
  for (auto field : fields)
    size += sizeof(std::uint32_t) + (e.*field).size();
  if (!e.namespace_.empty())
    size += sizeof(std::uint32_t) + e.namespace_.size();
  return size;
}

void encode_event(const event& e, std::string& out) {
  out.reserve(out.size() + encoded_size(e));
  for (auto field : fields) {
    const auto& value = e.*field;
    put_u32(out, static_cast<std::uint32_t>(value.size()));
    out.append(value);
  }
  // Only when set, so an event without one encodes as it did before namespaces were kept.
  if (!e.namespace_.empty()) {
    put_u32(out, static_cast<std::uint32_t>(e.namespace_.size()));
    out.append(e.namespace_);
  }
}

bool decode_event(std::string_view bytes, event& out) {
  byte_reader in{bytes};
  for (auto field : fields) {
    std::string_view value;
    if (!in.string(value))
      return false;
    (out.*field).assign(value);
  }
  out.namespace_.clear();
  if (in.empty())
    return true;
  std::string_view ns;
  if (!in.string(ns) || ns.empty())
    return false;
  out.namespace_.assign(ns);
  return in.empty();
}

} // namespace ganglion::core

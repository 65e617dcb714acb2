#include "ganglion/core/event.hpp"

#include <array>
#include <chrono>
#include <random>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ganglion::core {

std::string new_event_id() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::array<std::uint64_t, 2> bits{generator(), generator()};
  bits[0] = (bits[0] & ~0xF000ULL) | 0x4000ULL;                   // version 4
  bits[1] = (bits[1] & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL; // variant 10
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (std::size_t i = 0; i < 32; ++i)
    out[i] = hex[(bits[i / 16] >> (60 - 4 * (i % 16))) & 0xF];
  return out;
}

std::string to_rfc3339(std::chrono::system_clock::time_point at) {
  // The date and time of day change once a second: format them then, the nanoseconds always.
  thread_local std::chrono::sys_seconds cached_second{};
  thread_local std::string cached_prefix;
  auto seconds = std::chrono::floor<std::chrono::seconds>(at);
  if (seconds != cached_second || cached_prefix.empty()) {
    cached_prefix = fmt::format("{:%Y-%m-%dT%H:%M:%S}.", seconds);
    cached_second = seconds;
  }
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(at - seconds).count();
  std::string out = cached_prefix;
  out.resize(cached_prefix.size() + 10);
  for (std::size_t i = 0; i < 9; ++i, nanos /= 10)
    out[cached_prefix.size() + 8 - i] = static_cast<char>('0' + nanos % 10);
  out.back() = 'Z';
  return out;
}

std::string now_rfc3339() {
  return to_rfc3339(std::chrono::system_clock::now());
}

event make_event(std::string source, std::string type, std::string subject, std::string data,
                 std::string id) {
  event e;
  e.id = std::move(id);
  e.source = std::move(source);
  e.type = std::move(type);
  e.subject = std::move(subject);
  e.time = now_rfc3339();
  e.data = std::move(data);
  return e;
}

std::string to_json(const event& e) {
  nlohmann::json doc{{"specversion", e.specversion}, {"id", e.id},         {"source", e.source},
                     {"type", e.type},               {"subject", e.subject}, {"time", e.time},
                     {"datacontenttype", e.datacontenttype}};
  std::string out = doc.dump();
  if (e.datacontenttype == "application/json" && !e.data.empty()) {
    out.pop_back();
    out += ",\"data\":";
    out += e.data;
    out += '}';
  } else if (!e.data.empty()) {
    out.pop_back();
    out += ",\"data\":";
    out += nlohmann::json(e.data).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '}';
  }
  return out;
}

} // namespace ganglion::core

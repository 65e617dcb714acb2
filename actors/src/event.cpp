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
  return fmt::format("{:016x}{:016x}", bits[0], bits[1]);
}

std::string to_rfc3339(std::chrono::system_clock::time_point at) {
  auto seconds = std::chrono::floor<std::chrono::seconds>(at);
  auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(at - seconds).count();
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:09d}Z", seconds, nanos);
}

std::string now_rfc3339() {
  return to_rfc3339(std::chrono::system_clock::now());
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

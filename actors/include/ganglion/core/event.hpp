#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace ganglion::core {

/// A CloudEvent 1.0 in structured form, as sources publish it and sensors receive it.
struct event {
  std::string id;
  std::string source;  ///< the EventSource name
  std::string type;    ///< the source type (`webhook`, `calendar` …)
  std::string subject; ///< the event name
  std::string time;    ///< RFC 3339 with nanoseconds, UTC
  std::string datacontenttype = "application/json";
  std::string specversion = "1.0";
  std::string data; ///< the payload bytes (JSON text for application/json)
  /// The namespace of the EventSource that published it; empty when the EventSource names
  /// none. Not a CloudEvent attribute (to_json leaves it out): it keeps the event to the
  /// Sensors of that namespace, as Argo's per-namespace EventBus does.
  std::string namespace_;
  /// The event's position in the bus's log, set when the bus accepts it (0 before).
  std::uint64_t sequence = 0;
};

/// Events are shared read-only between the bus, sensors and triggers.
using event_ptr = std::shared_ptr<const event>;

/// A new random CloudEvent id: 32 lowercase hex digits (a UUID v4 without dashes, as Argo).
std::string new_event_id();

/// The current time as RFC 3339 UTC with nanoseconds (`2026-11-29T23:52:18.123456789Z`).
std::string now_rfc3339();

/// `at` as RFC 3339 UTC with nanoseconds.
std::string to_rfc3339(std::chrono::system_clock::time_point at);

/// The event a source builds from one message of its transport: `source` = the EventSource's
/// name, `type` = the source kind (`webhook`), `subject` = the event's name, `data` = the
/// kind's payload (JSON), the time now and `id` (by default a new one, new_event_id).
event make_event(std::string source, std::string type, std::string subject, std::string data,
                 std::string id = new_event_id());

/// The event rendered as structured-mode CloudEvent JSON.
std::string to_json(const event& e);

} // namespace ganglion::core

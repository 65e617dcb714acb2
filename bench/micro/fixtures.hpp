#pragma once

// Shared fixtures of the micro benchmarks: a corpus of eight webhook event payloads (the `data`
// of an Argo webhook event, 275–1393 bytes), the corpus parsed as the sensor parses it, the
// benchmark sensor manifest, and the process's resident set size.
//
// Every body of the corpus has the same few fields, so one set of filters passes them all:
// `action` (a string matched by pipeline_action_regex), `sender.id` (> 0), `sender.site_admin`
// (false) and `labels.0.name`.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "ganglion/core/event.hpp"
#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::bench {

/// The eventSourceName (CloudEvent source) of every corpus event.
inline constexpr std::string_view corpus_source = "bench";
/// The eventName (CloudEvent subject) of the corpus events.
inline constexpr std::string_view corpus_event_name = "webhook";
/// The event time of every corpus event.
inline constexpr std::string_view corpus_time = "2024-05-01T12:13:14.123456789Z";

/// The corpus payloads.
const std::vector<std::string>& corpus_data();

/// The corpus as CloudEvents: source corpus_source, subject corpus_event_name, type `webhook`.
const std::vector<core::event_ptr>& corpus_events();

/// A new event with the data of corpus entry `index % size` and the given subject.
core::event_ptr corpus_event(std::size_t index, std::string subject);

/// The bytes of `count` corpus payloads taken round-robin from the first.
std::int64_t corpus_bytes(std::int64_t count);

/// Steps an index over [0, size) round-robin.
inline std::size_t next_index(std::size_t index, std::size_t size) noexcept {
  return index + 1 == size ? 0 : index + 1;
}

/// The corpus events with their data parsed once, each by a parser of its own, as the sensor
/// core sees them.
class parsed_corpus {
public:
  parsed_corpus();
  const std::vector<dsl::event_view>& views() const noexcept { return views_; }
  std::size_t size() const noexcept { return views_.size(); }

private:
  std::vector<std::unique_ptr<simdjson::dom::parser>> parsers_;
  std::vector<dsl::event_view> views_;
};

/// The regex of the pipeline's string data filter on `body.action`.
inline constexpr std::string_view pipeline_action_regex =
  "opened|push|merge|succeeded|tick|ObjectCreated|reading|completed";

/// A Sensor manifest with one dependency on (corpus_source, `event_name`) and one log trigger;
/// with `with_filters`, the dependency has the pipeline's three data filters (string regex,
/// number >, bool) and one expr filter over two fields.
std::string sensor_yaml(std::string_view name, std::string_view event_name, bool with_filters);

/// The one Sensor of `yaml`; throws std::runtime_error with the diagnostics when it does not load
/// cleanly.
dsl::sensor load_sensor(const std::string& yaml);

/// The filters of the pipeline sensor's dependency, as loaded from its manifest.
const dsl::dependency_filter& pipeline_filters();

/// The resident set size of the process in KiB (/proc/self/statm).
std::int64_t rss_kb();

} // namespace ganglion::bench

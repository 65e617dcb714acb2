// Fuzzes the data of a `kafka` event (transports/kafka/src/source/event_data.cpp): a record
// with fuzzed topic, key, value (either possibly null), partition, offset, headers and timestamp
// (any int64: INT64_MIN, INT64_MAX, -1 and the rest), with jsonBody on and off. Proves that no
// record crashes or trips a sanitizer, that the data is always JSON (its structure: invalid
// UTF-8 in a jsonBody value is kept, as Go does), and that only a jsonBody value that is not
// JSON is refused.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "ganglion/kafka/internal/event_data.hpp"
#include "json_shape.hpp"

namespace {

/// A timestamp: the edges of int64 and Kafka's "none" often, any other value otherwise.
std::int64_t take_timestamp(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0: return std::numeric_limits<std::int64_t>::min();
    case 1: return std::numeric_limits<std::int64_t>::max();
    case 2: return -1;
    default: return in.ConsumeIntegral<std::int64_t>();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace kafka = ganglion::kafka::detail;
  FuzzedDataProvider in(data, size);
  bool json_body = in.ConsumeBool();
  std::string topic = in.ConsumeRandomLengthString(64);
  bool null_key = in.ConsumeBool();
  std::string key = in.ConsumeRandomLengthString(64);
  std::vector<std::string> header_text;
  for (int n = in.ConsumeIntegralInRange(0, 6); n > 0; --n) {
    header_text.push_back(in.ConsumeRandomLengthString(32));
    header_text.push_back(in.ConsumeRandomLengthString(32));
  }
  std::map<std::string, std::string> metadata;
  for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n)
    metadata[in.ConsumeRandomLengthString(16)] = in.ConsumeRandomLengthString(16);
  kafka::record_view record;
  record.topic = topic;
  record.partition = in.ConsumeIntegral<std::int32_t>();
  record.offset = in.ConsumeIntegral<std::int64_t>();
  record.timestamp_ms = take_timestamp(in);
  for (std::size_t i = 0; i + 1 < header_text.size(); i += 2)
    record.headers.emplace_back(header_text[i], header_text[i + 1]);
  if (!null_key)
    record.key = key;
  bool null_value = in.ConsumeBool();
  std::string value = in.ConsumeRemainingBytesAsString();
  if (!null_value)
    record.value = value;

  (void)kafka::event_id("source", "event", "broker-1:9092,broker-2:9092", topic, record.partition,
                        record.offset);
  (void)kafka::go_time_string(record.timestamp_ms);
  std::string error;
  auto out = kafka::event_data(record, json_body, metadata, error);
  if (!out) {
    if (!json_body || null_value || error.empty())
      __builtin_trap(); // only a jsonBody value that is not JSON may be refused
    return 0;
  }
  if (!ganglion::fuzz::is_json_shaped(*out))
    __builtin_trap(); // the event data is not JSON
  return 0;
}

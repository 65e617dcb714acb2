// Fuzzes the data of a `nats` event (transports/nats/src/source/event_data.cpp): fuzzed subject,
// payload, headers (several values a name) and metadata, with jsonBody on and off. Proves that
// no message crashes or trips a sanitizer, that the data is always JSON (its structure: invalid
// UTF-8 in a jsonBody payload is kept, as Go does), and that only a jsonBody payload that is
// not JSON is refused.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>

#include "source/event_data.hpp"
#include "json_shape.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  bool json_body = in.ConsumeBool();
  std::string subject = in.ConsumeRandomLengthString(64);
  ganglion::nats::header_map headers;
  for (int n = in.ConsumeIntegralInRange(0, 6); n > 0; --n) {
    auto name = in.ConsumeRandomLengthString(32);
    headers[name].push_back(in.ConsumeRandomLengthString(32));
  }
  std::map<std::string, std::string> metadata;
  for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n)
    metadata[in.ConsumeRandomLengthString(16)] = in.ConsumeRandomLengthString(16);
  std::string payload = in.ConsumeRemainingBytesAsString();

  std::string error;
  auto out = ganglion::nats::nats_event_data(subject, payload, headers, json_body, metadata, error);
  if (!out) {
    if (!json_body || error.empty())
      __builtin_trap(); // only a jsonBody payload that is not JSON may be refused
    return 0;
  }
  if (!ganglion::fuzz::is_json_shaped(*out))
    __builtin_trap(); // the event data is not JSON
  (void)ganglion::nats::base64(payload);
  return 0;
}

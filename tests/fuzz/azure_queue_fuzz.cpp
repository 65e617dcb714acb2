// Fuzzes what the azureQueueStorage source reads from Azure (transports/azure/src/client/
// queue_xml.cpp: a Get Messages answer, an error answer) and the event data it builds from each
// message (src/source/queue_event_data.cpp), with jsonBody and decodeMessage on and off. Proves
// that no answer crashes or trips a sanitizer, that a refused answer is refused with a reason,
// that the data is always JSON, and that only decodeMessage or jsonBody refuse a message.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <fuzzer/FuzzedDataProvider.h>

#include "client/queue_xml.hpp"
#include "json_shape.hpp"
#include "source/queue_event_data.hpp"

using namespace ganglion::azure::detail;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  queue_data_options options;
  options.json_body = in.ConsumeBool();
  options.decode_message = in.ConsumeBool();
  if (in.ConsumeBool())
    options.metadata[in.ConsumeRandomLengthString(16)] = in.ConsumeRandomLengthString(16);
  std::string xml = in.ConsumeRemainingBytesAsString();

  (void)parse_storage_error(xml);
  std::vector<queue_message> messages;
  try {
    messages = parse_queue_messages(xml);
  } catch (const std::runtime_error& e) {
    if (std::string{e.what()}.empty())
      __builtin_trap(); // refused without a reason
    return 0;
  }
  for (const auto& m : messages) {
    std::string error;
    auto out = queue_event_data(m, options, error);
    if (!out) {
      if ((!options.json_body && !options.decode_message) || error.empty())
        __builtin_trap(); // only jsonBody or decodeMessage may refuse a message
      continue;
    }
    if (!ganglion::fuzz::is_json_shaped(*out))
      __builtin_trap(); // the event data is not JSON
  }
  return 0;
}

// Fuzzes the decoding of an event received from a bus (actors/src/base/event_codec.cpp): the
// bytes of a JetStream message, a Kafka bus record's value or an embedded log record's payload
// all go through core::decode_event. Proves that no bytes crash or trip a sanitizer, and that
// whatever decodes encodes back to exactly the same bytes (the codec has one encoding).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ganglion/core/event_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  ganglion::core::event e;
  if (!ganglion::core::decode_event(bytes, e))
    return 0;
  if (ganglion::core::encoded_size(e) != bytes.size())
    __builtin_trap();
  std::string again;
  ganglion::core::encode_event(e, again);
  if (again != bytes)
    __builtin_trap(); // a decoded event does not encode back to its bytes
  return 0;
}

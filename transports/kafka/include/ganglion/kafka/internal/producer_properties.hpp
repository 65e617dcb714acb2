#pragma once

// Not installed: the librdkafka properties of a kafka trigger's producer (tests check them).

#include <map>
#include <string>

#include "ganglion/kafka/spec.hpp"
#include "ganglion/kafka/kafka_trigger.hpp"

namespace ganglion::kafka::detail {

/// `acks` (`all` for requiredAcks -1 and for 0, which Argo reads as unset), `linger.ms`,
/// `message.timeout.ms`, and `compression.codec` `snappy` when `compress` is set and this
/// librdkafka has snappy (else a warning naming `client`, and no compression).
std::map<std::string, std::string> producer_properties(const trigger_spec& spec,
                                                       const trigger_options& options,
                                                       const std::string& client);

} // namespace ganglion::kafka::detail

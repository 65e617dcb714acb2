#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ganglion/core/trigger.hpp"

namespace ganglion::kafka {

/// Settings of `kafka` triggers that no manifest field carries.
struct trigger_options {
  /// librdkafka's message.timeout.ms: how long a message may wait for the brokers (they are
  /// retried meanwhile) before its execution fails.
  std::chrono::milliseconds message_timeout{30000};
  /// librdkafka's linger.ms: how long a message may wait to share a batch.
  std::chrono::milliseconds linger{5};
};

/// The `kafka` trigger (`template.kafka`): produces the resolved payload to the topic, one
/// producer per trigger; an execution ends with the broker's acknowledgement. See README.md.
core::trigger_factory make_kafka_trigger_factory(trigger_options options = {});

/// The kafka trigger's check step (also run when an executor is created): template.kafka with a
/// payload, secureHeaders from secrets, parameters that compile and, when no parameter rewrites
/// the message, a topic and partition it can be sent to. Reads no secret, connects to nothing.
std::vector<std::string> check_kafka_trigger(const core::trigger_context& ctx);

} // namespace ganglion::kafka

#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::amqp {

/// Settings of the amqp transport (the same for every source).
struct options {
  /// basic.qos prefetch: deliveries the broker sends before the first is acknowledged (what is
  /// in flight between the queue and the bus). Not used with autoAck.
  std::uint16_t prefetch = 256;
  /// How long one TCP connect, TLS handshake, login or declare may take.
  std::chrono::milliseconds connect_timeout{5000};
  /// First wait before messages the bus refused are handed back to the broker (basic.nack,
  /// requeue) and redelivered; it doubles while the bus keeps refusing, up to the maximum.
  std::chrono::milliseconds min_refused_delay{100};
  std::chrono::milliseconds max_refused_delay{5000};
  /// How long a stopping source waits for the bus's answers to acknowledge what it accepted.
  std::chrono::milliseconds stop_grace{2000};
};

/// The `amqp` source: declares `exchangeName` (`exchangeType`) and the queue, binds them with
/// `routingKey`, consumes and publishes each message as a CloudEvent of type `amqp` with Argo's
/// AMQPEventData. Each message is acknowledged once the bus accepted its event; one the bus
/// refused goes back to the queue (basic.nack, requeue) after a delay. Connects in the
/// background (Pending until the consumer is set up) and reconnects after a loss with
/// `connectionBackoff`; when that many attempts in a row fail the source fails (ctx.fail).
/// Throws core::source_error for a spec that cannot run (missing secret, bad filter).
core::source_factory make_source_factory(options opts = {});

/// The amqp source's check step (also run when a source starts): the event exists with one of
/// url and urlSecret, routingKey, exchangeType and exchangeName. Reads no secret, connects to
/// nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// Registers the `amqp` source.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

} // namespace ganglion::amqp

#pragma once

#include <memory>
#include <string>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::http {
class client;
struct runtime;
} // namespace ganglion::http

namespace ganglion::azure {

/// Settings of the Azure transport.
struct options {
  /// `http://HOST:PORT` or `https://HOST:PORT` that receives every Azure REST request instead
  /// of `https://<namespace host>` (emulators, tests); the SAS tokens still name the Azure
  /// resource. Empty: Azure itself (`--azure-endpoint`).
  std::string endpoint;
};

/// The `azureEventHubs` trigger: POSTs the payload to `https://<fqdn>/<hubName>/messages` with
/// a SAS token from sharedAccessKeyName / sharedAccessKey; succeeds on HTTP 201.
core::trigger_factory make_event_hubs_trigger_factory(std::shared_ptr<http::client> requests,
                                                      options opts = {});

/// The `azureServiceBus` trigger: POSTs the payload to
/// `https://<namespace>/<queueName|topicName>/messages` with a SAS token from the connection
/// string; succeeds on HTTP 201.
core::trigger_factory make_service_bus_trigger_factory(std::shared_ptr<http::client> requests,
                                                       options opts = {});

/// The `azureEventsHub` and `azureServiceBus` sources: read and checked as Argo does, then
/// refused at validate and run with the reason (Argo consumes them over AMQP 1.0).
void register_refused_sources(core::source_registry& sources);

/// Registers the Azure triggers and the refused sources.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts = {});

/// `--azure-endpoint URL` (run, validate, test).
core::command_options command_options();

/// The options from the command line's values.
options options_from(const core::option_values& values);

} // namespace ganglion::azure

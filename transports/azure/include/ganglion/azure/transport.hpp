#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

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
  /// The azureQueueStorage source: how long one REST call may take.
  std::chrono::milliseconds request_timeout{30000};
  /// First wait before a failed Get Messages is made again (or a message the bus refused is
  /// offered again); doubles up to `max_retry_delay`.
  std::chrono::milliseconds min_retry_delay{1000};
  /// Longest wait between two attempts.
  std::chrono::milliseconds max_retry_delay{30000};
  /// How long the queue may keep failing before the source fails with the reason (the engine
  /// restarts it with backoff, phase Error).
  std::chrono::milliseconds lost_after{60000};
  /// How long a received message stays invisible to other receivers (Argo's 120 s).
  std::chrono::seconds visibility_timeout{120};
  /// The shortest pause after an empty receive (`waitTimeInSeconds` of 0 or less).
  std::chrono::milliseconds min_empty_wait{100};
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

/// The `azureQueueStorage` source: Get Messages (10 at a time, visibility 120 s, as Argo) on its
/// own thread, a pause of `waitTimeInSeconds` after an empty receive, each message published as
/// a CloudEvent of type `azureQueueStorage` with Argo's data
/// `{"body":…,"messageID":…,"insertionTime":…,"metadata":…}` and deleted only once the bus
/// accepted (or the filter dropped) it; one the bus refuses is offered again after a backoff
/// while it is invisible, then left to the queue. Authorized by the connection string's
/// AccountKey (Shared Key) or SharedAccessSignature, on `requests`.
core::source_factory make_queue_storage_source_factory(std::shared_ptr<http::client> requests,
                                                       options opts = {});

/// The azureQueueStorage source's check step: the rules of its spec, a connection string
/// (Azure AD is not run), the queue's name. Reads no secret.
std::vector<std::string> check_queue_storage_source(const core::source_context& ctx);

/// The `azureEventsHub` and `azureServiceBus` sources: read and checked as Argo does, then
/// refused at validate and run with the reason (Argo consumes them over AMQP 1.0).
void register_refused_sources(core::source_registry& sources);

/// Registers the Azure triggers, the azureQueueStorage source and the refused sources.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts = {});

/// `--azure-endpoint URL` (run, validate, test).
core::command_options command_options();

/// The options from the command line's values.
options options_from(const core::option_values& values);

} // namespace ganglion::azure

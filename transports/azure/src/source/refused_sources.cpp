// The `azureEventsHub` and `azureServiceBus` sources: read and checked as Argo does (their
// rules left dsl with them), then refused at validate and run, at the event, with the reason
// and what to use instead (docs/compatibility.md, "azureEventsHub and azureServiceBus").

#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/kind_check.hpp"

namespace ganglion::azure {

namespace {

constexpr const char* events_hub_refusal =
  "not run by ganglion: Argo reads Event Hubs over AMQP 1.0 (message-id, partition key) and no "
  "AMQP 1.0 client is packaged for Debian 12; Event Hubs' Kafka endpoint does not carry the "
  "AMQP message-id Argo's event data holds, so the kafka source would not be faithful; read "
  "the hub with a kafka event source (its own event data) or bridge it through a generic event "
  "source (your own gRPC service, docs/signals.md) — see docs/compatibility.md";

constexpr const char* service_bus_refusal =
  "not run by ganglion: Argo reads Service Bus over AMQP 1.0 and no AMQP 1.0 client is "
  "packaged for Debian 12 (Service Bus has no Kafka endpoint); bridge it through a generic "
  "event source (your own gRPC service, docs/signals.md) — see docs/compatibility.md";

template <class Model>
core::source_factory refused(const char* why, dsl::kind_spec spec) {
  auto check = [why](const core::source_context& ctx) {
    return core::check_spec<Model>(ctx,
                                   [why](const Model&) { return std::vector<std::string>{why}; });
  };
  auto create = [why](const core::source_context&) -> std::unique_ptr<core::source> {
    throw core::source_error(why);
  };
  return {std::move(create), std::move(check), std::move(spec)};
}

} // namespace

void register_refused_sources(core::source_registry& sources) {
  sources["azureEventsHub"] =
    refused<events_hub_source_spec>(events_hub_refusal, events_hub_source_spec_step());
  sources["azureServiceBus"] =
    refused<service_bus_source_spec>(service_bus_refusal, service_bus_source_spec_step());
}

} // namespace ganglion::azure

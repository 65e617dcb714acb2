#include "ganglion/azure/transport.hpp"

#include "ganglion/http/transport.hpp"

namespace ganglion::azure {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http, options opts) {
  triggers["azureEventHubs"] = make_event_hubs_trigger_factory(http->requests, opts);
  triggers["azureServiceBus"] = make_service_bus_trigger_factory(http->requests, opts);
  sources["azureQueueStorage"] = make_queue_storage_source_factory(http->requests, opts);
  register_refused_sources(sources);
}

core::command_options command_options() {
  core::command_option endpoint;
  endpoint.flag = "--azure-endpoint";
  endpoint.help = "http(s)://HOST:PORT that receives the Azure triggers' REST requests instead "
                  "of https://<namespace host> (emulators, tests; default: Azure)";
  endpoint.commands = {"run", "validate", "test"};
  return {endpoint};
}

options options_from(const core::option_values& values) {
  options out;
  out.endpoint = values.value("--azure-endpoint");
  return out;
}

} // namespace ganglion::azure

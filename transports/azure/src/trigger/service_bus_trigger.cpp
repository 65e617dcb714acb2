// The `azureServiceBus` trigger: Service Bus' REST "Send Message" to a queue or topic, with the
// SAS of the connection string (Argo sends the same body over AMQP with azservicebus).

#include <stdexcept>

#include <fmt/format.h>

#include "client/connection_string.hpp"
#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "trigger/rest_send.hpp"

namespace ganglion::azure {

namespace {

/// Argo's choice: the queue when one is named, else the topic.
const std::string& entity_of(const service_bus_trigger_spec& spec) {
  return spec.queue_name.empty() ? spec.topic_name : spec.queue_name;
}

const char* entity_field(const service_bus_trigger_spec& spec) {
  return spec.queue_name.empty() ? "azureServiceBus.topicName" : "azureServiceBus.queueName";
}

std::vector<std::string> check_service_bus(const core::trigger_context& ctx) {
  return core::check_spec<service_bus_trigger_spec>(ctx, [](const auto& spec) {
    std::vector<std::string> problems;
    if (!spec.connection_string)
      problems.emplace_back("azureServiceBus.connectionString is required");
    if (entity_of(spec).empty())
      problems.emplace_back("neither queue name nor topic name is specified");
    else
      try {
        detail::check_entity_name(entity_of(spec), entity_field(spec));
      } catch (const core::trigger_error& e) {
        problems.emplace_back(e.what());
      }
    return problems;
  });
}

} // namespace

core::trigger_factory make_service_bus_trigger_factory(std::shared_ptr<http::client> requests,
                                                       options opts) {
  auto create = [requests = std::move(requests), opts](const core::trigger_context& ctx) {
    const auto& spec = core::spec_of<service_bus_trigger_spec>(ctx);
    const auto& entity = entity_of(spec);
    detail::connection_string cs;
    try {
      cs = detail::parse_connection_string(core::read_trigger_secret(
        ctx, *spec.connection_string, "azureServiceBus.connectionString"));
    } catch (const std::invalid_argument& e) {
      throw core::trigger_error(fmt::format("azureServiceBus.connectionString: {}", e.what()));
    }
    detail::rest_target target;
    target.url = fmt::format("{}/{}/messages", detail::base_url(opts.endpoint, cs.host), entity);
    target.resource_uri = fmt::format("https://{}/{}", cs.host, entity);
    target.key_name = cs.shared_access_key_name;
    target.key = cs.shared_access_key;
    target.fixed_token = cs.shared_access_signature;
    // Argo's message has no ContentType: no header (an empty value keeps libcurl from adding
    // its form type).
    target.headers.emplace_back("Content-Type", "");
    if (spec.tls)
      target.tls = detail::read_tls(ctx, *spec.tls);
    return detail::make_rest_executor(requests, std::move(target));
  };
  return {std::move(create), check_service_bus, service_bus_trigger_spec_step()};
}

} // namespace ganglion::azure

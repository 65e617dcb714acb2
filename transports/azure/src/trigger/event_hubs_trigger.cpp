// The `azureEventHubs` trigger: Event Hubs' REST "Send event" with a SAS token made from the
// trigger's shared access key (Argo sends the same bytes over AMQP with azure-event-hubs-go).

#include <fmt/format.h>

#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "trigger/rest_send.hpp"

namespace ganglion::azure {

namespace {

/// The REST API's content type for a single event (learn.microsoft.com, "Send event").
constexpr const char* event_content_type = "application/atom+xml;type=entry;charset=utf-8";

std::vector<std::string> check_event_hubs(const core::trigger_context& ctx) {
  return core::check_spec<event_hubs_trigger_spec>(ctx, [](const auto& spec) {
    std::vector<std::string> problems;
    if (spec.fqdn.empty())
      problems.emplace_back("azureEventHubs.fqdn is required");
    if (spec.hub_name.empty())
      problems.emplace_back("azureEventHubs.hubName is required");
    if (!spec.shared_access_key_name || !spec.shared_access_key)
      problems.emplace_back(
        "azureEventHubs.sharedAccessKeyName and azureEventHubs.sharedAccessKey are required");
    try {
      if (!spec.fqdn.empty())
        detail::check_host(spec.fqdn, "azureEventHubs.fqdn");
      if (!spec.hub_name.empty())
        detail::check_entity_name(spec.hub_name, "azureEventHubs.hubName");
    } catch (const core::trigger_error& e) {
      problems.emplace_back(e.what());
    }
    return problems;
  });
}

} // namespace

core::trigger_factory make_event_hubs_trigger_factory(std::shared_ptr<http::client> requests,
                                                      options opts) {
  auto create = [requests = std::move(requests), opts](const core::trigger_context& ctx) {
    const auto& spec = core::spec_of<event_hubs_trigger_spec>(ctx);
    detail::rest_target target;
    target.url = fmt::format("{}/{}/messages?timeout=60&api-version=2014-01",
                             detail::base_url(opts.endpoint, spec.fqdn), spec.hub_name);
    target.resource_uri = fmt::format("https://{}/{}", spec.fqdn, spec.hub_name);
    target.key_name = core::read_trigger_secret(ctx, *spec.shared_access_key_name,
                                                "azureEventHubs.sharedAccessKeyName");
    target.key =
      core::read_trigger_secret(ctx, *spec.shared_access_key, "azureEventHubs.sharedAccessKey");
    target.headers.emplace_back("Content-Type", event_content_type);
    return detail::make_rest_executor(requests, std::move(target));
  };
  return {std::move(create), check_event_hubs, event_hubs_trigger_spec_step()};
}

} // namespace ganglion::azure

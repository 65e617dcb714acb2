#include "source/hook_targets.hpp"

namespace ganglion::github::detail {

namespace {

http::hook_target target(std::string name, std::string scope, std::shared_ptr<const hooks_api> api,
                         const hook_config& config) {
  http::hook_target out;
  out.name = std::move(name);
  out.ensure = [api, scope, config] {
    for (const auto& h : api->list(scope))
      if (same_hook(h, config.url, config.events))
        return std::to_string(h.id);
    return std::to_string(api->create(scope, config));
  };
  out.remove = [api, scope](const std::string& id) { api->remove(scope, std::stoll(id)); };
  return out;
}

} // namespace

hook_config hook_config_of(const event_spec& spec, const std::string& secret) {
  hook_config out;
  auto url = spec.webhook.url;
  while (url.ends_with('/'))
    url.pop_back();
  auto endpoint = spec.webhook.endpoint;
  if (!endpoint.starts_with('/'))
    endpoint.insert(endpoint.begin(), '/');
  out.url = url + endpoint;
  out.content_type = spec.content_type;
  out.insecure = spec.insecure;
  out.secret = secret;
  out.events = spec.events;
  out.active = spec.active;
  return out;
}

std::vector<http::hook_target> hook_targets(const event_spec& spec,
                                            std::shared_ptr<const hooks_api> api,
                                            const hook_config& config) {
  std::vector<http::hook_target> out;
  for (const auto& org : spec.organizations)
    out.push_back(target("organization " + org, hooks_api::org_scope(org), api, config));
  for (const auto& repo : spec.owned())
    for (const auto& name : repo.names)
      out.push_back(target("repository " + repo.owner + "/" + name,
                           hooks_api::repo_scope(repo.owner, name), api, config));
  return out;
}

} // namespace ganglion::github::detail

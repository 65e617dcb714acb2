#include <fmt/format.h>

#include "client/hooks_api.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/gitlab/transport.hpp"
#include "ganglion/http/push_source.hpp"
#include "source/delivery.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gitlab {

namespace {

http::hook_target target(std::string name, std::string scope,
                         std::shared_ptr<const detail::hooks_api> api, std::string url,
                         std::string body) {
  http::hook_target out;
  out.name = std::move(name);
  out.ensure = [api, scope, url, body] {
    for (const auto& h : api->list(scope))
      if (h.url == url)
        return std::to_string(h.id);
    return std::to_string(api->add(scope, body));
  };
  out.remove = [api, scope](const std::string& id) { api->remove(scope, std::stoll(id)); };
  return out;
}

/// Groups first, then projects (Argo's order).
std::vector<http::hook_target> targets(const event_spec& spec,
                                       const std::shared_ptr<const detail::hooks_api>& api,
                                       const detail::hook_request& hook) {
  std::vector<http::hook_target> out;
  auto group_body = detail::group_hook_body(hook);
  auto project_body = detail::project_hook_body(hook);
  for (const auto& g : spec.groups)
    out.push_back(
      target("group " + g, detail::hooks_api::group_scope(g), api, hook.url, group_body));
  for (const auto& p : spec.project_list())
    out.push_back(
      target("project " + p, detail::hooks_api::project_scope(p), api, hook.url, project_body));
  return out;
}

/// Argo's FormattedURL: `url` without trailing `/`, then the endpoint with a leading `/`.
std::string formatted_url(std::string url, std::string endpoint) {
  while (url.ends_with('/'))
    url.pop_back();
  if (!endpoint.starts_with('/'))
    endpoint.insert(endpoint.begin(), '/');
  return url + endpoint;
}

std::unique_ptr<core::source> start(const std::shared_ptr<http::runtime>& rt, const options& opts,
                                    const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto at = "spec.gitlab." + ctx.event_name;
  const auto* secrets = ctx.secrets.get();
  detail::delivery_settings settings;
  if (spec.secret_token)
    settings.secret_token = core::read_secret_or_throw<core::source_error>(
      secrets, *spec.secret_token, at + ".secretToken");
  settings.metadata = spec.metadata;
  auto out = std::make_unique<http::hooked_source>();
  http::push_route route{spec.webhook, [settings](const http::request& request) {
                           return detail::handle_delivery(request, settings);
                         }};
  out->route = http::start_push_source(*rt, ctx, std::move(route));
  if (spec.need_to_create_hooks()) {
    auto token = core::read_secret_or_throw<core::source_error>(secrets, *spec.access_token,
                                                                at + ".accessToken");
    auto api = std::make_shared<const detail::hooks_api>(
      http::hook_api_client{rt->requests, http::read_ca_pem(opts.ca_file), opts.api_timeout},
      detail::api_root(spec.gitlab_base_url), token);
    detail::hook_request hook{formatted_url(spec.webhook.url, spec.webhook.endpoint),
                              spec.enable_ssl_verification, spec.events, settings.secret_token};
    auto name = fmt::format("gitlab source {}/{}", ctx.event_source_name, ctx.event_name);
    out->hooks = std::make_unique<http::hook_keeper>(name, targets(spec, api, hook),
                                                     spec.delete_hook_on_finish, ctx.fail,
                                                     ctx.give_up, opts.hooks);
  }
  return out;
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx,
                                      [](const event_spec&) { return std::vector<std::string>{}; });
}

core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start(rt, opts, ctx); },
          check_source, source_spec_step(rt->listen.has_value())};
}

} // namespace ganglion::gitlab

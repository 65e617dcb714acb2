#include <fmt/format.h>

#include "client/hooks_api.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/github/transport.hpp"
#include "ganglion/http/github_app.hpp"
#include "ganglion/http/push_source.hpp"
#include "source/delivery.hpp"
#include "source/hook_targets.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::github {

namespace {

/// What the hooks API calls send as `Authorization` (go-github's `token …`, an installation
/// token for an App).
std::function<std::string()> authorization(const event_spec& spec, const core::source_context& ctx,
                                           const std::string& at, const options& opts) {
  const auto* secrets = ctx.secrets.get();
  if (spec.api_token) {
    auto token =
      core::read_secret_or_throw<core::source_error>(secrets, *spec.api_token, at + ".apiToken");
    return [token] { return "token " + token; };
  }
  auto app_at = at + ".githubApp";
  http::github_app_request request;
  request.api_url = http::github_api_url(spec.github_base_url);
  if (auto problem = http::github_api_url_problem(request.api_url); !problem.empty())
    throw core::source_error(app_at + ": " + problem);
  request.app_id = spec.github_app->app_id;
  request.installation_id = spec.github_app->installation_id;
  request.private_key_pem = core::read_secret_or_throw<core::source_error>(
    secrets, *spec.github_app->private_key, app_at + ".privateKey");
  request.timeout = opts.api_timeout;
  request.ca_file = opts.ca_file;
  return [request, app_at] {
    try {
      return "token " + http::github_app_token(request, app_at);
    } catch (const http::github_app_error& e) {
      throw http::hook_error(e.what(), e.refused);
    }
  };
}

std::unique_ptr<core::source> start(const std::shared_ptr<http::runtime>& rt, const options& opts,
                                    const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto at = "spec.github." + ctx.event_name;
  detail::delivery_settings settings;
  if (spec.webhook_secret)
    settings.secret = core::read_secret_or_throw<core::source_error>(
      ctx.secrets.get(), *spec.webhook_secret, at + ".webhookSecret");
  settings.metadata = spec.metadata;
  auto out = std::make_unique<http::hooked_source>();
  http::push_route route{spec.webhook, [settings](const http::request& request) {
                           return detail::handle_delivery(request, settings);
                         }};
  out->route = http::start_push_source(*rt, ctx, std::move(route));
  if (spec.need_to_create_hooks()) {
    auto base = spec.github_base_url.empty() ? std::string{default_base_url} : spec.github_base_url;
    if (!base.ends_with('/'))
      base += '/';
    auto api = std::make_shared<const detail::hooks_api>(
      http::hook_api_client{rt->requests, http::read_ca_pem(opts.ca_file), opts.api_timeout}, base,
      authorization(spec, ctx, at, opts));
    auto config = detail::hook_config_of(spec, settings.secret);
    auto name = fmt::format("github source {}/{}", ctx.event_source_name, ctx.event_name);
    out->hooks = std::make_unique<http::hook_keeper>(name, detail::hook_targets(spec, api, config),
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

} // namespace ganglion::github

#include <mutex>
#include <set>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/webhooks_api.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/gerrit/spec.hpp"
#include "ganglion/gerrit/transport.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "ganglion/http/internal/provider_event_data.hpp"

namespace ganglion::gerrit {

namespace {

using http::registration_failure;

/// Hook `hookName` of each project, through the webhooks plugin.
class project_hooks final : public http::provider_hooks {
public:
  project_hooks(std::string name, const event_spec& spec, detail::webhooks_api api)
    : name_(std::move(name)), spec_(spec),
      api_(std::move(api)), config_{http::formatted_url(spec.webhook.url, spec.webhook.endpoint),
                                    spec.events, spec.max_tries, spec.ssl_verify} {}

  /// Argo's pass: list each project's hooks, create the one missing or pointing elsewhere.
  std::optional<registration_failure> apply() override {
    std::optional<registration_failure> failure;
    for (const auto& project : spec_.projects) {
      detail::api_result failed;
      auto url = api_.hook_url(project, spec_.hook_name, failed);
      if (url && *url == config_.url) {
        remember(project);
        continue;
      }
      if (url) {
        failed = api_.create(project, spec_.hook_name, config_);
        if (failed.error.empty()) {
          spdlog::info("{}: Gerrit hook {} registered on project {}", name_, spec_.hook_name,
                       project);
          remember(project);
          continue;
        }
      }
      spdlog::warn("{}: Gerrit hook of project {} not registered: {}", name_, project,
                   failed.error);
      bool refused = failed.status == 401 || failed.status == 403;
      failure =
        registration_failure{"Gerrit hook of project " + project + ": " + failed.error, refused};
      if (refused)
        break;
    }
    return failure;
  }

  void remove() override {
    std::set<std::string> projects;
    {
      std::lock_guard lock{mutex_};
      projects.swap(registered_);
    }
    for (const auto& project : projects) {
      auto r = api_.remove(project, spec_.hook_name);
      if (r.error.empty())
        spdlog::info("{}: Gerrit hook deleted for project {}", name_, project);
      else
        spdlog::warn("{}: Gerrit hook of project {} not deleted: {}", name_, project, r.error);
    }
  }

private:
  void remember(const std::string& project) {
    std::lock_guard lock{mutex_};
    registered_.insert(project);
  }

  std::string name_;
  event_spec spec_;
  detail::webhooks_api api_;
  detail::hook_config config_;
  std::mutex mutex_;
  std::set<std::string> registered_;
};

std::unique_ptr<core::source> start_source(const std::shared_ptr<http::runtime>& rt,
                                           const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto name = fmt::format("gerrit source {}/{}", ctx.event_source_name, ctx.event_name);
  std::shared_ptr<project_hooks> hooks;
  if (spec.need_to_create_hooks()) {
    auto user = core::read_secret_or_throw<core::source_error>(
      ctx.secrets.get(), *spec.auth->username, "auth.username");
    auto password = core::read_secret_or_throw<core::source_error>(
      ctx.secrets.get(), *spec.auth->password, "auth.password");
    hooks = std::make_shared<project_hooks>(
      name, spec,
      detail::webhooks_api(*rt->requests, spec.gerrit_base_url, std::move(user),
                           std::move(password), opts.request_timeout));
  } else {
    spdlog::info("{}: no need to create hooks (auth and webhook.url are needed)", name);
  }
  http::push_route route{spec.webhook,
                         [metadata = spec.metadata](const http::request& req) {
                           return http::detail::provider_push_outcome(req, metadata);
                         },
                         false};
  return http::start_hooked_source(*rt, ctx, std::move(route), std::move(hooks),
                                   {.recheck = opts.recheck,
                                    .first_retry = opts.first_retry,
                                    .max_retry = opts.max_retry,
                                    .first_delay = opts.first_delay,
                                    .attempts = opts.attempts},
                                   spec.delete_hook_on_finish);
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = fmt::format("gerrit source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.projects.empty())
      problems.push_back(name + ": projects cannot be empty");
    if (spec.gerrit_base_url.empty())
      problems.push_back(name + ": gerrit base url can't be empty");
    if (!spec.auth || !spec.auth->username || !spec.auth->password)
      problems.push_back(name + ": username and password can't be empty");
    return problems;
  });
}

core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start_source(rt, opts, ctx); },
          check_source, source_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::gerrit

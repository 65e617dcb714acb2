#include <map>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/cloud_api.hpp"
#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/bitbucket/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "ganglion/http/internal/provider_event_data.hpp"

namespace ganglion::bitbucket {

namespace {

using http::registration_failure;

std::string repo_name(const repository& repo) {
  return repo.owner + "/" + repo.repository_slug;
}

/// A hook on each repository, through API 2.0.
class repository_hooks final : public http::provider_hooks {
public:
  repository_hooks(std::string name, const event_spec& spec, detail::cloud_api api)
    : name_(std::move(name)), repositories_(spec.bitbucket_repositories()), events_(spec.events),
      url_(http::formatted_url(spec.webhook.url, spec.webhook.endpoint)), api_(std::move(api)) {}

  /// Argo's applyBitbucketWebhook on each repository not done yet: a hook with the same URL is
  /// deleted, then the hook is created.
  std::optional<registration_failure> apply() override {
    std::optional<registration_failure> failure;
    for (const auto& repo : repositories_) {
      if (registered(repo))
        continue;
      auto error = apply(repo);
      if (!error)
        continue;
      spdlog::warn("{}: Bitbucket hook of {} not registered: {}", name_, repo_name(repo),
                   error->error);
      bool refused = error->status == 401 || error->status == 403;
      failure =
        registration_failure{"Bitbucket hook of " + repo_name(repo) + ": " + error->error, refused};
      if (refused)
        break;
    }
    return failure;
  }

  void remove() override {
    std::map<std::string, std::pair<repository, std::string>> hooks;
    {
      std::lock_guard lock{mutex_};
      hooks.swap(hook_ids_);
    }
    for (const auto& [key, hook] : hooks) {
      auto r = api_.remove(hook.first, hook.second);
      if (r.error.empty())
        spdlog::info("{}: Bitbucket hook of {} deleted", name_, key);
      else
        spdlog::warn("{}: Bitbucket hook of {} not deleted: {}", name_, key, r.error);
    }
  }

private:
  std::optional<detail::api_result> apply(const repository& repo) {
    detail::api_result failed;
    auto existing = api_.hooks(repo, failed);
    if (!existing)
      return failed;
    for (const auto& hook : *existing) {
      if (hook.url != url_)
        continue;
      if (auto r = api_.remove(repo, hook.uuid); !r.error.empty())
        return r;
      break;
    }
    auto uuid = api_.create(repo, url_, events_, failed);
    if (!uuid)
      return failed;
    spdlog::info("{}: Bitbucket hook {} registered on {}", name_, *uuid, repo_name(repo));
    std::lock_guard lock{mutex_};
    hook_ids_[repo_name(repo)] = {repo, *uuid};
    return std::nullopt;
  }

  bool registered(const repository& repo) {
    std::lock_guard lock{mutex_};
    return hook_ids_.count(repo_name(repo)) > 0;
  }

  std::string name_;
  std::vector<repository> repositories_;
  std::vector<std::string> events_;
  std::string url_;
  detail::cloud_api api_;
  std::mutex mutex_;
  std::map<std::string, std::pair<repository, std::string>> hook_ids_;
};

detail::cloud_credentials read_credentials(const event_spec& spec,
                                           const core::source_context& ctx) {
  detail::cloud_credentials out;
  const auto* secrets = ctx.secrets.get();
  if (spec.has_basic_auth()) {
    const auto& basic = *spec.auth->basic;
    out.basic = std::pair{core::read_secret_or_throw<core::source_error>(secrets, *basic.username,
                                                                         "auth.basic.username"),
                          core::read_secret_or_throw<core::source_error>(secrets, *basic.password,
                                                                         "auth.basic.password")};
  } else {
    out.bearer_token = core::read_secret_or_throw<core::source_error>(
      secrets, *spec.auth->oauth_token, "auth.oauthToken");
  }
  return out;
}

std::unique_ptr<core::source> start_source(const std::shared_ptr<http::runtime>& rt,
                                           const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto name = fmt::format("bitbucket source {}/{}", ctx.event_source_name, ctx.event_name);
  std::shared_ptr<repository_hooks> hooks;
  if (spec.should_create_webhooks())
    hooks = std::make_shared<repository_hooks>(name, spec,
                                               detail::cloud_api(*rt->requests, opts.cloud_api_url,
                                                                 read_credentials(spec, ctx),
                                                                 opts.request_timeout));
  else
    spdlog::info("{}: access token or webhook configuration were not provided, skipping "
                 "webhooks creation",
                 name);
  http::push_route route{spec.webhook,
                         [metadata = spec.metadata](const http::request& req) {
                           return http::detail::provider_push_outcome(req, metadata);
                         },
                         false};
  // Argo registers once, at start: no recheck.
  return http::start_hooked_source(*rt, ctx, std::move(route), std::move(hooks),
                                   {.recheck = std::chrono::milliseconds{0},
                                    .first_retry = opts.first_retry,
                                    .max_retry = opts.max_retry,
                                    .first_delay = opts.cloud_first_delay,
                                    .attempts = opts.attempts},
                                   spec.delete_hook_on_finish);
}

} // namespace

std::vector<std::string> check_cloud_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = fmt::format("bitbucket source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.bitbucket_repositories().empty())
      problems.push_back(name + ": at least one repository is required");
    if (spec.should_create_webhooks() && spec.events.empty())
      problems.push_back(name + ": events must be defined to create a bitbucket webhooks");
    if (!spec.auth)
      problems.push_back(name + ": auth is required");
    return problems;
  });
}

core::source_factory make_cloud_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start_source(rt, opts, ctx); },
          check_cloud_source, cloud_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::bitbucket

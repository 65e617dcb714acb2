#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/pull_requests.hpp"
#include "client/server_api.hpp"
#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/bitbucket/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/dsl/duration.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "source/server_request.hpp"

namespace ganglion::bitbucket {

namespace {

using http::registration_failure;

std::string repo_key(const server_repository& repo) {
  return repo.project_key + "/" + repo.repository_slug;
}

/// Argo's sharedutil.ElementsMatch: the same strings, as many times each, in any order.
bool same_elements(std::vector<std::string> a, std::vector<std::string> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

/// Argo's hook on each repository (and each repository of `projects`), through API 1.0.
class server_hooks final : public http::provider_hooks {
public:
  server_hooks(std::string name, const server_spec& spec, std::string secret,
               detail::server_api api)
    : name_(std::move(name)), spec_(spec), secret_(std::move(secret)), api_(std::move(api)),
      url_(http::formatted_url(spec.webhook.url, spec.webhook.endpoint)),
      body_(detail::server_hook_body(url_, spec.events, secret_)) {}

  /// Argo's applyBitbucketServerWebhooks: each repository gets the hook, created, or updated
  /// when its events or secret changed.
  std::optional<registration_failure> apply() override {
    auto repositories = spec_.bitbucket_repositories();
    for (const auto& project : spec_.projects) {
      detail::server_result failed;
      auto listed = api_.repositories(project, failed);
      if (!listed)
        return failure(failed, "getting the repositories of project " + project);
      repositories.insert(repositories.end(), listed->begin(), listed->end());
    }
    std::optional<registration_failure> out;
    for (const auto& repo : repositories) {
      auto failed = apply(repo);
      if (!failed)
        continue;
      out = failure(*failed, "Bitbucket Server hook of " + repo_key(repo));
      if (out->permanent)
        break;
    }
    return out;
  }

  void remove() override {
    std::map<std::string, std::pair<server_repository, long>> ids;
    {
      std::lock_guard lock{mutex_};
      ids.swap(hook_ids_);
    }
    for (const auto& [key, hook] : ids) {
      auto r = api_.remove(hook.first, hook.second);
      if (r.error.empty())
        spdlog::info("{}: Bitbucket Server hook {} of {} deleted", name_, hook.second, key);
      else
        spdlog::warn("{}: Bitbucket Server hook of {} not deleted: {}", name_, key, r.error);
    }
  }

private:
  registration_failure failure(const detail::server_result& r, const std::string& what) const {
    spdlog::warn("{}: {}: {}", name_, what, r.error);
    return {what + ": " + r.error, r.status == 401 || r.status == 403};
  }

  std::optional<detail::server_result> apply(const server_repository& repo) {
    detail::server_result failed;
    auto hooks = api_.hooks(repo, failed);
    if (!hooks)
      return failed;
    auto existing =
      std::find_if(hooks->begin(), hooks->end(), [&](const auto& h) { return h.url == url_; });
    if (existing != hooks->end()) {
      remember(repo, existing->id);
      if (same_elements(existing->events, spec_.events) && existing->secret == secret_)
        return std::nullopt;
      if (auto r = api_.update(repo, existing->id, body_); !r.error.empty())
        return r;
      spdlog::info("{}: Bitbucket Server hook {} of {} updated", name_, existing->id,
                   repo_key(repo));
      return std::nullopt;
    }
    auto id = api_.create(repo, body_, failed);
    if (!id)
      return failed;
    remember(repo, *id);
    spdlog::info("{}: Bitbucket Server hook {} registered on {}", name_, *id, repo_key(repo));
    return std::nullopt;
  }

  void remember(const server_repository& repo, long id) {
    std::lock_guard lock{mutex_};
    hook_ids_[repo_key(repo)] = {repo, id};
  }

  std::string name_;
  server_spec spec_;
  std::string secret_;
  detail::server_api api_;
  std::string url_;
  std::string body_;
  std::mutex mutex_;
  std::map<std::string, std::pair<server_repository, long>> hook_ids_;
};

std::optional<http::client_tls> read_tls(const server_spec& spec, const core::secret_store* s) {
  if (!spec.tls)
    return std::nullopt;
  http::client_tls tls;
  tls.insecure_skip_verify = spec.tls->insecure_skip_verify;
  auto read = [&](const std::optional<dsl::secret_key_selector>& ref, const char* field) {
    return ref ? core::read_secret_or_throw<core::source_error>(s, *ref, field) : std::string{};
  };
  tls.ca_certificate_pem = read(spec.tls->ca_cert_secret, "tls.caCertSecret");
  tls.client_certificate_pem = read(spec.tls->client_cert_secret, "tls.clientCertSecret");
  tls.client_key_pem = read(spec.tls->client_key_secret, "tls.clientKeySecret");
  return tls;
}

std::chrono::milliseconds check_interval(const server_spec& spec) {
  auto ns = spec.check_interval.empty() ? std::nullopt
                                        : dsl::parse_go_duration(spec.check_interval);
  if (!ns || *ns <= 0)
    return std::chrono::minutes{1};
  return std::max(
    std::chrono::milliseconds{1},
    std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds{*ns}));
}

std::unique_ptr<core::source> start_source(const std::shared_ptr<http::runtime>& rt,
                                           const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<server_spec>(ctx);
  auto name = fmt::format("bitbucketserver source {}/{}", ctx.event_source_name, ctx.event_name);
  const auto* secrets = ctx.secrets.get();
  std::string secret;
  if (spec.webhook_secret) // *ganglion*: verified whenever set (Argo: only when it made the hook)
    secret = core::read_secret_or_throw<core::source_error>(secrets, *spec.webhook_secret,
                                                            "webhookSecret");
  detail::server_handling how{secret, spec.metadata, spec.one_event_per_change,
                              spec.skip_branch_refs_changed_on_open_pr, nullptr};
  std::shared_ptr<server_hooks> hooks;
  std::string token;
  if (spec.access_token)
    token =
      core::read_secret_or_throw<core::source_error>(secrets, *spec.access_token, "accessToken");
  if (spec.access_token && spec.skip_branch_refs_changed_on_open_pr) // Argo's customClient
    how.pull_requests = std::make_shared<detail::pull_request_client>(
      *rt->requests, spec.base_url, token, read_tls(spec, secrets), opts.request_timeout);
  if (spec.should_create_webhooks()) {
    hooks = std::make_shared<server_hooks>(
      name, spec, secret,
      detail::server_api(*rt->requests, spec.base_url, std::move(token), read_tls(spec, secrets),
                         opts.request_timeout));
  } else {
    spdlog::info("{}: skipping managing bitbucketserver webhooks: access token or webhook url "
                 "or projects or repositories not specified",
                 name);
  }
  http::push_route route{
    spec.webhook,
    [how = std::move(how)](const http::request& req) { return detail::server_request(req, how); },
    false};
  return http::start_hooked_source(*rt, ctx, std::move(route), std::move(hooks),
                                   {.recheck = check_interval(spec),
                                    .first_retry = opts.first_retry,
                                    .max_retry = opts.max_retry,
                                    .first_delay = opts.server_first_delay,
                                    .attempts = opts.attempts},
                                   spec.delete_hook_on_finish);
}

} // namespace

std::vector<std::string> check_server_source(const core::source_context& ctx) {
  return core::check_spec<server_spec>(ctx, [&](const server_spec& spec) {
    auto name = fmt::format("bitbucketserver source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.should_create_webhooks() && spec.events.empty())
      problems.push_back(name + ": events must be defined to create a bitbucket server webhook");
    if (spec.base_url.empty())
      problems.push_back(name + ": bitbucket server base url can't be empty");
    return problems;
  });
}

core::source_factory make_server_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start_source(rt, opts, ctx); },
          check_server_source, server_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::bitbucket

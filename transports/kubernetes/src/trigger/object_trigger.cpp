#include "trigger/object_trigger.hpp"

#include <mutex>
#include <stdexcept>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include "client/acting_identity.hpp"
#include "artifact/artifact.hpp"
#include "ganglion/core/internal/event_view.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/params/trigger_parameters.hpp"
#include "trigger/label_policy.hpp"
#include "client/shared_client.hpp"

namespace ganglion::kubernetes::detail {

namespace {

/// Executions at once: each blocks a thread on its requests and its policy wait.
constexpr std::size_t workers = 4;

/// The source of a template the trigger's `parameters[]` rewrote (`<kind>` object as JSON),
/// read and checked as loading reads the manifest's; throws std::runtime_error at the first
/// problem.
artifact_location location_of(const std::string& kind_json, const std::string& path) {
  YAML::Node source;
  try {
    source = YAML::Load(kind_json)["source"];
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
  if (!source || !source.IsMap())
    throw std::runtime_error(path + " is missing after the trigger's parameters");
  dsl::document doc;
  std::vector<dsl::diagnostic> found;
  dsl::load_options options;
  dsl::detail::load_context cx{doc, found, options};
  auto location = read_artifact_location(source, path, cx);
  check_artifact_location(location, path, cx);
  for (const auto& d : found)
    if (d.level == dsl::severity::error)
      throw std::runtime_error(fmt::format("{}: {}", d.path, d.message));
  return location;
}

class object_executor final : public core::trigger_executor {
public:
  object_executor(const core::trigger_context& ctx, const options& opts, std::string type,
                  std::shared_ptr<const artifact_location> source,
                  std::unique_ptr<object_operation> operation)
    : operation_(std::move(operation)), source_(std::move(source)) {
    const auto& manifest = *ctx.manifest;
    const auto* action = core::action_of(manifest);
    site_.type = std::move(type);
    site_.sensor = ctx.sensor_name;
    site_.sensor_namespace = ctx.sensor_namespace;
    site_.trigger = manifest.template_.name;
    source_path_ = site_.type + ".source";
    secrets_ = ctx.secrets;
    fetch_base_.data_dir = ctx.data_dir;
    fetch_base_.allow_plain_http_git = opts.allow_plain_http_git;
    fetch_base_.github_api_url = opts.github_api_url;
    fetch_base_.ca_file = opts.artifact_ca_file;
    fetch_base_.files_refused = file_source_refusal(to_string(opts.object_identity));
    if (manifest.policy && manifest.policy->k8s)
      policy_ = *manifest.policy->k8s;
    template_parameterized_ = !manifest.parameters.empty();
    if (!source_)
      throw core::trigger_error(site_.name() + ": " + source_path_ + " is required");
    try {
      own_ = dsl::compile_parameters(action->parameters, site_.type + ".parameters");
      if (template_parameterized_)
        rewritten_own_ =
          std::make_unique<dsl::rewritten_parameters>("parameters", site_.type + ".parameters");
    } catch (const std::exception& e) {
      throw core::trigger_error(fmt::format("{}: {}", site_.name(), e.what()));
    }
    std::shared_ptr<api_client> shared;
    try {
      shared = shared_client(opts);
    } catch (const std::exception& e) {
      if (!ctx.dry_run)
        throw core::trigger_error(
          fmt::format("{}: no Kubernetes API to talk to: {}", site_.name(), e.what()));
      // A dry run renders the object without the API; what only the API can give fails there.
      no_api_ = e.what();
    }
    try {
      auto identity = identity_for(opts.object_identity, std::move(shared), ctx.sensor_namespace,
                                   ctx.sensor_service_account);
      site_.client = std::move(identity.client);
      site_.acting_user = std::move(identity.user);
      site_.confined_to = std::move(identity.confined_to);
    } catch (const std::invalid_argument& e) {
      throw core::trigger_error(fmt::format("{}: cannot act as the Sensor's service account: {}",
                                            site_.name(), e.what()));
    }
    auto kind = source_->kind();
    if (!template_parameterized_
        && (kind == artifact_kind::resource || kind == artifact_kind::inline_text)) {
      try {
        fixed_object_ = fetch_artifact(*source_, fetch_options_for());
      } catch (const std::exception& e) {
        throw core::trigger_error(fmt::format("{}: {}", site_.name(), e.what()));
      }
    }
  }

  ~object_executor() override {
    sleep_.stop();
    pool_.join();
  }

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    boost::asio::post(pool_, [this, invocation, done = std::move(done)]() mutable {
      done(run(invocation));
    });
  }

  std::size_t max_concurrency() const override { return workers; }

  bool applies_own_parameters() const override { return true; }

  std::string preview(const core::trigger_invocation& invocation) override {
    nlohmann::json object;
    try {
      object = resolve(invocation);
    } catch (const std::exception& e) {
      if (no_api_.empty())
        throw;
      throw std::runtime_error(fmt::format("{} (no Kubernetes API to ask: {}; give --kubeconfig)",
                                           e.what(), no_api_));
    }
    return operation_->describe(site_, object);
  }

private:
  fetch_options fetch_options_for() const {
    fetch_options out = fetch_base_;
    out.path = source_path_;
    out.client = site_.client.get();
    out.namespace_name = site_.sensor_namespace;
    out.secrets = secrets_.get();
    return out;
  }

  /// FetchResource and ApplyResourceParameters: the object to act on.
  nlohmann::json resolve(const core::trigger_invocation& invocation) const {
    std::string text;
    if (!fixed_object_.empty()) {
      text = fixed_object_;
    } else if (template_parameterized_ && !invocation.resource_json.empty()) {
      text = fetch_artifact(location_of(invocation.resource_json, source_path_),
                            fetch_options_for());
    } else {
      text = fetch_artifact(*source_, fetch_options_for());
    }
    auto object = operation_->fetched(site_, nlohmann::json::parse(text));
    // ApplyResourceParameters with `<kind>.parameters` as the trigger's `parameters[]` left them.
    std::shared_ptr<const std::vector<dsl::compiled_parameter>> rewritten;
    if (rewritten_own_ && !invocation.resource_json.empty())
      rewritten = rewritten_own_->of(invocation.resource_json);
    const auto& own = rewritten ? *rewritten : own_;
    if (own.empty())
      return object;
    text = object.dump();
    dsl::event_views views;
    dsl::apply_parameters(text, own, views.reset(invocation.events, core::context_view));
    return nlohmann::json::parse(text);
  }

  core::trigger_outcome run(const core::trigger_invocation& invocation) const {
    if (sleep_.stopped())
      return {false, site_.name() + ": the trigger stopped before this execution", {}};
    try {
      auto result = operation_->act(site_, resolve(invocation));
      auto outcome = !policy_ || policy_->labels.empty()
                       ? core::trigger_outcome{true, {}, result.detail}
                       : apply_policy(result);
      if (!result.reference.is_null())
        outcome.result = result.reference.dump();
      std::uint64_t held_back = 0;
      if (outcome.ok && success_log_.allow(held_back))
        spdlog::info("{}: {}{}", site_.name(), result.detail,
                     core::held_back_note(held_back, "successes"));
      return outcome;
    } catch (const std::exception& e) {
      return {false, fmt::format("{}: {}", site_.name(), e.what()), {}};
    }
  }

  /// Argo's ApplyPolicy for policy.k8s.
  core::trigger_outcome apply_policy(const operation_result& result) const {
    if (result.watch_path.empty())
      return {false,
              site_.name() + ": policy.k8s: the operation left no object to watch the labels of",
              result.detail};
    std::string error;
    switch (wait_for_labels(*site_.client, result.watch_path, *policy_, sleep_, error)) {
    case label_wait::matched:
      return {true, {}, result.detail};
    case label_wait::failed:
      return {false, fmt::format("{}: policy.k8s: {}", site_.name(), error), result.detail};
    case label_wait::timed_out:
      break;
    }
    if (policy_->error_on_backoff_timeout)
      return {false,
              site_.name()
                + ": failed to determine status of the triggered resource. setting trigger "
                  "state as failed (policy.k8s labels not matched within the backoff)",
              result.detail};
    spdlog::warn("{}: policy.k8s labels not matched within the backoff ({}); "
                 "errorOnBackoffTimeout is false: the execution counts as a success",
                 site_.name(), result.detail);
    return {true, {}, result.detail};
  }

  std::unique_ptr<object_operation> operation_;
  std::shared_ptr<const artifact_location> source_;
  trigger_site site_;
  std::string source_path_;
  std::shared_ptr<const core::secret_store> secrets_;
  /// The engine's options of artifact fetching (data directory, http opt-in, GitHub API).
  fetch_options fetch_base_;
  std::optional<dsl::k8s_resource_policy> policy_;
  bool template_parameterized_ = false;
  std::vector<dsl::compiled_parameter> own_;
  /// `<kind>.parameters[]` read from each firing's rewritten template, with `parameters[]`.
  std::unique_ptr<dsl::rewritten_parameters> rewritten_own_;
  /// The object of a `resource` or `inline` source, fetched once.
  std::string fixed_object_;
  /// One info line a second names the object a success acted on (Argo's sensors log each).
  mutable core::log_throttle success_log_{std::chrono::seconds(1)};
  /// Why there is no API client (a dry run without a Kubernetes configuration); empty otherwise.
  std::string no_api_;
  mutable stoppable_sleep sleep_;
  /// Last: joined (in the destructor) before the rest goes.
  boost::asio::thread_pool pool_{workers};
};

} // namespace

std::unique_ptr<core::trigger_executor>
make_object_executor(const core::trigger_context& ctx, const options& opts, std::string type,
                     std::shared_ptr<const artifact_location> source,
                     std::unique_ptr<object_operation> operation) {
  return std::make_unique<object_executor>(ctx, opts, std::move(type), std::move(source),
                                           std::move(operation));
}

} // namespace ganglion::kubernetes::detail

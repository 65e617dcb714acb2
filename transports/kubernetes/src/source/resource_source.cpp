// The `resource` event source: a watch of one collection, reported as an informer with resync 0
// reports it to Argo's handlers.

#include "ganglion/kubernetes/resource_source.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/acting_identity.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/kubernetes/resource_spec.hpp"
#include "ganglion/kubernetes/watch.hpp"
#include "source/publish_queue.hpp"
#include "source/resource_discovery.hpp"
#include "source/resource_event_data.hpp"
#include "source/resource_filters.hpp"
#include "client/resource_selectors.hpp"
#include "source/resource_store.hpp"
#include "client/shared_client.hpp"

namespace ganglion::kubernetes {

namespace {

using detail::resource_change;

std::string name_of(const core::source_context& ctx) {
  return fmt::format("resource source {}/{}", ctx.event_source_name, ctx.event_name);
}

/// An error the watcher would retry forever that only a changed configuration or cluster
/// fixes (credentials, permissions, a resource no longer served).
bool permanent(const std::string& error) {
  for (const char* status : {"HTTP 401", "HTTP 403", "HTTP 404"})
    if (error.find(status) != std::string::npos)
      return true;
  return false;
}

/// What the watcher's handlers work on; they run on the watcher's thread, one at a time.
struct watch_state {
  watch_state(const core::source_context& ctx, const resource_event_spec& spec,
              detail::time_point start)
    : name(name_of(ctx)), event_source(ctx.event_source_name), event_name(ctx.event_name),
      spec(spec), wanted(spec.event_types.begin(), spec.event_types.end()),
      filters(spec.filter, start), fail(ctx.fail),
      metrics(ctx.metrics, ctx.event_source_name, ctx.event_name,
              {"filtered", "invalid_object", "saturated", "store_failed", "stopped"}),
      queue(ctx.bus, name, metrics) {}

  void on_list(std::vector<std::string> objects);
  void on_event(const watch_event& event);
  void on_error(const std::string& error);
  /// Publishes the changes of wanted types that pass the filters.
  void report(std::vector<resource_change> changes);

  /// Waits until the first list arrived (true) or failed (false, `why` set) or `limit` passed.
  bool wait_listed(std::chrono::milliseconds limit, std::string& why);

  std::string name;
  /// The user its calls impersonate; empty: the engine's credentials.
  std::string acting_user;
  std::string event_source;
  std::string event_name;
  resource_event_spec spec;
  std::set<std::string> wanted;
  detail::resource_filters filters;
  detail::resource_store store;
  std::function<void(const std::string&)> fail;
  core::source_counters metrics;
  detail::publish_queue queue;
  simdjson::dom::parser parser;
  core::log_throttle error_log;
  std::atomic<bool> failed{false};

  std::mutex mutex;
  std::condition_variable listed_changed;
  bool listed = false;
  std::optional<std::string> first_error;
};

void watch_state::on_list(std::vector<std::string> objects) {
  {
    std::lock_guard guard{mutex};
    listed = true;
  }
  listed_changed.notify_all();
  auto known = store.size();
  auto changes = store.replace(objects);
  spdlog::info("{}: listed {} object(s) ({} known before, {} change(s))", name, objects.size(),
               known, changes.size());
  report(std::move(changes));
}

void watch_state::on_event(const watch_event& event) {
  report(store.apply(event));
}

void watch_state::on_error(const std::string& error) {
  {
    std::lock_guard guard{mutex};
    if (!listed) {
      if (!first_error)
        first_error = error;
      listed_changed.notify_all();
      return;
    }
  }
  if (permanent(error)) {
    if (!failed.exchange(true) && fail)
      fail(fmt::format("{}{}: {}", name, detail::as_user(acting_user), error));
    return;
  }
  std::uint64_t held_back = 0;
  if (error_log.allow(held_back))
    spdlog::warn("{}: {} (retrying){}", name, error, core::held_back_note(held_back));
}

void watch_state::report(std::vector<resource_change> changes) {
  for (auto& change : changes) {
    if (!wanted.contains(change.type))
      continue;
    metrics.received();
    simdjson::dom::element object;
    std::string data;
    try {
      if (parser.parse(change.object).get(object) != simdjson::SUCCESS)
        throw std::invalid_argument("the object is not JSON");
      if (!filters.pass(object, change.type, std::chrono::system_clock::now())) {
        metrics.rejected("filtered");
        continue;
      }
      data = detail::resource_event_data(change, spec);
    } catch (const std::exception& e) {
      metrics.rejected("invalid_object");
      spdlog::error("{}: a {} change dropped: {}", name, change.type, e.what());
      continue;
    }
    if (!queue.push(core::make_event(event_source, "resource", event_name, std::move(data))))
      return;
  }
}

bool watch_state::wait_listed(std::chrono::milliseconds limit, std::string& why) {
  std::unique_lock lock{mutex};
  if (!listed_changed.wait_for(lock, limit, [this] { return listed || first_error; })) {
    why = fmt::format("the first list did not complete within {} ms", limit.count());
    return false;
  }
  if (listed)
    return true;
  why = *first_error;
  return false;
}

/// A running resource source: its client, its watch and what it publishes.
class resource_source final : public core::source {
public:
  resource_source(std::shared_ptr<api_client> client, std::unique_ptr<watch_state> state)
    : client_(std::move(client)), state_(std::move(state)) {}

  /// Starts the watch of `collection`; called once.
  void watch(const std::string& collection, watch_options options) {
    watch_handlers handlers;
    auto* state = state_.get();
    handlers.on_list = [state](std::vector<std::string> objects) {
      state->on_list(std::move(objects));
    };
    handlers.on_event = [state](const watch_event& event) { state->on_event(event); };
    handlers.on_error = [state](const std::string& error) { state->on_error(error); };
    watcher_ = std::make_unique<watcher>(*client_, collection, std::move(handlers),
                                         std::move(options));
  }

  watch_state& state() { return *state_; }

  ~resource_source() override {
    // A handler blocked on a full queue returns, so the watcher's thread can end.
    state_->queue.stop();
    watcher_.reset();
    state_.reset();
    client_.reset();
  }

private:
  std::shared_ptr<api_client> client_;
  std::unique_ptr<watch_state> state_;
  std::unique_ptr<watcher> watcher_;
};

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<resource_event_spec>(ctx);
  auto name = name_of(ctx);
  if (!ctx.bus)
    throw core::source_error(name + " started without a bus");
  std::shared_ptr<api_client> client;
  try {
    auto shared = opts;
    if (!shared.client.metrics)
      shared.client.metrics = ctx.metrics;
    client = detail::shared_client(shared);
  } catch (const config_error& e) {
    throw core::source_error(fmt::format("{}: no usable Kubernetes configuration: {}", name,
                                         e.what()));
  }
  const auto* manifest = ctx.manifest;
  detail::acting_identity identity;
  try {
    identity = detail::identity_for(opts.object_identity, client,
                                    manifest ? manifest->metadata.namespace_ : "",
                                    manifest ? manifest->spec.service_account_name : "");
  } catch (const std::invalid_argument& e) {
    throw core::source_error(
      fmt::format("{}: cannot act as the EventSource's service account: {}", name, e.what()));
  }
  auto scoped = spec;
  std::string cluster_scoped_refusal;
  if (!identity.confined_to.empty()) {
    const auto& own = identity.confined_to;
    if (scoped.namespace_.empty())
      scoped.namespace_ = own;
    else if (scoped.namespace_ != own)
      throw core::source_error(fmt::format(
        "{}: {}", name,
        detail::outside_namespace("namespace", scoped.namespace_, "EventSource", own)));
    cluster_scoped_refusal =
      detail::cluster_scoped_refused("resource " + spec.resource, "EventSource", own);
  }
  std::string collection;
  try {
    // Discovery lists resource types, not objects: the engine's own call.
    collection = detail::discover_collection(*client, scoped, cluster_scoped_refusal);
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("{}: {}", name, e.what()));
  }
  watch_options watch;
  if (spec.filter && !spec.filter->labels.empty())
    watch.label_selector = detail::label_selector(spec.filter->labels);
  // Argo's startTime is taken before its informer starts.
  auto state = std::make_unique<watch_state>(ctx, spec, std::chrono::system_clock::now());
  state->acting_user = identity.user;
  auto source = std::make_unique<resource_source>(std::move(identity.client), std::move(state));
  source->watch(collection, watch);
  std::string why;
  auto limit = opts.client.request_timeout + std::chrono::seconds(5);
  auto as = detail::as_user(identity.user);
  if (!source->state().wait_listed(limit, why))
    throw core::source_error(fmt::format("{}{}: {}", name, as, why));
  spdlog::info("{}: watching {}{}{}", name, collection,
               watch.label_selector.empty() ? "" : " with labels " + watch.label_selector, as);
  return source;
}

} // namespace

std::vector<std::string> check_resource_source(const core::source_context& ctx,
                                               identity_mode mode) {
  return core::check_spec<resource_event_spec>(ctx, [&](const auto& spec) {
    auto name = name_of(ctx);
    std::vector<std::string> problems;
    if (spec.version.empty())
      problems.push_back(name + ": version must be specified");
    if (spec.resource.empty())
      problems.push_back(name + ": resource must be specified");
    for (const auto& type : spec.event_types)
      if (type != "ADD" && type != "UPDATE" && type != "DELETE")
        problems.push_back(fmt::format("{}: unknown event type: {}", name, type));
    const auto own = ctx.manifest ? ctx.manifest->metadata.namespace_ : std::string{};
    if (mode == identity_mode::impersonate) {
      try {
        service_account_user(own.empty() ? "default" : own,
                             ctx.manifest ? ctx.manifest->spec.service_account_name : "");
      } catch (const std::invalid_argument& e) {
        problems.push_back(
          fmt::format("{}: cannot act as the EventSource's service account: {}", name, e.what()));
      }
    }
    if (mode == identity_mode::namespace_ && !own.empty() && !spec.namespace_.empty()
        && spec.namespace_ != own)
      problems.push_back(
        fmt::format("{}: {}", name,
                    detail::outside_namespace("namespace", spec.namespace_, "EventSource", own)));
    if (!spec.filter)
      return problems;
    try {
      detail::label_selector(spec.filter->labels);
    } catch (const std::invalid_argument& e) {
      problems.push_back(fmt::format("{}: filter.labels: {}", name, e.what()));
    }
    try {
      detail::field_matcher fields{spec.filter->fields};
    } catch (const std::invalid_argument& e) {
      problems.push_back(fmt::format("{}: {}", name, e.what()));
    }
    return problems;
  });
}

core::source_factory make_resource_source_factory(options opts) {
  auto check = [mode = opts.object_identity](const core::source_context& ctx) {
    return check_resource_source(ctx, mode);
  };
  return {[opts](const core::source_context& ctx) { return start_source(opts, ctx); },
          std::move(check), resource_source_spec_step()};
}

} // namespace ganglion::kubernetes

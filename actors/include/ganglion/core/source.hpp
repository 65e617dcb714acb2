#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/core/source_store.hpp"
#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// What the engine hands a source when it starts it.
struct source_context {
  std::string event_source_name;
  std::string event_name;
  std::string type; ///< the spec key, e.g. `webhook`
  const dsl::event_source* manifest = nullptr;
  /// The event itself, inside `manifest`, when the caller has it: event_of() then needs no
  /// lookup by name (a linear one, which made loading N events of one EventSource cost N²).
  const dsl::source_event* event = nullptr;
  std::shared_ptr<bus_publisher> bus;
  std::shared_ptr<const secret_store> secrets;
  metrics_registry* metrics = nullptr;
  /// Where the source keeps what it must remember across restarts (ganglion/core/source_store.hpp);
  /// the engine always gives one, a test may not.
  std::shared_ptr<source_store> store;
  /// ConfigMap `name` of the EventSource's namespace as a store, created when missing if
  /// `create` (cluster mode only; empty otherwise). Throws std::runtime_error.
  std::function<std::shared_ptr<source_store>(const std::string& name, bool create)> config_map;
  /// Reports a failure after start (e.g. a broker connection lost for good): the engine stops
  /// the source and restarts it with backoff. Callable from any thread.
  std::function<void(const std::string& error)> fail;
  /// Reports a failure that restarting at once will not cure (a signal service that did not
  /// answer for several attempts): the engine stops the source and keeps it in phase `Error`
  /// with `error` until it is restarted (`POST /v1/sources/{eventsource}/{event}/restart`, or
  /// a reload that changes it). Callable from any thread.
  std::function<void(const std::string& error)> give_up;
  /// Reports that the source delivers now (a generic source: its first stream opened). A source
  /// whose factory has `pending_until_connected` is shown `Pending` until it calls this, and
  /// `Running` after; other sources need not call it. Callable from any thread, more than once.
  std::function<void()> connected;
};

/// A running event source; destroying it stops it (releases ports, connections, threads).
class source {
public:
  virtual ~source() = default;
};

/// Raised by a source factory when the source cannot start (port in use, missing secret …).
class source_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Why a source's configuration cannot run, found without starting it: nothing is bound or
/// connected and no secret is read (`bus` and `secrets` may be null). One message per problem.
using source_check = std::function<std::vector<std::string>(const source_context&)>;

/// Starts sources of one type, and checks a configuration before any is started (`validate`,
/// and `run` before it starts anything).
class source_factory {
public:
  /// Starts a source; returns once it listens. Throws source_error.
  using create_function = std::function<std::unique_ptr<source>(const source_context&)>;
  /// What a started source waits for before it delivers (`connecting to 127.0.0.1:9000`);
  /// empty: nothing, it delivers once `create` returns.
  using waiting_function = std::function<std::string(const source_context&)>;

  source_factory() = default;

  /// A type without a check step: `create` alone.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, source_factory>
             && std::is_constructible_v<create_function, F>)
  source_factory(F create) : create_(std::move(create)) {}

  /// A type with a check step, which runs before `create` (operator()): `create` sees only a
  /// configuration `check` passed.
  source_factory(create_function create, source_check check)
    : create_(std::move(create)), check_(std::move(check)) {}

  /// A kind with a check step and a spec step (how dsl reads and checks its part of a
  /// manifest; ganglion/dsl/kind_spec.hpp).
  source_factory(create_function create, source_check check, dsl::kind_spec spec)
    : create_(std::move(create)), check_(std::move(check)), spec_(std::move(spec)) {}

  /// Starts a source after the check step, whose first problem it throws as source_error (the
  /// message `validate` shows for it). Throws source_error.
  std::unique_ptr<source> operator()(const source_context& ctx) const {
    if (auto problems = check(ctx); !problems.empty())
      throw source_error(problems.front());
    return create_(ctx);
  }

  /// What the check step finds wrong with `ctx`'s event; empty without a check step.
  std::vector<std::string> check(const source_context& ctx) const {
    return check_ ? check_(ctx) : std::vector<std::string>{};
  }

  /// The kind's spec step (empty functions: the kind has none).
  const dsl::kind_spec& spec() const noexcept { return spec_; }

  /// Sources of this kind start `Pending`, waiting for what `waiting_for` says, and are
  /// `Running` once they call source_context::connected. Without it a source is `Running` once
  /// `create` returns.
  source_factory& pending_until_connected(waiting_function waiting_for) {
    waiting_for_ = std::move(waiting_for);
    return *this;
  }

  /// What the source of `ctx` waits for once started; empty when it delivers at once.
  std::string waiting_for(const source_context& ctx) const {
    return waiting_for_ ? waiting_for_(ctx) : std::string{};
  }

private:
  create_function create_;
  source_check check_;
  dsl::kind_spec spec_;
  waiting_function waiting_for_;
};

/// Starts the source of `ctx` with `factory` behind the core's source step: when the event has
/// a `filter.expression`, the source publishes through it, and an event it drops is counted
/// (`ganglion_events_rejected_total{reason="filtered"|"filter_error"}`) and reported to the
/// source as publish_status::filtered. Throws source_error, also for an expression that does
/// not compile.
std::unique_ptr<source> start_source(const source_factory& factory, source_context ctx);

/// Source factories by spec key (`webhook`, `calendar` …).
using source_registry = std::map<std::string, source_factory>;

/// The event `ctx` names in its manifest; throws source_error when there is none.
const dsl::source_event& event_of(const source_context& ctx);

/// The kind's model of `ctx`'s event (what its spec step read); throws source_error when the
/// manifest was loaded without that step.
template <class Model>
const Model& spec_of(const source_context& ctx) {
  const auto& event = event_of(ctx);
  if (const auto* model = std::any_cast<Model>(&event.spec))
    return *model;
  throw source_error("spec." + event.type + "." + event.name
                     + " was loaded without the spec step of its kind");
}

} // namespace ganglion::core

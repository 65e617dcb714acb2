// Stopping the engine: blocking (stop()) or from a detached actor of its own (stop(listener)),
// so that a host's message handler never waits for actors that need its scheduler thread.

#include "ganglion/core/engine.hpp"

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <caf/all.hpp>
#include <caf/policy/work_sharing.hpp>
#include <caf/policy/work_stealing.hpp>
#include <caf/scheduler/coordinator.hpp>
#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"

namespace ganglion::core {

namespace {

// The steps below take the engine's private state as a template parameter, which they cannot
// name.

template <class Policy>
bool on_worker_of(caf::scheduler::abstract_coordinator& scheduler) {
  auto* workers = dynamic_cast<caf::scheduler::coordinator<Policy>*>(&scheduler);
  if (!workers)
    return false;
  for (std::size_t i = 0; i < workers->num_workers(); ++i)
    if (workers->worker_by_id(i)->get_thread().get_id() == std::this_thread::get_id())
      return true;
  return false;
}

/// Closes the bus and returns the deadline of the whole stop.
template <class Impl>
std::chrono::steady_clock::time_point begin_stop(Impl& d) {
  d.stopped = true;
  d.bus->close();
  return std::chrono::steady_clock::now() + d.options.shutdown_grace;
}

/// Waits up to `deadline` for in-flight work, then ends the root.
template <class Impl>
void end_root(Impl& d, std::chrono::steady_clock::time_point deadline) {
  while (d.work->pending() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (auto left = d.work->pending(); left > 0)
    spdlog::warn("shutdown: {} event(s) or firing(s) still in flight after {} ms", left,
                 d.options.shutdown_grace.count());
  caf::anon_send_exit(d.root, caf::exit_reason::user_shutdown);
}

/// What is left once the root is down.
template <class Impl>
void finish_stop(Impl& d, std::chrono::steady_clock::time_point deadline) {
  d.root = nullptr;
  // One grace for the whole stop: the remote bus gets what is left of it for its last
  // publishes (a cluster that is gone must not hold the process twice as long).
  if (d.options.remote)
    d.options.remote->close(std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       deadline - std::chrono::steady_clock::now()),
                                     std::chrono::milliseconds(0)));
  if (d.log)
    d.log->flush();
}

} // namespace

/// A stop(listener) in progress: done once the engine is down.
struct engine_stop_signal {
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  /// The stopping actor, kept alive here while it waits for the root's down message (a
  /// monitor holds no reference to it); let go once the stop is done.
  caf::actor stopper;

  void keep(caf::actor actor) {
    std::lock_guard guard{mutex};
    if (!done)
      stopper = std::move(actor);
  }

  void finish() {
    caf::actor actor;
    {
      std::lock_guard guard{mutex};
      done = true;
      actor.swap(stopper);
      changed.notify_all();
    }
  }

  bool finished() {
    std::lock_guard guard{mutex};
    return done;
  }

  void wait() {
    std::unique_lock lock{mutex};
    changed.wait(lock, [this] { return done; });
  }
};

namespace {

using stop_look_atom = caf::atom_constant<caf::atom("gl_st_look")>;

/// How often a stop looks whether the work in flight is done.
constexpr auto idle_poll = std::chrono::milliseconds(5);

/// Waits until no work is in flight (or the grace is over), ends the root, and once it is
/// down finishes the stop, signals it and tells `listener` (when not null).
template <class Impl>
caf::behavior stopping_actor(caf::event_based_actor* self, std::shared_ptr<Impl> keep,
                             std::shared_ptr<engine_stop_signal> signal,
                             std::chrono::steady_clock::time_point deadline,
                             caf::actor listener) {
  auto root = keep->root;
  auto work = keep->work;
  auto grace = keep->options.shutdown_grace;
  auto held = std::make_shared<std::shared_ptr<Impl>>(std::move(keep));
  self->set_down_handler([self, held, signal, deadline, listener](caf::down_msg&) {
    finish_stop(**held, deadline);
    // The engine may be gone: its state goes with this reference, before the signal (an
    // engine with its own system must not end it from one of its threads).
    held->reset();
    signal->finish();
    if (listener)
      self->send(listener, engine_stopped_atom::value);
    self->quit();
  });
  auto shut_root = [self, root, work, grace] {
    if (auto left = work->pending(); left > 0)
      spdlog::warn("shutdown: {} event(s) or firing(s) still in flight after {} ms", left,
                   grace.count());
    self->monitor(root);
    caf::anon_send_exit(root, caf::exit_reason::user_shutdown);
  };
  auto look = [self, work, deadline, shut_root] {
    if (work->pending() > 0 && std::chrono::steady_clock::now() < deadline)
      self->delayed_send(self, idle_poll, stop_look_atom::value);
    else
      shut_root();
  };
  look();
  return {[look](stop_look_atom) { look(); }};
}

} // namespace

// CAF 0.17 has no query for it: the coordinator's workers are compared with this thread.
bool on_scheduler_thread(caf::actor_system& system) {
  auto& scheduler = system.scheduler();
  return on_worker_of<caf::policy::work_stealing>(scheduler)
         || on_worker_of<caf::policy::work_sharing>(scheduler);
}

engine::~engine() {
  if (!impl_->started || (impl_->stopped && !stopping_) || (stopping_ && stopping_->finished()))
    return;
  if (stopping_) {
    // With its own system the stopping actor must be gone before the system is.
    if (impl_->owned_system)
      stopping_->wait();
    return;
  }
  if (!impl_->owned_system && on_scheduler_thread(*impl_->system))
    stop(caf::actor{}); // the stopping actor keeps what it needs
  else
    stop();
}

void engine::stop() {
  auto& d = *impl_;
  if (!d.started || (d.stopped && !stopping_) || (stopping_ && stopping_->finished()))
    return;
  if (on_scheduler_thread(*d.system))
    throw std::logic_error("engine::stop() called on a scheduler thread of the engine's actor "
                           "system, where waiting could deadlock; use stop(listener)");
  if (stopping_) {
    stopping_->wait();
    return;
  }
  auto deadline = begin_stop(d);
  end_root(d, deadline);
  if (d.owned_system) {
    d.system->await_all_actors_done();
  } else {
    // The root goes down only after its children (engine_root.cpp).
    caf::scoped_actor self{*d.system};
    self->wait_for(d.root);
  }
  finish_stop(d, deadline);
}

void engine::stop(const caf::actor& listener) {
  auto& d = *impl_;
  if (!d.started || d.stopped) {
    if (listener)
      caf::anon_send(listener, engine_stopped_atom::value);
    return;
  }
  auto deadline = begin_stop(d);
  stopping_ = std::make_shared<engine_stop_signal>();
  // Closing a remote bus and flushing the log block: then the stopper gets a thread of its own
  // rather than hold one of a host's scheduler threads.
  if (d.options.remote || d.log)
    stopping_->keep(
      d.system->spawn<caf::detached>(stopping_actor<impl>, impl_, stopping_, deadline, listener));
  else
    stopping_->keep(d.system->spawn(stopping_actor<impl>, impl_, stopping_, deadline, listener));
}

caf::actor engine::root() const {
  return impl_->root;
}

} // namespace ganglion::core

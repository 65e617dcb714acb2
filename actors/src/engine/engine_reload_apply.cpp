// Applying a planned hot reload: an actor of the engine's system hands the root its steps,
// waits until the sources it started report, finishes and answers; engine::reload blocks on
// that answer, engine::reload(documents, done) does not. Reloads follow one another in order.

#include <future>
#include <stdexcept>

#include <caf/all.hpp>
#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "engine/reload_job.hpp"

namespace ganglion::core {

namespace {

/// How long the root may take to stop removed children and start their replacements.
constexpr auto apply_timeout = std::chrono::seconds(30);
/// How long a reload's answer waits for its new sources to report, and how often it looks.
constexpr auto source_wait = std::chrono::seconds(10);
constexpr auto source_poll = std::chrono::milliseconds(5);

using check_sources_atom = caf::atom_constant<caf::atom("gl_rl_look")>;

/// Drops from `names` the sources that reported how their start went (listening, failed, or
/// started and waiting for its service: Pending with a message), so that a reload's answer
/// means its new webhooks listen.
void drop_reported(const status_board& status, std::set<std::string>& names) {
  for (const auto& c : status.snapshot())
    if (c.kind == "source" && (c.phase != phase::pending || !c.message.empty()))
      names.erase(c.name);
}

} // namespace

caf::behavior engine::impl::reload_applier(caf::event_based_actor* self, std::shared_ptr<impl> d,
                                           std::shared_ptr<reload_job> job) {
  auto finish = [self, d, job] {
    d->finish_reload(*job);
    auto done = std::move(job->done);
    auto result = std::move(job->draft.result);
    next_reload(d);
    self->quit();
    if (done)
      done(std::move(result));
  };
  auto looks_left = std::make_shared<long>(source_wait / source_poll);
  auto look = [self, d, job, finish, looks_left] {
    auto& fresh = job->draft.fresh_sources;
    drop_reported(d->status, fresh);
    if (!fresh.empty() && (*looks_left)-- > 0) {
      self->delayed_send(self, source_poll, check_sources_atom::value);
      return;
    }
    for (const auto& name : fresh)
      spdlog::warn("reload: source {} has not started yet", name);
    finish();
  };
  if (job->draft.steps->empty() || !d->root) {
    finish();
    return {};
  }
  self->request(d->root, apply_timeout, apply_reload{job->draft.steps})
    .then([look](bool) { look(); },
          [d, finish](const caf::error& error) {
            spdlog::error("reload: the engine did not apply every change within {} s: {}",
                          apply_timeout.count(), d->system->render(error));
            finish();
          });
  return {[look](check_sources_atom) { look(); }};
}

void engine::impl::begin_reload(const std::shared_ptr<impl>& self,
                                std::vector<dsl::document> documents, reload_done done) {
  auto job = std::make_shared<reload_job>(std::move(documents), std::move(done));
  self->plan_reload(*job);
  self->system->spawn(reload_applier, self, std::move(job));
}

void engine::impl::next_reload(const std::shared_ptr<impl>& self) {
  std::pair<std::vector<dsl::document>, reload_done> next;
  {
    std::lock_guard guard{self->reload_mutex};
    if (self->queued_reloads.empty()) {
      self->reloading = false;
      return;
    }
    next = std::move(self->queued_reloads.front());
    self->queued_reloads.pop_front();
  }
  if (self->stopped) {
    // Nothing runs any more to apply it to.
    spdlog::warn("reload: not applied, the engine stopped");
    if (next.second)
      next.second(reload_result{});
    next_reload(self);
    return;
  }
  try {
    begin_reload(self, std::move(next.first), next.second);
  } catch (const std::exception& ex) {
    spdlog::error("reload: {}", ex.what());
    if (next.second)
      next.second(reload_result{});
    next_reload(self);
  }
}

void engine::reload(const std::vector<dsl::document>& documents, reload_done done) {
  auto& d = *impl_;
  {
    std::lock_guard guard{d.reload_mutex};
    if (!d.planned || d.stopped)
      throw std::logic_error("reload needs a running engine");
    if (d.reloading) {
      d.queued_reloads.emplace_back(documents, std::move(done));
      return;
    }
    d.reloading = true;
  }
  try {
    impl::begin_reload(impl_, documents, std::move(done));
  } catch (...) {
    impl::next_reload(impl_);
    throw;
  }
}

reload_result engine::reload(const std::vector<dsl::document>& documents) {
  if (on_scheduler_thread(*impl_->system))
    throw std::logic_error("engine::reload(documents) called on a scheduler thread of the "
                           "engine's actor system, where waiting could deadlock; use "
                           "reload(documents, done)");
  auto answer = std::make_shared<std::promise<reload_result>>();
  auto result = answer->get_future();
  reload(documents, [answer](reload_result r) { answer->set_value(std::move(r)); });
  return result.get();
}

} // namespace ganglion::core

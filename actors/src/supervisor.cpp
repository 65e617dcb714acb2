#include "supervisor.hpp"

#include <spdlog/spdlog.h>

#include "messages.hpp"

namespace ganglion::core {

caf::error component_failure(std::string message) {
  return caf::make_error(caf::sec::runtime_error, std::move(message));
}

std::string child_supervisor::describe(caf::actor_system& sys, const caf::error& reason) {
  const auto& context = reason.context();
  for (std::size_t i = 0; i < context.size(); ++i)
    if (context.match_element<std::string>(i))
      return context.get_as<std::string>(i);
  return sys.render(reason);
}

child_supervisor::child_supervisor(caf::event_based_actor* self, status_board& status,
                                   supervision_policy policy)
  : self_(self), status_(status), policy_(policy) {}

std::size_t child_supervisor::add(child_spec spec) {
  children_.push_back(entry{std::move(spec), {}, {}, false});
  start(children_.size() - 1);
  return children_.size() - 1;
}

void child_supervisor::start(std::size_t index) {
  auto& c = children_[index];
  c.handle = c.spec.spawn(self_);
  self_->monitor(c.handle);
  if (c.spec.on_started)
    c.spec.on_started(c.handle);
}

bool child_supervisor::handle_down(const caf::down_msg& msg) {
  auto it = std::find_if(children_.begin(), children_.end(),
                         [&](const entry& c) { return c.handle && c.handle.address() == msg.source; });
  if (it == children_.end())
    return false;
  auto index = static_cast<std::size_t>(it - children_.begin());
  auto& c = *it;
  c.handle = nullptr;
  if (stopping_) {
    status_.set(c.spec.kind, c.spec.name, phase::stopped);
    return true;
  }
  auto error = msg.reason ? describe(self_->system(), msg.reason)
                          : std::string{"exited unexpectedly"};
  auto now = std::chrono::steady_clock::now();
  c.failures.push_back(now);
  while (!c.failures.empty() && now - c.failures.front() > policy_.window)
    c.failures.pop_front();
  if (c.failures.size() >= policy_.max_failures) {
    c.given_up = true;
    status_.set(c.spec.kind, c.spec.name, phase::error, error);
    spdlog::error("{} {} failed {} times within {} s, giving up: {}", c.spec.kind, c.spec.name,
                  c.failures.size(), policy_.window.count() / 1000, error);
    if (c.spec.on_given_up)
      c.spec.on_given_up();
    return true;
  }
  auto backoff = policy_.initial_backoff * (1LL << std::min<std::size_t>(c.failures.size() - 1, 20));
  if (backoff > policy_.max_backoff)
    backoff = policy_.max_backoff;
  status_.set(c.spec.kind, c.spec.name, phase::restarting, error);
  status_.count_restart(c.spec.kind, c.spec.name);
  spdlog::warn("{} {} failed: {}; restarting in {} ms", c.spec.kind, c.spec.name, error,
               backoff.count());
  self_->delayed_send(self_, backoff, restart_atom::value, static_cast<std::uint64_t>(index));
  return true;
}

void child_supervisor::handle_restart(std::size_t index) {
  if (stopping_ || index >= children_.size() || children_[index].handle
      || children_[index].given_up)
    return;
  start(index);
}

void child_supervisor::stop_all() {
  stopping_ = true;
  for (auto& c : children_) {
    if (!c.handle)
      continue;
    self_->send_exit(c.handle, caf::exit_reason::user_shutdown);
    status_.set(c.spec.kind, c.spec.name, phase::stopped);
  }
}

std::size_t child_supervisor::alive() const noexcept {
  return static_cast<std::size_t>(
    std::count_if(children_.begin(), children_.end(), [](const entry& c) { return bool(c.handle); }));
}

} // namespace ganglion::core

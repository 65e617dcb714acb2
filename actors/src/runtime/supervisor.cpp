#include "runtime/supervisor.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "runtime/messages.hpp"

namespace ganglion::core {

namespace {

/// Marks the exit reason of a final failure (second element of its context).
constexpr const char* final_marker = "final";

bool is_final(const caf::error& reason) {
  const auto& context = reason.context();
  return context.size() >= 2 && context.match_element<std::string>(1)
         && context.get_as<std::string>(1) == final_marker;
}

} // namespace

caf::error component_failure(std::string message, failure_kind kind) {
  if (kind == failure_kind::final)
    return caf::make_error(caf::sec::runtime_error, std::move(message), std::string{final_marker});
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
  auto index = next_index_++;
  by_name_[{spec.kind, spec.name}] = index;
  auto& c = children_[index];
  c.spec = std::move(spec);
  start_fresh(index);
  return index;
}

std::optional<std::size_t> child_supervisor::find(const std::string& kind,
                                                  const std::string& name) const {
  auto it = by_name_.find({kind, name});
  if (it == by_name_.end())
    return std::nullopt;
  return it->second;
}

child_supervisor::entry* child_supervisor::lookup(const std::string& kind,
                                                  const std::string& name) {
  auto index = find(kind, name);
  return index ? &children_.at(*index) : nullptr;
}

void child_supervisor::start(std::size_t index) {
  auto& c = children_.at(index);
  c.handle = c.spec.spawn(self_);
  self_->monitor(c.handle);
  if (c.spec.on_started)
    c.spec.on_started(c.handle);
}

void child_supervisor::start_fresh(std::size_t index) {
  const auto& spec = children_.at(index).spec;
  status_.clear_failures(spec.kind, spec.name);
  start(index);
}

void child_supervisor::stop(entry& c) {
  // Children are linked: without unlinking, their user_shutdown exit would reach this actor
  // as an exit message and stop it too. The monitor still reports the down.
  self_->unlink_from(c.handle);
  self_->send_exit(c.handle, caf::exit_reason::user_shutdown);
}

void child_supervisor::settle(entry& c) {
  auto done = std::move(c.done);
  c.done.clear();
  for (auto& f : done)
    if (f)
      f();
}

bool child_supervisor::remove(const std::string& kind, const std::string& name,
                              done_callback done) {
  status_.remove(kind, name);
  auto found = by_name_.find({kind, name});
  if (found == by_name_.end()) {
    if (done)
      done();
    return false;
  }
  auto index = found->second;
  by_name_.erase(found);
  auto& c = children_.at(index);
  c.done.push_back(std::move(done));
  c.next.reset();
  if (c.handle) {
    c.removing = true;
    stop(c);
    return true;
  }
  auto removed = std::move(c);
  children_.erase(index);
  settle(removed);
  return true;
}

bool child_supervisor::replace(const std::string& kind, const std::string& name, child_spec spec,
                               done_callback done) {
  auto* c = lookup(kind, name);
  if (!c) {
    add(std::move(spec));
    if (done)
      done();
    return false;
  }
  c->done.push_back(std::move(done));
  if (c->handle) {
    bool stop_sent = c->next.has_value();
    c->next = std::move(spec);
    if (!stop_sent)
      stop(*c);
    return true;
  }
  c->spec = std::move(spec);
  c->failures.clear();
  c->given_up = false;
  start_fresh(*find(kind, name));
  settle(*c);
  return true;
}

bool child_supervisor::restart(const std::string& kind, const std::string& name) {
  auto* c = lookup(kind, name);
  if (!c)
    return false;
  auto spec = c->next ? *c->next : c->spec;
  replace(kind, name, std::move(spec));
  return true;
}

bool child_supervisor::update_spec(const std::string& kind, const std::string& name,
                                   child_spec spec) {
  auto* c = lookup(kind, name);
  if (!c)
    return false;
  if (c->next)
    c->next = std::move(spec);
  else
    c->spec = std::move(spec);
  return true;
}

bool child_supervisor::handle_down(const caf::down_msg& msg) {
  auto it = std::find_if(children_.begin(), children_.end(), [&](const auto& item) {
    return item.second.handle && item.second.handle.address() == msg.source;
  });
  if (it == children_.end())
    return false;
  auto index = it->first;
  auto& c = it->second;
  c.handle = nullptr;
  if (c.removing) {
    auto removed = std::move(c);
    children_.erase(it);
    settle(removed);
    return true;
  }
  if (stopping_) {
    status_.set(c.spec.kind, c.spec.name, phase::stopped);
    settle(c);
    return true;
  }
  if (c.next) {
    c.spec = std::move(*c.next);
    c.next.reset();
    c.failures.clear();
    c.given_up = false;
    start_fresh(index);
    settle(c);
    return true;
  }
  auto error = msg.reason ? describe(self_->system(), msg.reason)
                          : std::string{"exited unexpectedly"};
  auto now = std::chrono::steady_clock::now();
  c.failures.push_back(now);
  while (!c.failures.empty() && now - c.failures.front() > policy_.window)
    c.failures.pop_front();
  bool final = msg.reason && is_final(msg.reason);
  if (final || c.failures.size() >= policy_.max_failures) {
    c.given_up = true;
    status_.set(c.spec.kind, c.spec.name, phase::error, error);
    if (final)
      spdlog::error("{} {} gave up: {}", c.spec.kind, c.spec.name, error);
    else
      spdlog::error("{} {} failed {} times within {} s, giving up: {}", c.spec.kind,
                    c.spec.name, c.failures.size(), policy_.window.count() / 1000, error);
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
  auto it = children_.find(index);
  if (stopping_ || it == children_.end() || it->second.handle || it->second.given_up
      || it->second.removing)
    return;
  start(index);
}

void child_supervisor::stop_all() {
  stopping_ = true;
  for (auto& [index, c] : children_) {
    if (!c.handle)
      continue;
    self_->send_exit(c.handle, caf::exit_reason::user_shutdown);
    if (!c.removing)
      status_.set(c.spec.kind, c.spec.name, phase::stopped);
  }
}

const caf::actor& child_supervisor::child(std::size_t index) const {
  static const caf::actor none;
  auto it = children_.find(index);
  if (it == children_.end() || it->second.removing || it->second.next)
    return none;
  return it->second.handle;
}

bool child_supervisor::given_up(std::size_t index) const {
  auto it = children_.find(index);
  return it != children_.end() && it->second.given_up;
}

std::size_t child_supervisor::alive() const noexcept {
  return static_cast<std::size_t>(std::count_if(
    children_.begin(), children_.end(), [](const auto& item) { return bool(item.second.handle); }));
}

} // namespace ganglion::core

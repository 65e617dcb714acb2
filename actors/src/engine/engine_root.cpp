#include "engine/engine_root.hpp"

#include "runtime/messages.hpp"

namespace ganglion::core {

namespace {

using root_ptr = caf::stateful_actor<root_state>*;

void apply(root_ptr self, reload_step& step, const child_supervisor::done_callback& done) {
  auto& children = *self->state.children;
  using action = reload_step::action;
  switch (step.what) {
    case action::add:
      children.add(std::move(step.spec));
      break;
    case action::remove:
      children.remove(step.kind, step.name, done);
      return;
    case action::replace:
      children.replace(step.kind, step.name, std::move(step.spec), done);
      return;
    case action::update_spec:
      children.update_spec(step.kind, step.name, std::move(step.spec));
      break;
    case action::reconfigure: {
      auto index = children.find(step.kind, step.name);
      if (!index) {
        children.add(std::move(step.spec));
      } else if (const auto& running = children.child(*index)) {
        auto handle = running;
        children.update_spec(step.kind, step.name, std::move(step.spec));
        if (step.notify)
          step.notify(self, handle);
      } else if (children.given_up(*index)) {
        children.replace(step.kind, step.name, std::move(step.spec), done);
        return;
      } else {
        children.update_spec(step.kind, step.name, std::move(step.spec));
      }
      break;
    }
  }
  done();
}

} // namespace

caf::behavior engine_root(caf::stateful_actor<root_state>* self, std::shared_ptr<root_plan> plan) {
  self->state.children = std::make_unique<child_supervisor>(self, *plan->status, plan->policy);
  // On shutdown the root outlives its children, so that its end means the tree's end (a host's
  // actor system keeps running after engine::stop). Once it quits, its state is gone, but the
  // exit messages of linked children may still be queued: `gone` lets them pass.
  auto gone = std::make_shared<bool>(false);
  auto finish = [self, gone](const caf::error& reason) {
    *gone = true;
    self->quit(reason);
  };
  self->set_down_handler([self, gone, finish](caf::down_msg& msg) {
    if (*gone)
      return;
    self->state.children->handle_down(msg);
    if (self->state.stopping && self->state.children->alive() == 0)
      finish(*self->state.stopping);
  });
  self->set_exit_handler([self, gone, finish](caf::exit_msg& msg) {
    if (*gone)
      return;
    if ((msg.reason == caf::exit_reason::user_shutdown || !msg.reason) && !self->state.stopping) {
      self->state.children->stop_all();
      self->state.stopping = msg.reason;
      if (self->state.children->alive() == 0)
        finish(msg.reason);
    }
  });
  for (auto& spec : plan->children)
    self->state.children->add(std::move(spec));
  return {
    [=](restart_atom, std::uint64_t index) {
      self->state.children->handle_restart(static_cast<std::size_t>(index));
    },
    [=](restart_atom, const std::string& kind, const std::string& name) {
      self->state.children->restart(kind, name);
    },
    [=](apply_reload& reload) {
      // Marks the request as answered here; the last step to take effect delivers.
      auto promise = std::make_shared<caf::response_promise>(self->make_response_promise());
      auto pending = std::make_shared<std::size_t>(1);
      child_supervisor::done_callback done = [promise, pending] {
        if (--*pending == 0)
          promise->deliver(true);
      };
      for (auto& step : *reload.steps) {
        ++*pending;
        apply(self, step, done);
      }
      done();
    },
  };
}

} // namespace ganglion::core

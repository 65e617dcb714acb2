#include "engine_root.hpp"

#include "messages.hpp"

namespace ganglion::core {

caf::behavior engine_root(caf::stateful_actor<root_state>* self, std::shared_ptr<root_plan> plan) {
  self->state.children = std::make_unique<child_supervisor>(self, *plan->status, plan->policy);
  self->set_down_handler([self](caf::down_msg& msg) { self->state.children->handle_down(msg); });
  self->set_exit_handler([self](caf::exit_msg& msg) {
    if (msg.reason == caf::exit_reason::user_shutdown || !msg.reason) {
      self->state.children->stop_all();
      self->quit(msg.reason);
    }
  });
  for (auto& spec : plan->children)
    self->state.children->add(std::move(spec));
  return {
    [=](restart_atom, std::uint64_t index) {
      self->state.children->handle_restart(static_cast<std::size_t>(index));
    },
  };
}

} // namespace ganglion::core

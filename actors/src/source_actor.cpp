#include "source_actor.hpp"

#include <spdlog/spdlog.h>

#include "messages.hpp"
#include "supervisor.hpp"

namespace ganglion::core {

caf::behavior source_actor(caf::stateful_actor<source_state>* self, source_factory factory,
                           source_context context, status_board* status, std::string status_name) {
  context.fail = [weak = self->address()](const std::string& error) {
    if (auto strong = caf::actor_cast<caf::actor>(weak))
      caf::anon_send(strong, fail_atom::value, error);
  };
  try {
    self->state.running = factory(context);
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return {};
  }
  status->set("source", status_name, phase::running);
  spdlog::info("source {} is running", status_name);
  return {
    [=](fail_atom, const std::string& error) {
      self->state.running.reset();
      self->quit(component_failure(error));
    },
  };
}

} // namespace ganglion::core

#include "source/source_actor.hpp"

#include <set>

#include <spdlog/spdlog.h>

#include "engine/messages.hpp"
#include "engine/supervisor.hpp"

namespace ganglion::core {

bool is_active_passive(const std::string& type) {
  static const std::set<std::string> active_active{
    "webhook", "sns",     "sqs",   "github", "gitlab",     "bitbucket",          "bitbucketserver",
    "gerrit",  "slack",   "stripe", "storageGrid", "azureQueueStorage", "mns"};
  return !active_active.count(type);
}

namespace {

using source_ptr = caf::stateful_actor<source_state>*;

/// Starts the source; false (and the actor quits) when the factory throws.
bool start(source_ptr self, const source_factory& factory, const source_context& context,
           status_board* status, const std::string& status_name) {
  try {
    self->state.running = start_source(factory, context);
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return false;
  }
  status->set("source", status_name, phase::running);
  spdlog::info("source {} is running", status_name);
  return true;
}

} // namespace

caf::behavior source_actor(caf::stateful_actor<source_state>* self, source_factory factory,
                           source_context context, status_board* status, std::string status_name,
                           ownership* owners) {
  context.fail = [weak = self->address()](const std::string& error) {
    if (auto strong = caf::actor_cast<caf::actor>(weak))
      caf::anon_send(strong, fail_atom::value, error);
  };
  context.give_up = [weak = self->address()](const std::string& error) {
    if (auto strong = caf::actor_cast<caf::actor>(weak))
      caf::anon_send(strong, give_up_atom::value, error);
  };
  if (owners) {
    status->set("source", status_name, phase::standby);
    self->state.owner_watch =
      owners->watch("source." + status_name, [addr = self->address()](bool owned) {
        if (auto actor = caf::actor_cast<caf::actor>(addr))
          caf::anon_send(actor, owner_atom::value, owned);
      });
  } else if (!start(self, factory, context, status, status_name)) {
    return {};
  }
  return {
    [=](fail_atom, const std::string& error) {
      self->state.running.reset();
      self->quit(component_failure(error));
    },
    [=](give_up_atom, const std::string& error) {
      self->state.running.reset();
      self->quit(component_failure(error, failure_kind::final));
    },
    [=](owner_atom, bool owned) {
      if (owned && !self->state.running) {
        start(self, factory, context, status, status_name);
      } else if (!owned && self->state.running) {
        self->state.running.reset();
        status->set("source", status_name, phase::standby);
        spdlog::info("source {}: handed over to another replica", status_name);
      }
    },
  };
}

} // namespace ganglion::core

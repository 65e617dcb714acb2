#include "source/source_actor.hpp"

#include <set>

#include <spdlog/spdlog.h>

#include "runtime/messages.hpp"
#include "runtime/supervisor.hpp"

namespace ganglion::core {

bool is_active_passive(const std::string& type) {
  static const std::set<std::string> active_active{
    "webhook", "sns",     "sqs",   "github", "gitlab",     "bitbucket",          "bitbucketserver",
    "gerrit",  "slack",   "stripe", "storageGrid", "azureQueueStorage", "mns"};
  return !active_active.count(type);
}

namespace {

using source_ptr = caf::stateful_actor<source_state>*;

/// Starts the source; false (and the actor quits) when the factory throws. A source that waits
/// before it delivers (source_factory::pending_until_connected) is Pending until it reports.
bool start(source_ptr self, const source_factory& factory, source_context context,
           status_board* status, const std::string& status_name) {
  auto& st = self->state;
  context.connected = [weak = self->address(), start_id = ++st.starts] {
    if (auto strong = caf::actor_cast<caf::actor>(weak))
      caf::anon_send(strong, connected_atom::value, start_id);
  };
  std::string waiting_for;
  try {
    waiting_for = factory.waiting_for(context);
    st.running = start_source(factory, context);
  } catch (const std::exception& ex) {
    self->quit(component_failure(ex.what()));
    return false;
  }
  st.waiting = !waiting_for.empty();
  if (st.waiting) {
    status->set("source", status_name, phase::pending, {}, waiting_for);
    spdlog::info("source {} started, {}", status_name, waiting_for);
  } else {
    status->set("source", status_name, phase::running);
    spdlog::info("source {} is running", status_name);
  }
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
    [=](connected_atom, std::uint64_t start_id) {
      auto& st = self->state;
      if (!st.running || !st.waiting || start_id != st.starts)
        return;
      st.waiting = false;
      status->set("source", status_name, phase::running);
      spdlog::info("source {} is running", status_name);
    },
    [=](owner_atom, bool owned) {
      if (owned && !self->state.running) {
        start(self, factory, context, status, status_name);
      } else if (!owned && self->state.running) {
        self->state.running.reset();
        self->state.waiting = false;
        status->set("source", status_name, phase::standby);
        spdlog::info("source {}: handed over to another replica", status_name);
      }
    },
  };
}

} // namespace ganglion::core

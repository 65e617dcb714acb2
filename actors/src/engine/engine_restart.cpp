// engine::restart_source: a source started again by hand (the admin endpoint).

#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "runtime/messages.hpp"

namespace ganglion::core {

engine::restart_outcome engine::restart_source(const std::string& event_source,
                                               const std::string& event) {
  auto& d = *impl_;
  auto name = event_source + "/" + event;
  if (!d.planned || d.stopped || !d.root)
    return restart_outcome::stopped;
  if (d.refusal_of("source", name))
    return restart_outcome::refused;
  bool known = false;
  for (const auto& c : d.status.snapshot())
    known = known || (c.kind == "source" && c.name == name);
  if (!known)
    return restart_outcome::unknown;
  // Sent, not requested: a blocking request from a thread CAF does not run kept the actor
  // system from shutting down later.
  caf::anon_send(d.root, restart_atom::value, std::string{"source"}, name);
  spdlog::info("source {}: restarting on request", name);
  return restart_outcome::restarted;
}

} // namespace ganglion::core

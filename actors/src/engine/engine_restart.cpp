// engine::restart_source: a source started again by hand (the admin endpoint).

#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "engine/messages.hpp"

namespace ganglion::core {

void engine::restart_source(const std::string& event_source, const std::string& event,
                            std::function<void(restart_outcome)> done) {
  auto& d = *impl_;
  auto name = event_source + "/" + event;
  if (!d.planned || d.stopped || !d.root) {
    done(restart_outcome::stopped);
    return;
  }
  if (d.refusal_of("source", name)) {
    done(restart_outcome::refused);
    return;
  }
  bool known = false;
  for (const auto& c : d.status.snapshot())
    known = known || (c.kind == "source" && c.name == name);
  if (!known) {
    done(restart_outcome::unknown);
    return;
  }
  caf::anon_send(d.root, restart_atom::value, std::string{"source"}, name);
  spdlog::info("source {}: restarting on request", name);
  done(restart_outcome::restarted);
}

} // namespace ganglion::core

#include "kinds.hpp"

#include "ganglion/kafka/transport.hpp"
#include "ganglion/nats/transport.hpp"

namespace ganglion::app {

kinds register_kinds(const std::shared_ptr<http::runtime>& http) {
  kinds out;
  http::register_transport(out.sources, out.triggers, http);
  nats::register_transport(out.sources, out.triggers);
  kafka::register_transport(out.sources, out.triggers);
  core::add_engine_triggers(out.triggers);
  return out;
}

std::vector<core::refusal> refusals_of(const std::vector<dsl::document>& documents,
                                       const kinds& registered, const std::string& secrets_dir) {
  core::runnability_context cx;
  cx.sources = &registered.sources;
  cx.triggers = &registered.triggers;
  cx.secrets_dir = secrets_dir;
  return core::check_runnability(documents, cx);
}

} // namespace ganglion::app

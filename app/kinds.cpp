#include "kinds.hpp"

namespace ganglion::app {

core::option_values settings_of(core::option_values kind_options, const std::string& kubeconfig,
                                const std::string& object_identity) {
  if (!kubeconfig.empty())
    kind_options.set("--kubeconfig", {kubeconfig});
  if (!object_identity.empty())
    kind_options.set("--object-identity", {object_identity});
  return kind_options;
}

kinds register_kinds(const std::shared_ptr<http::runtime>& http,
                     const core::option_values& settings) {
  kinds out;
  register_transports(out, http, settings);
  core::add_engine_triggers(out.triggers);
  return out;
}

dsl::load_options load_options_for(const kinds& registered, bool strict) {
  dsl::load_options out;
  out.strict = strict;
  out.kinds = core::spec_steps(registered);
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

#include "kinds.hpp"

namespace ganglion::app {

kind_settings settings_of(const std::string& kubeconfig, const std::string& object_identity,
                          const trigger_source_options& options) {
  kind_settings out;
  out.kubeconfig = kubeconfig;
  out.object_identity = object_identity;
  out.git_allow_http = options.git_allow_http;
  out.github_api_url = options.github_api_url;
  out.artifact_ca_file = options.artifact_ca_file;
  return out;
}

kinds register_kinds(const std::shared_ptr<http::runtime>& http,
                     const kind_settings& settings) {
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

#include "ganglion/kubernetes/transport.hpp"

#include "ganglion/kubernetes/resource_source.hpp"
#include "trigger/trigger_factories.hpp"

namespace ganglion::kubernetes {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["resource"] = make_resource_source_factory(opts);
  triggers["k8s"] = detail::make_k8s_trigger_factory(opts);
  triggers["argoWorkflow"] = detail::make_workflow_trigger_factory(opts);
}

core::command_options command_options() {
  const std::vector<std::string> commands{"run", "validate", "test"};
  core::command_option http_git;
  http_git.flag = "--git-allow-http";
  http_git.help = "Let git trigger sources clone plain http:// URLs, never with creds or "
                  "githubApp (default: https and ssh only)";
  http_git.commands = commands;
  http_git.is_switch = true;
  core::command_option api;
  api.flag = "--github-api-url";
  api.help = "GitHub REST API root of git.githubApp (GitHub Enterprise: https://HOST/api/v3; "
             "default: https://api.github.com)";
  api.commands = commands;
  api.https_url_only = "must be an https:// URL";
  core::command_option ca;
  ca.flag = "--artifact-ca-file";
  ca.help = "PEM file of the CAs that verify git's https servers and the GitHub API "
            "(default: the system's CAs)";
  ca.commands = commands;
  ca.existing_file = true;
  return {http_git, api, ca};
}

options options_from(const core::option_values& values) {
  options out;
  out.kubeconfig = values.value("--kubeconfig");
  out.object_identity = identity_mode_or_engine(values.value("--object-identity"));
  out.allow_plain_http_git = values.is_set("--git-allow-http");
  out.github_api_url = values.value("--github-api-url");
  out.artifact_ca_file = values.value("--artifact-ca-file");
  return out;
}

} // namespace ganglion::kubernetes

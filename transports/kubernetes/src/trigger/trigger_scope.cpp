// The check step of the k8s and argoWorkflow triggers for the object identity: a fixed source
// object (`resource`, `inline`) that names another namespace is refused in `namespace` mode,
// and a `file` source in `impersonate` and `namespace` modes, before anything runs.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "client/acting_identity.hpp"
#include "artifact/artifact.hpp"
#include "trigger/trigger_factories.hpp"

namespace ganglion::kubernetes::detail {

namespace {

/// `<type> trigger <sensor>/<trigger>`, as the problems of an object trigger name it.
std::string trigger_name(const core::trigger_context& ctx, const std::string& type) {
  return fmt::format("{} trigger {}/{}", type, ctx.sensor_name,
                     ctx.manifest ? ctx.manifest->template_.name : std::string{});
}

} // namespace

std::vector<std::string> object_trigger_problems(const core::trigger_context& ctx,
                                                 const options& opts, const std::string& type,
                                                 const artifact_location* source,
                                                 const std::vector<std::string>& own) {
  const auto name = trigger_name(ctx, type);
  std::vector<std::string> problems;
  if (!source)
    problems.push_back(fmt::format("{}: {}.source is required", name, type));
  for (const auto& problem : own)
    problems.push_back(fmt::format("{}: {}", name, problem));
  auto scope = trigger_scope_problems(ctx, opts, type, source);
  problems.insert(problems.end(), scope.begin(), scope.end());
  return problems;
}

std::vector<std::string> trigger_scope_problems(const core::trigger_context& ctx,
                                                const options& opts, const std::string& type,
                                                const artifact_location* source) {
  const auto name = trigger_name(ctx, type);
  std::vector<std::string> problems;
  if (opts.object_identity == identity_mode::impersonate) {
    try {
      service_account_user(ctx.sensor_namespace.empty() ? "default" : ctx.sensor_namespace,
                           ctx.sensor_service_account);
    } catch (const std::invalid_argument& e) {
      problems.push_back(
        fmt::format("{}: cannot act as the Sensor's service account: {}", name, e.what()));
    }
  }
  if (source && source->kind() == artifact_kind::file) {
    auto why = file_source_refusal(to_string(opts.object_identity));
    if (!why.empty())
      problems.push_back(fmt::format("{}: {}.source.file: {}", name, type, why));
  }
  if (opts.object_identity != identity_mode::namespace_ || ctx.sensor_namespace.empty() || !source)
    return problems;
  auto kind = source->kind();
  if (kind != artifact_kind::resource && kind != artifact_kind::inline_text)
    return problems;
  const auto path = type + ".source";
  nlohmann::json object;
  try {
    fetch_options fetch;
    fetch.path = path;
    object = nlohmann::json::parse(fetch_artifact(*source, fetch));
  } catch (const std::exception&) {
    return problems; // the executor reports what is wrong with the object itself
  }
  auto at = "/metadata/namespace"_json_pointer;
  if (object.contains(at) && object[at].is_string()
      && object[at].get<std::string>() != ctx.sensor_namespace)
    problems.push_back(
      fmt::format("{}: {}", name,
                  outside_namespace(path + ": metadata.namespace", object[at].get<std::string>(),
                                    "Sensor", ctx.sensor_namespace)));
  return problems;
}

} // namespace ganglion::kubernetes::detail

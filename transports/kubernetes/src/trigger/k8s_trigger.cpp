// The `k8s` trigger (Argo's pkg/sensors/triggers/standard-k8s): create, update, patch or delete
// the object its source holds.

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "artifact/artifact.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/kubernetes/spec.hpp"
#include "trigger/object_merge.hpp"
#include "trigger/object_trigger.hpp"
#include "trigger/trigger_factories.hpp"
#include "trigger/workflow_objects.hpp"

namespace ganglion::kubernetes::detail {

namespace {

using json = nlohmann::json;

std::string name_of(const json& object) {
  auto at = "/metadata/name"_json_pointer;
  return object.contains(at) && object[at].is_string() ? object[at].get<std::string>() : "";
}

/// `<Kind> <namespace>/<name>` of an object the API returned.
std::string reference(const json& object) {
  auto ns = "/metadata/namespace"_json_pointer;
  auto kind = object.value("kind", std::string{});
  auto name = name_of(object);
  if (object.contains(ns) && object[ns].is_string())
    return fmt::format("{} {}/{}", kind, object[ns].get<std::string>(), name);
  return fmt::format("{} {}", kind, name);
}

class k8s_operation final : public object_operation {
public:
  explicit k8s_operation(const k8s_trigger_spec& spec)
    : operation_(spec.effective_operation()), strategy_(spec.effective_patch_strategy()),
      live_object_(spec.live_object) {}

  json fetched(const trigger_site& site, json object) const override {
    if (!live_object_ || operation_ != "update")
      return object;
    auto name = name_of(object);
    if (name.empty())
      throw std::runtime_error("resource name must be specified for fetching live object");
    auto resource = site.resource_of(object);
    auto at = "/metadata/namespace"_json_pointer;
    auto ns = object.contains(at) && object[at].is_string() ? object[at].get<std::string>() : "";
    if (ns.empty() && resource.namespaced)
      throw std::runtime_error("resource namespace must be specified for fetching live object");
    site.check_scope(resource, ns, "metadata.namespace");
    auto path = api_client::path_of(resource, ns, name);
    auto live = site.get(path, "cannot read the live object");
    if (!live)
      throw std::runtime_error(fmt::format("the live object {} does not exist", path));
    return *live;
  }

  operation_result act(const trigger_site& site, json object) const override {
    auto resource = site.resource_of(object);
    // Argo: a cluster-scoped resource has no namespace; any other the object's, else the
    // sensor's.
    std::string ns = resource.namespaced ? site.namespace_of(object) : "";
    site.check_scope(resource, ns, "metadata.namespace");
    if (!object["metadata"].is_object())
      object["metadata"] = json::object();
    if (ns.empty())
      object["metadata"].erase("namespace");
    else
      object["metadata"]["namespace"] = ns;
    auto collection = api_client::path_of(resource, ns);
    auto create = [&](const char* verb) {
      auto created = site.send("POST", collection, object.dump(), "application/json",
                               fmt::format("cannot create {}", resource.kind));
      return result_of(resource, ns, created, verb);
    };
    if (operation_ == "create") {
      add_labels(object, site.created_labels());
      return create("created");
    }
    auto name = name_of(object);
    if (name.empty())
      throw std::runtime_error(fmt::format("metadata.name is required to {} the object",
                                           operation_));
    auto path = api_client::path_of(resource, ns, name);
    auto live = site.get(path, "failed to retrieve existing object");
    if (operation_ == "delete") {
      if (!live)
        return {{}, fmt::format("{} {} not found, nothing to delete", resource.kind, name)};
      auto deleted = site.send("DELETE", path, {}, "application/json", "failed to delete object");
      return {{}, fmt::format("deleted {} {}", resource.kind, name),
              object_reference("deleted", resource, ns, name, deleted)};
    }
    if (!live) {
      spdlog::info("{}: {} {} not found, creating the object", site.name(), resource.kind, name);
      return create("created");
    }
    if (operation_ == "update") {
      merge_into(*live, object);
      auto updated = site.send("PUT", path, live->dump(), "application/json",
                               "failed to update the object");
      return result_of(resource, ns, updated, "updated");
    }
    auto patch_path = strategy_ == patch_strategy::apply ? path + "?fieldManager=ganglion" : path;
    auto patched = site.send("PATCH", patch_path, object.dump(), strategy_,
                             "failed to patch the object");
    return result_of(resource, ns, patched, "patched");
  }

  std::string describe(const trigger_site& site, const json& object) const override {
    std::string what = operation_;
    if (operation_ == "patch")
      what += " (" + strategy_ + ")";
    if (operation_ == "create")
      what += " (with the labels events.argoproj.io/sensor, /trigger, /action-timestamp)";
    return fmt::format("k8s {} {}/{} {}\n\n{}", what, object.value("apiVersion", ""),
                       object.value("kind", ""), name_of(object), object.dump(2));
  }

private:
  static operation_result result_of(const resource_info& resource, const std::string& ns,
                                    const json& returned, const char* verb) {
    auto name = name_of(returned);
    return {api_client::path_of(resource, ns, name),
            fmt::format("{} {}", verb, reference(returned)),
            object_reference(verb, resource, ns, name, returned)};
  }

  std::string operation_;
  std::string strategy_;
  bool live_object_;
};

} // namespace

std::vector<std::string> k8s_trigger_problems(const core::trigger_context& ctx,
                                              const options& opts) {
  return core::check_spec<k8s_trigger_spec>(ctx, [&](const auto& spec) {
    std::vector<std::string> own;
    auto op = spec.effective_operation();
    if (op != "create" && op != "update" && op != "patch" && op != "delete")
      own.push_back(fmt::format("unknown operation type {}", op));
    return object_trigger_problems(ctx, opts, "k8s", spec.source.get(), own);
  });
}

core::trigger_factory make_k8s_trigger_factory(const options& opts) {
  return object_trigger_factory<k8s_trigger_spec, k8s_operation>(
    opts, "k8s", &k8s_trigger_problems, k8s_trigger_spec_step());
}

} // namespace ganglion::kubernetes::detail

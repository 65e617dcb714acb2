#include "trigger/workflow_objects.hpp"

#include <set>

namespace ganglion::kubernetes::detail {

namespace {

using json = nlohmann::json;

json new_workflow(const std::string& generate_name) {
  return json{{"apiVersion", "argoproj.io/v1alpha1"},
              {"kind", "Workflow"},
              {"metadata", {{"generateName", generate_name}}},
              {"spec", json::object()}};
}

std::string text_at(const json& object, const json::json_pointer& at) {
  return object.contains(at) && object[at].is_string() ? object[at].get<std::string>() : "";
}

} // namespace

void add_labels(json& object, const std::map<std::string, std::string>& labels) {
  if (labels.empty())
    return;
  auto& metadata = object["metadata"];
  if (!metadata.is_object())
    metadata = json::object();
  auto& into = metadata["labels"];
  if (!into.is_object())
    into = json::object();
  for (const auto& [key, value] : labels)
    into[key] = value;
}

json workflow_from_template(const std::string& name, bool cluster_scope) {
  auto wf = new_workflow(name + "-");
  json ref{{"name", name}};
  if (cluster_scope)
    ref["clusterScope"] = true;
  wf["spec"]["workflowTemplateRef"] = ref;
  add_labels(wf, {{cluster_scope ? "workflows.argoproj.io/cluster-workflow-template"
                                 : "workflows.argoproj.io/workflow-template",
                   name}});
  return wf;
}

json workflow_from_cron(const json& cron) {
  auto name = text_at(cron, "/metadata/name"_json_pointer);
  auto wf = new_workflow(name + "-");
  if (cron.contains("/spec/workflowSpec"_json_pointer))
    wf["spec"] = cron["/spec/workflowSpec"_json_pointer];
  if (cron.contains("/spec/workflowMetadata"_json_pointer)) {
    const auto& meta = cron["/spec/workflowMetadata"_json_pointer];
    for (const char* key : {"labels", "annotations"})
      if (meta.contains(key) && meta[key].is_object())
        wf["metadata"][key] = meta[key];
  }
  add_labels(wf, {{"workflows.argoproj.io/cron-workflow", name}});
  return wf;
}

json resubmitted_workflow(const json& old) {
  auto name = text_at(old, "/metadata/name"_json_pointer);
  auto generate = text_at(old, "/metadata/generateName"_json_pointer);
  auto wf = new_workflow(generate.empty() ? name + "-" : generate);
  if (old.contains("spec"))
    wf["spec"] = old["spec"];
  wf["spec"].erase("shutdown");
  if (old.contains("/metadata/annotations"_json_pointer))
    wf["metadata"]["annotations"] = old["/metadata/annotations"_json_pointer];
  std::map<std::string, std::string> labels;
  if (old.contains("/metadata/labels"_json_pointer))
    for (const auto& [key, value] : old["/metadata/labels"_json_pointer].items())
      // The controller's own labels (phase, completed …) are not carried over.
      if (key.rfind("workflows.argoproj.io/", 0) != 0 && value.is_string())
        labels[key] = value.get<std::string>();
  labels["workflows.argoproj.io/resubmitted-from-workflow"] = name;
  add_labels(wf, labels);
  return wf;
}

void apply_args(json& wf, const workflow_args& args) {
  if (!args.parameters.empty()) {
    auto& params = wf["spec"]["arguments"]["parameters"];
    json merged = json::array();
    std::set<std::string> given;
    for (const auto& [name, value] : args.parameters) {
      merged.push_back({{"name", name}, {"value", value}});
      given.insert(name);
    }
    if (params.is_array())
      for (const auto& p : params)
        if (!p.is_object() || !p.contains("name") || !p["name"].is_string()
            || !given.contains(p["name"].get<std::string>()))
          merged.push_back(p);
    params = std::move(merged);
  }
  if (!args.entrypoint.empty())
    wf["spec"]["entrypoint"] = args.entrypoint;
  if (!args.service_account.empty())
    wf["spec"]["serviceAccountName"] = args.service_account;
  if (!args.name.empty())
    wf["metadata"]["name"] = args.name;
  if (!args.generate_name.empty())
    wf["metadata"]["generateName"] = args.generate_name;
  add_labels(wf, args.labels);
}

} // namespace ganglion::kubernetes::detail

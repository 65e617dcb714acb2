// The object verbs: get, list, create, update (PUT), patch, delete, and a watch's parameters.

#include <regex>

#include "api_handler.hpp"
#include "errors.hpp"
#include "patches.hpp"
#include "resources.hpp"
#include "text.hpp"

namespace ganglion::test::kube::verbs {

namespace {

api_reply reply(int status, json body) {
  api_reply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

json parse_body(const api_call& call) {
  if (call.content_type.find("yaml") != std::string::npos)
    return parse_yaml_object(call.body);
  json body = json::parse(call.body, nullptr, false);
  if (body.is_discarded() || !body.is_object())
    throw bad_request("the body of the request could not be decoded as a JSON object");
  return body;
}

/// Checks the body's kind, apiVersion, namespace and name against the URL.
void check_identity(const json& body, const where& at) {
  auto kind = body.value("kind", "");
  auto api_version = body.value("apiVersion", "");
  if (kind.empty())
    throw bad_request("Object 'Kind' is missing in '" + body.dump() + "'");
  if (api_version.empty())
    throw bad_request("Object 'apiVersion' is missing in '" + body.dump() + "'");
  if (api_version != at.type.api_version())
    throw bad_request("the API version in the data (" + api_version
                      + ") does not match the expected API version ("
                      + at.type.api_version() + ")");
  if (kind != at.type.kind)
    throw bad_request(kind + " in version \"" + at.type.version + "\" cannot be handled as a "
                      + at.type.kind);
  const json& metadata = body.contains("metadata") ? body["metadata"] : json::object();
  if (!metadata.is_object())
    throw bad_request("metadata: must be an object");
  auto ns = metadata.value("namespace", "");
  if (at.type.namespaced && !ns.empty() && ns != at.ns)
    throw bad_request("the namespace of the provided object does not match the namespace sent "
                      "on the request");
  auto name = metadata.value("name", "");
  if (!at.name.empty() && !name.empty() && name != at.name)
    throw bad_request("the name of the object (" + name + ") does not match the name on the URL ("
                      + at.name + ")");
}

void check_name(const where& at, const std::string& name) {
  static const std::regex subdomain{"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"};
  if (name.size() > 253 || !std::regex_match(name, subdomain))
    throw invalid(at.type, name, "metadata.name", "FieldValueInvalid",
                  "Invalid value: \"" + name + "\": a lowercase RFC 1123 subdomain must "
                  "consist of lower case alphanumeric characters, '-' or '.', and must start "
                  "and end with an alphanumeric character (e.g. 'example.com', regex used for "
                  "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
}

/// The body as a new object: server-set metadata dropped, status dropped when it has its own
/// subresource.
json prepare_new(json object, const resource_type& type) {
  auto& metadata = object["metadata"];
  if (!metadata.is_object())
    metadata = json::object();
  for (const char* field : {"uid", "resourceVersion", "creationTimestamp", "generation",
                            "managedFields", "deletionTimestamp", "selfLink"})
    metadata.erase(field);
  if (type.has_status)
    object.erase("status");
  return object;
}

std::string version_of(const json& object) {
  if (!object.contains("metadata") || !object["metadata"].is_object())
    return {};
  return object["metadata"].value("resourceVersion", "");
}

/// `changed` with only `status` taken from it (a status subresource write), or with `status`
/// kept from `current` (a write to an object that has the subresource).
json merge_status(const json& current, const json& changed, const where& at) {
  json result = at.subresource == "status" ? current : changed;
  const json& source = at.subresource == "status" ? changed : current;
  if (source.contains("status"))
    result["status"] = source["status"];
  else
    result.erase("status");
  return result;
}

std::int64_t parse_limit(const parsed_target& target) {
  auto it = target.query.find("limit");
  if (it == target.query.end() || it->second.empty())
    return 0;
  try {
    return std::stoll(it->second);
  } catch (const std::exception&) {
    throw bad_request("limit: Invalid value: \"" + it->second + "\": must be a number");
  }
}

watch_filter filter_of(const where& at, const parsed_target& target) {
  watch_filter filter;
  filter.ns = at.ns;
  if (auto it = target.query.find("labelSelector"); it != target.query.end())
    filter.labels = parse_label_selector(it->second);
  if (auto it = target.query.find("fieldSelector"); it != target.query.end())
    filter.fields = parse_field_selector(it->second, at.type);
  return filter;
}

} // namespace

api_reply get(store& objects, const where& at) {
  auto object = objects.get(at.type, at.ns, at.name);
  if (!object)
    throw not_found(at.type, at.name);
  return reply(200, *object);
}

api_reply list(store& objects, const where& at, const parsed_target& target) {
  auto continue_token = target.query.count("continue") ? target.query.at("continue") : "";
  auto page = objects.list(at.type, filter_of(at, target), parse_limit(target), continue_token);
  json metadata = {{"resourceVersion", page.resource_version}};
  if (!page.continue_token.empty())
    metadata["continue"] = page.continue_token;
  if (page.remaining)
    metadata["remainingItemCount"] = *page.remaining;
  return reply(200, {{"kind", at.type.kind + "List"},
                     {"apiVersion", at.type.api_version()},
                     {"metadata", metadata},
                     {"items", std::move(page.items)}});
}

api_reply create(store& objects, const where& at, const api_call& call) {
  json body = parse_body(call);
  check_identity(body, at);
  json object = prepare_new(std::move(body), at.type);
  auto name = object["metadata"].value("name", "");
  auto generate = object["metadata"].value("generateName", "");
  if (name.empty() && generate.empty())
    throw invalid(at.type, "", "metadata.name", "FieldValueRequired",
                  "Required value: name or generateName is required");
  for (int attempt = 0;; ++attempt) {
    auto chosen = name.empty() ? generate + random_suffix(5) : name;
    check_name(at, chosen);
    try {
      auto stored = objects.write(
        at.type, at.ns, chosen,
        [&](const json* current) {
          if (current)
            throw already_exists(at.type, chosen);
          return object;
        },
        "create");
      return reply(201, stored);
    } catch (const api_error& e) {
      if (!name.empty() || e.reason() != "AlreadyExists" || attempt >= 8)
        throw;
    }
  }
}

api_reply update(store& objects, const where& at, const api_call& call) {
  json body = parse_body(call);
  check_identity(body, at);
  auto sent_version = version_of(body);
  if (sent_version.empty() && !is_builtin(at.type) && at.subresource.empty())
    throw invalid(at.type, at.name, "metadata.resourceVersion", "FieldValueInvalid",
                  "Invalid value: 0x0: must be specified for an update");
  auto stored = objects.write(
    at.type, at.ns, at.name,
    [&](const json* current) {
      if (!current)
        throw not_found(at.type, at.name);
      if (!sent_version.empty() && sent_version != version_of(*current))
        throw conflict(at.type, at.name);
      return at.type.has_status ? merge_status(*current, body, at) : body;
    },
    "update", at.subresource);
  return reply(200, stored);
}

api_reply patch(store& objects, const where& at, const api_call& call,
                const parsed_target& target) {
  auto type = patch_type_of(call.content_type);
  if (type == patch_type::unsupported)
    throw api_error{415, "UnsupportedMediaType",
                    "the body of the request was in an unknown format - accepted media types "
                    "include: application/json-patch+json, application/merge-patch+json, "
                    "application/apply-patch+yaml, application/strategic-merge-patch+json"};
  bool created = false;
  std::string verb = "patch";
  if (type == patch_type::apply) {
    auto manager = target.query.count("fieldManager") ? target.query.at("fieldManager") : "";
    if (manager.empty())
      throw api_error{422, "Invalid",
                      "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: "
                      "is required for apply patch"};
    check_identity(parse_yaml_object(call.body), at);
    if (!objects.get(at.type, at.ns, at.name))
      verb = "create";
  }
  auto stored = objects.write(
    at.type, at.ns, at.name,
    [&](const json* current) {
      if (!current && type != patch_type::apply)
        throw not_found(at.type, at.name);
      if (!current && !at.subresource.empty())
        throw not_found(at.type, at.name);
      if (!current) {
        created = true;
        check_name(at, at.name);
        return prepare_new(parse_yaml_object(call.body), at.type);
      }
      json patched = apply_patch(*current, type, call.body, at.type, at.name);
      if (!patched.is_object())
        throw bad_request("the patch does not leave an object");
      auto patched_version = version_of(patched);
      if (!patched_version.empty() && patched_version != version_of(*current))
        throw conflict(at.type, at.name);
      return at.type.has_status ? merge_status(*current, patched, at) : patched;
    },
    verb, at.subresource);
  return reply(created ? 201 : 200, stored);
}

api_reply remove(store& objects, const where& at) {
  auto removed = objects.remove(at.type, at.ns, at.name);
  if (!removed)
    throw not_found(at.type, at.name);
  return reply(200, *removed);
}

watch_request watch(const where& at, const parsed_target& target) {
  watch_request request;
  request.type = at.type;
  request.filter = filter_of(at, target);
  if (auto it = target.query.find("resourceVersion"); it != target.query.end())
    request.from_version = it->second;
  if (auto it = target.query.find("allowWatchBookmarks"); it != target.query.end())
    request.bookmarks = it->second == "true" || it->second == "1";
  if (auto it = target.query.find("timeoutSeconds"); it != target.query.end()) {
    try {
      request.timeout = std::chrono::seconds(std::stoll(it->second));
    } catch (const std::exception&) {
      throw bad_request("timeoutSeconds: Invalid value: \"" + it->second + "\"");
    }
  }
  return request;
}

} // namespace ganglion::test::kube::verbs

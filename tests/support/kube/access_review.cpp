#include "access_review.hpp"

#include "errors.hpp"
#include "patches.hpp"

namespace ganglion::test::kube {

namespace {

constexpr const char* review_kind = "SelfSubjectAccessReview";
constexpr const char* review_version = "authorization.k8s.io/v1";

std::string field(const json& object, const char* key) {
  return object.contains(key) && object[key].is_string() ? object[key].get<std::string>() : "";
}

api_error invalid_review(const std::string& field_path, const std::string& detail) {
  json details = {
    {"name", ""},
    {"group", "authorization.k8s.io"},
    {"kind", review_kind},
    {"causes",
     json::array({{{"reason", "FieldValueInvalid"}, {"message", detail}, {"field", field_path}}})}};
  return {422, "Invalid",
          std::string(review_kind) + ".authorization.k8s.io \"\" is invalid: " + field_path + ": "
            + detail,
          details};
}

request_attributes attributes_of_review(const json& spec) {
  request_attributes attributes;
  bool has_resource = spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object();
  bool has_path = spec.contains("nonResourceAttributes")
                  && spec["nonResourceAttributes"].is_object();
  if (has_resource == has_path)
    throw invalid_review("spec.resourceAttributes",
                         "Invalid value: \"null\": exactly one of nonResourceAttributes or "
                         "resourceAttributes must be specified");
  if (has_path) {
    const auto& path = spec["nonResourceAttributes"];
    attributes.path = field(path, "path");
    attributes.verb = field(path, "verb");
    return attributes;
  }
  const auto& resource = spec["resourceAttributes"];
  attributes.resource_request = true;
  attributes.ns = field(resource, "namespace");
  attributes.verb = field(resource, "verb");
  attributes.group = field(resource, "group");
  attributes.version = field(resource, "version");
  attributes.resource = field(resource, "resource");
  attributes.subresource = field(resource, "subresource");
  attributes.name = field(resource, "name");
  return attributes;
}

} // namespace

bool is_access_review(const parsed_target& target) {
  const auto& s = target.segments;
  return s.size() == 4 && s[0] == "apis" && s[1] == "authorization.k8s.io" && s[2] == "v1"
         && s[3] == "selfsubjectaccessreviews";
}

api_reply self_subject_access_review(const api_call& call, const authorizer& authorize) {
  if (call.method != "POST")
    throw api_error{405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource"};
  json body = call.content_type.find("yaml") != std::string::npos
                ? parse_yaml_object(call.body)
                : json::parse(call.body, nullptr, false);
  if (body.is_discarded() || !body.is_object())
    throw bad_request("the body of the request could not be decoded as a JSON object");
  if (body.value("kind", "") != review_kind || body.value("apiVersion", "") != review_version)
    throw bad_request("the body is not a " + std::string(review_kind) + " of " + review_version);
  json spec = body.contains("spec") && body["spec"].is_object() ? body["spec"] : json::object();
  auto answer = authorize.authorize(call.user, attributes_of_review(spec));
  json status = {{"allowed", answer.allowed}};
  if (!answer.reason.empty())
    status["reason"] = answer.reason;
  json metadata = body.contains("metadata") && body["metadata"].is_object() ? body["metadata"]
                                                                            : json::object();
  metadata["creationTimestamp"] = nullptr;
  api_reply reply;
  reply.status = 201;
  reply.body = {{"kind", review_kind},
                {"apiVersion", review_version},
                {"metadata", metadata},
                {"spec", spec},
                {"status", status}};
  return reply;
}

} // namespace ganglion::test::kube

#include "errors.hpp"

namespace ganglion::test::kube {

api_error::api_error(int code, std::string reason, const std::string& message, json details)
  : std::runtime_error(message), code_(code), reason_(std::move(reason)),
    details_(std::move(details)) {}

json api_error::status() const {
  json status = {{"kind", "Status"},       {"apiVersion", "v1"}, {"metadata", json::object()},
                 {"status", "Failure"},    {"message", what()},  {"reason", reason_},
                 {"code", code_}};
  if (!details_.is_null())
    status["details"] = details_;
  return status;
}

std::string qualified(const resource_type& type) {
  return type.group.empty() ? type.plural : type.plural + "." + type.group;
}

std::string reason_of(int code) {
  switch (code) {
  case 400: return "BadRequest";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "NotFound";
  case 405: return "MethodNotAllowed";
  case 406: return "NotAcceptable";
  case 409: return "Conflict";
  case 410: return "Expired";
  case 413: return "RequestEntityTooLarge";
  case 415: return "UnsupportedMediaType";
  case 422: return "Invalid";
  case 429: return "TooManyRequests";
  case 500: return "InternalError";
  case 503: return "ServiceUnavailable";
  case 504: return "Timeout";
  default: return "Unknown";
  }
}

namespace {

json details_of(const resource_type& type, const std::string& name) {
  json details = {{"name", name}, {"kind", type.plural}};
  if (!type.group.empty())
    details["group"] = type.group;
  return details;
}

} // namespace

api_error not_found(const resource_type& type, const std::string& name) {
  return {404, "NotFound", qualified(type) + " \"" + name + "\" not found",
          details_of(type, name)};
}

api_error already_exists(const resource_type& type, const std::string& name) {
  return {409, "AlreadyExists", qualified(type) + " \"" + name + "\" already exists",
          details_of(type, name)};
}

api_error conflict(const resource_type& type, const std::string& name) {
  return {409, "Conflict",
          "Operation cannot be fulfilled on " + qualified(type) + " \"" + name
            + "\": the object has been modified; please apply your changes to the latest "
              "version and try again",
          details_of(type, name)};
}

api_error invalid(const resource_type& type, const std::string& name, const std::string& field,
                  const std::string& cause_reason, const std::string& detail) {
  json details = details_of(type, name);
  details["kind"] = type.kind;
  details["causes"] = json::array({{{"reason", cause_reason}, {"message", detail},
                                    {"field", field}}});
  std::string kind = type.group.empty() ? type.kind : type.kind + "." + type.group;
  return {422, "Invalid", kind + " \"" + name + "\" is invalid: " + field + ": " + detail,
          std::move(details)};
}

api_error bad_request(const std::string& message) {
  return {400, "BadRequest", message};
}

} // namespace ganglion::test::kube

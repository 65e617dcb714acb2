#include "api_handler.hpp"

#include <cctype>

#include "access_review.hpp"
#include "errors.hpp"
#include "openapi.hpp"
#include "resources.hpp"

namespace ganglion::test::kube {

namespace {

std::string url_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size()
               && std::isxdigit(static_cast<unsigned char>(text[i + 1]))
               && std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

api_reply reply(int status, json body) {
  api_reply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

api_reply failure(const api_error& error) {
  return reply(error.code(), error.status());
}

api_error resource_not_found() {
  return {404, "NotFound", "the server could not find the requested resource"};
}

api_reply injected(const injected_failure& f) {
  std::string message;
  json details = nullptr;
  switch (f.status) {
    case 429: message = "Too many requests, please try again later."; break;
    case 500: message = "Internal error occurred: injected failure"; break;
    case 503: message = "the server is currently unable to handle the request"; break;
    case 504: message = "Timeout: request did not complete within the allotted timeout"; break;
    default: message = "injected failure (HTTP " + std::to_string(f.status) + ")";
  }
  if (f.retry_after_seconds > 0)
    details = {{"retryAfterSeconds", f.retry_after_seconds}};
  auto r = failure(api_error{f.status, reason_of(f.status), message, details});
  if (f.retry_after_seconds > 0)
    r.headers.emplace_back("Retry-After", std::to_string(f.retry_after_seconds));
  return r;
}

/// The verb Kubernetes authorizes for `method` on a target with or without an object name.
std::string verb_of(const std::string& method, bool named, bool watching) {
  if (method == "GET")
    return named ? "get" : (watching ? "watch" : "list");
  if (method == "POST")
    return named ? "" : "create";
  if (method == "PUT")
    return named ? "update" : "";
  if (method == "PATCH")
    return named ? "patch" : "";
  if (method == "DELETE")
    return named ? "delete" : "";
  return "";
}

api_error forbidden(const api_call& call, const std::string& verb, const verbs::where& at) {
  std::string resource = at.subresource.empty() ? at.type.plural
                                                : at.type.plural + "/" + at.subresource;
  std::string subject = qualified(at.type);
  if (!at.name.empty())
    subject += " \"" + at.name + "\"";
  std::string scope = at.ns.empty() ? "at the cluster scope" : "in the namespace \"" + at.ns + "\"";
  json details = {{"kind", at.type.plural}};
  if (!at.name.empty())
    details["name"] = at.name;
  if (!at.type.group.empty())
    details["group"] = at.type.group;
  return {403, "Forbidden",
          subject + " is forbidden: User \"" + call.user.name + "\" cannot " + verb + " resource \""
            + resource + "\" in API group \"" + at.type.group + "\" " + scope,
          details};
}

} // namespace

parsed_target parse_target(const std::string& target) {
  parsed_target parsed;
  auto question = target.find('?');
  std::string path = target.substr(0, question);
  std::size_t start = 0;
  while (start < path.size()) {
    auto slash = path.find('/', start);
    auto segment =
      path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!segment.empty())
      parsed.segments.push_back(url_decode(segment));
    if (slash == std::string::npos)
      break;
    start = slash + 1;
  }
  if (question == std::string::npos)
    return parsed;
  std::string query = target.substr(question + 1);
  start = 0;
  while (start <= query.size()) {
    auto amp = query.find('&', start);
    auto pair = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    if (!pair.empty()) {
      auto eq = pair.find('=');
      parsed.query[url_decode(pair.substr(0, eq))] =
        eq == std::string::npos ? "" : url_decode(pair.substr(eq + 1));
    }
    if (amp == std::string::npos)
      break;
    start = amp + 1;
  }
  return parsed;
}

api_handler::api_handler(store& objects, faults& injected, const authorizer& authorize,
                         bool auth_required, std::string address)
  : store_(objects), faults_(injected), authorizer_(authorize), auth_required_(auth_required),
    address_(std::move(address)) {}

api_reply api_handler::handle(api_call& call) const {
  try {
    if (auth_required_ && !call.authenticated)
      return failure(api_error{401, "Unauthorized", "Unauthorized"});
    auto acting = impersonate(call.user, call.impersonation, authorizer_);
    if (call.impersonation.any()) {
      call.impersonated_by = call.user.name;
      call.user = std::move(acting);
    }
    if (auto f = faults_.take(call.target))
      return injected(*f);
    auto target = parse_target(call.target);
    if (authorizer_.enabled()) {
      auto path = call.target.substr(0, call.target.find('?'));
      auto attributes = attributes_of(call.method, path, target.segments, target.query);
      auto answer = authorizer_.authorize(call.user, attributes);
      if (!answer.allowed)
        throw forbidden(call.user, attributes, answer.reason);
    }
    if (is_access_review(target))
      return self_subject_access_review(call, authorizer_);
    return route(call, target);
  } catch (const impersonation_error& e) {
    api_reply r;
    r.status = 500;
    r.text = "Internal Server Error: \"" + call.target + "\": " + e.what();
    return r;
  } catch (const api_error& e) {
    return failure(e);
  } catch (const std::exception& e) {
    return failure(
      api_error{500, "InternalError", std::string("Internal error occurred: ") + e.what()});
  }
}

api_reply api_handler::route(const api_call& call, const parsed_target& target) const {
  const auto& s = target.segments;
  if (s.size() == 1 && (s[0] == "healthz" || s[0] == "livez" || s[0] == "readyz")) {
    api_reply r;
    r.text = "ok";
    return r;
  }
  if (s.size() == 1 && s[0] == "version")
    return reply(200, {{"major", "1"},
                       {"minor", "29"},
                       {"gitVersion", "v1.29.0-ganglion-test"},
                       {"platform", "linux/amd64"}});
  if (!s.empty() && s[0] == "openapi" && call.method == "GET")
    return openapi(call, s);
  if (s.empty() || (s[0] != "api" && s[0] != "apis"))
    throw resource_not_found();
  if (call.method != "GET" && s.size() < 3)
    throw api_error{405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource"};
  auto types = store_.resources();
  if (s[0] == "api") {
    if (s.size() == 1)
      return reply(200, api_versions(address_));
    if (s[1] != "v1")
      throw resource_not_found();
    if (s.size() == 2)
      return reply(200, api_resource_list(types, "", "v1"));
    return serve_resource(call, target, "", "v1", {s.begin() + 2, s.end()});
  }
  if (s.size() == 1)
    return reply(200, api_group_list(types));
  if (s.size() == 2) {
    auto group = api_group(types, s[1]);
    if (group.is_null())
      throw resource_not_found();
    return reply(200, group);
  }
  if (s.size() == 3) {
    auto list = api_resource_list(types, s[1], s[2]);
    if (list.is_null())
      throw resource_not_found();
    return reply(200, list);
  }
  return serve_resource(call, target, s[1], s[2], {s.begin() + 3, s.end()});
}

api_reply api_handler::openapi(const api_call& call,
                               const std::vector<std::string>& segments) const {
  if (segments.size() == 2 && segments[1] == "v2") {
    if (call.accept.find("protobuf") == std::string::npos)
      return reply(200, openapi_v2_json());
    api_reply r;
    r.text = openapi_v2_protobuf();
    r.content_type = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    return r;
  }
  if (segments.size() < 2 || segments[1] != "v3")
    throw resource_not_found();
  auto types = store_.resources();
  if (segments.size() == 2)
    return reply(200, openapi_v3_index(types));
  json document;
  if (segments.size() == 4 && segments[2] == "api")
    document = openapi_v3_group_version(types, "", segments[3]);
  else if (segments.size() == 5 && segments[2] == "apis")
    document = openapi_v3_group_version(types, segments[3], segments[4]);
  if (document.is_null())
    throw resource_not_found();
  return reply(200, document);
}

api_reply api_handler::serve_resource(const api_call& call, const parsed_target& target,
                                      const std::string& group, const std::string& version,
                                      std::vector<std::string> rest) const {
  verbs::where at;
  std::optional<resource_type> type;
  if (rest.size() >= 3 && rest[0] == "namespaces") {
    type = store_.find(group, version, rest[2]);
    if (type) {
      at.ns = rest[1];
      rest.erase(rest.begin(), rest.begin() + 2);
    }
  }
  if (!type)
    type = store_.find(group, version, rest[0]);
  if (!type || rest.size() > 3)
    throw resource_not_found();
  at.type = *type;
  if (rest.size() > 1)
    at.name = rest[1];
  if (rest.size() > 2)
    at.subresource = rest[2];
  if (!at.type.namespaced && !at.ns.empty())
    throw resource_not_found();
  if (at.type.namespaced && at.ns.empty() && !at.name.empty())
    throw resource_not_found();
  if (!at.subresource.empty() && (at.subresource != "status" || !at.type.has_status))
    throw resource_not_found();
  auto watch_flag = target.query.count("watch") ? target.query.at("watch") : "";
  bool watching = watch_flag == "true" || watch_flag == "1";
  auto verb = verb_of(call.method, !at.name.empty(), watching);
  if (verb.empty() || (call.method == "POST" && at.type.namespaced && at.ns.empty()))
    throw api_error{405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource"};
  std::string resource = at.subresource.empty() ? at.type.plural
                                                : at.type.plural + "/" + at.subresource;
  if (faults_.forbidden(verb, resource))
    throw forbidden(call, verb, at);
  if (verb == "get")
    return verbs::get(store_, at);
  if (verb == "list")
    return verbs::list(store_, at, target);
  if (verb == "watch") {
    api_reply r;
    r.watch = verbs::watch(at, target);
    return r;
  }
  if (verb == "create")
    return verbs::create(store_, at, call);
  if (verb == "update")
    return verbs::update(store_, at, call);
  if (verb == "patch")
    return verbs::patch(store_, at, call, target);
  return verbs::remove(store_, at);
}

} // namespace ganglion::test::kube

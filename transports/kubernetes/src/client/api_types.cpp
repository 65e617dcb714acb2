#include "ganglion/kubernetes/client.hpp"

#include <nlohmann/json.hpp>

#include "client/text_file.hpp"

namespace ganglion::kubernetes {

namespace {

/// The start of `body` on one line, for a message.
std::string excerpt(const std::string& body) {
  constexpr std::size_t limit = 200;
  auto text = detail::trimmed(body.substr(0, limit + 1));
  for (auto& c : text) {
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
  }
  if (text.size() > limit)
    text = text.substr(0, limit) + "…";
  return text;
}

} // namespace

std::string api_response::message() const {
  if (status == 0)
    return error.empty() ? std::string("no response") : error;
  std::string text;
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object()) {
    auto m = json.find("message");
    if (m != json.end() && m->is_string())
      text = m->get<std::string>();
  }
  if (text.empty())
    text = excerpt(body);
  auto out = "HTTP " + std::to_string(status);
  return text.empty() ? out : out + ": " + text;
}

std::string resource_info::api_version() const {
  return group.empty() ? version : group + "/" + version;
}

std::string api_client::path_of(const resource_info& resource, std::string_view ns,
                                std::string_view object) {
  std::string path = resource.group.empty() ? "/api/" + resource.version
                                            : "/apis/" + resource.group + "/" + resource.version;
  if (resource.namespaced && !ns.empty())
    path.append("/namespaces/").append(ns);
  path.append("/").append(resource.name);
  if (!object.empty())
    path.append("/").append(object);
  return path;
}

} // namespace ganglion::kubernetes

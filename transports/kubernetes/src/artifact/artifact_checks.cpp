#include <yaml-cpp/yaml.h>

#include "artifact/fetchers.hpp"
#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_limits.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"

// What the artifact rules (check_artifact.cpp) share with the fetchers: an inline object's
// decoding and the form of an S3 endpoint. No I/O, so that the manifest fuzz target links it.

namespace ganglion::kubernetes::detail {

namespace {

bool is_digits(std::string_view text) {
  return text.find_first_not_of("0123456789") == std::string_view::npos;
}

} // namespace

std::string decode_object(std::string_view text) {
  std::string owned{text};
  if (auto hit = dsl::detail::check_yaml_limits(owned, {}, dsl::load_options{}))
    throw artifact_error("refused: " + hit->message + " (line " + std::to_string(hit->where.line)
                         + ", column " + std::to_string(hit->where.column) + ")");
  YAML::Node doc;
  try {
    doc = YAML::Load(owned);
  } catch (const YAML::Exception& e) {
    throw artifact_error("not valid YAML or JSON: " + e.msg + " (line "
                         + std::to_string(e.mark.line + 1) + ", column "
                         + std::to_string(e.mark.column + 1) + ")");
  }
  if (dsl::detail::is_absent(doc))
    throw artifact_error("holds no object (the document is empty)");
  if (!doc.IsMap())
    throw artifact_error("holds " + dsl::detail::describe(doc)
                         + ", not an object (a Kubernetes manifest is a map)");
  YAML::Node holder(YAML::NodeType::Map);
  holder["object"] = doc;
  return dsl::detail::read_json(holder, "object", "a");
}

std::string s3_endpoint_problem(std::string_view endpoint) {
  if (endpoint.find("://") != std::string_view::npos)
    return "endpoint is host[:port], without a scheme (insecure: true chooses http), got \""
           + std::string{endpoint} + "\"";
  if (endpoint.find_first_of("/?#@") != std::string_view::npos)
    return "endpoint is host[:port], without a path, got \"" + std::string{endpoint} + "\"";
  auto host = endpoint;
  if (endpoint.starts_with("[")) {
    auto close = endpoint.find(']');
    if (close == std::string_view::npos
        || (close + 1 < endpoint.size() && endpoint[close + 1] != ':')
        || !is_digits(endpoint.substr(std::min(endpoint.size(), close + 2))))
      return "endpoint \"" + std::string{endpoint} + "\" is not [IPv6 address]:port";
    return {};
  }
  if (auto colon = endpoint.find(':'); colon != std::string_view::npos) {
    host = endpoint.substr(0, colon);
    if (!is_digits(endpoint.substr(colon + 1)))
      return "endpoint \"" + std::string{endpoint} + "\" has no valid port after its host";
  }
  if (host.empty() || host.front() == '-' || host.front() == '.' || host.front() == '_'
      || host.back() == '-' || host.back() == '_'
      || host.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
           != std::string_view::npos)
    return "endpoint \"" + std::string{endpoint}
           + "\" does not follow ip address or domain name standards";
  return {};
}

} // namespace ganglion::kubernetes::detail

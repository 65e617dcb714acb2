#include <cctype>
#include <optional>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "artifact/fetchers.hpp"
#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_limits.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"

// What the artifact rules (check_artifact.cpp) share with the fetchers: an inline object's
// decoding and the form of an S3 endpoint. No I/O, so that the manifest fuzz target links it.

namespace ganglion::kubernetes::detail {

namespace {

/// What `node` is, never its text: artifact content stays out of messages.
std::string shape_of(const YAML::Node& node) {
  if (node.IsSequence())
    return "a list of " + std::to_string(node.size()) + " items";
  if (node.IsScalar())
    return "a string of " + std::to_string(node.Scalar().size()) + " bytes";
  return dsl::detail::describe(node);
}

bool is_digits(std::string_view text) {
  return text.find_first_not_of("0123456789") == std::string_view::npos;
}

bool has_control(std::string_view text) {
  for (unsigned char c : text)
    if (c < 0x20 || c == 0x7f)
      return true;
  return false;
}

/// The scheme of `url` (`https`), lower-case; empty when it has none.
std::string scheme_of(std::string_view url) {
  auto colon_slashes = url.find("://");
  if (colon_slashes == std::string_view::npos || colon_slashes == 0)
    return {};
  std::string out{url.substr(0, colon_slashes)};
  for (auto& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// `[user@]host:path` (git's scp-like SSH form): a colon before any slash, a host before it.
bool is_scp_like(std::string_view url) {
  auto colon = url.find(':');
  if (colon == std::string_view::npos || url.substr(0, colon).find('/') != std::string_view::npos)
    return false;
  auto host = url.substr(0, colon);
  if (auto at = host.rfind('@'); at != std::string_view::npos)
    host = host.substr(at + 1);
  return !host.empty() && host.front() != '-';
}

/// The components of `path` split at '/', empty ones and `.` dropped.
std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    auto slash = path.find('/');
    auto part = path.substr(0, slash);
    if (!part.empty() && part != ".")
      out.push_back(part);
    if (slash == std::string_view::npos)
      break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

} // namespace

std::string git_url_problem(std::string_view url) {
  if (has_control(url) || url.find(' ') != std::string_view::npos)
    return "the URL holds a space or a control character";
  auto scheme = scheme_of(url);
  if (scheme == "https" || scheme == "http" || scheme == "ssh") {
    auto rest = url.substr(scheme.size() + 3);
    auto authority = rest.substr(0, rest.find_first_of("/?#"));
    auto host = authority.substr(authority.rfind('@') == std::string_view::npos
                                   ? 0
                                   : authority.rfind('@') + 1);
    if (host.empty() || host.front() == ':' || host.front() == '-')
      return "the URL names no host";
    return {};
  }
  if (scheme == "file")
    return "file:// URLs are refused: the repository must be cloned over https or ssh";
  if (scheme == "git")
    return "git:// URLs are refused (unauthenticated and unencrypted): use https or ssh";
  if (!scheme.empty())
    return scheme + ":// URLs are refused: use https or ssh";
  if (is_scp_like(url))
    return {};
  return "a local path is refused: the repository must be cloned over https (or ssh, "
         "host:path)";
}

bool is_plain_http(std::string_view url) {
  return scheme_of(url) == "http";
}

std::string repo_file_path_problem(std::string_view path) {
  if (path.starts_with("/"))
    return "an absolute path is refused: filePath is relative to the repository's root";
  if (has_control(path))
    return "filePath holds a control character";
  for (auto part : components(path))
    if (part == "..")
      return "\"..\" is not allowed in the filePath";
  if (components(path).empty())
    return "filePath names no file";
  return {};
}

std::optional<std::string> confined_clone_directory(std::string_view dir) {
  if (has_control(dir))
    return std::nullopt;
  std::string out;
  for (auto part : components(dir)) {
    if (part == ".." || part == "~" || part.find('\\') != std::string_view::npos)
      return std::nullopt;
    if (!out.empty())
      out += '/';
    out += part;
  }
  return out;
}

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
    throw artifact_error("holds " + shape_of(doc)
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

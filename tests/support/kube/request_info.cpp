#include "request_info.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace ganglion::test::kube {

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

/// Go's strconv.ParseBool true values.
bool parses_true(const std::string& value) {
  return value == "1" || value == "t" || value == "T" || value == "true" || value == "TRUE"
         || value == "True";
}

std::string verb_of_method(const std::string& method) {
  if (method == "POST")
    return "create";
  if (method == "GET" || method == "HEAD")
    return "get";
  if (method == "PUT")
    return "update";
  if (method == "PATCH")
    return "patch";
  if (method == "DELETE")
    return "delete";
  return "";
}

/// The name a `fieldSelector` pins with `metadata.name=<name>` (or `==`), when valid as a
/// path segment; "" otherwise.
std::string selected_name(const std::map<std::string, std::string>& query) {
  auto it = query.find("fieldSelector");
  if (it == query.end())
    return {};
  static const std::regex exact{R"(^\s*metadata\.name\s*==?\s*([^,!=\s]*)\s*$)"};
  std::string found;
  std::size_t start = 0;
  const auto& text = it->second;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    auto term = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::smatch match;
    if (std::regex_match(term, match, exact))
      found = match[1];
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (found == "." || found == ".." || found.find('/') != std::string::npos
      || found.find('%') != std::string::npos)
    return {};
  return found;
}

} // namespace

request_attributes attributes_of(const std::string& method, const std::string& path,
                                 const std::vector<std::string>& segments,
                                 const std::map<std::string, std::string>& query) {
  request_attributes info;
  info.path = path;
  info.verb = lowercase(method);
  std::vector<std::string> parts = segments;
  if (parts.size() < 3 || (parts[0] != "api" && parts[0] != "apis"))
    return info;
  bool grouped = parts[0] == "apis";
  parts.erase(parts.begin());
  if (grouped) {
    if (parts.size() < 3)
      return info;
    info.group = parts[0];
    parts.erase(parts.begin());
  }
  info.resource_request = true;
  info.version = parts[0];
  parts.erase(parts.begin());
  bool special = parts[0] == "watch" || parts[0] == "proxy";
  if (special) {
    info.verb = parts[0];
    parts.erase(parts.begin());
    if (parts.empty())
      return info;
  } else {
    info.verb = verb_of_method(method);
  }
  if (parts[0] == "namespaces") {
    if (parts.size() > 1) {
      info.ns = parts[1];
      if (parts.size() > 2 && parts[2] != "status" && parts[2] != "finalize")
        parts.erase(parts.begin(), parts.begin() + 2);
    }
  }
  if (parts.size() >= 3 && info.verb != "proxy")
    info.subresource = parts[2];
  if (parts.size() >= 2)
    info.name = parts[1];
  info.resource = parts[0];
  if (info.name.empty() && info.verb == "get") {
    auto watch = query.find("watch");
    info.verb = watch != query.end() && parses_true(watch->second) ? "watch" : "list";
    info.name = selected_name(query);
  }
  if (info.name.empty() && info.verb == "delete")
    info.verb = "deletecollection";
  return info;
}

} // namespace ganglion::test::kube

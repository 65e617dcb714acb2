#include "client/connection_string.hpp"

#include <cctype>
#include <stdexcept>
#include <strings.h>

namespace ganglion::azure::detail {

namespace {

bool same_key(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

/// The host of `sb://host/` (or `https://host`), port included.
std::string host_of(std::string_view endpoint) {
  auto scheme = endpoint.find("://");
  if (scheme == std::string_view::npos)
    throw std::invalid_argument("connection string: Endpoint is not a URL (sb://<namespace>/)");
  auto rest = endpoint.substr(scheme + 3);
  auto host = rest.substr(0, rest.find('/'));
  if (host.empty())
    throw std::invalid_argument("connection string: Endpoint names no host");
  for (char c : host)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_'
          || c == ':'))
      throw std::invalid_argument("connection string: Endpoint's host has a character that is "
                                  "not a letter, digit, '.', '-', '_' or ':'");
  return std::string{host};
}

} // namespace

connection_string parse_connection_string(std::string_view text) {
  connection_string out;
  std::string endpoint;
  while (!text.empty()) {
    auto end = text.find(';');
    auto part = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (part.find_first_not_of(" \t\r\n") == std::string_view::npos)
      continue;
    auto eq = part.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument("connection string: a part has no '=' (Key=Value;…)");
    auto key = part.substr(0, eq);
    std::string value{part.substr(eq + 1)};
    if (same_key(key, "Endpoint"))
      endpoint = value;
    else if (same_key(key, "SharedAccessKeyName"))
      out.shared_access_key_name = value;
    else if (same_key(key, "SharedAccessKey"))
      out.shared_access_key = value;
    else if (same_key(key, "SharedAccessSignature"))
      out.shared_access_signature = value;
    else if (same_key(key, "EntityPath"))
      out.entity_path = value;
  }
  if (endpoint.empty())
    throw std::invalid_argument("connection string: key \"Endpoint\" must not be empty");
  out.host = host_of(endpoint);
  if (out.shared_access_signature.empty()) {
    if (out.shared_access_key_name.empty())
      throw std::invalid_argument(
        "connection string: key \"SharedAccessKeyName\" must not be empty");
    if (out.shared_access_key.empty())
      throw std::invalid_argument("connection string: key \"SharedAccessKey\" must not be empty");
  }
  return out;
}

} // namespace ganglion::azure::detail

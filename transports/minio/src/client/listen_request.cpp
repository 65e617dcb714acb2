#include "client/listen_request.hpp"

#include <cctype>

#include <fmt/format.h>

namespace ganglion::minio::detail {

namespace {

bool all_digits(const std::string& text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

bool looks_like_ipv4(const std::string& name) {
  int parts = 0;
  std::size_t start = 0;
  for (;;) {
    auto dot = name.find('.', start);
    if (!all_digits(name.substr(start, dot == std::string::npos ? dot : dot - start)))
      return false;
    ++parts;
    if (dot == std::string::npos)
      return parts == 4;
    start = dot + 1;
  }
}

} // namespace

std::string endpoint_problem(const std::string& endpoint) {
  if (endpoint.find("://") != std::string::npos)
    return fmt::format("endpoint \"{}\" must be host[:port], without a scheme (minio-go)",
                       endpoint);
  if (endpoint.find_first_of("/?#@ ") != std::string::npos)
    return fmt::format("endpoint \"{}\" must be host[:port], without a path (minio-go)", endpoint);
  auto colon = endpoint.rfind(':');
  if (colon != std::string::npos && endpoint.front() != '[') {
    auto port = endpoint.substr(colon + 1);
    if (!all_digits(port) || port.size() > 5 || std::stoi(port) > 65535)
      return fmt::format("endpoint \"{}\" has an invalid port", endpoint);
  }
  return {};
}

std::string bucket_name_problem(const std::string& name) {
  auto edge_ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  bool chars_ok = name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789.-_:")
                  == std::string::npos;
  if (name.size() < 3 || name.size() > 63 || !chars_ok || !edge_ok(name.front())
      || !edge_ok(name.back()) || name.find("..") != std::string::npos
      || name.find(".-") != std::string::npos || name.find("-.") != std::string::npos
      || looks_like_ipv4(name))
    return fmt::format("\"{}\" is not a valid bucket name (3 to 63 letters, digits, '.', '-', "
                       "'_' or ':', starting and ending with a letter or digit, not an IP "
                       "address)",
                       name);
  return {};
}

std::string query_escape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else if (c == ' ')
      out += '+';
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string listen_url(const listen_target& t) {
  auto out = fmt::format("{}://{}/{}?", t.insecure ? "http" : "https", t.endpoint, t.bucket);
  for (const auto& event : t.events)
    out += "events=" + query_escape(event) + "&";
  out += "ping=10&prefix=" + query_escape(t.prefix) + "&suffix=" + query_escape(t.suffix);
  return out;
}

} // namespace ganglion::minio::detail

#include "http_target.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/url/parse.hpp>
#include <fmt/format.h>

namespace ganglion::loadgen {

namespace {

using tcp = boost::asio::ip::tcp;

bool named(std::string_view header, std::string_view name) {
  auto colon = header.find(':');
  return boost::beast::iequals(header.substr(0, colon), name);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

http_target parse_http_url(const std::string& url) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed)
    throw target_error(fmt::format("invalid URL '{}': {}", url, parsed.error().message()));
  const auto& u = *parsed;
  if (u.scheme_id() == boost::urls::scheme::https)
    throw target_error(fmt::format("'{}': only http:// URLs are supported (no TLS)", url));
  if (u.scheme_id() != boost::urls::scheme::http)
    throw target_error(fmt::format("'{}': only http:// URLs are supported", url));
  if (u.encoded_host().empty())
    throw target_error(fmt::format("'{}': the URL has no host", url));
  http_target t;
  t.url = url;
  t.host = u.host_type() == boost::urls::host_type::ipv6 ? std::string(u.encoded_host_address())
                                                         : std::string(u.encoded_host());
  t.port = u.has_port() ? std::string(u.port()) : "80";
  t.host_header = std::string(u.encoded_host_and_port());
  t.target = std::string(u.encoded_target());
  if (t.target.empty() || t.target.front() != '/')
    t.target.insert(0, "/");
  return t;
}

tcp::endpoint probe(const http_target& target) {
  boost::asio::io_context io;
  tcp::resolver resolver{io};
  boost::system::error_code ec;
  auto endpoints = resolver.resolve(target.host, target.port, ec);
  if (ec)
    throw target_error(fmt::format("cannot resolve {}: {}", target.host, ec.message()));
  tcp::socket socket{io};
  auto endpoint = boost::asio::connect(socket, endpoints, ec);
  if (ec)
    throw target_error(fmt::format("cannot connect to {}: {}", target.authority(), ec.message()));
  return endpoint;
}

std::string request_head(const http_target& target, const std::vector<std::string>& headers) {
  bool has_host = false;
  bool has_type = false;
  std::string lines;
  for (const auto& h : headers) {
    auto colon = h.find(':');
    if (colon == std::string::npos || colon == 0 || trim(h.substr(0, colon)).size() != colon ||
        h.find_first_of("\r\n") != std::string::npos)
      throw target_error(fmt::format("invalid header '{}': expected 'Name: value'", h));
    if (named(h, "content-length") || named(h, "transfer-encoding"))
      throw target_error(fmt::format("header '{}': the body length is computed", h));
    has_host = has_host || named(h, "host");
    has_type = has_type || named(h, "content-type");
    lines += fmt::format("{}: {}\r\n", h.substr(0, colon), trim(std::string_view(h).substr(colon + 1)));
  }
  std::string head = fmt::format("POST {} HTTP/1.1\r\n", target.target);
  if (!has_host)
    head += fmt::format("Host: {}\r\n", target.host_header);
  if (!has_type)
    head += "Content-Type: application/json\r\n";
  head += lines;
  head += "Content-Length: ";
  return head;
}

} // namespace ganglion::loadgen

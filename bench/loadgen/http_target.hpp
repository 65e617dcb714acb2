#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

namespace ganglion::loadgen {

/// A bad URL or header, or a server that cannot be reached; the message is for the user.
class target_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Where the HTTP driver sends: an `http://` URL taken apart.
struct http_target {
  std::string url;    ///< as given
  std::string host;   ///< as written in the URL (name or address)
  std::string port;   ///< "80" when the URL has none
  std::string target; ///< path and query, "/" when empty
  std::string host_header; ///< the Host field: host and port as written in the URL

  /// `host:port`, for messages.
  std::string authority() const { return host + ":" + port; }
};

/// Parses `url` with Boost.URL; throws target_error for anything but an absolute `http://`
/// URL with a host.
http_target parse_http_url(const std::string& url);

/// Resolves the target and opens (and closes) one connection to check that it listens; the
/// endpoint that answered. Throws target_error("cannot connect to host:port: reason").
boost::asio::ip::tcp::endpoint probe(const http_target& target);

/// The request bytes up to the value of Content-Length: request line, Host, Content-Type
/// (application/json unless `headers` sets one) and `headers` ("Name: value" each). Throws
/// target_error for a malformed header or one the driver computes itself (Content-Length,
/// Transfer-Encoding).
std::string request_head(const http_target& target, const std::vector<std::string>& headers);

} // namespace ganglion::loadgen

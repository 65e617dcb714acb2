#include "client/broker_url.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace ganglion::mqtt {

namespace {

constexpr std::array plain_schemes{"tcp", "mqtt"};
constexpr std::array tls_schemes{"ssl", "tls", "mqtts", "mqtt+ssl", "tcps"};

template <std::size_t N>
bool one_of(const std::string& scheme, const std::array<const char*, N>& list) {
  return std::find(list.begin(), list.end(), scheme) != list.end();
}

std::string lower(std::string_view text) {
  std::string out{text};
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

} // namespace

std::optional<broker_address> parse_broker_url(std::string_view url, std::string& error) {
  broker_address out;
  std::string_view rest = url;
  if (auto at = url.find("://"); at != std::string_view::npos) {
    out.scheme = lower(url.substr(0, at));
    rest = url.substr(at + 3);
  } else {
    out.scheme = "tcp";
  }
  if (out.scheme == "ws" || out.scheme == "wss") {
    error = "scheme " + out.scheme + ":// (MQTT over WebSocket) is not supported by ganglion "
            "(libmosquitto has no WebSocket client); use tcp:// or ssl://";
    return std::nullopt;
  }
  if (out.scheme == "unix") {
    error = "scheme unix:// is not supported by ganglion yet; use tcp:// or ssl://";
    return std::nullopt;
  }
  out.tls = one_of(out.scheme, tls_schemes);
  if (!out.tls && !one_of(out.scheme, plain_schemes)) {
    error = "unknown scheme " + out.scheme + "://: use tcp://, mqtt://, ssl://, tls:// or mqtts://";
    return std::nullopt;
  }
  rest = rest.substr(0, std::min(rest.find('/'), rest.size()));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    out.has_user_info = true;
    rest = rest.substr(at + 1);
  }
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    auto close = rest.find(']');
    if (close == std::string_view::npos) {
      error = "the IPv6 address in the url has no closing ]";
      return std::nullopt;
    }
    out.host = std::string{rest.substr(1, close - 1)};
    if (close + 1 < rest.size() && rest[close + 1] == ':')
      port = rest.substr(close + 2);
  } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    out.host = std::string{rest.substr(0, colon)};
    port = rest.substr(colon + 1);
  } else {
    out.host = std::string{rest};
  }
  if (out.host.empty()) {
    error = "the url has no host";
    return std::nullopt;
  }
  if (port.empty()) {
    error = "the url has no port (paho dials host:port as written; MQTT's are 1883, and 8883 "
            "with TLS)";
    return std::nullopt;
  }
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), out.port);
  if (ec != std::errc{} || end != port.data() + port.size() || out.port < 1 || out.port > 65535) {
    error = "the url's port \"" + std::string{port} + "\" is not a number from 1 to 65535";
    return std::nullopt;
  }
  return out;
}

} // namespace ganglion::mqtt

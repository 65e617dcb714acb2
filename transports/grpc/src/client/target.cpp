#include "client/target.hpp"

#include <netdb.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <charconv>
#include <memory>
#include <set>

namespace ganglion::grpc::detail {

namespace {

bool valid_port(std::string_view text) {
  int port = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
  return ec == std::errc{} && end == text.data() + text.size() && port >= 1 && port <= 65535;
}

/// Splits `host:port` or `[v6]:port`; false when there is no valid port.
bool split_host_port(std::string_view text, std::string& host, std::string& port) {
  if (text.starts_with('[')) {
    auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return false;
    host = std::string{text.substr(1, close - 1)};
    port = std::string{text.substr(close + 2)};
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon)
      return false;
    host = std::string{text.substr(0, colon)};
    port = std::string{text.substr(colon + 1)};
  }
  return !host.empty() && valid_port(port);
}

bool is_ip(const std::string& host, int family) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(family, host.c_str(), buffer) == 1;
}

std::string address_target(int family, const std::string& ip, const std::string& port) {
  return family == AF_INET6 ? "ipv6:[" + ip + "]:" + port : "ipv4:" + ip + ":" + port;
}

} // namespace

std::string server_target::authority() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

std::optional<server_target> parse_target(std::string_view url, std::string& error) {
  server_target out;
  auto list = [&](std::string_view rest, int family) -> std::optional<server_target> {
    while (!rest.empty()) {
      auto comma = rest.find(',');
      auto item = rest.substr(0, comma);
      std::string host, port;
      if (!split_host_port(item, host, port) || !is_ip(host, family)) {
        error = "'" + std::string{item} + "' is not an " + (family == AF_INET ? "IPv4" : "IPv6")
                + " address with a port";
        return std::nullopt;
      }
      if (out.host.empty()) {
        out.host = host;
        out.port = port;
      }
      out.addresses.push_back(address_target(family, host, port));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    if (out.addresses.empty()) {
      error = "no address after the scheme";
      return std::nullopt;
    }
    return out;
  };
  if (url.starts_with("ipv4:"))
    return list(url.substr(5), AF_INET);
  if (url.starts_with("ipv6:"))
    return list(url.substr(5), AF_INET6);
  auto rest = url;
  if (rest.starts_with("dns:///"))
    rest.remove_prefix(7);
  else if (rest.find("://") != std::string_view::npos || rest.starts_with("unix:")) {
    error = "'" + std::string{url} + "' is not host:port (nor dns:///, ipv4: or ipv6:)";
    return std::nullopt;
  }
  if (!split_host_port(rest, out.host, out.port)) {
    error = "'" + std::string{url} + "' is not host:port with a port from 1 to 65535";
    return std::nullopt;
  }
  if (is_ip(out.host, AF_INET))
    out.addresses.push_back(address_target(AF_INET, out.host, out.port));
  else if (is_ip(out.host, AF_INET6))
    out.addresses.push_back(address_target(AF_INET6, out.host, out.port));
  return out;
}

std::vector<std::string> resolve(const server_target& target, std::string& error) {
  if (!target.needs_resolving())
    return target.addresses;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(target.host.c_str(), target.port.c_str(), &hints, &found); rc != 0) {
    error = "cannot resolve " + target.host + ": " + gai_strerror(rc);
    return {};
  }
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned{found, &freeaddrinfo};
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto* a = found; a != nullptr; a = a->ai_next) {
    char ip[INET6_ADDRSTRLEN] = {};
    const void* raw = a->ai_family == AF_INET6
                        ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr)
                        : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr);
    if ((a->ai_family != AF_INET && a->ai_family != AF_INET6)
        || inet_ntop(a->ai_family, raw, ip, sizeof ip) == nullptr)
      continue;
    if (auto t = address_target(a->ai_family, ip, target.port); seen.insert(t).second)
      out.push_back(std::move(t));
  }
  if (out.empty())
    error = "cannot resolve " + target.host + ": no IPv4 or IPv6 address";
  return out;
}

} // namespace ganglion::grpc::detail

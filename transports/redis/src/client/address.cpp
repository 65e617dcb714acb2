#include "client/address.hpp"

#include <charconv>

namespace ganglion::redis {

std::optional<host_port> split_host_address(std::string_view address, std::string& error) {
  auto colon = address.rfind(':');
  if (colon == std::string_view::npos) {
    error = "missing port in address \"" + std::string{address} + "\" (want host:port)";
    return std::nullopt;
  }
  std::string_view host = address.substr(0, colon);
  std::string_view port = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  else if (host.find(':') != std::string_view::npos) {
    error = "too many colons in address \"" + std::string{address} + "\" (an IPv6 host is "
            "written [host]:port)";
    return std::nullopt;
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value == 0
      || value > 65535) {
    error = "invalid port \"" + std::string{port} + "\" in address \"" + std::string{address}
            + "\"";
    return std::nullopt;
  }
  return host_port{std::string{host}, std::string{port}};
}

} // namespace ganglion::redis

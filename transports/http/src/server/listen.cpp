#include "ganglion/http/listen.hpp"

#include <charconv>
#include <stdexcept>

namespace ganglion::http {

std::string listen_address::to_string() const {
  auto shown = host.find(':') == std::string::npos ? host : "[" + host + "]";
  return shown + ":" + std::to_string(port);
}

listen_address parse_listen(std::string_view text) {
  auto fail = [&](std::string_view why) {
    return std::invalid_argument("expected [HOST]:PORT or PORT, got '" + std::string(text)
                                 + "': " + std::string(why));
  };
  listen_address out;
  std::string_view port = text;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos)
      throw fail("the [ of an IPv6 host is not closed");
    if (close + 1 >= text.size() || text[close + 1] != ':')
      throw fail("no :PORT after the IPv6 host");
    out.host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
  } else if (auto colon = text.rfind(':'); colon != std::string_view::npos) {
    if (text.find(':') != colon)
      throw fail("an IPv6 host goes in brackets, [::1]:8080");
    if (colon > 0)
      out.host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
  }
  if (out.host.empty())
    throw fail("the host is empty");
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc() || end != port.data() + port.size())
    throw fail("the port is not a number");
  if (value == 0 || value > 65535)
    throw fail("the port must be 1-65535");
  out.port = static_cast<std::uint16_t>(value);
  return out;
}

std::optional<std::uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value == 0
      || value > 65535)
    return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

} // namespace ganglion::http

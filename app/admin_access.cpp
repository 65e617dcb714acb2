#include "admin_access.hpp"

#include <algorithm>
#include <cctype>

#include <arpa/inet.h>
#include <strings.h>

namespace ganglion::app {

namespace {

/// The name of a Host value: without its port and IPv6 brackets, lowercase, without a
/// trailing dot; `ip` true for an IP literal. nullopt when malformed.
struct host_name {
  std::string name;
  bool ip = false;
};

std::optional<host_name> parse_host(std::string_view host) {
  std::string_view name;
  std::string_view port;
  bool bracketed = false;
  if (host.starts_with('[')) {
    auto close = host.find(']');
    if (close == std::string_view::npos)
      return std::nullopt;
    name = host.substr(1, close - 1);
    auto rest = host.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':'))
      return std::nullopt;
    port = rest.empty() ? rest : rest.substr(1);
    bracketed = true;
  } else if (std::count(host.begin(), host.end(), ':') > 1) {
    name = host; // an unbracketed IPv6 literal, as some clients write it
  } else {
    auto colon = host.find(':');
    name = host.substr(0, colon);
    port = colon == std::string_view::npos ? std::string_view{} : host.substr(colon + 1);
  }
  if (name.empty()
      || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  host_name out;
  out.name.assign(name);
  std::transform(out.name.begin(), out.name.end(), out.name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (out.name.size() > 1 && out.name.back() == '.')
    out.name.pop_back();
  unsigned char address[16];
  out.ip = inet_pton(AF_INET6, out.name.c_str(), address) == 1
           || (!bracketed && inet_pton(AF_INET, out.name.c_str(), address) == 1);
  return out;
}

/// True when `name` is `pattern`, or ends with `.suffix` for a pattern `*.suffix`.
bool name_matches(const std::string& name, std::string_view pattern) {
  if (pattern.starts_with("*.")) {
    std::string suffix{pattern.substr(1)};
    std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return name.size() > suffix.size() && name.ends_with(suffix);
  }
  auto wanted = parse_host(pattern);
  return wanted && wanted->name == name;
}

bool has_header(const http::request& req, std::string_view name) {
  return std::any_of(req.headers.begin(), req.headers.end(), [name](const auto& field) {
    return field.first.size() == name.size()
           && ::strncasecmp(field.first.data(), name.data(), name.size()) == 0;
  });
}

bool changes_state(const std::string& method) {
  return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

/// `curl …` calling `req` as the admin API takes it.
std::string how_to_call(const admin_access& access, const http::request& req) {
  auto host = req.header("Host");
  auto call = "curl -X " + req.method + " -H '" + std::string(admin_request_header) + ": 1'";
  if (access.token)
    call += " -H \"Authorization: Bearer $(cat TOKEN_FILE)\"";
  return call + " http://" + (host.empty() ? "HOST:PORT" : host) + req.path;
}

http::response forbidden(std::string why) {
  return http::text_response(403, std::move(why) + "\n");
}

} // namespace

bool host_allowed(const admin_access& access, std::string_view host) {
  if (host.empty())
    return true;
  auto parsed = parse_host(host);
  if (!parsed)
    return false;
  if (parsed->ip || parsed->name == "localhost" || name_matches(parsed->name, access.bound_host))
    return true;
  return std::any_of(access.names.begin(), access.names.end(),
                     [&](const std::string& n) { return name_matches(parsed->name, n); });
}

std::optional<http::response> refuse_admin_request(const admin_access& access,
                                                   const http::request& req,
                                                   admin_route_kind kind) {
  auto host = req.header("Host");
  if (!host_allowed(access, host))
    return forbidden("Host '" + host.substr(0, 256)
                     + "' is not one this admin server answers to; add it with --admin-host "
                       "(a DNS name in Host can be a DNS rebinding attack; an IP address, "
                       "localhost and the --admin host are always answered)");
  if (changes_state(req.method)) {
    if (has_header(req, "Origin"))
      return forbidden(req.method + " " + req.path
                       + " carries an Origin header, so a web page sent it: the admin API takes "
                         "no state-changing request from a browser. Call it from a shell: "
                       + how_to_call(access, req));
    if (req.header(admin_request_header).empty())
      return forbidden(req.method + " " + req.path + " needs the header "
                       + std::string(admin_request_header)
                       + " (so that no web page can send it as a simple cross-site request): "
                       + how_to_call(access, req));
  }
  if (kind == admin_route_kind::api && access.token
      && !access.token->accepts(req.header("Authorization"))) {
    auto r = http::text_response(
      401, "this admin server needs the token of --admin-token-file: send the header "
           "'Authorization: Bearer <token>' (/health and /ready need none)\n");
    r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"ganglion admin\"");
    return r;
  }
  return std::nullopt;
}

} // namespace ganglion::app

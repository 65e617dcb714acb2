#include "admin_routes.hpp"

#include <memory>
#include <stdexcept>

#include "ganglion/core/redact.hpp"
#include "reload.hpp"

namespace ganglion::app {

namespace {

/// POST /v1/reload: 200 with what changed, 422 with the errors of a refused set.
http::handler reload_handler(reloader& reloads) {
  return [&reloads](http::request&& req, http::responder reply) {
    if (req.method != "POST") {
      auto r = http::text_response(405, "method " + req.method + " is not allowed; use POST");
      r.headers.emplace_back("Allow", "POST");
      reply(std::move(r));
      return;
    }
    reloads.request("POST /v1/reload", [reply](const reload_outcome& outcome) {
      http::response r;
      using kind = reload_outcome::kind;
      r.status = outcome.what == kind::applied ? 200 : outcome.what == kind::invalid ? 422 : 503;
      r.body = outcome.to_json();
      r.content_type = "application/json";
      reply(std::move(r));
    });
  };
}

/// POST /v1/sources/{eventsource}/{event}/restart: 200 once the source starts again, 404 for
/// no such source, 409 for a source that cannot run, 503 while the engine is not running. In
/// cluster mode {eventsource} is `<namespace>/<name>`, as /v1/status shows it.
http::handler restart_handler(core::engine& engine) {
  return [&engine](http::request&& req, http::responder reply) {
    constexpr std::string_view prefix = "/v1/sources/";
    constexpr std::string_view suffix = "/restart";
    std::string_view path = req.path;
    auto names = path.substr(prefix.size());
    auto slash = names.ends_with(suffix)
                   ? names.substr(0, names.size() - suffix.size()).rfind('/')
                   : std::string_view::npos;
    if (slash == std::string_view::npos || slash == 0
        || slash + suffix.size() + 1 >= names.size()) {
      reply(http::text_response(404, "expected /v1/sources/{eventsource}/{event}/restart"));
      return;
    }
    if (req.method != "POST") {
      auto r = http::text_response(405, "method " + req.method + " is not allowed; use POST");
      r.headers.emplace_back("Allow", "POST");
      reply(std::move(r));
      return;
    }
    std::string event_source{names.substr(0, slash)};
    std::string event{names.substr(slash + 1, names.size() - slash - 1 - suffix.size())};
    auto name = event_source + "/" + event;
    using outcome = core::engine::restart_outcome;
    switch (engine.restart_source(event_source, event)) {
      case outcome::restarted:
        reply(http::text_response(200, "source " + name + " restarted"));
        return;
      case outcome::unknown:
        reply(http::text_response(404, "no source named '" + name + "'"));
        return;
      case outcome::refused:
        reply(http::text_response(409, "source " + name
                                         + " cannot run (see /v1/status); fix its manifest"));
        return;
      case outcome::stopped:
        reply(http::text_response(503, "the engine is not running"));
        return;
    }
  };
}

/// `serve` behind the checks of `access`, its answers without URL userinfo (unless `raw`).
http::handler guarded(std::shared_ptr<const admin_access> access, admin_route_kind kind,
                      http::handler serve, bool raw = false) {
  return [access = std::move(access), kind, serve = std::move(serve),
          raw](http::request&& req, http::responder reply) {
    if (auto refusal = refuse_admin_request(*access, req, kind)) {
      core::redact_url_userinfo_in_place(refusal->body);
      reply(std::move(*refusal));
      return;
    }
    if (raw)
      return serve(std::move(req), std::move(reply));
    serve(std::move(req), http::responder{[reply](http::response&& r) {
            core::redact_url_userinfo_in_place(r.body);
            reply(std::move(r));
          }});
  };
}

/// 200 `ready` once every source listens, else 503 with the blockers, a line each.
http::response readiness(core::engine& engine) {
  if (engine.ready())
    return http::text_response(200, "ready");
  std::string body = "not ready:\n";
  for (const auto& line : engine.status().blockers())
    body += line + "\n";
  return http::text_response(503, body);
}

} // namespace

http::route serve_readiness(http::runtime& transport, const http::listen_address& at,
                            core::engine& engine) {
  return transport.servers->add_route(
    at.host, at.port, "/ready",
    [&engine](http::request&&, http::responder reply) { reply(readiness(engine)); });
}

std::vector<http::route> serve_admin(http::runtime& transport, const std::string& host_port,
                                     core::engine& engine, admin_access access,
                                     reloader* reloads) {
  auto colon = host_port.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == host_port.size())
    throw std::invalid_argument("expected HOST:PORT, got '" + host_port + "'");
  auto host = host_port.substr(0, colon);
  int port = 0;
  try {
    port = std::stoi(host_port.substr(colon + 1));
  } catch (const std::exception&) {
    port = -1;
  }
  if (port <= 0 || port > 65535)
    throw std::invalid_argument("invalid port in '" + host_port + "'");
  access.bound_host = host;
  auto checks = std::make_shared<const admin_access>(std::move(access));
  auto& pool = *transport.servers;
  auto add = [&](const char* path, http::handler handler, admin_route_kind kind = admin_route_kind::api,
                 bool raw = false) {
    return pool.add_route(host, static_cast<std::uint16_t>(port), path,
                          guarded(checks, kind, std::move(handler), raw));
  };
  auto serve = [&](const char* path, auto produce, admin_route_kind kind = admin_route_kind::api,
                   bool raw = false) {
    return add(
      path, [produce](http::request&&, http::responder reply) { reply(produce()); }, kind, raw);
  };
  using enum admin_route_kind;
  std::vector<http::route> routes;
  routes.push_back(serve("/health", [] { return http::text_response(200, "OK"); }, probe));
  routes.push_back(serve("/ready", [&engine] { return readiness(engine); }, probe));
  routes.push_back(serve(
    "/metrics",
    [&engine] {
      http::response r;
      r.body = engine.metrics().render();
      r.content_type = "text/plain; version=0.0.4; charset=utf-8";
      return r;
    },
    api, true));
  routes.push_back(serve("/v1/status", [&engine] {
    http::response r;
    r.body = engine.status().to_json();
    r.content_type = "application/json";
    return r;
  }));
  routes.push_back(add(
    "/v1/explain", [&engine](http::request&& req, http::responder reply) {
      auto query = http::parse_query(req.query);
      auto found = query.find("sensor");
      auto sensor = found == query.end() ? std::string{} : found->second.front();
      if (sensor.empty()) {
        reply(http::text_response(400, "missing query parameter: sensor"));
        return;
      }
      auto body = engine.explain(sensor);
      if (!body) {
        reply(http::text_response(404, "no sensor named '" + sensor + "'"));
        return;
      }
      http::response r;
      r.body = std::move(*body);
      r.content_type = "application/json";
      reply(std::move(r));
    }));
  routes.push_back(add("/v1/sources/*", restart_handler(engine)));
  if (reloads)
    routes.push_back(add("/v1/reload", reload_handler(*reloads)));
  return routes;
}

} // namespace ganglion::app

#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// A stand-in for Gerrit's webhooks plugin REST API (plugins/webhooks rest-api-config.md), not
/// Gerrit itself: on 127.0.0.1, it answers the three calls Argo's gerrit source makes, and only
/// as the plugin does when the request is exactly as go-gerrit sends it:
/// - `GET /a/config/server/webhooks~projects/<project>/remotes/`: the project's hooks as a JSON
///   object by remote name, behind Gerrit's `)]}'` guard line;
/// - `PUT …/remotes/<remote>/` with `Content-Type: application/json` and a JSON object body:
///   stores the hook (201, the hook);
/// - `DELETE …/remotes/<remote>/`: 204, or 404 when there is no such hook.
/// `<project>` and `<remote>` are url.QueryEscape'd (`a%2Fb`). Every call needs
/// `Authorization: Basic` with the credentials given (else 401); other paths are 404; while
/// set_down, every call is 503.
class gerrit_server {
public:
  /// Serves user `user` with password `password`.
  gerrit_server(std::string user, std::string password);
  ~gerrit_server();
  gerrit_server(const gerrit_server&) = delete;
  gerrit_server& operator=(const gerrit_server&) = delete;

  /// `http://127.0.0.1:<port>`.
  std::string base_url() const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// The PUT body stored for hook `remote` of `project` (as received), "" when there is none.
  std::string hook(const std::string& project, const std::string& remote) const;
  /// Hooks stored (their bodies), by `<project>/<remote>`.
  std::map<std::string, std::string> hooks() const;
  /// Stores a hook as if created earlier (`body`: its JSON).
  void put_hook(const std::string& project, const std::string& remote, const std::string& body);
  /// While `down`, every call is answered 503.
  void set_down(bool down);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test

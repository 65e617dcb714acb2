#pragma once

// StorageGRID's tenant management API as Argo's storagegrid source calls it (go-resty): the
// notification endpoints (`/org/endpoints`) and a bucket's notification configuration
// (`/org/containers/<bucket>/notification`), with the bearer `authToken` and JSON bodies as
// Go's json.Marshal writes them.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::storagegrid::detail {

/// The body of `POST /org/endpoints`: Argo's createEndpointRequest (`authType` anonymous,
/// `insecureTLS` true).
std::string endpoint_body(const std::string& display_name, const std::string& uri,
                          const std::string& urn);

/// Argo's notification configuration XML for `id` (the event's name), `topic` (topicArn) and
/// one `<Event>` line per event name, unescaped, as its template writes it.
std::string notification_xml(const std::string& id, const std::string& topic,
                             const std::vector<std::string>& events);

/// The body of `PUT /org/containers/<bucket>/notification`: `{"notification":"<xml>"}`.
std::string notification_body(const std::string& xml);

/// The calls the source makes, blocking: each waits for the shared client.
class management_api {
public:
  /// Calls `api_url` (the manifest's `apiURL`) through `client` with bearer `token`.
  management_api(http::client& client, std::string api_url, std::string token,
                 std::optional<http::client_tls> tls, std::chrono::milliseconds timeout);

  /// `endpointURN` of every endpoint `GET /org/endpoints` lists; nullopt with `failed` set.
  std::optional<std::vector<std::string>> endpoint_urns(http::api_answer& failed) const;
  /// `POST /org/endpoints` with `body`; false with `failed` set.
  bool create_endpoint(std::string body, http::api_answer& failed) const;
  /// `PUT /org/containers/<bucket>/notification` with `body`; false with `failed` set.
  bool put_notification(const std::string& bucket, std::string body,
                        http::api_answer& failed) const;

private:
  http::api_answer call(std::string method, const std::string& path, std::string body) const;

  http::client& client_;
  std::string api_url_;
  std::string token_;
  std::optional<http::client_tls> tls_;
  std::chrono::milliseconds timeout_;
};

/// The `message.text` of a StorageGRID error answer (Argo's genericResponse), or "".
std::string error_text(const std::string& body);

} // namespace ganglion::storagegrid::detail

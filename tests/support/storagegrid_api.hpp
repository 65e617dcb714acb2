#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// A notification endpoint the stand-in holds.
struct storagegrid_endpoint {
  std::string id;
  std::string display_name;
  std::string uri; ///< `endpointURI`: where StorageGRID posts
  std::string urn; ///< `endpointURN`: the topic ARN
  std::string auth_type;
  bool insecure_tls = false;
};

/// A stand-in for StorageGRID's tenant management API (v3), not StorageGRID itself: on
/// 127.0.0.1, under `/api/v3`, it answers the calls a storageGrid source makes, in
/// StorageGRID's envelope (`responseTime`, `status`, `apiVersion`, `data`):
/// - `GET /org/endpoints`: every endpoint held;
/// - `POST /org/endpoints` with a JSON body (`displayName`, `endpointURI`, `endpointURN`,
///   `authType`, `insecureTLS`): makes one (201); a missing field or a URN held already is 400;
/// - `PUT /org/containers/<bucket>/notification` with `{"notification":"<xml>"}`: sets the
///   bucket's notification configuration (404 for a bucket it does not hold, 400 without a
///   string `notification`); `<bucket>` is percent-decoded.
/// Every call needs `Authorization: Bearer <token>` (else 401), and a call with a body
/// `Content-Type: application/json` (else 415); errors carry StorageGRID's `code` and
/// `message.text`; other paths are 404; while set_down, every call is 503. Not emulated: the
/// endpoint's test message, the XML's validation, the other fields and the other APIs.
class storagegrid_api {
public:
  /// Serves `token` for a tenant owning `buckets`.
  storagegrid_api(std::string token, std::vector<std::string> buckets);
  ~storagegrid_api();
  storagegrid_api(const storagegrid_api&) = delete;
  storagegrid_api& operator=(const storagegrid_api&) = delete;

  /// `http://127.0.0.1:<port>/api/v3`: the manifest's `apiURL`.
  std::string api_url() const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// The endpoints held, oldest first.
  std::vector<storagegrid_endpoint> endpoints() const;
  /// Adds an endpoint as if made earlier.
  void put_endpoint(const std::string& uri, const std::string& urn);
  /// The notification configuration of `bucket`, when one was put.
  std::optional<std::string> notification(const std::string& bucket) const;
  /// While `down`, every call is answered 503.
  void set_down(bool down);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test

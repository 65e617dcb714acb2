#pragma once

// A stand-in for Azure's Event Hubs and Service Bus REST "send" endpoints
// (`POST /<entity>/messages`, answered 201), for the azure triggers' tests: a real HTTP server
// on 127.0.0.1 (http_sink) that checks each request's `Authorization: SharedAccessSignature
// sr=…&sig=…&se=…&skn=…` as Azure does (the key name, the HMAC-SHA256 signature under that
// key, the expiry, and that `sr` names the namespace's URI or the entity's) and answers 401
// otherwise, 404 for an entity it does not hold. The signature is recomputed here, with
// OpenSSL, independently of the product's code. It does not emulate batches, sessions,
// BrokerProperties or any read API.

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// One message the stand-in accepted.
struct azure_message {
  std::string entity; ///< the hub, queue or topic
  std::string target; ///< the request target, query included
  std::string body;
  std::string content_type; ///< "" when the request had none
};

/// Namespaces sharing one shared access key; serves until destroyed.
class azure_rest_server {
public:
  azure_rest_server(std::string key_name, std::string key);

  /// Accepts messages for `entity` of namespace `host` from now on.
  void add_entity(const std::string& host, const std::string& entity);
  /// Answers the next `count` requests with `status` (before any check), as a busy service.
  void fail_next(int status, std::size_t count = 1);

  /// `http://127.0.0.1:<port>`, what `--azure-endpoint` names.
  std::string endpoint() const;
  /// The messages accepted, in order.
  std::vector<azure_message> accepted() const;
  /// Why each refused request was refused (`401: signature mismatch` …), in order.
  std::vector<std::string> refusals() const;
  /// Every request received.
  std::vector<recorded_request> requests() const;
  /// Waits until `count` requests arrived; false on timeout.
  bool wait_for_requests(std::size_t count, std::chrono::milliseconds timeout) const;

private:
  int answer(const recorded_request& r);
  /// Empty when `authorization` is a valid token for `entity` (of a namespace holding it); else
  /// why not.
  std::string sas_problem(const std::string& authorization, const std::string& entity) const;

  std::string key_name_;
  std::string key_;
  mutable std::mutex mutex_;
  /// Entity → the namespace hosts that hold it.
  std::map<std::string, std::set<std::string>> entities_;
  std::vector<azure_message> accepted_;
  std::vector<std::string> refusals_;
  int fail_status_ = 0;
  std::size_t fail_count_ = 0;
  /// Last: it calls answer() on its thread until destroyed.
  std::unique_ptr<http_sink> sink_;
};

} // namespace ganglion::test

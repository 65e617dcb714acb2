#pragma once

// Private: the SNS signing certificates an sns source fetched, kept by URL.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ganglion/http/client.hpp"

namespace ganglion::aws {

/// Fetches each signing certificate once (Argo fetches it for every message) and keeps the
/// last few by URL; only from the URLs sns_cert_url_problem allows. Thread-safe; held by
/// std::shared_ptr (a fetch in flight keeps it); it does not keep the client alive.
class signing_certificates : public std::enable_shared_from_this<signing_certificates> {
public:
  /// Receives the certificate's PEM text, or an empty text and why.
  using completion = std::function<void(std::string pem, std::string error)>;

  /// Fetches over `requests`; `allowed_hosts` are the hosts allowed beside SNS's
  /// (`--sns-allow-cert-host`), `ca_pem` the CAs trusted instead of the system's (tests).
  signing_certificates(std::shared_ptr<http::client> requests,
                       std::vector<std::string> allowed_hosts, std::string ca_pem,
                       std::chrono::milliseconds timeout);

  /// Calls `done` once, on this thread when the certificate is kept or the URL refused, else on
  /// the client's thread.
  void get(const std::string& url, completion done);

private:
  void keep(const std::string& url, const std::string& pem);

  std::weak_ptr<http::client> requests_;
  std::vector<std::string> allowed_hosts_;
  std::string ca_pem_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::map<std::string, std::string> kept_;
};

} // namespace ganglion::aws

#pragma once

// A certificate authority made for one test server, with the OpenSSL API.

#include <memory>
#include <string>
#include <vector>

namespace ganglion::test::kube {

/// A certificate and its private key, PEM.
struct key_pair {
  std::string certificate_pem;
  std::string key_pem;
};

/// A self-signed CA (EC P-256, valid one day) that issues server and client certificates.
class test_ca {
public:
  /// Generates the CA. Throws std::runtime_error.
  test_ca();
  ~test_ca();
  test_ca(const test_ca&) = delete;
  test_ca& operator=(const test_ca&) = delete;

  const std::string& certificate_pem() const noexcept { return certificate_pem_; }
  /// A server certificate for 127.0.0.1, ::1 and localhost.
  key_pair issue_server() const;
  /// A client certificate: CN `user`, one O per group.
  key_pair issue_client(const std::string& user, const std::vector<std::string>& groups) const;

private:
  struct keys;
  std::unique_ptr<keys> keys_;
  std::string certificate_pem_;
};

} // namespace ganglion::test::kube

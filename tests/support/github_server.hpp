#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "github_hooks.hpp"

namespace ganglion::test {

/// An RSA key pair in PEM: a GitHub App's private key and the public key GitHub keeps.
struct rsa_key_pair {
  std::string private_pem; ///< PKCS #8 (`BEGIN PRIVATE KEY`)
  std::string public_pem;  ///< SubjectPublicKeyInfo (`BEGIN PUBLIC KEY`)
};

/// A fresh 2048-bit RSA key pair. Throws std::runtime_error.
rsa_key_pair make_rsa_key_pair();

/// `private_pem` (any PEM private key) in the traditional form, for RSA PKCS #1
/// (`BEGIN RSA PRIVATE KEY`, as GitHub hands out App keys). Throws std::runtime_error.
std::string to_pkcs1_pem(const std::string& private_pem);

/// Whether `jwt` is an RS256 JWT whose signature `public_pem` verifies; empty when it is, else
/// what is wrong. Its claims (JSON text) go to `claims` when given.
std::string verify_rs256_jwt(const std::string& jwt, const std::string& public_pem,
                             std::string* claims = nullptr);

/// A GitHub stand-in on 127.0.0.1, one request per connection on its own thread:
/// - `POST /api/v3/app/installations/<id>/access_tokens` (GitHub Enterprise's API root): the
///   `Authorization: Bearer` JWT must verify with the App's public key, name the App as `iss`
///   and be current; answered 201 with a new installation token, else 401 or 404 with GitHub's
///   JSON `message`;
/// - git's smart HTTP for the repositories under a root folder (git-http-backend as a CGI
///   child), asking (401, `WWW-Authenticate: Basic`) for `x-access-token` with an issued token
///   as the password, or the pair given to allow_basic;
/// - GitHub's hooks API for repositories and organizations (github_hooks), accepting the
///   installation tokens it issued and the tokens given to hooks().accept_token;
/// - GET of the files given to put_file.
class github_server {
public:
  /// Serves App `app_id`'s installation `installation_id` (whose key's public half is
  /// `public_pem`) and the repositories under `repos_root`.
  github_server(std::int64_t app_id, std::int64_t installation_id, std::string public_pem,
                std::string repos_root);
  ~github_server();
  github_server(const github_server&) = delete;
  github_server& operator=(const github_server&) = delete;

  /// `http://127.0.0.1:<port>`.
  std::string base_url() const;
  /// `http://127.0.0.1:<port>/<name>`: the repository in folder `<name>` of the root.
  std::string repo_url(const std::string& name) const;
  /// Serves App `app_id`'s installation `installation_id` from now on instead.
  void set_app(std::int64_t app_id, std::int64_t installation_id);
  /// Git also accepts basic credentials `user`:`password`.
  void allow_basic(const std::string& user, const std::string& password);
  /// Answers GET `path` with `body` (200).
  void put_file(const std::string& path, const std::string& body);
  /// How long the tokens issued from now on live (expires_at); one hour by default.
  void set_token_lifetime(std::chrono::seconds lifetime);
  /// Tokens issued so far.
  std::size_t tokens_issued() const;
  /// The hooks API: its hooks, the requests it received, its failures.
  github_hooks& hooks();
  /// git requests answered with the repository (credentials accepted) so far.
  std::size_t git_requests_served() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test

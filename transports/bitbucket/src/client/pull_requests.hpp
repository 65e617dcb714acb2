#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/http/client.hpp"

namespace ganglion::bitbucket::detail {

/// The states of a commit's pull requests, or the error Argo's client reports.
struct pull_request_states {
  std::vector<std::string> states;
  std::string error; ///< set when the call failed
};

/// Argo's customBitbucketServerClient: GET `<base>/api/1.0/projects/<project>/repos/<slug>/
/// commits/<commit>/pull-requests?limit=500&start=N` with `Authorization: Bearer <token>` (and none of go-bitbucket-v1's default headers), page
/// after page until `isLastPage`, on the shared asynchronous client. Held in a shared_ptr: a
/// call in flight keeps it.
class pull_request_client : public std::enable_shared_from_this<pull_request_client> {
public:
  /// Calls REST root `base_url` through `client` with `token`; `tls` for an https root.
  pull_request_client(http::client& client, std::string base_url, std::string token,
                      std::optional<http::client_tls> tls, std::chrono::milliseconds timeout);

  /// GetCommitPullRequests: `done` gets the states of every pull request of `commit`, or
  /// Argo's error (`calling endpoint '<url>' failed: status 500: response body: …`). Called
  /// once, on the client's thread (or at once when the client refuses the request).
  void states(const std::string& project, const std::string& slug, const std::string& commit,
              std::function<void(pull_request_states)> done) const;

private:
  struct walk;
  void page(std::shared_ptr<walk> w) const;

  http::client& client_;
  std::string base_url_;
  std::string token_;
  std::optional<http::client_tls> tls_;
  std::chrono::milliseconds timeout_;
};

} // namespace ganglion::bitbucket::detail

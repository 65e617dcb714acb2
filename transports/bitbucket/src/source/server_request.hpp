#pragma once

#include <map>
#include <memory>
#include <string>

#include "client/pull_requests.hpp"
#include "ganglion/http/push_source.hpp"

namespace ganglion::bitbucket::detail {

/// What the bitbucketserver source's requests are read with.
struct server_handling {
  std::string secret; ///< `webhookSecret`'s value; none checked when empty
  std::map<std::string, std::string> metadata;
  bool one_event_per_change = false;
  /// `skipBranchRefsChangedOnOpenPR`: asks `pull_requests` (set when this is).
  bool skip_on_open_pr = false;
  std::shared_ptr<const pull_request_client> pull_requests;
};

/// What the bitbucketserver source makes of one request (Argo's processBitbucketServerWebhook):
/// with a secret, `X-Hub-Signature` must hold the body's HMAC-SHA256 after its 7-character
/// `sha256=` prefix (compared in constant time); a `repo:refs_changed` body must decode as
/// Argo's refsChangedWebhookEvent; with skip_on_open_pr its branch changes (but deletions)
/// whose `toHash` has an open pull request are dropped, nothing published when none is left;
/// with one_event_per_change each change is an event whose body is the event re-encoded with
/// that change alone; otherwise the request's body is published as it came. Event data is
/// `{"headers":…,"body":…,"metadata":{…}}`. Refusals are Argo's 400s.
http::push_outcome server_request(const http::request& req, const server_handling& how);

} // namespace ganglion::bitbucket::detail

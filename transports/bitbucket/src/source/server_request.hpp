#pragma once

#include <map>
#include <string>

#include "ganglion/http/push_source.hpp"

namespace ganglion::bitbucket::detail {

/// What the bitbucketserver source makes of one request (Argo's processBitbucketServerWebhook
/// without oneEventPerChange and skipBranchRefsChangedOnOpenPR): with `secret`, `X-Hub-Signature`
/// must hold the body's HMAC-SHA256 after its 7-character `sha256=` prefix (compared in
/// constant time); a `repo:refs_changed` body must decode as Argo's struct (a JSON object); the
/// event data is `{"headers":…,"body":…,"metadata":{…}}`. Refusals are Argo's 400s.
http::push_outcome server_request(const http::request& req, const std::string& secret,
                                  const std::map<std::string, std::string>& metadata);

} // namespace ganglion::bitbucket::detail

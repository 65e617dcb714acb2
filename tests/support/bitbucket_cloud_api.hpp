#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// A stand-in for Bitbucket Cloud's API 2.0 repository webhooks, not Bitbucket itself: on
/// 127.0.0.1 under `/2.0`, it answers the three calls Argo's bitbucket source makes, and only as
/// Bitbucket does when the request is exactly as go-bitbucket sends it:
/// - `GET /2.0/repositories/<owner>/<slug>/hooks/`: the repository's hooks as a page
///   (`{"values":[{"uuid":"{…}","url":…,"description":…,"active":…,"events":[…]}],…}`);
/// - `POST /2.0/repositories/<owner>/<slug>/hooks` with `Content-Type: application/json` and a
///   JSON object with `url` and `events`: creates the hook (201, the hook with its new uuid);
/// - `DELETE /2.0/repositories/<owner>/<slug>/hooks/<uuid>` (the braces escaped, `%7B…%7D`):
///   204, or 404 when there is no such hook.
/// Every call needs the `Authorization` header given (else 401); other paths are 404; while
/// set_down, every call is 503.
class bitbucket_cloud_api {
public:
  /// Serves requests whose `Authorization` header is `authorization` (`Basic …`, `Bearer …`).
  explicit bitbucket_cloud_api(std::string authorization);
  ~bitbucket_cloud_api();
  bitbucket_cloud_api(const bitbucket_cloud_api&) = delete;
  bitbucket_cloud_api& operator=(const bitbucket_cloud_api&) = delete;

  /// `http://127.0.0.1:<port>/2.0`, the API root.
  std::string api_url() const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// The POST bodies of the hooks that exist, by `<owner>/<slug>` and uuid.
  std::map<std::string, std::map<std::string, std::string>> hooks() const;
  /// Adds a hook of `<owner>/<slug>` posting to `url` as if created earlier; its uuid.
  std::string put_hook(const std::string& repository, const std::string& url);
  /// While `down`, every call is answered 503.
  void set_down(bool down);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test

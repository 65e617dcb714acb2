#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "http_sink.hpp"

namespace ganglion::test {

/// A stand-in for Bitbucket Server's REST API 1.0 (repository webhooks and a project's
/// repositories), not Bitbucket Server itself: on 127.0.0.1 under `/rest`, it answers the calls
/// Argo's bitbucketserver source makes, and only as Bitbucket Server does when the request is
/// exactly as go-bitbucket-v1 sends it (`Authorization: Bearer <token>`,
/// `X-Atlassian-Token: no-check`, else 401):
/// - `GET /rest/api/1.0/projects/<key>/repos/<slug>/webhooks`: the hooks as one page
///   (`{"values":[{"id":…,"name":…,"url":…,"events":[…],"active":…,"configuration":{…}}],…}`);
/// - `POST …/webhooks` with `Content-Type: application/json` and a JSON object with `url` and
///   `events`: creates the hook (201, the hook with its new id);
/// - `PUT …/webhooks/<id>`: replaces the hook (200), 404 when there is none;
/// - `DELETE …/webhooks/<id>`: 204, or 404;
/// - `GET /rest/api/1.0/projects/<key>/repos?limit=<n>&start=<i>`: the project's repositories,
///   two a page (`isLastPage`, `nextPageStart`);
/// - `GET …/repos/<slug>/commits/<hash>/pull-requests?limit=500&start=<i>` (the query exactly
///   so, the bearer token alone: Argo's own client sends no `X-Atlassian-Token`): the commit's
///   pull requests, two a page (`{"values":[{"id":…,"state":…}],…}`).
/// Other paths are 404; while set_down, every call is 503.
class bitbucket_server_api {
public:
  /// Serves requests with bearer token `token`.
  explicit bitbucket_server_api(std::string token);
  ~bitbucket_server_api();
  bitbucket_server_api(const bitbucket_server_api&) = delete;
  bitbucket_server_api& operator=(const bitbucket_server_api&) = delete;

  /// `http://127.0.0.1:<port>/rest`, the REST root.
  std::string base_url() const;
  /// Every request received so far, in arrival order.
  std::vector<recorded_request> requests() const;
  /// The bodies of the hooks that exist (as last created or updated), by `<key>/<slug>` and id.
  std::map<std::string, std::map<long, std::string>> hooks() const;
  /// Adds a hook to `<key>/<slug>` as if created earlier (`body`: its JSON); its id.
  long put_hook(const std::string& repository, const std::string& body);
  /// Deletes every hook, as an administrator might.
  void clear_hooks();
  /// Adds repository `slug` to project `key`.
  void add_repository(const std::string& key, const std::string& slug);
  /// Sets the states (`OPEN`, `MERGED` …) of the pull requests of commit `hash` of
  /// `<key>/<slug>`.
  void set_commit_pull_requests(const std::string& repository, const std::string& hash,
                                std::vector<std::string> states);
  /// While `down`, every call is answered 503.
  void set_down(bool down);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::test

#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ganglion::test {

/// One hooks API request as the stand-in received it.
struct hooks_request {
  std::string method;
  std::string target; ///< `/api/v3/repos/o/r/hooks` …
  std::string authorization;
  std::string accept;
  std::string content_type;
  std::string body;
};

/// One hook the stand-in keeps.
struct stored_hook {
  std::int64_t id = 0;
  std::string scope;  ///< `repos/o/r` or `orgs/o`
  std::string config; ///< the `config` object as JSON text
  std::vector<std::string> events;
  bool active = false;
};

/// GitHub's repository and organization webhooks API (GitHub Enterprise's root `/api/v3`), in
/// memory, for github_server: `GET|POST /api/v3/{repos/<owner>/<repo>|orgs/<org>}/hooks` and
/// `DELETE …/hooks/<id>`. A request needs `Authorization: token <t>` with `t` an accepted token
/// (401 `Bad credentials` otherwise); a scope marked missing answers 404 `Not Found`; while
/// down every call answers 503. A create must be go-github's body (`name` `web`, a `config`
/// with `url`), else 422. Thread-safe.
class github_hooks {
public:
  /// Whether `token` is accepted (github_server adds its installation tokens).
  explicit github_hooks(std::function<bool(const std::string& token)> accepted);

  /// The answer (status, JSON body) to a request for `target`; nullopt when `target` is no
  /// hooks API path.
  std::optional<std::pair<unsigned, std::string>> answer(const hooks_request& request);

  /// `token` is accepted from now on.
  void accept_token(const std::string& token);
  /// Requests to `scope` answer 404 from now on.
  void set_missing(const std::string& scope);
  /// While `down`, every call answers 503.
  void set_down(bool down);
  /// Adds a hook as if created earlier; returns its id.
  std::int64_t add(const std::string& scope, const std::string& url,
                   const std::vector<std::string>& events);
  /// The hooks kept now.
  std::vector<stored_hook> hooks() const;
  /// Every request received so far.
  std::vector<hooks_request> requests() const;

private:
  std::pair<unsigned, std::string> handle(const hooks_request& request, const std::string& scope,
                                          const std::string& id);

  std::function<bool(const std::string&)> accepted_;
  mutable std::mutex mutex_;
  std::set<std::string> tokens_;
  std::set<std::string> missing_;
  bool down_ = false;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, stored_hook> hooks_;
  std::vector<hooks_request> requests_;
};

} // namespace ganglion::test

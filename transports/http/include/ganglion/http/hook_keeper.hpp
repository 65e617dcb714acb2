#pragma once

// What a push source whose provider has a hooks API (GitHub, GitLab …) does with it, as Argo's
// sources do: at start, off the server thread, for each target (a repository, an organization,
// a project) find its hook or create it; check again now and then (a rolling restart of another
// replica may have deleted it); when the source stops, delete the hooks it keeps if asked to.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::http {

/// A hooks API call that failed: `refused` when the provider answered that it will not (4xx:
/// credentials, permissions, an unknown repository: trying again will not help), else it did
/// not answer or failed (5xx).
class hook_error : public std::runtime_error {
public:
  /// `what` names the call and the answer.
  hook_error(const std::string& what, bool refused) : std::runtime_error(what), refused(refused) {}
  bool refused;
};

/// Sends `request` through `client` and waits for the answer (on the calling thread, never the
/// client's). Throws hook_error naming the call (`GET <url>`): when no answer came (`failed: …`),
/// or when it is not 2xx (`answered HTTP <status>: <the JSON body's message or error, else its
/// start>`; refused for 4xx but 429).
client_response hook_call(client& client, client_request request);

/// One place a hook is kept.
struct hook_target {
  std::string name; ///< for messages: `repository argoproj/argo-events`
  /// Finds the target's hook or creates it; returns its id. Throws hook_error.
  std::function<std::string()> ensure;
  /// Deletes hook `id` of the target. Throws hook_error.
  std::function<void(const std::string& id)> remove;
};

/// When a hook_keeper calls the API.
struct hook_keeper_options {
  /// The first round waits a random time up to this (Argo: 2 s, so that replicas do not all
  /// create the hook at once).
  std::chrono::milliseconds jitter{2000};
  /// A round that failed is tried again after this, doubling up to `max_retry_delay`.
  std::chrono::milliseconds retry_delay{1000};
  std::chrono::milliseconds max_retry_delay{30000};
  /// Rounds in a row that may fail (the API down) before the source fails (`fail`).
  int attempts = 4;
  /// Between two rounds that succeeded (Argo: 60 s).
  std::chrono::milliseconds recheck{60000};
  /// Rounds after the first (Argo: 10 for GitHub; a negative number: for as long as it runs,
  /// as GitLab's).
  int rechecks = 10;
};

/// Keeps the hooks of `targets` on its own thread from construction; destroying it stops the
/// thread and, with `delete_on_finish`, deletes every hook it found or created (Argo's
/// PostInactivate: its hook may have been found from an earlier run of the same source).
/// A round where the provider refused calls `give_up` (phase Error until restarted); rounds
/// where it was down `attempts` times in a row call `fail` (the engine restarts the source with
/// backoff). Either ends the thread.
class hook_keeper {
public:
  /// Starts the thread. `log_name` prefixes log lines.
  hook_keeper(std::string log_name, std::vector<hook_target> targets, bool delete_on_finish,
              std::function<void(const std::string&)> fail,
              std::function<void(const std::string&)> give_up, hook_keeper_options options = {});
  /// Stops the thread, then deletes the hooks when asked to.
  ~hook_keeper();
  hook_keeper(const hook_keeper&) = delete;
  hook_keeper& operator=(const hook_keeper&) = delete;

  /// The hooks kept so far: target name → hook id.
  std::map<std::string, std::string> hooks() const;
  /// Rounds that succeeded so far.
  int rounds() const;

private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

/// How a push source reaches its provider's hooks API.
struct hook_api_client {
  std::shared_ptr<client> requests; ///< the http transport's client
  std::string ca_pem;               ///< trusted instead of the system's CAs when set
  std::chrono::milliseconds timeout{10000};

  /// hook_call of `method url` with `headers`, and `body` as `application/json` when given
  /// (answers up to 4 MiB). Throws hook_error.
  client_response call(std::string method, std::string url,
                       std::vector<std::pair<std::string, std::string>> headers,
                       std::string body) const;
};

/// The text of the PEM file `file` (empty when `file` is); throws core::source_error.
std::string read_ca_pem(const std::string& file);

/// A push source's route and the keeper of its hooks: destroying it releases the route, then
/// the keeper (which deletes the hooks when asked to), as Argo's PostInactivate runs after the
/// route is gone.
class hooked_source : public core::source {
public:
  std::unique_ptr<hook_keeper> hooks; ///< none when the source keeps no hooks
  std::unique_ptr<core::source> route;
};

} // namespace ganglion::http

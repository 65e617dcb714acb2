#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "ganglion/http/client.hpp"

// What a push source (github, gitlab, bitbucket, gerrit …) needs to keep its hooks registered
// with the provider's API: blocking calls on the shared client, from a thread of its own.

namespace ganglion::http {

/// Sends `request` through `client` and waits for the answer; an answer with status 0 and
/// `error` set when the client refused it (busy or shut down). Must not run on the client's
/// thread (a completion).
client_response send_and_wait(client& client, client_request request);

/// send_and_wait that gives up waiting (nullopt; the request finishes on its own and its answer
/// is dropped) once `stopping`, asked every 50 ms, says so.
std::optional<client_response> send_and_wait(client& client, client_request request,
                                             const std::function<bool()>& stopping);

/// One provider API call's outcome: empty `error` on a 2xx answer.
struct api_answer {
  long status = 0;   ///< 0 when no answer came
  std::string error; ///< `<METHOD> <url>: <provider> answered <status>: <body's start>`, or why
                     ///< no answer came
  std::string body;
};

/// send_and_wait, the outcome described for a provider API (`provider`: `Gerrit` …).
api_answer call_api(client& client, client_request request, std::string_view provider);

/// Go's url.QueryEscape (`a/b c` → `a%2Fb+c`).
std::string query_escape(std::string_view text);

/// Go's url.PathEscape of one path segment (`{a/b}` → `%7Ba%2Fb%7D`).
std::string path_escape(std::string_view text);

/// Argo's FormattedURL, the URL a hook is registered with: `url` without trailing slashes, then
/// `endpoint` with a leading one.
std::string formatted_url(std::string url, const std::string& endpoint);

/// How hooks are kept registered.
struct registrar_options {
  /// Argo's ticker: the hooks are checked (and re-created when gone) this often; zero: once
  /// (the thread ends after the first pass that succeeds).
  std::chrono::milliseconds recheck{60000};
  /// First wait after a failed pass; it doubles up to `max_retry`.
  std::chrono::milliseconds first_retry{1000};
  /// Longest wait between two failed passes.
  std::chrono::milliseconds max_retry{30000};
  /// The first pass waits a random time below this (Argo's delay against replicas that all
  /// register at once; every replica serves a push source); zero: none.
  std::chrono::milliseconds first_delay{0};
  /// Failed passes in a row after which the source fails with the last reason.
  int attempts = 5;
  /// Passes after the first that succeed before the thread ends (Argo's GitHub source checks
  /// 10 more times); negative: for as long as it runs.
  int rechecks = -1;
};

/// Why a registration pass failed.
struct registration_failure {
  std::string reason;
  bool permanent = false; ///< retrying will not cure it (credentials refused)
};

/// A registration pass: nullopt when every hook is in place.
using registration_pass = std::function<std::optional<registration_failure>()>;

/// Runs a pass on its own thread (after `first_delay` at most) and then every `recheck`, off the server threads. A
/// failed pass is retried with backoff; a permanent failure, or `attempts` failures in a row,
/// goes to `fail` once (the engine shows the source in phase Error with the reason) and ends
/// the thread.
class hook_registrar {
public:
  /// Starts the thread.
  hook_registrar(registration_pass pass, std::function<void(const registration_failure&)> fail,
                 registrar_options options);
  /// Stops and joins the thread (see stop()).
  ~hook_registrar();
  hook_registrar(const hook_registrar&) = delete;
  hook_registrar& operator=(const hook_registrar&) = delete;

  /// Wakes the thread and waits for it; a pass in progress ends first. Idempotent.
  void stop();

private:
  void run();

  registration_pass pass_;
  std::function<void(const registration_failure&)> fail_;
  registrar_options options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::http

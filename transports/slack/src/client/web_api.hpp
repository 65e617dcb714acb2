#pragma once

// Slack's Web API as slack-go speaks it: form-encoded POSTs to `<api url><method>` with the
// token in the form, answered `{"ok":true,…}` or `{"ok":false,"error":"…"}`.

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "ganglion/http/client.hpp"

namespace ganglion::slack::detail {

/// Slack's Web API root (slack-go's APIURL).
inline constexpr std::string_view default_api_url = "https://slack.com/api/";

/// Go's url.QueryEscape: unreserved bytes kept, space as `+`, the rest `%XX`.
std::string query_escape(std::string_view text);

/// Go's url.Values.Encode of single values: `k=v` pairs joined by `&`, keys sorted.
std::string encode_form(const std::map<std::string, std::string>& values);

/// What one Web API call answered.
struct api_result {
  bool ok = false;
  std::string error;   ///< why the call failed: the transport, the HTTP status or Slack's `error`
  std::string channel; ///< `channel` of the answer
  std::string ts;      ///< `ts` of the answer (the message's timestamp)
};

/// Reads the answer of `method`, as slack-go judges it: 429 with Retry-After is the rate limit
/// (`slack rate limit exceeded, retry after 30s`), another status than 200 an HTTP error, a body
/// that is not a JSON object or has `ok` false Slack's error.
api_result read_api_response(std::string_view method, const http::client_response& response);

/// The `thread_ts` of each channel's threads by messageAggregationKey (notifications-engine's
/// state: the first message posted with a key starts the thread, later ones reply in it).
/// Kept for the life of the process, as Argo's. Thread-safe.
class thread_book {
public:
  /// The thread of `key` in `channel`, "" when none started yet.
  std::string find(const std::string& channel, const std::string& key) const;
  /// Threads remembered at most; the book starts over beyond (keys come from events).
  static constexpr std::size_t max_threads = 65536;
  /// Records `ts` as the thread of `key` in `channel`.
  void remember(const std::string& channel, const std::string& key, const std::string& ts);

private:
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::string> threads_;
};

} // namespace ganglion::slack::detail

#pragma once

#include <chrono>
#include <string>

#include "client/storage_account.hpp"
#include "ganglion/http/client.hpp"

// Private: the two Azure Queue Storage REST calls the azureQueueStorage source makes (Get
// Messages, Delete Message), authorized as the connection string says, and what an answer that
// is not 2xx says.

namespace ganglion::azure::detail {

/// The service version the requests name (the azqueue SDK Argo builds with sends it).
inline constexpr const char* queue_api_version = "2018-03-28";

/// One queue of an account.
struct queue_address {
  storage_account account;
  std::string queue;
};

/// `GET <queue>/messages?numofmessages=<count>&visibilitytimeout=<seconds>`, signed at `now`.
http::client_request get_messages_request(const queue_address& at, int count,
                                          int visibility_seconds,
                                          std::chrono::system_clock::time_point now);

/// `DELETE <queue>/messages/<id>?popreceipt=<receipt>`, signed at `now`.
http::client_request delete_message_request(const queue_address& at, const std::string& id,
                                            const std::string& pop_receipt,
                                            std::chrono::system_clock::time_point now);

/// `HTTP 404 QueueNotFound: The specified queue does not exist.` (Azure's code from
/// `x-ms-error-code` or the XML answer, the first line of its message), or the transport error
/// when no answer came.
std::string describe_answer(const http::client_response& r);

/// `Sun, 06 Nov 1994 08:49:37 GMT` (Go's http.TimeFormat) of `at`.
std::string http_date(std::chrono::system_clock::time_point at);

/// Go's url.PathEscape of one path segment.
std::string path_escape(std::string_view segment);

} // namespace ganglion::azure::detail

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

// Private: the XML answers of Azure Queue Storage (QueueMessagesList, Error), read with expat.

namespace ganglion::azure::detail {

/// One message of a Get Messages answer.
struct queue_message {
  std::string id;
  /// InsertionTime as Go's json.Marshal writes the time.Time the SDK parsed (time.RFC1123):
  /// RFC 3339 in the zone it names, `Z` for GMT (`2024-01-02T15:04:05Z`).
  std::string insertion_time;
  std::string pop_receipt;
  std::int64_t dequeue_count = 0;
  /// MessageText, entities decoded.
  std::string text;
};

/// The messages of `<QueueMessagesList>`. Throws std::runtime_error when the document is not
/// well-formed XML, declares a DTD, is not a QueueMessagesList, or has an InsertionTime Go's
/// time.Parse(time.RFC1123) refuses (the SDK then fails the whole receive).
std::vector<queue_message> parse_queue_messages(std::string_view xml);

/// What an `<Error><Code>…</Code><Message>…</Message></Error>` answer says; empty fields when
/// `xml` is not one.
struct storage_error {
  std::string code;
  std::string message;
};

/// Reads an error answer; never throws.
storage_error parse_storage_error(std::string_view xml);

/// Go's time.Parse(time.RFC1123, text) formatted as json.Marshal formats the time.Time:
/// `Mon, 02 Jan 2006 15:04:05 GMT` → `2006-01-02T15:04:05Z` (a numeric zone such as `GMT+2` or
/// `UTC` too; another abbreviation is kept at offset 0, as Go does with a zone it does not
/// know). Empty when Go would refuse it.
std::string rfc1123_as_go_json_time(std::string_view text);

} // namespace ganglion::azure::detail

#pragma once

// A StorageGRID notification as Argo's storagegrid source reads it (the body through
// url.QueryUnescape and qson, json.Unmarshal into events.StorageGridNotification) and the event
// data it publishes (json.Marshal of events.StorageGridEventData).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/storagegrid/spec.hpp"
#include "source/event_time.hpp"

namespace ganglion::storagegrid::detail {

/// One element of `Message.Records` (the fields Argo's struct has; the rest dropped).
struct record {
  std::string event_version;
  std::string
    event_source; ///< Argo's key `storageGridEventSource`, not StorageGRID's `eventSource`
  event_time time;
  std::string event_name;
  std::string user_principal_id;
  std::string source_ip_address;
  std::string request_id; ///< `x-amz-request-id`
  std::string s3_schema_version;
  std::string configuration_id;
  std::string bucket_name;
  std::string bucket_owner_principal_id;
  std::string bucket_arn;
  std::string object_key;
  std::int64_t object_size = 0;
  std::string object_etag;
  std::string object_sequencer;
};

/// events.StorageGridNotification.
struct notification {
  std::string action;
  /// `Message.Records` as a Go slice: `nil` (marshalled `null`) until an array is decoded;
  /// elements past `size` are kept as Go keeps a slice's capacity.
  bool records_nil = true;
  std::size_t size = 0;
  std::vector<record> records;
  std::string topic_arn;
  std::string version;
};

/// The notification of a request body; nullopt with `error` set when Argo drops it (a bad
/// escape, a pair without `=`, a value neither JSON nor a string, a field of another type) or
/// Go panics in qson (`panic` set: Argo's handler dies, the producer gets no answer).
std::optional<notification> read_notification(std::string_view body, std::string& error,
                                              bool& panic);

/// Argo's filterName on `Records[0].s3.object.key`: true when it passes. nullopt where Argo
/// panics: a prefix or suffix set and no record.
std::optional<bool> passes(const notification& n, const std::optional<key_filter>& filter);

/// `{"notification":{…},"metadata":{…}}` as json.Marshal writes StorageGridEventData
/// (`metadata` left out when empty).
std::string event_data(const notification& n, const std::map<std::string, std::string>& metadata);

} // namespace ganglion::storagegrid::detail

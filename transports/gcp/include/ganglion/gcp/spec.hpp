#pragma once

// The gcp kind's model: `spec.pubSub.<event>` of an EventSource (a Google Cloud Pub/Sub
// subscription), as its spec step reads it.

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::gcp {

/// `spec.pubSub.<event>` (Argo's PubSubEventSource).
struct event_spec {
  std::string project_id;       ///< `projectID`: the subscription's project
  std::string topic_project_id; ///< `topicProjectID`; empty: `projectID` (with a topic)
  std::string topic;            ///< created with the subscription when missing
  std::string subscription_id;  ///< empty: `<event>-<hash>`, as Argo derives it
  /// A service account's JSON key; without it, only `PUBSUB_EMULATOR_HOST` runs.
  std::optional<dsl::secret_key_selector> credential_secret;
  bool delete_subscription_on_finish = false;
  bool json_body = false;
  std::map<std::string, std::string> metadata;

  /// The topic's project: `topicProjectID`, else `projectID` (Argo's fillDefault).
  const std::string& topic_project() const {
    return topic_project_id.empty() ? project_id : topic_project_id;
  }
};

/// The spec step of the `pubSub` source (reads and checks `spec.pubSub.<event>` into
/// event_spec).
dsl::kind_spec source_spec_step();

} // namespace ganglion::gcp
